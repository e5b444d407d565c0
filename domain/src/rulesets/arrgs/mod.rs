//! ARRGS combat (shared/rules/arrgs.txt).

use super::{InitiativeRoll, RuleError, TiePolicy};
use crate::score::Score;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsStats))]
#[serde(deny_unknown_fields)]
pub struct Stats {
    /// The Agility score, which orders characters on the same Initiative slot.
    pub agility: Score<-20, 100>,
    /// The character's Initiative score from the sheet. The text counts slots down from the
    /// highest score but gives no roll, so the score is read as is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiative: Option<Score<0, 1000>>,
}

/// Equal scores act by Agility "or the highest result of any dice roll" (arrgs.txt, "A Round"):
/// still tied after Agility → a d20 roll-off, re-rolling ties.
pub const TIE_POLICY: TiePolicy = TiePolicy::RollOff { sides: 20 };

/// A character acts on its Initiative score as the GM counts down (arrgs.txt, "A Round"). No
/// roll: the sheet's score is used, or a fixed value the caller sends.
pub fn initiative(stats: &Stats) -> Result<InitiativeRoll, RuleError> {
    let score = stats.initiative.map(Score::get).ok_or_else(|| {
        RuleError::invalid(
            "fixed",
            "arrgs has no initiative roll: set stats.initiative or send a fixed value",
        )
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
    const ID: super::RulesetId = super::RulesetId::Arrgs;
    const SCHEMA_PREFIX: &'static str = "Arrgs";
    const INFO: super::RulesetInfo = super::RulesetInfo {
        name: "ARRGS (d20 success value, action points, vitality)",
        source: "ARRGS rules, \"ARRGS – Combat\" chapter",
        initiative: "the Initiative score from the stat block (or a fixed value), counted down",
        tie_break: "higher Agility, then a 1d20 roll-off (re-rolling ties)",
    };
    const TIE_POLICY: TiePolicy = TIE_POLICY;
    const STATS_EXAMPLE: &'static str = r#"{"agility": 14, "initiative": 12}"#;
    type Stats = Stats;
    type State = super::NoState;
    type Options = super::NoOptions;
    type Report = super::NoReport;

    fn initiative(
        stats: &Stats,
        _context: super::InitiativeContext,
        _dice: &mut crate::dice::Dice,
        _purpose: &str,
    ) -> Result<InitiativeRoll, RuleError> {
        initiative(stats)
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
    fn initiative_is_the_sheet_score_or_refused() {
        let with = Stats { agility: Score::new(12).unwrap(), initiative: Some(Score::new(17).unwrap()) };
        assert_eq!(initiative(&with).unwrap().score, 17);
        let without = Stats { initiative: None, ..with };
        assert!(matches!(initiative(&without), Err(RuleError::Invalid { field, .. }) if field == "fixed"));
    }
}
