use super::event::EventNotice;
use serde::{Deserialize, Serialize};
use skirmish_domain::encounter::{CombatantId, Effect, EffectId, Expiry, Moment, NewEffect};
use utoipa::ToSchema;

/// A point in the round: `start_of_round`, `end_of_round`, or the start or end of a combatant's turn.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(tag = "at", rename_all = "snake_case", deny_unknown_fields)]
pub enum MomentWire {
    StartOfRound {},
    EndOfRound {},
    StartOfTurn { combatant_id: String },
    EndOfTurn { combatant_id: String },
}

/// When the effect ends.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(tag = "ends", rename_all = "snake_case", deny_unknown_fields)]
pub enum ExpiryRequest {
    /// At the start of that combatant's `turns`-th next turn (default 1).
    StartOfTurn {
        combatant_id: String,
        #[schema(minimum = 1, maximum = 10000)]
        #[serde(default, deserialize_with = "super::lenient::optional_whole")]
        turns: Option<u32>,
    },
    /// At the end of that combatant's `turns`-th next turn (default 1).
    EndOfTurn {
        combatant_id: String,
        #[schema(minimum = 1, maximum = 10000)]
        #[serde(default, deserialize_with = "super::lenient::optional_whole")]
        turns: Option<u32>,
    },
    /// At the end of the current round.
    EndOfRound {},
    /// At the `rounds`-th end of round from now (1 = the end of this round).
    AfterRounds {
        #[schema(minimum = 1, maximum = 10000)]
        #[serde(deserialize_with = "super::lenient::whole")]
        rounds: u32,
    },
    /// When the encounter ends.
    EndOfEncounter {},
}

/// When the effect ends, with what is left to count.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(tag = "ends", rename_all = "snake_case")]
pub enum ExpiryResponse {
    StartOfTurn { combatant_id: String, remaining: u32 },
    EndOfTurn { combatant_id: String, remaining: u32 },
    EndOfRound { remaining: u32 },
    EndOfEncounter,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "name": "stunned", "target_id": "cmb_0a1b2c3d4e5f6a7b",
    "ends": {"ends": "end_of_turn", "combatant_id": "cmb_0a1b2c3d4e5f6a7b"}
}))]
pub struct AddEffectRequest {
    /// 1 to 100 characters.
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: String,
    /// The combatant the effect is on.
    pub target_id: Option<String>,
    /// The combatant that caused it.
    pub source_id: Option<String>,
    /// Free text for the table, up to 1000 characters.
    #[schema(max_length = 1000)]
    pub note: Option<String>,
    /// A moment at which the effect recurs (reported as `effect_fired`).
    pub fires_at: Option<MomentWire>,
    pub ends: ExpiryRequest,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EffectResponse {
    pub id: String,
    pub name: String,
    pub target_id: Option<String>,
    pub source_id: Option<String>,
    pub note: Option<String>,
    pub fires_at: Option<MomentWire>,
    pub ends: ExpiryResponse,
    /// The round it was applied in (0 during setup).
    pub applied_round: u32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EffectMutationResponse {
    pub version: i64,
    pub effect: EffectResponse,
    pub events: Vec<EventNotice>,
}

impl From<MomentWire> for Moment {
    fn from(moment: MomentWire) -> Self {
        match moment {
            MomentWire::StartOfRound {} => Self::StartOfRound,
            MomentWire::EndOfRound {} => Self::EndOfRound,
            MomentWire::StartOfTurn { combatant_id } => {
                Self::StartOfTurn { combatant_id: CombatantId(combatant_id) }
            }
            MomentWire::EndOfTurn { combatant_id } => {
                Self::EndOfTurn { combatant_id: CombatantId(combatant_id) }
            }
        }
    }
}

impl From<Moment> for MomentWire {
    fn from(moment: Moment) -> Self {
        match moment {
            Moment::StartOfRound => Self::StartOfRound {},
            Moment::EndOfRound => Self::EndOfRound {},
            Moment::StartOfTurn { combatant_id } => Self::StartOfTurn { combatant_id: combatant_id.0 },
            Moment::EndOfTurn { combatant_id } => Self::EndOfTurn { combatant_id: combatant_id.0 },
        }
    }
}

impl From<ExpiryRequest> for Expiry {
    fn from(expiry: ExpiryRequest) -> Self {
        match expiry {
            ExpiryRequest::StartOfTurn { combatant_id, turns } => {
                Self::StartOfTurn { combatant_id: CombatantId(combatant_id), remaining: turns.unwrap_or(1) }
            }
            ExpiryRequest::EndOfTurn { combatant_id, turns } => {
                Self::EndOfTurn { combatant_id: CombatantId(combatant_id), remaining: turns.unwrap_or(1) }
            }
            ExpiryRequest::EndOfRound {} => Self::EndOfRound { remaining: 1 },
            ExpiryRequest::AfterRounds { rounds } => Self::EndOfRound { remaining: rounds },
            ExpiryRequest::EndOfEncounter {} => Self::EndOfEncounter,
        }
    }
}

impl From<Expiry> for ExpiryResponse {
    fn from(expiry: Expiry) -> Self {
        match expiry {
            Expiry::StartOfTurn { combatant_id, remaining } => {
                Self::StartOfTurn { combatant_id: combatant_id.0, remaining }
            }
            Expiry::EndOfTurn { combatant_id, remaining } => {
                Self::EndOfTurn { combatant_id: combatant_id.0, remaining }
            }
            Expiry::EndOfRound { remaining } => Self::EndOfRound { remaining },
            Expiry::EndOfEncounter => Self::EndOfEncounter,
        }
    }
}

impl AddEffectRequest {
    pub fn into_domain(self, id: EffectId) -> NewEffect {
        NewEffect {
            id,
            name: self.name,
            target: self.target_id.map(CombatantId),
            source: self.source_id.map(CombatantId),
            note: self.note,
            fires_at: self.fires_at.map(Moment::from),
            expiry: self.ends.into(),
        }
    }
}

impl From<Effect> for EffectResponse {
    fn from(effect: Effect) -> Self {
        Self {
            id: effect.id.0,
            name: effect.name,
            target_id: effect.target.map(|id| id.0),
            source_id: effect.source.map(|id| id.0),
            note: effect.note,
            fires_at: effect.fires_at.map(MomentWire::from),
            ends: effect.expiry.into(),
            applied_round: effect.applied_round,
        }
    }
}
