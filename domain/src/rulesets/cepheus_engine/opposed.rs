//! Opposed checks: two sides roll against each other (cepheus-engine.txt, "Grappling", which pits
//! the two combatants' Natural Weapons checks against each other; the 8+ check and its Effect
//! come from `difficulty.rs`).
//!
//! Decisions:
//! - Each side rolls its own 2D6 + DM against 8+ and gets an Effect (total − 8). The higher Effect
//!   wins, whether or not either side reached 8: the text only asks one side to beat the other.
//! - Equal Effects are a tie with no winner (`winner: None`). Nothing is re-rolled; whoever relies
//!   on the check decides what a tie means (for grappling, see `grapple.rs`).
//! - Side `a` rolls first (two dice), then side `b`.
//! - A DM outside −50..=+50 is refused: no skill plus characteristic comes near it, and the bound
//!   keeps the arithmetic safe.

use super::difficulty::{TASK_TARGET, effect};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Largest DM, either way, an opposed check accepts.
pub const MAX_OPPOSED_DM: i32 = 50;

/// One side's 2D6 check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineCheckRoll))]
pub struct CheckRoll {
    pub dice: [u32; 2],
    #[serde(rename = "value", alias = "dm")]
    pub dm: i32,
    pub total: i32,
    pub effect: i32,
    /// The total reached 8.
    pub success: bool,
}

/// The two sides of an opposed check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineOpposedSide))]
#[serde(rename_all = "snake_case")]
pub enum OpposedSide {
    A,
    B,
}

/// Both checks and who won (`None` on equal Effects).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineOpposedOutcome))]
pub struct OpposedOutcome {
    pub a: CheckRoll,
    pub b: CheckRoll,
    pub winner: Option<OpposedSide>,
}

impl OpposedOutcome {
    /// The winner's own check, if there is a winner.
    pub fn winning_roll(&self) -> Option<CheckRoll> {
        self.winner.map(|side| match side {
            OpposedSide::A => self.a,
            OpposedSide::B => self.b,
        })
    }
}

/// Rolls one 2D6 check with this DM against 8+ (cepheus-engine.txt, "Extended Actions" for the
/// 8+ roll; the Effect is the margin over or under 8).
pub fn roll_check(dm: i32, dice: &mut Dice, purpose: &str) -> Result<CheckRoll, RuleError> {
    let rolled = [dice.roll(6, purpose)?, dice.roll(6, purpose)?];
    let total = (rolled[0] + rolled[1]) as i32 + dm;
    Ok(CheckRoll { dice: rolled, dm, total, effect: effect(total), success: total >= TASK_TARGET })
}

/// An opposed check: each side rolls 2D6 + its DM and the higher Effect wins; equal Effects
/// leave no winner (cepheus-engine.txt, "Grappling"; see the decisions).
pub fn opposed_check(a_dm: i32, b_dm: i32, dice: &mut Dice) -> Result<OpposedOutcome, RuleError> {
    opposed_check_labelled(a_dm, b_dm, ["opposed check: side a", "opposed check: side b"], dice)
}

/// [`opposed_check`] with a purpose for each side's dice, e.g. the combatants' roles.
pub fn opposed_check_labelled(
    a_dm: i32,
    b_dm: i32,
    purposes: [&str; 2],
    dice: &mut Dice,
) -> Result<OpposedOutcome, RuleError> {
    check_dm("a_dm", a_dm)?;
    check_dm("b_dm", b_dm)?;
    let a = roll_check(a_dm, dice, purposes[0])?;
    let b = roll_check(b_dm, dice, purposes[1])?;
    let winner = match a.effect.cmp(&b.effect) {
        std::cmp::Ordering::Greater => Some(OpposedSide::A),
        std::cmp::Ordering::Less => Some(OpposedSide::B),
        std::cmp::Ordering::Equal => None,
    };
    Ok(OpposedOutcome { a, b, winner })
}

/// Refuses a DM beyond ±50, naming the field.
pub fn check_dm(field: &str, dm: i32) -> Result<(), RuleError> {
    if dm.abs() > MAX_OPPOSED_DM {
        return Err(RuleError::invalid(field, "a check's DM must lie between −50 and +50"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_higher_effect_wins() {
        // a: 5 + 4 + 1 = 10, Effect +2; b: 3 + 3 + 2 = 8, Effect 0 → a wins.
        let mut dice = Dice::scripted(vec![5, 4, 3, 3], 0).unwrap();
        let outcome = opposed_check(1, 2, &mut dice).unwrap();
        assert_eq!(outcome.a, CheckRoll { dice: [5, 4], dm: 1, total: 10, effect: 2, success: true });
        assert_eq!(outcome.b, CheckRoll { dice: [3, 3], dm: 2, total: 8, effect: 0, success: true });
        assert_eq!(outcome.winner, Some(OpposedSide::A));
        assert_eq!(outcome.winning_roll().map(|roll| roll.effect), Some(2));
    }

    #[test]
    fn both_failing_still_has_a_winner() {
        // a: 1 + 2 + 0 = 3, Effect −5; b: 2 + 2 + 0 = 4, Effect −4 → b wins.
        let mut dice = Dice::scripted(vec![1, 2, 2, 2], 0).unwrap();
        let outcome = opposed_check(0, 0, &mut dice).unwrap();
        assert_eq!(outcome.winner, Some(OpposedSide::B));
        assert!(!outcome.b.success);
        assert_eq!(outcome.winning_roll().map(|roll| roll.effect), Some(-4));
    }

    #[test]
    fn equal_effects_are_a_tie() {
        // a: 6 + 1 − 1 = 6; b: 2 + 3 + 1 = 6 → Effect −2 each → no winner.
        let mut dice = Dice::scripted(vec![6, 1, 2, 3], 0).unwrap();
        let outcome = opposed_check(-1, 1, &mut dice).unwrap();
        assert_eq!(outcome.winner, None);
        assert_eq!(outcome.winning_roll(), None);
        let purposes: Vec<_> = dice.rolls().iter().map(|die| &*die.purpose).collect();
        assert_eq!(
            purposes,
            [
                "opposed check: side a",
                "opposed check: side a",
                "opposed check: side b",
                "opposed check: side b"
            ]
        );
    }

    #[test]
    fn huge_dms_are_refused_by_field() {
        let mut dice = Dice::scripted(vec![], 0).unwrap();
        let err = opposed_check(0, 51, &mut dice).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "b_dm"));
        assert!(dice.rolls().is_empty());
    }
}
