//! A wave: the new events of an encounter's log as a viewer sees them, redacted and rendered
//! once for all its viewer streams, in both SSE forms (with and without an `event:` line).

use crate::wire::ViewerEventResponse;
use actix_web::web::{Bytes, BytesMut};
use skirmish_db::StoredEvent;

/// New events of the log as a viewer sees them: every `seq` after `after` up to `last`, in order.
#[derive(Debug)]
pub struct ViewerWave {
    pub after: i64,
    pub last: i64,
    /// The frames of the shown events, each with an `event:` line (as on `/v1`) …
    pub named: Bytes,
    /// … and without one (as the table view's `EventSource` wants).
    pub plain: Bytes,
    /// Each event's own frames (slices of the two above), `None` when it is withheld.
    pub events: Vec<(i64, Option<(Bytes, Bytes)>)>,
}

impl ViewerWave {
    pub fn frames(&self, named: bool) -> &Bytes {
        if named { &self.named } else { &self.plain }
    }
}

/// The wave of `events` (after `after`, up to `last`), each redacted by `view`.
pub fn render(
    after: i64,
    last: i64,
    events: Vec<StoredEvent>,
    view: impl Fn(StoredEvent) -> Option<ViewerEventResponse>,
) -> ViewerWave {
    let (mut named, mut plain) = (BytesMut::new(), BytesMut::new());
    let mut spans = Vec::with_capacity(events.len());
    for event in events {
        let seq = event.seq;
        let Some(seen) = view(event) else {
            spans.push((seq, None));
            continue;
        };
        let (named_start, plain_start) = (named.len(), plain.len());
        named.extend_from_slice(viewer_frame(&seen, true).as_bytes());
        plain.extend_from_slice(viewer_frame(&seen, false).as_bytes());
        spans.push((seq, Some((named_start..named.len(), plain_start..plain.len()))));
    }
    let (named, plain) = (named.freeze(), plain.freeze());
    let events = spans
        .into_iter()
        .map(|(seq, span)| (seq, span.map(|(n, p)| (named.slice(n), plain.slice(p)))))
        .collect();
    ViewerWave { after, last, named, plain, events }
}

/// The event as an SSE frame for a viewer: with an `event:` line naming its kind, or without.
pub fn viewer_frame(event: &ViewerEventResponse, named: bool) -> String {
    let data = serde_json::to_string(event).unwrap_or_else(|_| format!("{{\"seq\":{}}}", event.seq));
    let name = match named {
        true => format!("event: {}\n", event.kind.replace(['\r', '\n'], " ")),
        false => String::new(),
    };
    format!("id: {}\n{name}data: {data}\n\n", event.seq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stored(seq: i64) -> StoredEvent {
        let data = json!({"kind": "round_started", "round": seq, "summary": format!("Round {seq}")});
        StoredEvent { seq, kind: "round_started".into(), data, created_at: "T".into() }
    }

    #[test]
    fn a_wave_renders_each_shown_event_once_in_both_forms_and_keeps_withheld_ones_as_seen() {
        let view = |event: StoredEvent| {
            (event.seq != 3).then(|| ViewerEventResponse {
                seq: event.seq,
                at: event.created_at,
                kind: event.kind,
                summary: "s".into(),
                data: None,
            })
        };

        let wave = render(1, 3, vec![stored(2), stored(3)], view);

        let named = std::str::from_utf8(&wave.named).unwrap();
        let plain = std::str::from_utf8(&wave.plain).unwrap();
        assert_eq!(
            named,
            "id: 2\nevent: round_started\ndata: {\"seq\":2,\"at\":\"T\",\"kind\":\"round_started\",\"summary\":\"s\"}\n\n"
        );
        assert_eq!(
            plain,
            "id: 2\ndata: {\"seq\":2,\"at\":\"T\",\"kind\":\"round_started\",\"summary\":\"s\"}\n\n"
        );
        assert_eq!((wave.after, wave.last, wave.events.len()), (1, 3, 2));
        assert_eq!(wave.events[0].1.as_ref().map(|(n, _)| n.clone()), Some(wave.named.clone()));
        assert!(wave.events[1].1.is_none(), "withheld, but its seq counts as seen");
    }
}
