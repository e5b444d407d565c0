//! What a ruleset tracks per combatant during a fight, beside the client's stat block.

use super::{RulesetId, adeva_d100, cepheus_engine};
use serde::{Deserialize, Serialize};

/// Engine-managed combat state. Rulesets without any keep `None`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RulesetState {
    #[default]
    None,
    CepheusEngine(cepheus_engine::CombatState),
    AdevaD100(adeva_d100::dynamic::CombatState),
}

impl RulesetState {
    /// The starting state for a combatant of this ruleset.
    pub fn for_ruleset(ruleset: RulesetId) -> Self {
        match ruleset {
            RulesetId::CepheusEngine => Self::CepheusEngine(cepheus_engine::CombatState::default()),
            RulesetId::AdevaD100 => Self::AdevaD100(adeva_d100::dynamic::CombatState::default()),
            _ => Self::None,
        }
    }
}
