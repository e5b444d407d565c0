//! Pinning tests (adeva-d100.txt, "Action List": Overwatch and Suppressive Fire call for them).
//!
//! Decisions:
//! - A Pinning test is a Willpower test, as in `test_roll.rs`, unless the character's stat block
//!   names another characteristic for it (`characteristic`).
//! - Failing pins the character. All the text says of being Pinned is where: an Overwatch pins its
//!   targets where they stood when they triggered it. So a pinned character is held at that spot
//!   (`held_at`, when the caller sends `location`); what else Pinned forbids is left to the
//!   table, as the text says nothing more.

use super::CharacteristicName;
use crate::dice::Dice;
use crate::rulesets::RuleError;
use crate::rulesets::adeva_d100::Stats;
use crate::rulesets::adeva_d100::test_modifiers::{Modifier, within};
use crate::rulesets::adeva_d100::test_roll::{ModifiedTest, modified_test};
use serde::{Deserialize, Serialize};

/// A character who must make a Pinning test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100PinningSubject))]
#[serde(deny_unknown_fields)]
pub struct PinningSubject {
    pub name: String,
    pub stats: Stats,
    /// The characteristic the stat block says Pinning tests use, if not Willpower.
    #[serde(default)]
    pub characteristic: Option<CharacteristicName>,
    /// Where the character stands (for an Overwatch: where it triggered the attack).
    #[serde(default)]
    pub location: Option<String>,
}

/// One Pinning test and its result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100PinningOutcome))]
pub struct PinningOutcome {
    pub name: String,
    pub characteristic: CharacteristicName,
    pub test: ModifiedTest,
    pub pinned: bool,
    /// Where a pinned character is held, when its location was sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held_at: Option<String>,
}

/// A Pinning test: Willpower (or the stat block's own choice) with `modifiers`; a failure pins
/// (adeva-d100.txt, "Overwatch", "Suppressive Fire"; see the decisions). `field` is the JSON path
/// of the subject, for errors.
pub fn pinning_test(
    subject: &PinningSubject,
    modifiers: &[Modifier],
    field: &str,
    dice: &mut Dice,
) -> Result<PinningOutcome, RuleError> {
    if subject.name.trim().is_empty() {
        return Err(RuleError::invalid(format!("{field}.name"), "name who tests"));
    }
    let characteristic = subject.characteristic.unwrap_or(CharacteristicName::Wp);
    let score = characteristic.value(&subject.stats);
    let purpose = format!("pinning test ({}): {}", characteristic.label(), subject.name.trim());
    let test = modified_test(score, modifiers, dice, &purpose).map_err(|error| within(field, error))?;
    let pinned = !test.test.passed;
    let held_at = if pinned { subject.location.clone() } else { None };
    Ok(PinningOutcome { name: subject.name.clone(), characteristic, test, pinned, held_at })
}

/// Pinning tests for several characters, in the order given, each with the same modifiers
/// (adeva-d100.txt, "Overwatch", "Suppressive Fire"); `field` is the JSON path of the list.
pub fn pinning_tests(
    subjects: &[PinningSubject],
    modifiers: &[Modifier],
    field: &str,
    dice: &mut Dice,
) -> Result<Vec<PinningOutcome>, RuleError> {
    subjects
        .iter()
        .enumerate()
        .map(|(index, subject)| pinning_test(subject, modifiers, &format!("{field}[{index}]"), dice))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::adeva_d100::actions::test_support::stats;

    fn subject(name: &str, overrides: &[(&str, i64)]) -> PinningSubject {
        PinningSubject { name: name.into(), stats: stats(overrides), characteristic: None, location: None }
    }

    #[test]
    fn a_failed_willpower_test_pins_where_the_character_stood() {
        // WP 42, no modifier; roll 57 > 42 → failed → pinned, held at "doorway".
        let mut target = subject("Rook", &[("wp", 42)]);
        target.location = Some("doorway".into());
        let mut dice = Dice::scripted(vec![57], 0).unwrap();
        let outcome = pinning_test(&target, &[], "targets[0]", &mut dice).unwrap();
        assert_eq!(
            (outcome.characteristic, outcome.test.test.target, outcome.pinned),
            (CharacteristicName::Wp, 42, true)
        );
        assert_eq!(outcome.held_at.as_deref(), Some("doorway"));
        assert_eq!(dice.rolls()[0].purpose, "pinning test (Willpower): Rook");
    }

    #[test]
    fn a_passed_test_does_not_pin() {
        // WP 42 − 10 = 32; roll 32 → passed (1 DoS) → not pinned, not held.
        let mut target = subject("Rook", &[("wp", 42)]);
        target.location = Some("doorway".into());
        let mut dice = Dice::scripted(vec![32], 0).unwrap();
        let penalty = [Modifier::new("semi-auto suppressive fire", -10)];
        let outcome = pinning_test(&target, &penalty, "victims[0]", &mut dice).unwrap();
        assert_eq!((outcome.test.test.target, outcome.test.test.passed, outcome.pinned), (32, true, false));
        assert_eq!(outcome.held_at, None);
    }

    #[test]
    fn the_stat_block_may_name_another_characteristic() {
        // Toughness 55 instead of WP 20; −20 → 35; roll 35 passes; against WP it would be 0 and fail.
        let mut drone = subject("Drone", &[("t", 55), ("wp", 20)]);
        drone.characteristic = Some(CharacteristicName::T);
        let mut dice = Dice::scripted(vec![35], 0).unwrap();
        let penalty = [Modifier::new("full-auto suppressive fire", -20)];
        let outcome = pinning_test(&drone, &penalty, "victims[0]", &mut dice).unwrap();
        assert_eq!(
            (outcome.characteristic, outcome.test.test.target, outcome.pinned),
            (CharacteristicName::T, 35, false)
        );
        assert_eq!(dice.rolls()[0].purpose, "pinning test (Toughness): Drone");
    }

    #[test]
    fn several_subjects_test_in_order_and_errors_name_the_subject() {
        // A: WP 30, roll 10 → passes; B: WP 30, roll 90 → pinned.
        let subjects = [subject("A", &[]), subject("B", &[])];
        let mut dice = Dice::scripted(vec![10, 90], 0).unwrap();
        let outcomes = pinning_tests(&subjects, &[], "victims", &mut dice).unwrap();
        assert_eq!(outcomes.iter().map(|o| o.pinned).collect::<Vec<_>>(), vec![false, true]);
        let bad = [subject("A", &[]), subject(" ", &[])];
        let err = pinning_tests(&bad, &[], "victims", &mut Dice::scripted(vec![10], 0).unwrap()).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "victims[1].name"));
        let blank = [Modifier::new("", -10)];
        let err = pinning_test(&subject("A", &[]), &blank, "victims[0]", &mut dice).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "victims[0].modifiers[0].reason"));
    }
}
