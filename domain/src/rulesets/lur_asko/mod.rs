//! Lur-Asko combat: the damage chapter "Back in Combat" (shared/rules/lur-asko.txt).
//!
//! Decisions:
//! - No initiative rule, so every value is caller-set (the whole text is silent on turn order);
//!   equal values keep join order.

pub mod aura;
pub mod commands;
pub mod injury;
pub mod options;
pub mod outcome;
pub mod pipeline;
pub mod portions;
pub mod resistance;
mod round;
pub mod shielding;
pub mod state;
pub mod stats;
pub mod weapon;

#[cfg(test)]
mod tests_aura;
#[cfg(test)]
mod tests_pipeline;

use super::{CommandVisitor, InitiativeContext, InitiativeRoll, RuleError, Ruleset, RulesetId, RulesetInfo, TiePolicy};
use crate::dice::Dice;
use crate::encounter::{Encounter, Event};
pub use commands::Report;
pub use options::Options;
pub use state::CombatState;
pub use stats::Stats;

/// Lur-Asko as a plug-in (lur-asko.txt, "Back in Combat").
pub struct LurAsko;

impl Ruleset for LurAsko {
    const ID: RulesetId = RulesetId::LurAsko;
    const SCHEMA_PREFIX: &'static str = "LurAsko";
    const INFO: RulesetInfo = RulesetInfo {
        name: "Lur-Asko (damage and drive against armour ranges, energy, shielding, auras)",
        source: "Lur-Asko rules, \"Back in Combat\" chapter (damage, drive and armour ranges)",
        initiative: "no formula in the rule text: send a fixed value per combatant",
        tie_break: "combatants on the same value keep the order they joined in",
    };
    const TIE_POLICY: TiePolicy = TIE_POLICY;
    const STATS_EXAMPLE: &'static str = r#"{"injury_factor": 20, "armour": {"low": 16, "high": 28, "metallic": true},
        "resistances": [{"source": "elf", "against": {"energy": "frost"}, "percent": 75}]}"#;
    type Stats = Stats;
    type State = CombatState;
    type Options = Options;
    type Report = Report;

    fn initiative(_stats: &Stats, _context: InitiativeContext, _dice: &mut Dice, _purpose: &str) -> Result<InitiativeRoll, RuleError> {
        initiative()
    }

    fn tie_keys(_stats: &Stats) -> Vec<i32> {
        Vec::new()
    }

    fn validate_options(options: &Options) -> Result<(), RuleError> {
        options.defense_dice("options.defense_dice").map(|_| ())
    }

    fn end_of_round(encounter: &mut Encounter, events: &mut Vec<Event>) {
        round::end_of_round(encounter, events);
    }

    /// The text has no death: degrees of injury are the GM's to read ("Damage, Drive, & Armor
    /// Ranges"), so every combatant receives everything, one marked defeated included; what it
    /// holds stays bounded instead (docs/rulesets/lur-asko.md, "The dead and the defeated").
    fn may_receive(_stats: &Stats, _state: &CombatState, _receipt: super::Receipt) -> Result<(), super::Refusal> {
        Ok(())
    }

    fn commands<V: CommandVisitor>(visitor: &mut V) {
        visitor.stateless::<commands::Attacks>();
        visitor.stateless::<commands::Damage>();
        visitor.command::<commands::Actions>();
    }
}

/// The text sets no tie-break; combatants on the same value keep the order they joined in.
pub const TIE_POLICY: TiePolicy = TiePolicy::JoinOrder;

/// The Lur-Asko text gives no initiative formula: the caller sets each value.
pub fn initiative() -> Result<InitiativeRoll, RuleError> {
    Err(RuleError::invalid(
        "fixed",
        "lur-asko sets no initiative roll: send a fixed value for each combatant",
    ))
}
