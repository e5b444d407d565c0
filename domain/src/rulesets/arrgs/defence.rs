//! A target's defences: which Reaction Defence is the DC of an attack (arrgs.txt, "Attacks",
//! "Defence"), and the Defence manoeuvre it may declare (arrgs.txt, "Defence Manoeuvre"): 2 AAP
//! as an Immediate action, made only if the attack succeeds, an Action check against the first
//! Attack check's result; each point above it takes 1 from the Success Value.

use super::check::{Against, Check, CheckMode, magnitude, standing_modifiers, take_assist};
use super::economy::{Pace, Spend, spend};
use super::fighter::{Fighter, Scene};
use super::bonuses::{Bonuses, CheckKind};
use super::vitality::{Exertion, exert};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Which Reaction Defence is the DC.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsDefenceKind))]
#[serde(rename_all = "snake_case")]
pub enum DefenceKind {
    Fortitude,
    #[default]
    Reflex,
    Willpower,
}

impl DefenceKind {
    pub fn check(self) -> CheckKind {
        match self {
            Self::Fortitude => CheckKind::Fortitude,
            Self::Reflex => CheckKind::Reflex,
            Self::Willpower => CheckKind::Willpower,
        }
    }

    pub(super) fn against(self) -> Against {
        match self {
            Self::Reflex => Against::Reflex,
            Self::Fortitude | Self::Willpower => Against::Resist,
        }
    }
}

/// The target's Defence manoeuvre against a successful attack.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsDefenceAction))]
#[serde(deny_unknown_fields)]
pub struct DefenceAction {
    #[serde(default)]
    pub defence: DefenceKind,
    #[serde(default)]
    pub bonuses: Bonuses,
}

/// Points a Defence manoeuvre costs (arrgs.txt, "Defence Manoeuvre": 2).
pub const DEFENCE_POINTS: i32 = 2;

/// The Defence manoeuvre as made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsDefenceActionReport))]
pub struct DefenceActionReport {
    pub spend: Spend,
    pub exertion: Exertion,
    pub check: Check,
    /// The Attack check result it is made against.
    pub dc: i32,
    /// Points taken from the Success Value.
    pub reduction: i32,
}

/// Whether the target still has the points for a Defence manoeuvre (later attacks of a Repeated
/// Attack go undefended once it has not).
pub(super) fn can_pay_defence(target: &Fighter, scene: &Scene) -> bool {
    let mut trial = target.clone();
    spend(&mut trial, scene, Pace::Immediate, DEFENCE_POINTS, "defence_action").is_ok()
}

/// The Defence manoeuvre (arrgs.txt, "Defence Manoeuvre"): 2 AAP as an Immediate action, an
/// Action check against the Attack check's result.
pub(super) fn defend(
    defender: &mut Fighter,
    attacker: &Fighter,
    action: &DefenceAction,
    attack_result: i32,
    scene: &Scene,
    dice: &mut Dice,
) -> Result<DefenceActionReport, RuleError> {
    let spent = spend(defender, scene, Pace::Immediate, DEFENCE_POINTS, "defence_action")?;
    let exertion = exert(defender, 1, scene.options.disabled_dc(), spent.penalty.clone(), dice)?;
    let kind = action.defence.check();
    let scale = magnitude(defender.stats.magnitude(), attacker.stats.magnitude(), action.defence.against());
    let mut modifiers = standing_modifiers(defender, kind, None, &action.bonuses, scale.is_none());
    modifiers.extend(spent.penalty.clone());
    modifiers.extend(take_assist(defender, kind));
    let purpose = format!("Defence manoeuvre: {}", defender.name);
    let check = Check::roll(kind, modifiers, scale, dice, &purpose)?;
    debug_assert_eq!(check.mode, CheckMode::Action);
    let reduction = (check.result - attack_result).max(0);
    Ok(DefenceActionReport { spend: spent, exertion, check, dc: attack_result, reduction })
}
