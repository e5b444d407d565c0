//! What rulesets share: tie policies, the initiative context and result, and rule errors.

use crate::dice::DiceError;

/// How a ruleset orders combatants whose initiative and tie keys are all equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TiePolicy {
    /// Each tied combatant rolls this die; higher goes first; ties re-roll.
    RollOff { sides: u32 },
    /// Tied combatants share one slot and act simultaneously.
    Simultaneous,
    /// Tied combatants keep the order in which they joined the encounter.
    JoinOrder,
}

/// What a ruleset's initiative function may need beyond the stat block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InitiativeContext {
    /// Some, but not all, combatants are surprised (an ambush).
    pub ambush: bool,
    /// This combatant is surprised (unaware of its opponents).
    pub surprised: bool,
}

/// The result of one combatant's initiative: the score and how it was reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitiativeRoll {
    pub score: i32,
    /// Human-readable working, e.g. "2D6 (4+3) + DEX DM +1 = 8".
    pub explanation: String,
}

/// One combatant's entry in a request's initiative extensions ([`crate::rulesets::Ruleset::extend_initiative`];
/// on the wire, an `action_dice` entry): `count` of its own resources to spend on the check just
/// rolled, and whether it already held a Count in the running fight (`had_count`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InitiativeExtension {
    pub count: u32,
    pub had_count: bool,
}

/// A rule that cannot be applied to the given input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("{field}: {message}")]
    Invalid { field: String, message: String },
    /// The combatant `field` names may not receive what the request delivers (the dead: see
    /// `rulesets/receiving.rs`).
    #[error("{field}: {message}")]
    Refused { field: String, message: String },
    #[error(transparent)]
    Dice(#[from] DiceError),
}

impl RuleError {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Invalid { field: field.into(), message: message.into() }
    }
}
