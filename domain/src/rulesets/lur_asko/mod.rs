//! Lur-Asko combat: the damage chapter "Back in Combat" (shared/rules/lur-asko.txt).
//!
//! Decisions:
//! - No initiative rule, so every value is caller-set (the whole text is silent on turn order);
//!   equal values keep join order.

pub mod aura;
pub mod injury;
pub mod outcome;
pub mod pipeline;
pub mod portions;
pub mod resistance;
pub mod shielding;
pub mod state;
pub mod stats;
pub mod weapon;

#[cfg(test)]
mod tests_aura;
#[cfg(test)]
mod tests_pipeline;

use super::{InitiativeRoll, RuleError, TiePolicy};
pub use state::CombatState;
pub use stats::Stats;

/// The text sets no tie-break; combatants on the same value keep the order they joined in.
pub const TIE_POLICY: TiePolicy = TiePolicy::JoinOrder;

/// The Lur-Asko text gives no initiative formula: the caller sets each value.
pub fn initiative() -> Result<InitiativeRoll, RuleError> {
    Err(RuleError::invalid(
        "fixed",
        "lur-asko sets no initiative roll: send a fixed value for each combatant",
    ))
}
