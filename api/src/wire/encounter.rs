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

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StatusWire {
    Setup,
    Active,
    Ended,
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

#[derive(Debug, Deserialize, ToSchema, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// 1 to 100; default 20.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// Default 0.
    #[param(minimum = 0, maximum = 9007199254740991_i64)]
    pub offset: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"items": [], "total": 0, "limit": 20, "offset": 0, "next_offset": null}))]
pub struct EncounterListResponse {
    /// Oldest first.
    pub items: Vec<EncounterResponse>,
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    /// The `offset` of the next page, if there is one.
    pub next_offset: Option<i64>,
}
