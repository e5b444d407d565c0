//! ARRGS combat (shared/rules/arrgs.txt, "ARRGS – Combat"): Initiative slots counted down, Action
//! Points and Additional Action Points, Action checks (1d20) against Reaction Defences (10),
//! Success Values, criticals, typed damage through resistance and vulnerability, Vitality and its
//! conditions, every Standard manoeuvre and the End of Round.
//!
//! Decisions (where the text is silent; the full list is in docs/rulesets/arrgs.md):
//! - The Initiative score is read from the stat block or sent by the caller: the text gives no
//!   roll.
//! - Equal scores act by Agility, then a 1d20 roll-off.
//! - Round 1 is the surprise round whenever a combatant is Surprised when it begins; the
//!   Surprised condition ends at that round's End of Round.

pub mod area;
pub mod attack;
pub mod attacking;
pub mod check;
pub mod commands;
pub mod damage_types;
pub mod economy;
pub mod fighter;
pub mod items;
pub mod manoeuvres;
pub mod modifier;
pub mod opportunity;
pub mod round;
pub mod spells;
pub mod state;
pub mod stats;
pub mod strike;
pub mod table;
#[cfg(test)]
pub(crate) mod test_support;
pub mod vitality;
pub mod weapon;

pub use fighter::Options;
pub use state::CombatState;
pub use stats::Stats;

use super::{InitiativeContext, InitiativeRoll, RuleError, RulesetId, RulesetInfo, TiePolicy};
use crate::dice::Dice;
use crate::encounter::{Encounter, Event};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// Equal scores act by Agility "or the highest result of any dice roll" (arrgs.txt, "A Round"):
/// still tied after Agility → a d20 roll-off, re-rolling ties.
pub const TIE_POLICY: TiePolicy = TiePolicy::RollOff { sides: 20 };

/// A character acts on its Initiative score as the GM counts down (arrgs.txt, "A Round"). No
/// roll: the sheet's score is used, or a fixed value the caller sends.
pub fn initiative(stats: &Stats) -> Result<InitiativeRoll, RuleError> {
    let score = stats.initiative.map(Score::get).ok_or_else(|| {
        RuleError::invalid("fixed", "arrgs has no initiative roll: set stats.initiative or send a fixed value")
    })?;
    Ok(InitiativeRoll { score, explanation: format!("Initiative score {score} from the stat block") })
}

/// Equal slots act in order of Agility (arrgs.txt, "A Round").
pub fn tie_keys(stats: &Stats) -> Vec<i32> {
    vec![stats.agility.get()]
}

/// ARRGS as a plug-in (arrgs.txt, "ARRGS – Combat").
pub struct Arrgs;

impl super::Ruleset for Arrgs {
    const ID: RulesetId = RulesetId::Arrgs;
    const SCHEMA_PREFIX: &'static str = "Arrgs";
    const INFO: RulesetInfo = RulesetInfo {
        name: "ARRGS (d20 success value, action points, vitality)",
        source: "ARRGS rules, \"ARRGS – Combat\" chapter",
        initiative: "the Initiative score from the stat block (or a fixed value), counted down",
        tie_break: "higher Agility, then a 1d20 roll-off (re-rolling ties)",
    };
    const TIE_POLICY: TiePolicy = TIE_POLICY;
    const STATS_EXAMPLE: &'static str = r#"{"agility": 14, "initiative": 12, "vitality": 20,
        "abilities": {"body": 2, "agility": 3}, "checks": {"melee": {"skill": 4}, "reflex": {"skill": 2}},
        "resistances": [{"type": "slashing", "value": 2}], "vulnerabilities": ["fire"]}"#;
    type Stats = Stats;
    type State = CombatState;
    type Options = Options;
    type Report = Report;

    fn initiative(
        stats: &Stats,
        _context: InitiativeContext,
        _dice: &mut Dice,
        _purpose: &str,
    ) -> Result<InitiativeRoll, RuleError> {
        initiative(stats)
    }

    fn tie_keys(stats: &Stats) -> Vec<i32> {
        tie_keys(stats)
    }

    fn end_of_round(encounter: &mut Encounter, events: &mut Vec<Event>) {
        round::end_of_round_hook(encounter, events);
    }

    /// "When a character dies it may no longer interact with the world unless it is restored to
    /// life somehow" (arrgs.txt, "Death"): the dead receive nothing, revitalisation included;
    /// the Disabled, Dying and Unconscious still receive everything (docs/rulesets/arrgs.md).
    fn may_receive(stats: &Stats, state: &CombatState, _receipt: super::Receipt) -> Result<(), super::Refusal> {
        if fighter::is_dead(stats, state) {
            return Err(super::Refusal(
                "dead (arrgs.txt, \"Death\": it no longer interacts with the world unless restored to life)".into(),
            ));
        }
        Ok(())
    }

    fn commands<V: super::CommandVisitor>(visitor: &mut V) {
        commands::register(visitor);
    }
}

/// Every ARRGS report, as events carry it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsReport))]
pub enum Report {
    Attack(Box<attacking::AttackReport>),
    Damage(Box<commands::damage::DamageReport>),
    Action(Box<manoeuvres::ActionReport>),
    Condition(Box<commands::conditions::ConditionReport>),
    EndOfRound(Box<round::EndOfRoundReport>),
    Area(Box<commands::area::AreaReport>),
}

impl super::Summary for Report {
    fn summary(&self) -> String {
        match self {
            Self::Attack(report) => report.summary(),
            Self::Damage(report) => report.summary(),
            Self::Action(report) => report.summary(),
            Self::Condition(report) => report.summary(),
            Self::EndOfRound(report) => report.summary(),
            Self::Area(report) => report.summary(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initiative_is_the_sheet_score_or_refused() {
        let mut with = Stats::new(Score::new(12).unwrap());
        with.initiative = Some(Score::new(17).unwrap());
        assert_eq!(initiative(&with).unwrap().score, 17);
        let without = Stats { initiative: None, ..with };
        assert!(matches!(initiative(&without), Err(RuleError::Invalid { field, .. }) if field == "fixed"));
    }
}
