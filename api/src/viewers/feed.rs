//! What every viewer stream of one encounter is fed: the log's new events as a viewer sees them,
//! read and rendered once per wave of live events, not once per stream. What a viewer sees
//! depends only on the encounter (who is hidden, who is public), so one feed serves all of the
//! encounter's viewer streams: it wakes on the hub's live events, reads the log after the last
//! event it looked at together with the encounter's state (one read), redacts and renders each
//! event once in both forms (with and without an `event:` line), and broadcasts the wave; the
//! changes of a short window ([`GATHER`]) make one wave. A feed exists while it has streams, and
//! ends with its encounter.

use super::redact::viewer_event;
use crate::live::{Hub, LiveEvent, REPLAY_PAGE, Subscription};
use crate::wire::ViewerEventResponse;
use actix_web::web::{Bytes, BytesMut};
use skirmish_db::{Store, StoredEvent};
use skirmish_domain::encounter::EncounterId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

/// Waves a viewer stream may fall behind before it reads the log itself.
const WAVES_BUFFERED: usize = 64;

/// How long a feed gathers after a live event before it reads: the changes committed meanwhile
/// go out as one wave, so each stream is woken and written to once per window rather than once
/// per change (a viewer sees an event at most this much later than a GM's stream).
const GATHER: std::time::Duration = std::time::Duration::from_millis(25);

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

/// The encounters' feeds, by encounter id.
#[derive(Default)]
pub struct ViewerFeeds {
    feeds: Mutex<HashMap<String, broadcast::Sender<Arc<ViewerWave>>>>,
}

impl ViewerFeeds {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, broadcast::Sender<Arc<ViewerWave>>>> {
        self.feeds.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The waves of `encounter` from now on (its feed started if it has none).
    pub fn subscribe(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        store: &Store,
        tenant: &str,
        encounter: &str,
    ) -> broadcast::Receiver<Arc<ViewerWave>> {
        let mut feeds = self.lock();
        if let Some(sender) = feeds.get(encounter) {
            return sender.subscribe();
        }
        let (sender, receiver) = broadcast::channel(WAVES_BUFFERED);
        feeds.insert(encounter.to_owned(), sender.clone());
        let feed = Feed {
            feeds: self.clone(),
            store: store.clone(),
            tenant: tenant.to_owned(),
            encounter: EncounterId(encounter.to_owned()),
            live: hub.subscribe(encounter),
            sender,
            last: None,
        };
        actix_web::rt::spawn(feed.run());
        receiver
    }

    /// Encounters with a feed now (for tests).
    pub fn feed_count(&self) -> usize {
        self.lock().len()
    }
}

struct Feed {
    feeds: Arc<ViewerFeeds>,
    store: Store,
    tenant: String,
    encounter: EncounterId,
    live: Subscription,
    sender: broadcast::Sender<Arc<ViewerWave>>,
    /// The last event looked at; unknown until the first live event.
    last: Option<i64>,
}

impl Feed {
    async fn run(mut self) {
        loop {
            let heard = tokio::select! {
                () = self.sender.closed() => None,
                live = self.live.recv() => Some(live),
            };
            let first = match heard {
                None => match self.leave_if_idle() {
                    true => return,
                    false => continue,
                },
                Some(Err(RecvError::Closed)) => break,
                Some(Ok(LiveEvent { seq, .. })) if self.last.is_some_and(|last| seq <= last) => continue,
                Some(Ok(LiveEvent { seq, .. })) => seq,
                Some(Err(RecvError::Lagged(_))) => self.last.map_or(1, |last| last + 1),
            };
            tokio::time::sleep(GATHER).await;
            match self.wave(first).await {
                Ok(true) => {}
                Ok(false) => break,
                Err(error) => {
                    log::error!("the viewer feed of {} cannot read the log: {error}", self.encounter.as_str())
                }
            }
            if self.leave_if_idle() {
                return;
            }
        }
        // The encounter is gone: its viewer streams end as the channel closes.
        let mut feeds = self.feeds.lock();
        if feeds.get(self.encounter.as_str()).is_some_and(|s| s.same_channel(&self.sender)) {
            feeds.remove(self.encounter.as_str());
        }
    }

    /// Removes the feed if no stream follows it any more, under the lock streams subscribe
    /// under (so none can join a feed that is ending). Whether it did.
    fn leave_if_idle(&self) -> bool {
        let mut feeds = self.feeds.lock();
        if self.sender.receiver_count() > 0 {
            return false;
        }
        if feeds.get(self.encounter.as_str()).is_some_and(|s| s.same_channel(&self.sender)) {
            feeds.remove(self.encounter.as_str());
        }
        true
    }

    /// Reads, renders and broadcasts the events after the last one looked at (or, the first
    /// time, from `first`, the first live event heard). `false` when the encounter is gone.
    async fn wave(&mut self, first: i64) -> Result<bool, String> {
        loop {
            let after = self.last.unwrap_or(first - 1);
            let (store, tenant, id) = (self.store.clone(), self.tenant.clone(), self.encounter.clone());
            let Some((events, visibility)) = super::read_page(store, tenant, id, after).await? else {
                return Ok(false);
            };
            let full = events.len() as i64 >= REPLAY_PAGE;
            let Some(last) = events.last().map(|event| event.seq) else { return Ok(true) };
            let wave = render(after, last, events, |event| viewer_event(&visibility, event));
            self.last = Some(last);
            let _ = self.sender.send(Arc::new(wave));
            if !full {
                return Ok(true);
            }
        }
    }
}

/// The wave of `events` (after `after`, up to `last`), each redacted by `view`.
fn render(
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
