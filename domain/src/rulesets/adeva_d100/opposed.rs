//! Opposed tests: two characters test at once and the better result wins (adeva-d100.txt, "Action
//! List": Grapple, Knock Down, Disarm, Feint and Overwatch all call for one).
//!
//! Decisions:
//! - Given by the lead: a pass beats a failure, and of two passes the one with more Degrees of
//!   Success wins.
//! - Both sides failing leaves no winner (nothing is re-rolled): neither achieved anything.
//! - Two passes with equal DoS go to the higher characteristic, as Initiative ties go to the higher
//!   Agility ("Combat Structure", Step Three). The characteristic compared is the one tested,
//!   before modifiers.
//! - Still tied, both sides test again, as Initiative's last tie-break rolls again. After
//!   [`MAX_ROLL_OFFS`] re-tests that all tie, the contest is declared a tie (`winner: None`); it
//!   keeps the loop finite and practically never happens.
//! - The `margin` is the winner's DoS minus the loser's (0 for a loser who failed), which is what
//!   Knock Down's "surpass by two or more" and Disarm's "three or more DoS" read.
//! - Side `a` always tests first, then side `b`, in every round.

use super::Characteristic;
use super::test_modifiers::{Modifier, check_modifiers, within};
use super::test_roll::{ModifiedTest, modified_test};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Most re-tests after ties on both DoS and characteristic.
pub const MAX_ROLL_OFFS: usize = 10;

/// One side of an opposed test: what it tests and its modifiers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Contestant))]
#[serde(deny_unknown_fields)]
pub struct Contestant {
    pub characteristic: Characteristic,
    #[serde(default)]
    pub modifiers: Vec<Modifier>,
}

/// The two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Side))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    A,
    B,
}

/// How the contest was settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Decided))]
#[serde(rename_all = "snake_case")]
pub enum Decided {
    /// One side passed and the other failed.
    OnlyOnePassed,
    /// Both passed; one had more Degrees of Success.
    MoreDegreesOfSuccess,
    /// Both passed with equal DoS; one had the higher characteristic.
    HigherCharacteristic,
    /// Both failed: no winner.
    BothFailed,
    /// Equal DoS and characteristic on every re-test: no winner.
    StillTied,
}

/// One round of an opposed test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100OpposedRound))]
pub struct OpposedRound {
    pub a: ModifiedTest,
    pub b: ModifiedTest,
}

/// Every round tested, who won and by how much.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100OpposedResult))]
pub struct OpposedResult {
    /// The first round, then any re-tests after full ties.
    pub rounds: Vec<OpposedRound>,
    pub winner: Option<Side>,
    pub decided: Decided,
    /// Winner's DoS minus the loser's (a failed loser counts 0); 0 without a winner.
    pub margin: u32,
}

/// The verdict on one round: a pass beats a failure, then more DoS, then the higher characteristic;
/// `None` when the round must be re-tested (adeva-d100.txt, "Action List"; the tie-breaks follow
/// "Combat Structure", Step Three, as the module doc explains).
pub fn compare(a: &ModifiedTest, b: &ModifiedTest) -> Option<(Option<Side>, Decided)> {
    let (a_dos, b_dos) = (a.test.degrees_of_success(), b.test.degrees_of_success());
    let verdict = match (a.test.passed, b.test.passed) {
        (false, false) => (None, Decided::BothFailed),
        (true, false) => (Some(Side::A), Decided::OnlyOnePassed),
        (false, true) => (Some(Side::B), Decided::OnlyOnePassed),
        (true, true) if a_dos != b_dos => {
            (Some(if a_dos > b_dos { Side::A } else { Side::B }), Decided::MoreDegreesOfSuccess)
        }
        (true, true) if a.base != b.base => {
            (Some(if a.base > b.base { Side::A } else { Side::B }), Decided::HigherCharacteristic)
        }
        (true, true) => return None,
    };
    Some(verdict)
}

/// An opposed test with default purposes ("opposed test: side a" / "side b"): a pass beats a
/// failure, more DoS beats fewer (adeva-d100.txt, "Action List"; ties as in the module doc).
pub fn opposed(a: &Contestant, b: &Contestant, dice: &mut Dice) -> Result<OpposedResult, RuleError> {
    opposed_labelled(a, b, ["opposed test: side a", "opposed test: side b"], dice)
}

/// [`opposed`] with a purpose for each side's die, e.g. "knock down: attacker's Strength".
pub fn opposed_labelled(
    a: &Contestant,
    b: &Contestant,
    purposes: [&str; 2],
    dice: &mut Dice,
) -> Result<OpposedResult, RuleError> {
    check_modifiers("modifiers", &a.modifiers).map_err(|e| side("a", e))?;
    check_modifiers("modifiers", &b.modifiers).map_err(|e| side("b", e))?;
    let mut rounds = Vec::new();
    for _ in 0..=MAX_ROLL_OFFS {
        let round = OpposedRound {
            a: modified_test(a.characteristic, &a.modifiers, dice, purposes[0]).map_err(|e| side("a", e))?,
            b: modified_test(b.characteristic, &b.modifiers, dice, purposes[1]).map_err(|e| side("b", e))?,
        };
        let verdict = compare(&round.a, &round.b);
        rounds.push(round);
        if let Some((winner, decided)) = verdict {
            let margin = rounds.last().map_or(0, |round| margin(round, winner));
            return Ok(OpposedResult { rounds, winner, decided, margin });
        }
    }
    Ok(OpposedResult { rounds, winner: None, decided: Decided::StillTied, margin: 0 })
}

fn margin(round: &OpposedRound, winner: Option<Side>) -> u32 {
    let (a, b) = (round.a.test.degrees_of_success(), round.b.test.degrees_of_success());
    match winner {
        Some(Side::A) => a.saturating_sub(b),
        Some(Side::B) => b.saturating_sub(a),
        None => 0,
    }
}

fn side(name: &str, error: RuleError) -> RuleError {
    within(name, error)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contestant(value: i64) -> Contestant {
        Contestant { characteristic: Characteristic::new(value).unwrap(), modifiers: Vec::new() }
    }

    fn run(a: i64, b: i64, rolls: Vec<u32>) -> OpposedResult {
        let mut dice = Dice::scripted(rolls, 0).unwrap();
        opposed(&contestant(a), &contestant(b), &mut dice).unwrap()
    }

    #[test]
    fn a_pass_beats_a_failure() {
        // a: 60 vs 40 → fails; b: 20 vs 35 → passes with 1 + 1 = 2 DoS; margin 2 − 0 = 2.
        let result = run(40, 35, vec![60, 20]);
        assert_eq!(
            (result.winner, result.decided, result.margin),
            (Some(Side::B), Decided::OnlyOnePassed, 2)
        );
        assert_eq!(result.rounds.len(), 1);
    }

    #[test]
    fn of_two_passes_more_degrees_wins() {
        // a: 50 − 12 = 38 → 4 DoS; b: 50 − 31 = 19 → 2 DoS; margin 2.
        let result = run(50, 50, vec![12, 31]);
        assert_eq!(
            (result.winner, result.decided, result.margin),
            (Some(Side::A), Decided::MoreDegreesOfSuccess, 2)
        );
    }

    #[test]
    fn both_failing_leaves_no_winner() {
        // a: 80 > 40; b: 90 > 45.
        let result = run(40, 45, vec![80, 90]);
        assert_eq!((result.winner, result.decided, result.margin), (None, Decided::BothFailed, 0));
    }

    #[test]
    fn equal_degrees_go_to_the_higher_characteristic() {
        // a: 42 − 30 = 12 → 2 DoS; b: 45 − 33 = 12 → 2 DoS; 45 > 42 → b; margin 0.
        let result = run(42, 45, vec![30, 33]);
        assert_eq!(
            (result.winner, result.decided, result.margin),
            (Some(Side::B), Decided::HigherCharacteristic, 0)
        );
    }

    #[test]
    fn a_full_tie_is_tested_again() {
        // Round 1: both 40, rolls 25 and 21 → 2 DoS each, same characteristic → again.
        // Round 2: a rolls 5 (1 + 3 = 4 DoS), b rolls 38 (1 DoS) → a.
        let mut dice = Dice::scripted(vec![25, 21, 5, 38], 0).unwrap();
        let purposes = ["knock down: attacker", "knock down: defender"];
        let result = opposed_labelled(&contestant(40), &contestant(40), purposes, &mut dice).unwrap();
        assert_eq!(result.rounds.len(), 2);
        assert_eq!(
            (result.winner, result.decided, result.margin),
            (Some(Side::A), Decided::MoreDegreesOfSuccess, 3)
        );
        let used: Vec<_> = dice.rolls().iter().map(|die| &*die.purpose).collect();
        assert_eq!(used, purposes.repeat(2));
    }

    #[test]
    fn endless_ties_end_without_a_winner() {
        // Every round both roll 40 against 40: 1 DoS each, equal characteristics.
        let rolls = vec![40; 2 * (MAX_ROLL_OFFS + 1)];
        let result = run(40, 40, rolls);
        assert_eq!((result.winner, result.decided), (None, Decided::StillTied));
        assert_eq!(result.rounds.len(), MAX_ROLL_OFFS + 1);
    }

    #[test]
    fn a_bad_modifier_is_named_with_its_side() {
        let mut b = contestant(40);
        b.modifiers.push(Modifier::new("", 10));
        let mut dice = Dice::scripted(vec![], 0).unwrap();
        let err = opposed(&contestant(40), &b, &mut dice).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "b.modifiers[0].reason"));
        assert!(dice.rolls().is_empty());
    }
}
