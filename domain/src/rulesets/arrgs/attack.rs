//! The Attack check against a Defence and its Success Value, with criticals (arrgs.txt,
//! "Attacks", "Success Value", "Criticals", "Critical Range", "Attack Manoeuvre", "Ranged
//! Attacks").
//!
//! Decisions:
//! - Success is decided by the Success Value: base + (check − DC), failing at 0 or less, as the
//!   "Attacks" and "Success Value" sections give it (a check a little under the DC can still
//!   succeed for less). Manoeuvres without a Success Value succeed when the check equals or beats
//!   the DC.
//! - A critical's extra check adds its own Success Value (base ± its margin) only when that is
//!   above 0 (the text says the character "may add" it). The chain stops after 10 extra checks.
//! - A critical hit is an attack that succeeds after a first check in the Critical Range.
//! - A natural 1 on an attack check always fails ("Attack Manoeuvre": "a natural 1 (which is
//!   always a fail)"), whatever the DC; a critical re-roll of a natural 1 adds nothing.
//! - A spell's base difficulty (10 + spell level) is checked against the first check.

use super::check::{Check, Magnitude};
use super::modifier::Modifier;
use super::bonuses::CheckKind;
use crate::dice::{Dice, DiceError};
use serde::{Deserialize, Serialize};

/// Most extra checks one critical chain may make.
pub const MAX_CRITICAL_CHECKS: usize = 10;

/// Everything about an attack check settled before any die is rolled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttackLine {
    pub kind: CheckKind,
    pub modifiers: Vec<Modifier>,
    pub magnitude: Option<Magnitude>,
    /// The base Success Value (weapon damage, squares, …); None for pass/fail manoeuvres.
    pub base: Option<i32>,
    /// The target DC (0 when the target offers no defence).
    pub dc: i32,
    /// Lowest natural roll that is critical (20 by default).
    pub critical_from: u32,
    /// 10 + spell level for spells.
    pub spell_difficulty: Option<i32>,
    /// Run the critical chain (off for pass/fail manoeuvres).
    pub chain: bool,
}

/// One check of an attack and the Success Value it gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAttackCheck))]
pub struct AttackCheck {
    pub check: Check,
    /// Check Result − DC.
    pub margin: i32,
    /// Base ± margin (absent for pass/fail manoeuvres).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success_value: Option<i32>,
    /// The natural roll is in the Critical Range.
    pub critical: bool,
}

/// Why an attack failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsFailure))]
#[serde(tag = "failure", rename_all = "snake_case")]
pub enum Failure {
    /// The Success Value fell to 0 or less.
    SuccessValue { success_value: i32 },
    /// The check was under the DC (pass/fail manoeuvres).
    BelowDc,
    /// A natural 1, which is always a fail.
    NaturalOne,
    /// The spell's check was under its base difficulty.
    SpellDifficulty { difficulty: i32 },
}

/// The checks of one attack and their result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAttackRoll))]
pub struct AttackRoll {
    pub dc: i32,
    /// The first check, then each critical re-roll.
    pub checks: Vec<AttackCheck>,
    /// The total Success Value (first plus each positive critical addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success_value: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// A critical hit (arrgs.txt, "Criticals").
    pub critical_hit: bool,
}

impl AttackRoll {
    pub fn succeeded(&self) -> bool {
        self.failure.is_none()
    }

    /// The first check's result (the DC of a Defence manoeuvre against it).
    pub fn first_result(&self) -> i32 {
        self.checks.first().map_or(0, |c| c.check.result)
    }
}

/// Rolls the attack: the first check, then while the natural stays in the Critical Range another
/// check against the same DC adding its Success Value (arrgs.txt, "Criticals").
pub fn roll_attack(line: &AttackLine, dice: &mut Dice, purpose: &str) -> Result<AttackRoll, DiceError> {
    let first = attack_check(line, dice, purpose)?;
    let failure = first_failure(line, &first);
    let mut checks = vec![first];
    let mut total = checks[0].success_value;
    if line.chain && failure.is_none() {
        while checks.last().is_some_and(|c| c.critical) && checks.len() <= MAX_CRITICAL_CHECKS {
            let extra = attack_check(line, dice, &format!("{purpose} (critical)"))?;
            if let (Some(sum), Some(more)) = (total, extra.success_value.filter(|_| !is_natural_one(&extra.check))) {
                total = Some(sum.saturating_add(more.max(0)));
            }
            checks.push(extra);
        }
    }
    let critical_hit = failure.is_none() && checks[0].critical;
    Ok(AttackRoll { dc: line.dc, checks, success_value: total, failure, critical_hit })
}

fn attack_check(line: &AttackLine, dice: &mut Dice, purpose: &str) -> Result<AttackCheck, DiceError> {
    let check = Check::roll(line.kind, line.modifiers.clone(), line.magnitude, dice, purpose)?;
    let margin = check.result.saturating_sub(line.dc);
    let success_value = line.base.map(|base| base.saturating_add(margin));
    let critical = check.natural.is_some_and(|n| n >= line.critical_from);
    Ok(AttackCheck { check, margin, success_value, critical })
}

/// A natural, unmodified 1: always a fail (arrgs.txt, "Attack Manoeuvre").
pub fn is_natural_one(check: &Check) -> bool {
    check.natural == Some(1)
}

/// Failure of the first check: a natural 1, a spell under its base difficulty, a Success Value of
/// 0 or less, or (pass/fail) a check under the DC.
fn first_failure(line: &AttackLine, first: &AttackCheck) -> Option<Failure> {
    if is_natural_one(&first.check) {
        return Some(Failure::NaturalOne);
    }
    if let Some(difficulty) = line.spell_difficulty
        && first.check.result < difficulty
    {
        return Some(Failure::SpellDifficulty { difficulty });
    }
    match first.success_value {
        Some(value) if value <= 0 => Some(Failure::SuccessValue { success_value: value }),
        None if first.margin < 0 => Some(Failure::BelowDc),
        _ => None,
    }
}

/// The Range modifier: −2 per Range Increment beyond the first (arrgs.txt, "Range Increment":
/// increment 3 at 10 squares → −6).
pub fn range_penalty(distance: i32, increment: i32) -> i32 {
    let increments = super::fighter::increment(distance, increment);
    -2 * (increments - 1).max(0)
}

#[cfg(test)]
#[path = "attack_tests.rs"]
mod tests;
