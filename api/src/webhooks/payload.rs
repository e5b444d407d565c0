//! What a delivery posts: the standard JSON body, or Discord's execute-webhook body.

use serde_json::{Value, json};
use skirmish_db::DueDelivery;

/// The event a delivery announces, as its body shows it.
pub struct Announced {
    pub kind: String,
    pub at: String,
    pub encounter_id: String,
    pub seq: i64,
    pub summary: String,
    pub data: Value,
}

impl Announced {
    /// The delivery's event: its data as the log holds it (without the summary, as the events
    /// list shows it; `null` if the encounter was deleted before the delivery was sent).
    pub fn from_delivery(delivery: &DueDelivery) -> Self {
        let mut data: Value =
            delivery.data.as_deref().and_then(|text| serde_json::from_str(text).ok()).unwrap_or(Value::Null);
        if let Some(fields) = data.as_object_mut() {
            fields.remove("summary");
        }
        let summary = if delivery.summary.is_empty() {
            delivery.kind.replace('_', " ")
        } else {
            delivery.summary.clone()
        };
        Self {
            kind: delivery.kind.clone(),
            at: delivery.event_at.clone(),
            encounter_id: delivery.encounter_id.clone(),
            seq: delivery.seq,
            summary,
            data,
        }
    }

    /// `{type, timestamp, data: {encounter_id, seq, kind, summary, data}}` (Standard Webhooks'
    /// recommended envelope).
    pub fn standard_body(&self) -> Value {
        json!({
            "type": self.kind,
            "timestamp": self.at,
            "data": {
                "encounter_id": self.encounter_id,
                "seq": self.seq,
                "kind": self.kind,
                "summary": self.summary,
                "data": self.data,
            }
        })
    }
}
