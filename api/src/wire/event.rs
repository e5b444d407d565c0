use serde::{Deserialize, Serialize};
use skirmish_db::StoredEvent;
use utoipa::ToSchema;

/// One entry of the encounter's append-only log.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "seq": 4, "at": "2026-11-21T10:00:00.000Z", "kind": "initiative_set",
    "summary": "Vasquez has initiative 8 (2D6 (4+3) + DEX DM +1 = 8)",
    "data": {"kind": "initiative_set", "combatant_id": "cmb_1f2e", "name": "Vasquez", "score": 8, "explanation": "2D6 (4+3) + DEX DM +1 = 8",
             "dice": [{"sides": 6, "value": 4, "purpose": "initiative: Vasquez", "status": "kept", "source": "scripted"}]}
}))]
pub struct EventResponse {
    /// Position in the log, from 1, without gaps.
    pub seq: i64,
    /// When it was stored (RFC 3339).
    pub at: String,
    /// e.g. `combatant_added`, `initiative_set`, `turn_started`, `effect_expired`.
    pub kind: String,
    /// The event in one plain-English line, as a chat bot posts it.
    pub summary: String,
    /// The event's fields (dice included), tagged by `kind` as well.
    #[schema(value_type = skirmish_domain::encounter::Event)]
    pub data: serde_json::Value,
}

impl From<StoredEvent> for EventResponse {
    fn from(event: StoredEvent) -> Self {
        let mut data = event.data;
        let summary = match data.as_object_mut().and_then(|fields| fields.remove("summary")) {
            Some(serde_json::Value::String(summary)) => summary,
            _ => event.kind.replace('_', " "),
        };
        Self { seq: event.seq, at: event.created_at, kind: event.kind, summary, data }
    }
}

pub fn events_response(events: Vec<StoredEvent>) -> Vec<EventResponse> {
    events.into_iter().map(EventResponse::from).collect()
}

/// An event a change just logged, as the change's response lists it: where it sits in the log
/// and its one-line summary. The event's `data` is not repeated here: the response already
/// carries the report and every die once; the full entry is in `GET /v1/encounters/{id}/events`
/// and the stream.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "seq": 4, "at": "2026-11-21T10:00:00.000Z", "kind": "initiative_set",
    "summary": "Vasquez has initiative 8 (2D6 (4+3) + DEX DM +1 = 8)"
}))]
pub struct EventNotice {
    /// Position in the log, from 1, without gaps.
    pub seq: i64,
    /// When it was stored (RFC 3339).
    pub at: String,
    /// e.g. `combatant_added`, `initiative_set`, `turn_started`, `effect_expired`.
    pub kind: String,
    /// The event in one plain-English line, as a chat bot posts it.
    pub summary: String,
}

impl From<StoredEvent> for EventNotice {
    fn from(event: StoredEvent) -> Self {
        let summary = match event.data.get("summary") {
            Some(serde_json::Value::String(summary)) => summary.clone(),
            _ => event.kind.replace('_', " "),
        };
        Self { seq: event.seq, at: event.created_at, kind: event.kind, summary }
    }
}

/// The events a change logged, as its response lists them.
pub fn event_notices(events: Vec<StoredEvent>) -> Vec<EventNotice> {
    events.into_iter().map(EventNotice::from).collect()
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Only events with `seq` greater than this (default 0).
    #[param(minimum = 0, maximum = 9007199254740991_i64)]
    pub after: Option<i64>,
    /// 1 to 1000; default 100.
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"events": [{"seq": 1, "at": "2026-11-21T10:00:00.000Z", "kind": "encounter_created",
    "summary": "Encounter \"Ambush\" created (cepheus-engine)", "data": {"kind": "encounter_created", "name": "Ambush", "ruleset": "cepheus-engine"}}], "next_after": 1}))]
pub struct EventListResponse {
    pub events: Vec<EventResponse>,
    /// Pass as `after` to continue from here.
    pub next_after: i64,
}

/// One server-sent event of `GET /v1/encounters/{id}/stream`, as its fields arrive on the wire
/// (`id:`, `event:`, `data:` lines). Heartbeats are `:` comments and carry no fields.
#[derive(Debug, ToSchema)]
#[schema(example = json!({
    "id": "4", "event": "initiative_set",
    "data": "{\"seq\":4,\"at\":\"2026-11-21T10:00:00.000Z\",\"kind\":\"initiative_set\",\"summary\":\"Vasquez has initiative 8\",\"data\":{\"kind\":\"initiative_set\"}}"
}))]
pub struct StreamMessage {
    /// The event's `seq`, as text: send it back as `Last-Event-ID` to resume after it.
    pub id: String,
    /// The event's `kind`.
    pub event: String,
    /// The event as JSON text, the same object the events list returns (an `EventResponse`).
    #[schema(content_media_type = "application/json")]
    pub data: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Issue 25 (item 1) moved an operation's dice from inside its report to beside it. The log is
    /// read back as plain JSON, so an entry written before still reads, as it was written.
    #[test]
    fn an_event_stored_with_the_dice_inside_its_report_still_reads() {
        let stored = r#"{"kind":"attack_resolved","attacker_id":"cmb_v","target_id":"cmb_r",
            "report":{"attacker_name":"Vasquez","target_name":"Rook","notes":[],
                "dice":[{"sides":6,"value":4,"purpose":"attack roll","status":"kept","source":"scripted"}]},
            "summary":"Vasquez misses Rook"}"#;
        let data: serde_json::Value = serde_json::from_str(stored).unwrap();
        let row = StoredEvent {
            seq: 7,
            kind: "attack_resolved".into(),
            data,
            created_at: "2026-11-21T10:00:00.000Z".into(),
        };

        let answered = serde_json::to_value(EventResponse::from(row)).unwrap();

        assert_eq!(answered["summary"], json!("Vasquez misses Rook"));
        assert_eq!(answered["data"]["report"]["dice"][0]["value"], json!(4), "the old dice are still there");
        assert_eq!(answered["data"].get("summary"), None);
    }
}
