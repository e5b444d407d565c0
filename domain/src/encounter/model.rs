use super::effects::Effect;
use crate::rulesets::{RulesetId, RulesetOptions, RulesetState, StatBlock};
use serde::{Deserialize, Serialize};

/// Most combatants one encounter may hold.
pub const MAX_COMBATANTS: usize = 200;
/// Most active effects one encounter may hold.
pub const MAX_EFFECTS: usize = 500;
/// Longest name (encounter, combatant, side, effect), in characters.
pub const MAX_NAME_LEN: usize = 100;

macro_rules! string_id {
    ($name:ident) => {
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
        #[serde(transparent)]
        pub struct $name(pub String);

        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

string_id!(EncounterId);
string_id!(CombatantId);
string_id!(EffectId);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum EncounterStatus {
    /// Combatants are being added; no round has begun.
    Setup,
    /// Rounds and turns are running.
    Active,
    /// Combat is over; the encounter is read-only.
    Ended,
}

impl EncounterStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Setup => "setup",
            Self::Active => "active",
            Self::Ended => "ended",
        }
    }
}

/// A fight: its combatants, whose turn it is, and the effects running on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Encounter {
    pub id: EncounterId,
    pub ruleset: RulesetId,
    pub name: String,
    pub status: EncounterStatus,
    /// 0 during setup, then 1, 2, …
    pub round: u32,
    /// The combatant whose turn it is (active encounters only).
    pub current: Option<CombatantId>,
    /// Bumped by every stored change; clients send it back in `If-Match`.
    pub version: i64,
    /// In the order they joined.
    pub combatants: Vec<Combatant>,
    pub effects: Vec<Effect>,
    /// The ruleset's settings for this encounter (e.g. adeva-d100's Lethal Damage table).
    pub options: RulesetOptions,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct Flags {
    /// Unaware of its opponents when combat starts.
    pub surprised: bool,
    /// Out of the fight: takes no turns.
    pub defeated: bool,
    /// Hidden from its opponents (and from viewer links).
    pub hidden: bool,
    /// Viewer links see its stat block and state (GM-only otherwise).
    #[serde(default)]
    pub public: bool,
}

/// A combatant's place in the initiative order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct Initiative {
    pub score: i32,
    /// Roll-off dice for ties, compared in order after the ruleset's tie keys.
    #[serde(default)]
    pub roll_off: Vec<u32>,
    /// How the score was reached, e.g. "2D6 (4+3) + DEX DM +1 = 8" or "fixed by caller".
    pub explanation: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Combatant {
    pub id: CombatantId,
    pub name: String,
    pub side: String,
    pub stats: StatBlock,
    pub initiative: Option<Initiative>,
    pub flags: Flags,
    /// Has had (or skipped) its turn in the current round.
    pub acted_this_round: bool,
    /// Holding its action this round: skipped in the order until it acts or the round ends.
    pub delaying: bool,
    /// What the ruleset tracks during the fight (one-round modifiers, stance, aim, …); managed by
    /// the engine, not sent by clients.
    pub state: RulesetState,
    /// The library creature it was added from, if any (its stat block was copied then: a later
    /// change to the creature does not reach it).
    pub creature_id: Option<String>,
    /// The named group it shares initiative with, if any (see `order.rs`).
    pub group: Option<String>,
}

impl Encounter {
    /// A new encounter in setup.
    pub fn new(id: EncounterId, ruleset: RulesetId, name: String) -> Self {
        Self {
            id,
            ruleset,
            name,
            status: EncounterStatus::Setup,
            round: 0,
            current: None,
            version: 1,
            combatants: Vec::new(),
            effects: Vec::new(),
            options: RulesetOptions::for_ruleset(ruleset),
        }
    }

    pub fn combatant(&self, id: &CombatantId) -> Option<&Combatant> {
        self.combatants.iter().find(|c| &c.id == id)
    }

    pub fn combatant_mut(&mut self, id: &CombatantId) -> Option<&mut Combatant> {
        self.combatants.iter_mut().find(|c| &c.id == id)
    }

    /// The display name of a combatant, or its id if it is gone.
    pub fn name_of(&self, id: &CombatantId) -> String {
        self.combatant(id).map_or_else(|| id.to_string(), |c| c.name.clone())
    }
}

/// Checks a display name: 1 to [`MAX_NAME_LEN`] characters, not only whitespace.
pub fn validate_name(field: &str, name: &str) -> Result<(), super::EncounterError> {
    let length = name.chars().count();
    if name.trim().is_empty() || length > MAX_NAME_LEN {
        let message = format!("must be 1 to {MAX_NAME_LEN} characters and not blank (got {length})");
        return Err(super::EncounterError::invalid(field, message));
    }
    Ok(())
}
