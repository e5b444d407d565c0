//! `GET /v1/encounters/{id}/export`: one encounter and its whole log in one document.

use super::encounter::EncounterResponse;
use super::event::EventResponse;
use serde::Serialize;
use utoipa::ToSchema;

/// What the document says it is.
pub const EXPORT_FORMAT: &str = "skirmish.encounter";
/// The version of its shape; a change that an older reader could misread raises it.
pub const EXPORT_FORMAT_VERSION: u32 = 1;
/// Most events an exported log holds.
pub const MAX_EXPORT_EVENTS: i64 = 100_000;

/// An encounter carried as one JSON document: the encounter as `GET` answers it (combatants,
/// turn order, effects, options) and its whole event log as `GET …/events` lists it, read in
/// one snapshot (the log ends with the encounter's last change).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"format": "skirmish.encounter", "format_version": 1,
    "exported_at": "2026-12-08T01:00:00.000Z",
    "encounter": {"id": "enc_5a1c", "ruleset": "lur-asko", "name": "Ford", "status": "setup", "round": 0,
        "current_turn": null, "version": 1, "created_at": "2026-12-08T00:59:00.000Z",
        "updated_at": "2026-12-08T00:59:00.000Z", "combatants": [], "turn_order": [], "effects": [], "options": {}},
    "events": [{"seq": 1, "at": "2026-12-08T00:59:00.000Z", "kind": "encounter_created",
        "summary": "Encounter 'Ford' created (lur-asko)",
        "data": {"kind": "encounter_created", "name": "Ford", "ruleset": "lur-asko"}}]}))]
pub struct EncounterExport {
    /// Always `skirmish.encounter`.
    pub format: String,
    /// The document's shape: 1.
    #[schema(minimum = 1, maximum = 1)]
    pub format_version: u32,
    /// When it was read (RFC 3339).
    pub exported_at: String,
    pub encounter: EncounterResponse,
    /// Oldest first, `seq` from 1 without gaps.
    pub events: Vec<EventResponse>,
}
