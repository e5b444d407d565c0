//! Percentile tests: roll 1d100 against a target, then count Degrees of Success or Failure
//! (adeva-d100.txt, "Attacking", Steps Two and Three; "Action List" for Pinning tests).
//!
//! Decisions:
//! - Given by the lead: a test passes when the d100 is at most the target. On a pass the Degrees
//!   of Success are 1 + ⌊(target − roll) / 10⌋; on a failure the Degrees of Failure are
//!   1 + ⌊(roll − target) / 10⌋.
//! - A natural 1 always passes and a natural 100 always fails, whatever the target, so no test is
//!   ever certain. Such an overridden result counts exactly one degree.
//! - The target is not clamped beyond what its parts allow: the tested score (0..=100 for a
//!   characteristic, 0..=200 for a Deflector's strength) plus modifiers held to ±60 (see
//!   `test_modifiers.rs`). A target above 100 still fails on a 100 but yields more Degrees of
//!   Success; a target below 1 still passes on a 1. A bare target sent to [`test`] must lie in
//!   −100..=300.
//! - A Pinning test is a Willpower test (the text never names the characteristic); passing it
//!   means the character is not Pinned.

use super::Characteristic;
use super::test_modifiers::{Modifier, check_modifiers, total};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Lowest target a test accepts.
pub const MIN_TARGET: i32 = -100;
/// Highest target a test accepts.
pub const MAX_TARGET: i32 = 300;
/// Highest threshold a modified test starts from (a Deflector's strength may exceed 100).
pub const MAX_THRESHOLD: i32 = 200;

/// Which end of the die overrode the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100NaturalResult))]
#[serde(rename_all = "snake_case")]
pub enum NaturalResult {
    /// A 1 passed although the target was below 1.
    OneAlwaysPasses,
    /// A 100 failed although the target was 100 or more.
    HundredAlwaysFails,
}

/// One d100 test and its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100TestResult))]
pub struct TestResult {
    pub target: i32,
    pub roll: u32,
    pub passed: bool,
    /// Degrees of Success when passed, Degrees of Failure when not; always at least 1.
    pub degrees: u32,
    /// Set when a natural 1 or 100 decided the test against the target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub natural: Option<NaturalResult>,
    /// e.g. "d100 23 vs 45: passed, 3 DoS".
    pub explanation: String,
}

impl TestResult {
    /// Degrees of Success, 0 on a failure.
    pub fn degrees_of_success(&self) -> u32 {
        if self.passed { self.degrees } else { 0 }
    }

    /// Degrees of Failure, 0 on a pass.
    pub fn degrees_of_failure(&self) -> u32 {
        if self.passed { 0 } else { self.degrees }
    }
}

/// A test on a score with its modifiers, every one listed with its reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ModifiedTest))]
pub struct ModifiedTest {
    /// The characteristic (or Deflector strength) tested, before modifiers.
    pub base: i32,
    pub modifiers: Vec<Modifier>,
    /// Plain sum of the modifiers.
    pub modifier_sum: i32,
    /// The sum held to ±60; `base + modifier_total` is the target.
    pub modifier_total: i32,
    pub capped: bool,
    /// e.g. "45 +10 (standard attack) −20 (fog) = 35".
    pub working: String,
    pub test: TestResult,
}

/// Works out pass or fail and the degrees for a roll against a target (see the decisions; the
/// text uses passes and Degrees of Success throughout "Attacking" without defining them).
pub fn judge(target: i32, roll: u32) -> TestResult {
    let roll_i = roll as i32;
    let (passed, natural) = match roll {
        1 if target < 1 => (true, Some(NaturalResult::OneAlwaysPasses)),
        100 if target >= 100 => (false, Some(NaturalResult::HundredAlwaysFails)),
        _ => (roll_i <= target, None),
    };
    let degrees = match (natural, passed) {
        (Some(_), _) => 1,
        (None, true) => 1 + (target - roll_i) / 10,
        (None, false) => 1 + (roll_i - target) / 10,
    } as u32;
    let outcome = if passed { format!("passed, {degrees} DoS") } else { format!("failed, {degrees} DoF") };
    let note = match natural {
        Some(NaturalResult::OneAlwaysPasses) => " (a natural 1 always passes)",
        Some(NaturalResult::HundredAlwaysFails) => " (a natural 100 always fails)",
        None => "",
    };
    let explanation = format!("d100 {roll} vs {target}: {outcome}{note}");
    TestResult { target, roll, passed, degrees, natural, explanation }
}

/// Rolls 1d100 against `target` and reports pass or fail with its degrees (adeva-d100.txt,
/// "Attacking", Step Three; the degrees follow the lead's decision in the module doc).
pub fn test(target: i32, dice: &mut Dice, purpose: &str) -> Result<TestResult, RuleError> {
    if !(MIN_TARGET..=MAX_TARGET).contains(&target) {
        return Err(RuleError::invalid("target", "a test's target must lie between −100 and 300"));
    }
    let roll = dice.roll(100, purpose)?;
    Ok(judge(target, roll))
}

/// A test on a characteristic after its modifiers, each kept with its reason (adeva-d100.txt,
/// "Attacking", Steps Two and Three).
pub fn modified_test(
    characteristic: Characteristic,
    modifiers: &[Modifier],
    dice: &mut Dice,
    purpose: &str,
) -> Result<ModifiedTest, RuleError> {
    threshold_test(characteristic.get(), modifiers, dice, purpose)
}

/// As [`modified_test`], from any threshold in 0..=200, e.g. a Deflector's strength
/// (adeva-d100.txt, "Deflectors": the strength is the test's success threshold).
pub fn threshold_test(
    base: i32,
    modifiers: &[Modifier],
    dice: &mut Dice,
    purpose: &str,
) -> Result<ModifiedTest, RuleError> {
    if !(0..=MAX_THRESHOLD).contains(&base) {
        return Err(RuleError::invalid("characteristic", "a tested score must lie between 0 and 200"));
    }
    check_modifiers("modifiers", modifiers)?;
    let sums = total(modifiers);
    let target = base + sums.total;
    let mut working = base.to_string();
    for modifier in modifiers {
        working.push_str(&format!(" {:+} ({})", modifier.value, modifier.reason));
    }
    if sums.capped {
        working.push_str(&format!(" [sum {:+} held to {:+}]", sums.sum, sums.total));
    }
    working.push_str(&format!(" = {target}"));
    let roll = dice.roll(100, purpose)?;
    Ok(ModifiedTest {
        base,
        modifiers: modifiers.to_vec(),
        modifier_sum: sums.sum,
        modifier_total: sums.total,
        capped: sums.capped,
        working,
        test: judge(target, roll),
    })
}

/// A Pinning test and whether the character ends up Pinned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100PinningResult))]
pub struct PinningResult {
    pub test: ModifiedTest,
    pub pinned: bool,
}

/// A Pinning test: Willpower with its modifiers (−10 or −20 under suppressive fire); a failure
/// pins the character (adeva-d100.txt, "Action List": Overwatch and Suppressive Fire; the
/// characteristic is the lead's decision).
pub fn pinning_test(
    willpower: Characteristic,
    modifiers: &[Modifier],
    dice: &mut Dice,
) -> Result<PinningResult, RuleError> {
    let test = modified_test(willpower, modifiers, dice, "pinning test (Willpower)")?;
    let pinned = !test.test.passed;
    Ok(PinningResult { test, pinned })
}

/// A Pinning test of a stat block: its `pinning_characteristic` (Willpower when absent), after
/// its characteristic decays ("Characteristic Decay"), with `modifiers` (adeva-d100.txt,
/// "Action List": Overwatch and Suppressive Fire). Every stored operation that makes a Pinning
/// test should go through this, so the stat block's choice is honoured.
pub fn pinning_test_of(
    stats: &super::Stats,
    modifiers: &[Modifier],
    dice: &mut Dice,
) -> Result<PinningResult, RuleError> {
    use super::decay::{CharacteristicName, effective_characteristic};
    let name = stats.pinning_characteristic.unwrap_or(CharacteristicName::Wp);
    let value = effective_characteristic(name.value(stats), name, &stats.decays)?.value;
    let label = match name {
        CharacteristicName::Ws => "WS",
        CharacteristicName::Bs => "BS",
        CharacteristicName::S => "S",
        CharacteristicName::T => "T",
        CharacteristicName::Ag => "Ag",
        CharacteristicName::Int => "Int",
        CharacteristicName::Per => "Per",
        CharacteristicName::Wp => "WP",
        CharacteristicName::Fel => "Fel",
    };
    let test = modified_test(value, modifiers, dice, &format!("pinning test ({label})"))?;
    let pinned = !test.test.passed;
    Ok(PinningResult { test, pinned })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(value: i64) -> Characteristic {
        Characteristic::new(value).unwrap()
    }

    fn roll_against(target: i32, die: u32) -> TestResult {
        let mut dice = Dice::scripted(vec![die], 0).unwrap();
        test(target, &mut dice, "t").unwrap()
    }

    #[test]
    fn a_roll_at_or_under_the_target_passes_with_degrees_of_success() {
        // 45 − 23 = 22 → 1 + 2 = 3 DoS.
        let result = roll_against(45, 23);
        assert_eq!((result.passed, result.degrees, result.natural), (true, 3, None));
        assert_eq!(result.explanation, "d100 23 vs 45: passed, 3 DoS");
        // Exactly on the target: 1 + 0 = 1 DoS.
        assert_eq!((roll_against(45, 45).passed, roll_against(45, 45).degrees), (true, 1));
        // 45 − 36 = 9 → still 1 DoS; 45 − 35 = 10 → 2 DoS.
        assert_eq!(roll_against(45, 36).degrees, 1);
        assert_eq!(roll_against(45, 35).degrees, 2);
    }

    #[test]
    fn a_roll_over_the_target_fails_with_degrees_of_failure() {
        // 67 − 45 = 22 → 1 + 2 = 3 DoF.
        let result = roll_against(45, 67);
        assert_eq!((result.passed, result.degrees), (false, 3));
        assert_eq!((result.degrees_of_success(), result.degrees_of_failure()), (0, 3));
        assert_eq!(result.explanation, "d100 67 vs 45: failed, 3 DoF");
        // 46 − 45 = 1 → 1 DoF; 55 − 45 = 10 → 2 DoF.
        assert_eq!(roll_against(45, 46).degrees, 1);
        assert_eq!(roll_against(45, 55).degrees, 2);
    }

    #[test]
    fn a_natural_one_passes_and_a_natural_hundred_fails() {
        // Target −15: only the 1 passes, with 1 DoS.
        let one = roll_against(-15, 1);
        assert_eq!((one.passed, one.degrees, one.natural), (true, 1, Some(NaturalResult::OneAlwaysPasses)));
        assert_eq!(one.explanation, "d100 1 vs -15: passed, 1 DoS (a natural 1 always passes)");
        // Target 130: the 100 fails with 1 DoF; a 70 passes with 1 + 6 = 7 DoS.
        let hundred = roll_against(130, 100);
        assert_eq!((hundred.passed, hundred.degrees), (false, 1));
        assert_eq!(hundred.natural, Some(NaturalResult::HundredAlwaysFails));
        assert_eq!(roll_against(130, 70).degrees, 7);
        // A 1 against a target of 1 or more is an ordinary pass: 40 − 1 = 39 → 4 DoS.
        assert_eq!((roll_against(40, 1).natural, roll_against(40, 1).degrees), (None, 4));
    }

    #[test]
    fn targets_outside_the_range_are_refused_before_rolling() {
        let mut dice = Dice::scripted(vec![], 0).unwrap();
        let err = test(301, &mut dice, "t").unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "target"));
        assert!(dice.rolls().is_empty());
    }

    #[test]
    fn a_modified_test_lists_every_modifier() {
        // WS 45 + 10 (standard) − 20 (fog) = 35; roll 12 → 35 − 12 = 23 → 3 DoS.
        let modifiers = [Modifier::new("standard attack", 10), Modifier::new("fog", -20)];
        let mut dice = Dice::scripted(vec![12], 0).unwrap();
        let result = modified_test(c(45), &modifiers, &mut dice, "attack").unwrap();
        assert_eq!(
            (result.base, result.modifier_sum, result.modifier_total, result.capped),
            (45, -10, -10, false)
        );
        assert_eq!(result.working, "45 +10 (standard attack) -20 (fog) = 35");
        assert_eq!((result.test.target, result.test.roll, result.test.degrees), (35, 12, 3));
        assert_eq!(dice.rolls()[0].purpose, "attack");
    }

    #[test]
    fn a_modified_test_holds_the_modifiers_to_sixty() {
        // 40 + (30 + 30 + 20 = 80, held to 60) = 100; roll 55 → 100 − 55 = 45 → 5 DoS.
        let modifiers =
            [Modifier::new("surprised", 30), Modifier::new("heavy attack", 30), Modifier::new("aim", 20)];
        let mut dice = Dice::scripted(vec![55], 0).unwrap();
        let result = modified_test(c(40), &modifiers, &mut dice, "attack").unwrap();
        assert_eq!((result.modifier_sum, result.modifier_total, result.capped), (80, 60, true));
        assert!(result.working.ends_with("[sum +80 held to +60] = 100"));
        assert_eq!((result.test.target, result.test.degrees), (100, 5));
    }

    #[test]
    fn a_threshold_above_two_hundred_or_a_bad_modifier_is_refused() {
        let mut dice = Dice::scripted(vec![], 0).unwrap();
        let err = threshold_test(201, &[], &mut dice, "t").unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "characteristic"));
        let err = threshold_test(50, &[Modifier::new("", 10)], &mut dice, "t").unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "modifiers[0].reason"));
        assert!(dice.rolls().is_empty());
    }

    #[test]
    fn failing_a_pinning_test_pins() {
        // WP 38 − 20 (full-auto suppressive fire) = 18; roll 30 fails → pinned.
        let mut dice = Dice::scripted(vec![30, 9], 0).unwrap();
        let modifiers = [Modifier::new("full-auto suppressive fire", -20)];
        let failed = pinning_test(c(38), &modifiers, &mut dice).unwrap();
        assert_eq!((failed.test.test.target, failed.test.test.passed, failed.pinned), (18, false, true));
        // Roll 9 ≤ 18 passes → not pinned.
        let passed = pinning_test(c(38), &modifiers, &mut dice).unwrap();
        assert!(!passed.pinned);
        assert_eq!(dice.rolls()[0].purpose, "pinning test (Willpower)");
    }
}
