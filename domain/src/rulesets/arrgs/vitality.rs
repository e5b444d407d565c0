//! Vitality spent and lost, and the Fortitude checks of the Disabled, Dying, Staggered and
//! Unconscious conditions (arrgs.txt, "Vitality", "Disabled", "Dying [n]", "Death",
//! "Unconscious", "Conditions", "Combat Actions").
//!
//! Decisions:
//! - These Fortitude Defence checks are rolled (1d20 + Fortitude modifiers): the Unconscious
//!   check is "rolled normally", and "each point he exceeds the target DC" needs a roll.
//! - The Disabled check's DC is not given by the text: 10 by default (the usual ARRGS DC), an
//!   encounter option (`disabled_dc`).
//! - An action's Vitality cost is paid first, then the condition check of the condition the
//!   character had when it began the action.
//! - Dying success: the loss of n Vitality is reduced by 1 per point the check exceeds the DC
//!   (never below 0); failure loses n. Only the End of Round check lowers n.
//! - A Disabled character who fails gains Dying [1] (so it is no longer Disabled); one who
//!   succeeds loses Disabled, which returns at once while Current Vitality is 0 or less.
//! - Disabled and Dying never stand together: gaining Dying replaces Disabled.
//! - End of Round checks carry no Multiple Actions penalty: that lasts for the round just ended.
//! - A pending Assisted modifier on Fortitude (Aid Another) is used up by the next of these checks,
//!   whatever called for it ("the next Skill Check (of the same type)").

use super::check::{Check, standing_modifiers, take_assist};
use super::fighter::{Fighter, Standing};
use super::modifier::Modifier;
use super::bonuses::{Bonuses, CheckKind};
use crate::dice::{Dice, DiceError};
use serde::{Deserialize, Serialize};

/// Why a Fortitude check was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsSurvivalReason))]
#[serde(rename_all = "snake_case")]
pub enum SurvivalReason {
    /// Dying and performing an action.
    DyingAction,
    /// Dying and making a Reaction check.
    DyingReaction,
    /// Dying at the End of Round.
    DyingEndOfRound,
    /// Disabled and performing an action.
    DisabledAction,
    /// Staggered at the End of Round.
    StaggeredEndOfRound,
    /// Unconscious and trying to wake.
    Wake,
}

/// A Fortitude check made because of a condition, and what it did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsSurvivalCheck))]
pub struct SurvivalCheck {
    pub reason: SurvivalReason,
    pub check: Check,
    pub dc: i32,
    pub success: bool,
    /// Vitality lost because of the check.
    pub vitality_lost: i32,
    /// The condition afterwards, e.g. "Dying [1] → Dying [0]: Disabled".
    pub outcome: String,
}

/// A condition's Fortitude Defence check: 1d20 + the Fortitude modifiers, the round's
/// penalties, `extra`, and an Assisted modifier from Aid Another on Fortitude waiting for the
/// fighter's next Fortitude check, which this check uses up ("Aid Another Manoeuvre": "the next
/// Skill Check (of the same type)").
fn fortitude(fighter: &mut Fighter, extra: Option<Modifier>, dice: &mut Dice, purpose: &str) -> Result<Check, DiceError> {
    let mut modifiers = standing_modifiers(fighter, CheckKind::Fortitude, None, &Bonuses::default(), true);
    modifiers.extend(extra);
    modifiers.extend(take_assist(fighter, CheckKind::Fortitude));
    Check::roll(CheckKind::Fortitude, modifiers, None, dice, purpose)
}

/// Dying's check on an action, a reaction or at the End of Round: DC = negative Vitality + n;
/// failure loses n Vitality, success loses n less 1 per point above the DC; at the End of Round
/// success also lowers n by 1, and at 0 the character is Disabled instead (arrgs.txt, "Dying
/// [n]").
pub fn dying_check(
    fighter: &mut Fighter,
    reason: SurvivalReason,
    extra: Option<Modifier>,
    dice: &mut Dice,
) -> Result<SurvivalCheck, DiceError> {
    let n = i32::try_from(fighter.state.dying).unwrap_or(i32::MAX);
    let dc = fighter.negative_vitality().saturating_add(n);
    let purpose = format!("Dying Fortitude check: {}", fighter.name);
    let check = fortitude(fighter, extra, dice, &purpose)?;
    let success = check.result >= dc;
    let lost = if success { (n - (check.result - dc)).max(0) } else { n };
    fighter.lose_vitality(lost);
    let before = fighter.state.dying;
    let mut outcome = format!("Dying [{before}]");
    if success && reason == SurvivalReason::DyingEndOfRound {
        fighter.state.dying -= 1;
        outcome = format!("Dying [{before}] → [{}]", fighter.state.dying);
        if fighter.state.dying == 0 {
            fighter.state.disabled_after_dying = true;
            outcome.push_str(": no longer Dying, Disabled");
        }
    }
    Ok(SurvivalCheck { reason, check, dc, success, vitality_lost: lost, outcome })
}

/// Disabled's check on an action: failure loses 1 more Vitality and turns Disabled into Dying
/// [1]; success ends Disabled unless Current Vitality is 0 or less (arrgs.txt, "Disabled").
pub fn disabled_check(
    fighter: &mut Fighter,
    dc: i32,
    extra: Option<Modifier>,
    dice: &mut Dice,
) -> Result<SurvivalCheck, DiceError> {
    let purpose = format!("Disabled Fortitude check: {}", fighter.name);
    let check = fortitude(fighter, extra, dice, &purpose)?;
    let success = check.result >= dc;
    fighter.state.disabled_after_dying = false;
    let (lost, outcome) = if success {
        let outcome = if fighter.is_disabled() {
            "Disabled again at once: Current Vitality is 0 or less"
        } else {
            "no longer Disabled"
        };
        (0, outcome.to_owned())
    } else {
        fighter.lose_vitality(1);
        fighter.state.dying = 1;
        (1, "no longer Disabled: Dying [1]".to_owned())
    };
    Ok(SurvivalCheck { reason: SurvivalReason::DisabledAction, check, dc, success, vitality_lost: lost, outcome })
}

/// Staggered's End of Round check: DC 15 + n; success lowers n by 1 (arrgs.txt, "Staggered [n]").
pub fn staggered_check(fighter: &mut Fighter, dice: &mut Dice) -> Result<SurvivalCheck, DiceError> {
    let n = fighter.state.staggered;
    let dc = 15i32.saturating_add(i32::try_from(n).unwrap_or(i32::MAX));
    let purpose = format!("Staggered Fortitude check: {}", fighter.name);
    let check = fortitude(fighter, None, dice, &purpose)?;
    let success = check.result >= dc;
    if success {
        fighter.state.staggered -= 1;
    }
    let outcome = format!("Staggered [{n}] → [{}]", fighter.state.staggered);
    Ok(SurvivalCheck { reason: SurvivalReason::StaggeredEndOfRound, check, dc, success, vitality_lost: 0, outcome })
}

/// Unconscious's waking check: DC = negative Vitality + applications of Dying; not possible while
/// Dying (arrgs.txt, "Unconscious").
pub fn wake_check(fighter: &mut Fighter, dice: &mut Dice) -> Result<SurvivalCheck, DiceError> {
    let dying = i32::try_from(fighter.state.dying).unwrap_or(i32::MAX);
    let dc = fighter.negative_vitality().saturating_add(dying);
    let purpose = format!("waking Fortitude check: {}", fighter.name);
    let check = fortitude(fighter, None, dice, &purpose)?;
    let success = check.result >= dc;
    if success {
        fighter.state.unconscious = false;
    }
    let outcome = if success { "wakes up" } else { "stays Unconscious" }.to_owned();
    Ok(SurvivalCheck { reason: SurvivalReason::Wake, check, dc, success, vitality_lost: 0, outcome })
}

/// What performing one action cost in Vitality.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsExertion))]
pub struct Exertion {
    /// Vitality the action itself drains (1, or more where stated).
    pub cost: i32,
    pub vitality_before: i32,
    /// The Disabled or Dying check the action called for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition_check: Option<SurvivalCheck>,
    pub vitality_after: i32,
    /// Killed by the effort: the action has no effect.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub died: bool,
}

/// Pays an action's Vitality and makes the check of the condition the actor started it with
/// (arrgs.txt, "Vitality": every action drains 1 or more; "Disabled", "Dying [n]").
pub fn exert(
    fighter: &mut Fighter,
    cost: i32,
    disabled_dc: i32,
    penalty: Option<Modifier>,
    dice: &mut Dice,
) -> Result<Exertion, crate::rulesets::RuleError> {
    fighter.total_vitality()?;
    let vitality_before = fighter.current_vitality();
    let (dying, disabled) = (fighter.state.dying > 0, fighter.is_disabled());
    fighter.lose_vitality(cost);
    let condition_check = if dying {
        Some(dying_check(fighter, SurvivalReason::DyingAction, penalty, dice)?)
    } else if disabled {
        Some(disabled_check(fighter, disabled_dc, penalty, dice)?)
    } else {
        None
    };
    Ok(Exertion {
        cost,
        vitality_before,
        condition_check,
        vitality_after: fighter.current_vitality(),
        died: fighter.is_dead(),
    })
}

/// A Dying character's check on making a Reaction check (arrgs.txt, "Dying [n]": "including any
/// Reaction check"). None when not Dying or not tracked.
pub fn react(fighter: &mut Fighter, penalty: Option<Modifier>, dice: &mut Dice) -> Result<Option<SurvivalCheck>, DiceError> {
    if fighter.state.dying == 0 || fighter.stats.vitality.is_none() || fighter.is_dead() {
        return Ok(None);
    }
    dying_check(fighter, SurvivalReason::DyingReaction, penalty, dice).map(Some)
}

/// Gains one application of Dying (a critical hit; arrgs.txt, "Criticals": "Dying").
pub fn inflict_dying(fighter: &mut Fighter) {
    fighter.state.dying = fighter.state.dying.saturating_add(1);
    fighter.state.disabled_after_dying = false;
}

/// The standing of a fighter, for reports.
pub fn standing(fighter: &Fighter) -> Standing {
    fighter.standing()
}

#[cfg(test)]
#[path = "vitality_tests.rs"]
mod tests;
