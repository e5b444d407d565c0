use super::combatant::CombatantResponse;
use super::effect::EffectResponse;
use serde::{Deserialize, Serialize};
use skirmish_db::StoredEncounter;
use skirmish_domain::encounter::{EncounterStatus, TurnSlot, turn_order};
use skirmish_domain::rulesets::{RulesetId, RulesetOptions};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"ruleset": "cepheus-engine", "name": "Ambush at the starport"}))]
pub struct CreateEncounterRequest {
    pub ruleset: RulesetId,
    /// 1 to 100 characters.
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: String,
    /// The ruleset's settings for this encounter: its `…Options` schema (`{}` for a ruleset that
    /// has none).
    #[schema(value_type = Option<Object>)]
    pub options: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StatusWire {
    Setup,
    Active,
    Ended,
}

impl StatusWire {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Setup => "setup",
            Self::Active => "active",
            Self::Ended => "ended",
        }
    }
}

impl From<EncounterStatus> for StatusWire {
    fn from(status: EncounterStatus) -> Self {
        match status {
            EncounterStatus::Setup => Self::Setup,
            EncounterStatus::Active => Self::Active,
            EncounterStatus::Ended => Self::Ended,
        }
    }
}

/// Whose turn it is.
#[derive(Debug, Serialize, ToSchema)]
pub struct CurrentTurn {
    pub combatant_id: String,
    pub name: String,
}

/// One place in the initiative order.
#[derive(Debug, Serialize, ToSchema)]
pub struct TurnSlotResponse {
    pub combatant_id: String,
    pub name: String,
    pub initiative: i32,
    /// 1-based; combatants acting simultaneously share a slot.
    pub slot: u32,
    pub simultaneous: bool,
    /// Has had its turn this round.
    pub acted: bool,
    pub defeated: bool,
}

impl From<TurnSlot> for TurnSlotResponse {
    fn from(slot: TurnSlot) -> Self {
        Self {
            combatant_id: slot.combatant_id.0,
            name: slot.name,
            initiative: slot.score,
            slot: slot.slot,
            simultaneous: slot.simultaneous,
            acted: slot.acted,
            defeated: slot.defeated,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EncounterResponse {
    pub id: String,
    pub ruleset: RulesetId,
    pub name: String,
    pub status: StatusWire,
    /// 0 during setup, then 1, 2, …
    pub round: u32,
    pub current_turn: Option<CurrentTurn>,
    /// Send back in `If-Match` to act only on this version.
    pub version: i64,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
    /// In the order they joined.
    pub combatants: Vec<CombatantResponse>,
    pub turn_order: Vec<TurnSlotResponse>,
    pub effects: Vec<EffectResponse>,
    /// The ruleset's settings for this encounter.
    #[schema(value_type = Object)]
    pub options: RulesetOptions,
}

impl From<&StoredEncounter> for EncounterResponse {
    fn from(stored: &StoredEncounter) -> Self {
        let encounter = &stored.encounter;
        let turn_order = turn_order(encounter).into_iter().map(TurnSlotResponse::from).collect();
        let current_turn = encounter
            .current
            .as_ref()
            .map(|id| CurrentTurn { combatant_id: id.0.clone(), name: encounter.name_of(id) });
        Self {
            id: encounter.id.0.clone(),
            ruleset: encounter.ruleset,
            name: encounter.name.clone(),
            status: encounter.status.into(),
            round: encounter.round,
            current_turn,
            version: encounter.version,
            created_at: stored.created_at.clone(),
            updated_at: stored.updated_at.clone(),
            combatants: encounter.combatants.iter().map(|c| CombatantResponse::new(encounter, c)).collect(),
            turn_order,
            effects: encounter.effects.iter().cloned().map(EffectResponse::from).collect(),
            options: encounter.options.clone(),
        }
    }
}

/// Which encounters `GET /v1/encounters` lists and where its page starts.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EncounterListQuery {
    /// 1 to 100; default 20.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page (send the same filters with it). Opaque.
    #[param(min_length = 2, max_length = 17, pattern = "^p[0-9a-fA-F]{1,16}$")]
    pub cursor: Option<String>,
    /// Skips this many encounters (paging before cursors; not with `cursor`). Default 0.
    #[param(minimum = 0, maximum = 9007199254740991_i64)]
    pub offset: Option<i64>,
    /// Only encounters with this status.
    pub status: Option<StatusWire>,
    /// Only encounters of this ruleset.
    pub ruleset: Option<RulesetId>,
    /// Only encounters whose name contains this, ignoring case (ASCII letters on SQLite, all
    /// letters on PostgreSQL); 1 to 100 characters.
    #[param(min_length = 1, max_length = 100)]
    pub name: Option<String>,
    /// `true`: only archived encounters; `false` (default): only those not archived.
    pub archived: Option<bool>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"items": [], "total": 0, "limit": 20, "offset": 0, "next_offset": null, "next_cursor": null}))]
pub struct EncounterListResponse {
    /// Newest first (in the order they were created).
    pub items: Vec<EncounterResponse>,
    /// Encounters the filters match in all.
    pub total: i64,
    pub limit: i64,
    /// 0 when the page was asked for with `cursor`.
    pub offset: i64,
    /// The `offset` of the next page, if there is one (offset paging only).
    pub next_offset: Option<i64>,
    /// The `cursor` of the next page, if there is one. Encounters created meanwhile never shift
    /// it: they come before the first page.
    pub next_cursor: Option<String>,
}

/// Whether an ended encounter is archived (`POST /v1/encounters/{id}/archive`, `…/unarchive`).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "enc_3f9a0c1d2e4b5a69", "archived": true, "archived_at": "2026-12-07T06:30:00.000Z"}))]
pub struct EncounterArchiveResponse {
    pub id: String,
    pub archived: bool,
    /// When it was archived (RFC 3339); `null` when not archived.
    pub archived_at: Option<String>,
}
