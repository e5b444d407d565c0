//! Spycraft 2.0 combat (shared/rules/spycraft2.txt).

use super::{InitiativeRoll, RuleError, TiePolicy};
use crate::dice::Dice;
use crate::score::Score;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Stats))]
#[serde(deny_unknown_fields)]
pub struct Stats {
    /// The character's Initiative bonus.
    pub initiative_bonus: Score<-50, 50>,
}

/// Still tied after the Initiative bonus → each rolls 1d20, highest first, re-rolling ties
/// (spycraft2.txt, "Step 5: Combat Round").
pub const TIE_POLICY: TiePolicy = TiePolicy::RollOff { sides: 20 };

/// Initiative Count = 1d20 + Initiative bonus; no threats or errors on this check
/// (spycraft2.txt, "Step 3: Initiative Checks").
pub fn roll_initiative(stats: &Stats, dice: &mut Dice, purpose: &str) -> Result<InitiativeRoll, RuleError> {
    let bonus = stats.initiative_bonus.get();
    let die = dice.roll(20, purpose)?;
    let score = die as i32 + bonus;
    Ok(InitiativeRoll { score, explanation: format!("1d20 ({die}) + Initiative bonus {bonus:+} = {score}") })
}

/// Ties go to the higher Initiative bonus (spycraft2.txt, "Step 5: Combat Round").
pub fn tie_keys(stats: &Stats) -> Vec<i32> {
    vec![stats.initiative_bonus.get()]
}

/// Spycraft 2.0 as a plug-in (spycraft2.txt, the seven steps of combat).
pub struct Spycraft2;

impl super::Ruleset for Spycraft2 {
    const ID: super::RulesetId = super::RulesetId::Spycraft2;
    const SCHEMA_PREFIX: &'static str = "Spycraft2";
    const INFO: super::RulesetInfo = super::RulesetInfo {
        name: "Spycraft 2.0 (d20 initiative, surprise, fluid initiative)",
        source: "Spycraft 2.0 Rulebook, combat chapter: the seven steps of combat (Crafty Games, Open Game License 1.0a)",
        initiative: "1d20 + Initiative bonus",
        tie_break: "higher Initiative bonus, then a 1d20 roll-off (re-rolling ties)",
    };
    const TIE_POLICY: TiePolicy = TIE_POLICY;
    const STATS_EXAMPLE: &'static str = r#"{"initiative_bonus": 4}"#;
    type Stats = Stats;
    type State = super::NoState;
    type Options = super::NoOptions;
    type Report = super::NoReport;

    fn initiative(
        stats: &Stats,
        _context: super::InitiativeContext,
        dice: &mut Dice,
        purpose: &str,
    ) -> Result<InitiativeRoll, RuleError> {
        roll_initiative(stats, dice, purpose)
    }

    fn tie_keys(stats: &Stats) -> Vec<i32> {
        tie_keys(stats)
    }

    fn commands<V: super::CommandVisitor>(_visitor: &mut V) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initiative_count_is_1d20_plus_bonus() {
        // bonus +4, die 13 → 17.
        let stats = Stats { initiative_bonus: Score::new(4).unwrap() };
        let mut dice = Dice::scripted(vec![13], 0).unwrap();
        assert_eq!(roll_initiative(&stats, &mut dice, "i").unwrap().score, 17);
    }
}
