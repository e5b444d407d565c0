//! What a ruleset tracks per combatant during a fight, beside the client's stat block.

use super::{RulesetId, cepheus_engine};
use serde::{Deserialize, Serialize};

/// Engine-managed combat state. Rulesets without any keep `None`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RulesetState {
    #[default]
    None,
    CepheusEngine(cepheus_engine::CombatState),
}

impl RulesetState {
    /// The starting state for a combatant of this ruleset.
    pub fn for_ruleset(ruleset: RulesetId) -> Self {
        match ruleset {
            RulesetId::CepheusEngine => Self::CepheusEngine(cepheus_engine::CombatState::default()),
            _ => Self::None,
        }
    }
}
