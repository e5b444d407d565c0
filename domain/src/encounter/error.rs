use super::model::{CombatantId, EffectId};
use crate::dice::DiceError;
use crate::rulesets::RuleError;

/// Why a command on an encounter was refused. Nothing is changed when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncounterError {
    /// The input breaks a rule or a bound; `field` names the offending request field.
    #[error("{field}: {message}")]
    Invalid { field: String, message: String },
    #[error("combatant '{0}' is not in this encounter")]
    UnknownCombatant(CombatantId),
    #[error("effect '{0}' is not on this encounter")]
    UnknownEffect(EffectId),
    /// The command is valid but not in the encounter's current state (e.g. advancing an ended fight).
    #[error("{0}")]
    Conflict(String),
    /// The combatant `field` names may not receive what the request delivers, in its state (the
    /// dead: see `rulesets/receiving.rs`).
    #[error("{field}: {message}")]
    Refused { field: String, message: String },
    #[error(transparent)]
    Dice(#[from] DiceError),
}

impl EncounterError {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Invalid { field: field.into(), message: message.into() }
    }
}

impl From<RuleError> for EncounterError {
    fn from(error: RuleError) -> Self {
        match error {
            RuleError::Invalid { field, message } => Self::Invalid { field, message },
            RuleError::Refused { field, message } => Self::Refused { field, message },
            RuleError::Dice(dice) => Self::Dice(dice),
        }
    }
}
