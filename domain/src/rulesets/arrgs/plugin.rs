//! ARRGS as a plug-in (arrgs.txt, "ARRGS – Combat"): the ruleset, its initiative and tie-break.

use super::outcome::Report;
use super::{CombatState, Options, Stats};
use crate::dice::Dice;
use crate::encounter::{Encounter, Event};
use crate::rulesets::{
    CommandVisitor, InitiativeContext, InitiativeRoll, Receipt, Refusal, RuleError, Ruleset, RulesetId, RulesetInfo,
    TiePolicy,
};
use crate::score::Score;

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

impl Ruleset for Arrgs {
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

    fn end_of_round(
        encounter: &mut Encounter,
        events: &mut Vec<Event>,
        dice: &mut crate::dice::Dice,
    ) -> Result<(), crate::encounter::EncounterError> {
        super::round::end_of_round_hook(encounter, events, dice)
    }

    /// "When a character dies it may no longer interact with the world unless it is restored to
    /// life somehow" (arrgs.txt, "Death"): the dead receive nothing, revitalisation included;
    /// the Disabled, Dying and Unconscious still receive everything (docs/rulesets/arrgs.md).
    fn may_receive(stats: &Stats, state: &CombatState, _receipt: Receipt) -> Result<(), Refusal> {
        if super::fighter::is_dead(stats, state) {
            return Err(Refusal(
                "dead (arrgs.txt, \"Death\": it no longer interacts with the world unless restored to life)".into(),
            ));
        }
        Ok(())
    }

    fn status(
        stats: &Self::Stats,
        state: &Self::State,
        context: &crate::rulesets::StatusContext,
    ) -> crate::rulesets::RulesetStatus {
        super::status::status(stats, state, context)
    }

    fn commands<V: CommandVisitor>(visitor: &mut V) {
        super::commands::register(visitor);
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
