//! The values the store hands out and every module of it shares: a leaf (it imports nothing of
//! the store), so the modules that read, write, keep or publish encounters depend on it and not
//! on each other.

use skirmish_domain::encounter::Encounter;
use std::sync::Arc;

/// An encounter with its storage timestamps.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEncounter {
    pub encounter: Encounter,
    pub created_at: String,
    pub updated_at: String,
}

/// One stored event: its place in the log, when it was stored, and the event as JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    pub seq: i64,
    pub kind: String,
    pub data: serde_json::Value,
    pub created_at: String,
}

/// A change as stored: the encounter after it (shared with the writer's hot copy: a renderer
/// reads what it needs without copying the whole encounter), the events it appended, and the
/// command's output.
#[derive(Debug, Clone)]
pub struct Mutation<T> {
    pub encounter: Arc<StoredEncounter>,
    pub events: Vec<StoredEvent>,
    pub output: T,
}

/// The system clock as unix milliseconds (0 before 1970).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| i64::try_from(since.as_millis()).unwrap_or(i64::MAX))
}
