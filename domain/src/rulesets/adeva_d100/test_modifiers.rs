//! Bonuses and penalties to a percentile test, each carrying the reason it applies
//! (adeva-d100.txt, "Attacking", Step Two: charging, aiming and higher ground help, fog and
//! fatigue hinder).
//!
//! Decisions:
//! - A modifier is a signed whole number added to the score being tested: +10 is a bonus, −20 a
//!   penalty.
//! - The text puts no limit on how far modifiers may stack. We hold the sum on any one test to
//!   −60..=+60 ([`MODIFIER_CAP`]), so that piled-up bonuses (a surprised target's +30, a Heavy
//!   Attack's +30, a full Aim's +20) cannot make a test certain. The uncapped sum is reported next
//!   to the capped one, so the cap is always visible.
//! - Bounds on input, to keep the arithmetic small: at most [`MAX_MODIFIERS`] modifiers on one
//!   test, each between −100 and +100, each with a non-blank reason.

use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// The most the modifiers on one test may add or take away, all together.
pub const MODIFIER_CAP: i32 = 60;
/// The most modifiers one test accepts.
pub const MAX_MODIFIERS: usize = 30;
/// The largest single modifier, either way.
pub const MAX_MODIFIER: i32 = 100;

/// One bonus or penalty and why it applies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Modifier))]
#[serde(deny_unknown_fields)]
pub struct Modifier {
    pub reason: String,
    /// Added to the tested score: positive for a bonus, negative for a penalty.
    pub value: i32,
}

impl Modifier {
    pub fn new(reason: impl Into<String>, value: i32) -> Self {
        Self { reason: reason.into(), value }
    }
}

/// The modifiers of one test added up, before and after the cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ModifierTotal))]
pub struct ModifierTotal {
    /// Plain sum of every modifier.
    pub sum: i32,
    /// The sum held to −60..=+60: what the test actually uses.
    pub total: i32,
    /// The cap changed the sum.
    pub capped: bool,
}

/// Adds the modifiers and holds the sum to ±60 (see the decisions; the text itself sets no cap,
/// adeva-d100.txt, "Attacking", Step Two).
pub fn total(modifiers: &[Modifier]) -> ModifierTotal {
    let sum = modifiers.iter().map(|modifier| modifier.value).sum::<i32>();
    let total = sum.clamp(-MODIFIER_CAP, MODIFIER_CAP);
    ModifierTotal { sum, total, capped: total != sum }
}

/// Refuses more than 30 modifiers, a blank reason or a value beyond ±100; `field` is the JSON path
/// of the list, e.g. `"modifiers"`.
pub fn check_modifiers(field: &str, modifiers: &[Modifier]) -> Result<(), RuleError> {
    if modifiers.len() > MAX_MODIFIERS {
        return Err(RuleError::invalid(field, format!("at most {MAX_MODIFIERS} modifiers may be sent")));
    }
    for (index, modifier) in modifiers.iter().enumerate() {
        if modifier.reason.trim().is_empty() {
            return Err(RuleError::invalid(
                format!("{field}[{index}].reason"),
                "every modifier needs a reason",
            ));
        }
        if modifier.value.abs() > MAX_MODIFIER {
            return Err(RuleError::invalid(
                format!("{field}[{index}].value"),
                "a single modifier must lie between −100 and +100",
            ));
        }
    }
    Ok(())
}

/// Puts `prefix.` in front of the field an error names.
pub fn within(prefix: &str, error: RuleError) -> RuleError {
    match error {
        RuleError::Invalid { field, message } => RuleError::invalid(format!("{prefix}.{field}"), message),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_adds_every_modifier() {
        // +10 − 20 + 5 = −5, well inside the cap.
        let modifiers = [Modifier::new("a", 10), Modifier::new("b", -20), Modifier::new("c", 5)];
        assert_eq!(total(&modifiers), ModifierTotal { sum: -5, total: -5, capped: false });
    }

    #[test]
    fn the_total_is_held_to_sixty_either_way() {
        // +30 surprised + 30 heavy attack + 20 aim = +80 → +60.
        let bonuses = [Modifier::new("surprised", 30), Modifier::new("heavy", 30), Modifier::new("aim", 20)];
        assert_eq!(total(&bonuses), ModifierTotal { sum: 80, total: 60, capped: true });
        // −40 − 30 = −70 → −60.
        let penalties = [Modifier::new("fog", -40), Modifier::new("multiple attack", -30)];
        assert_eq!(total(&penalties), ModifierTotal { sum: -70, total: -60, capped: true });
    }

    #[test]
    fn bad_modifiers_are_refused_by_path() {
        let blank = [Modifier::new("ok", 10), Modifier::new("  ", 10)];
        let err = check_modifiers("modifiers", &blank).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "modifiers[1].reason"));
        let huge = [Modifier::new("huge", 101)];
        let err = check_modifiers("x", &huge).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "x[0].value"));
        let many = vec![Modifier::new("m", 1); MAX_MODIFIERS + 1];
        let err = check_modifiers("modifiers", &many).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "modifiers"));
    }
}
