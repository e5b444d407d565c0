use super::encounter::EncounterResponse;
use super::event::EventNotice;
use serde::{Deserialize, Serialize};
use skirmish_domain::score::Score;
use utoipa::ToSchema;

/// The body of an undo; optional (no body: back to the version before the current one).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"to_version": 7}))]
pub struct UndoRequest {
    /// The earlier version whose state to restore: below the current version and at most 50
    /// versions back. Default: the version before the current one.
    pub to_version: Option<Score<1, { i32::MAX }>>,
}

/// The encounter after an undo: its state is that of `to_version`, under a new version.
#[derive(Debug, Serialize, ToSchema)]
pub struct UndoResponse {
    /// The new version (send it back in `If-Match`).
    pub version: i64,
    /// The version the undo replaced.
    pub from_version: i64,
    /// The version whose state the encounter has again.
    pub to_version: i64,
    pub encounter: EncounterResponse,
    /// The `undone` event appended to the log.
    pub events: Vec<EventNotice>,
}
