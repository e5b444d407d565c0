//! Lur-Asko combat (shared/rules/lur-asko.txt).

use super::{InitiativeRoll, RuleError, TiePolicy};
use serde::{Deserialize, Serialize};

/// Lur-Asko's combat text needs no statistic for turn order; later rules add fields here.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {}

/// The text sets no tie-break; combatants on the same value keep the order they joined in.
pub const TIE_POLICY: TiePolicy = TiePolicy::JoinOrder;

/// The Lur-Asko text gives no initiative formula: the caller sets each value.
pub fn initiative() -> Result<InitiativeRoll, RuleError> {
    Err(RuleError::invalid(
        "fixed",
        "lur-asko sets no initiative roll: send a fixed value for each combatant",
    ))
}
