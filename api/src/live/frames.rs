//! Server-sent events as bytes on the wire (WHATWG HTML, "Server-sent events"): an event is
//! `id:`, `event:` and `data:` lines ended by a blank line; a line starting with `:` is a comment
//! that clients ignore, which keeps an idle connection open through proxies.

use crate::wire::EventResponse;
use actix_web::web::Bytes;
use skirmish_db::StoredEvent;

/// Sent on an idle stream every heartbeat period.
pub const HEARTBEAT: &str = ": heartbeat\n\n";

/// The event as a frame: `id:` its sequence number, `event:` its kind, `data:` the same JSON the
/// events list returns for it (on one line: JSON text is escaped, so it holds no newline).
pub fn event_frame(event: StoredEvent) -> Bytes {
    let (seq, kind) = (event.seq, event.kind.clone());
    let data = match serde_json::to_string(&EventResponse::from(event)) {
        Ok(data) => data,
        Err(error) => {
            // Not reachable (the fields are JSON already); the event keeps its place regardless.
            log::error!("cannot render event {seq} for a stream: {error}");
            format!("{{\"seq\":{seq}}}")
        }
    };
    Bytes::from(format!("id: {seq}\nevent: {}\ndata: {data}\n\n", one_line(&kind)))
}

/// `text` with no line break, so that it cannot end its field early.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_event_frame_carries_its_seq_kind_and_the_listed_json_on_one_data_line() {
        let data = json!({"kind": "turn_started", "name": "Vasquez", "summary": "Vasquez's turn"});
        let event = StoredEvent { seq: 7, kind: "turn_started".into(), data, created_at: "T".into() };

        let frame = event_frame(event);

        let text = std::str::from_utf8(&frame).unwrap();
        assert_eq!(
            text,
            "id: 7\nevent: turn_started\ndata: {\"seq\":7,\"at\":\"T\",\"kind\":\"turn_started\",\
             \"summary\":\"Vasquez's turn\",\"data\":{\"kind\":\"turn_started\",\"name\":\"Vasquez\"}}\n\n"
        );
    }
}
