//! Step 4: who gets a surprise round (spycraft2.txt, "Step 4: Surprise Round", "No Groups
//! Aware of Each Other", "Some Groups Aware of Each Other", "All Groups Aware of Each Other",
//! "Partial Group Awareness").

use crate::dice::Dice;
use crate::encounter::EncounterError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// How aware the groups are of each other when the fight begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Awareness))]
#[serde(rename_all = "snake_case")]
pub enum Awareness {
    /// No group is aware of another: the group with the highest team check gets the surprise round.
    NoneAware,
    /// Some are aware (an ambush): an acting group gets it only by winning the team check.
    SomeAware,
    /// All are aware: no surprise round.
    AllAware,
}

/// One group's opposed team Blend/Stealth or Sneak/Hide check, as rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2TeamCheckResult))]
pub struct TeamCheckResult {
    /// The group (the combatants' `side`).
    pub side: String,
    /// Trying to conceal its presence or a sudden action.
    pub acting: bool,
    pub die: u32,
    pub bonus: i32,
    pub total: i32,
}

/// Why there is or is not a surprise round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2SurpriseRuling))]
#[serde(tag = "ruling", rename_all = "snake_case")]
pub enum SurpriseRuling {
    /// `side` reacted first: its members who made the check act in the surprise round.
    SurpriseRound { side: String },
    /// Every group is aware: no surprise round is possible.
    AllAware,
    /// Two or more groups share the highest result: nobody gets the drop.
    TiedForHighest { sides: Vec<String> },
    /// The highest result belongs to a group that is not acting: the ambush fails.
    AmbushFailed { winner: String },
}

/// Rolls each group's team check (1d20 + its bonus), in the order given.
pub fn roll_team_checks(
    groups: &[(String, bool, Score<-50, 100>)],
    dice: &mut Dice,
) -> Result<Vec<TeamCheckResult>, EncounterError> {
    groups
        .iter()
        .map(|(side, acting, bonus)| {
            let die = dice.roll(20, format!("surprise team check: {side}"))?;
            let bonus = bonus.get();
            Ok(TeamCheckResult { side: side.clone(), acting: *acting, die, bonus, total: die as i32 + bonus })
        })
        .collect()
}

/// Who gets the surprise round from the team checks.
pub fn rule(awareness: Awareness, checks: &[TeamCheckResult]) -> SurpriseRuling {
    if awareness == Awareness::AllAware {
        return SurpriseRuling::AllAware;
    }
    let Some(best) = checks.iter().map(|check| check.total).max() else {
        return SurpriseRuling::AllAware;
    };
    let leaders: Vec<&TeamCheckResult> = checks.iter().filter(|check| check.total == best).collect();
    match leaders.as_slice() {
        [winner] if awareness == Awareness::SomeAware && !winner.acting => {
            SurpriseRuling::AmbushFailed { winner: winner.side.clone() }
        }
        [winner] => SurpriseRuling::SurpriseRound { side: winner.side.clone() },
        _ => SurpriseRuling::TiedForHighest { sides: leaders.iter().map(|c| c.side.clone()).collect() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(side: &str, acting: bool, total: i32) -> TeamCheckResult {
        TeamCheckResult { side: side.into(), acting, die: 10, bonus: total - 10, total }
    }

    #[test]
    fn none_aware_the_highest_group_gets_the_surprise_round() {
        let ruling = rule(Awareness::NoneAware, &[check("agents", false, 14), check("guards", false, 19)]);
        assert_eq!(ruling, SurpriseRuling::SurpriseRound { side: "guards".into() });
    }

    #[test]
    fn some_aware_the_acting_group_must_win() {
        // The ambushers (acting) roll 17 + 5 = 22 against the guards' 12 + 3 = 15: they win.
        let mut dice = Dice::scripted(vec![17, 12], 0).unwrap();
        let groups = [
            ("agents".to_owned(), true, Score::new(5).unwrap()),
            ("guards".to_owned(), false, Score::new(3).unwrap()),
        ];
        let checks = roll_team_checks(&groups, &mut dice).unwrap();
        assert_eq!((checks[0].total, checks[1].total), (22, 15));
        assert_eq!(
            rule(Awareness::SomeAware, &checks),
            SurpriseRuling::SurpriseRound { side: "agents".into() }
        );
        // The guards win instead (20 against 15): no surprise round at all.
        let lost = rule(Awareness::SomeAware, &[check("agents", true, 15), check("guards", false, 20)]);
        assert_eq!(lost, SurpriseRuling::AmbushFailed { winner: "guards".into() });
    }

    #[test]
    fn all_aware_means_no_surprise_round_and_a_tie_gives_none_either() {
        assert_eq!(rule(Awareness::AllAware, &[check("a", true, 30)]), SurpriseRuling::AllAware);
        let tie = rule(Awareness::NoneAware, &[check("a", false, 18), check("b", false, 18)]);
        assert_eq!(tie, SurpriseRuling::TiedForHighest { sides: vec!["a".into(), "b".into()] });
        // An acting group tied with its target has not won the opposed check either.
        let ambush_tie = rule(Awareness::SomeAware, &[check("a", true, 18), check("b", false, 18)]);
        assert!(matches!(ambush_tie, SurpriseRuling::TiedForHighest { .. }));
    }
}
