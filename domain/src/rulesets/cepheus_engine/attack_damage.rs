//! Damage from a hit, step by step (cepheus-engine.txt, "Damage", "Armor", "Thrown Weapons",
//! "Burst Fire", "Panic Fire", "Shotgun Spread", "Aiming for the Kill", "Extreme Range Firing" and
//! "Explosions").
//!
//! Decisions:
//! - Steps follow the order `damage_modifiers` documents: the weapon's dice and flat bonus (or the
//!   2D6 that replace them when a shotgun spreads), extra dice (bursts, panic fire), extra points
//!   (a 3-round burst, aiming for the kill), the attack's Effect, halving rounded up (energy
//!   weapons at extreme range), then a blast response, then armour.
//! - A shotgun's spread replaces the whole weapon damage, flat bonus included: the text says the
//!   shell's damage becomes 2D6.
//! - The Effect is added unless the weapon is a thrown explosive ("Thrown Weapons"); for an impact
//!   weapon thrown with Athletics, the Athletics check is the attack, so its Effect is the attack's.
//! - The running total never drops below 0 (a negative flat bonus cannot heal).
//! - A thrown explosive's direct target may dodge or dive from the blast; that is applied to the
//!   damage before armour, as `explosion.rs` describes.
//! - Armour comes last, through `apply_armour`, with the attack's Effect deciding the
//!   at-least-one-point rule even when the Effect was not added to the damage: the text ties that
//!   rule to the hit's Effect, not to the damage.

use super::attack_request::WeaponDamage;
use super::damage::apply_armour;
use super::explosion::{ExplosionOutcome, ExplosionResponse, resolve_explosion_exposure};
use super::modifier::{DamageChange, DamageModifier, ModifierCode, Reason};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// One step of the damage working.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDamageStep))]
pub struct DamageStep {
    pub code: DamageStepCode,
    /// What the step changed the running total by (was `change`, still read).
    #[serde(alias = "change")]
    pub value: i32,
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub reason: Reason,
    /// Dice rolled for this step, if any.
    pub dice: Vec<u32>,
    /// The running total after this step.
    pub total: i32,
}

/// What rule a damage step comes from: a stable machine name beside the free-text reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDamageStepCode))]
#[serde(rename_all = "snake_case")]
pub enum DamageStepCode {
    /// The weapon's damage dice ("Damage").
    WeaponDice,
    /// The weapon's flat damage bonus.
    WeaponBonus,
    /// Extra dice or points of a burst or full auto ("Burst Fire").
    Burst,
    /// Extra dice of panic fire ("Panic Fire").
    PanicFire,
    /// Extra points of aiming for the kill ("Aiming for the Kill").
    AimForKill,
    /// Halving at extreme range ("Extreme Range Firing").
    ExtremeRange,
    /// The 2D6 of a shotgun's spread, replacing the weapon's damage ("Shotgun Spread").
    ShotgunSpread,
    /// The attack's Effect added (or, for a thrown explosive, not added: 0).
    Effect,
    /// A blast dodged or dived from ("Explosions").
    Blast,
    /// Any other rule's change (reported with its reason).
    Other,
}

impl DamageStepCode {
    /// The step code of a damage modifier, by the rule its DM code names.
    fn of(code: ModifierCode) -> Self {
        match code {
            ModifierCode::Burst => Self::Burst,
            ModifierCode::PanicFire => Self::PanicFire,
            ModifierCode::AimForKill => Self::AimForKill,
            ModifierCode::ExtremeRange => Self::ExtremeRange,
            ModifierCode::ShotgunSpread => Self::ShotgunSpread,
            _ => Self::Other,
        }
    }
}

/// The full working of a hit's damage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDamageBreakdown))]
pub struct DamageBreakdown {
    /// The weapon's damage dice (or the spread's 2D6).
    pub dice: Vec<u32>,
    pub dice_total: i32,
    /// The Effect added, or `None` when this weapon does not add it.
    pub effect_added: Option<i32>,
    /// Everything added by burst, panic fire and aiming for the kill.
    pub extra: i32,
    pub steps: Vec<DamageStep>,
    /// The blast response of a thrown explosive's target.
    pub blast: Option<ExplosionOutcome>,
    pub before_armour: i32,
    pub armour: u32,
    pub after_armour: i32,
    /// Armour would have stopped it all, but Effect 6+ forces 1 point through.
    pub minimum_one_applied: bool,
}

/// What the damage of one hit depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamageInput<'a> {
    pub weapon: &'a WeaponDamage,
    pub changes: &'a [DamageModifier],
    pub effect: i32,
    pub armour: u32,
    pub blast_response: ExplosionResponse,
}

struct Running {
    steps: Vec<DamageStep>,
    total: i32,
}

impl Running {
    fn step(&mut self, code: DamageStepCode, reason: impl Into<Reason>, dice: Vec<u32>, change: i32) {
        let before = self.total;
        self.total = (before + change).max(0);
        let reason = reason.into();
        self.steps.push(DamageStep { code, value: self.total - before, reason, dice, total: self.total });
    }
}

fn roll_d6s(count: u32, purpose: Reason, dice: &mut Dice) -> Result<Vec<u32>, RuleError> {
    (0..count).map(|_| dice.roll_for(6, purpose.clone()).map_err(RuleError::from)).collect()
}

/// "weapon 3D6".
fn weapon_dice_reason(count: i32) -> Reason {
    format!("weapon {count}D6").into()
}

/// "attack Effect +2".
fn effect_reason(effect: i32) -> Reason {
    format!("attack Effect {effect:+}").into()
}

/// Rolls and works out a hit's damage in the documented order, ending with armour
/// (cepheus-engine.txt, "Damage" and "Armor"; the other sections in the module doc).
pub fn roll_damage(input: &DamageInput, dice: &mut Dice) -> Result<DamageBreakdown, RuleError> {
    let mut running = Running { steps: Vec::with_capacity(2 + input.changes.len()), total: 0 };
    let weapon_dice = roll_weapon_dice(input, &mut running, dice)?;
    let extra = add_extras(input.changes, &mut running, dice)?;
    let effect_added = input.weapon.adds_effect().then_some(input.effect);
    match effect_added {
        Some(effect) => running.step(DamageStepCode::Effect, effect_reason(effect), Vec::new(), effect),
        None => running.step(DamageStepCode::Effect, "explosive payload: the Effect is not added", Vec::new(), 0),
    }
    for change in input.changes.iter().filter(|change| change.change == DamageChange::HalvedRoundUp) {
        let halved = running.total - running.total / 2;
        running.step(DamageStepCode::of(change.code), format!("{}: halved, rounded up", change.reason), Vec::new(), halved - running.total);
    }
    let blast = apply_blast(input.blast_response, &mut running, dice)?;
    let before_armour = running.total;
    let after_armour = apply_armour(before_armour, input.armour, input.effect);
    let stopped = before_armour.saturating_sub(i32::try_from(input.armour).unwrap_or(i32::MAX)).max(0);
    Ok(DamageBreakdown {
        dice_total: weapon_dice.iter().sum::<u32>() as i32,
        dice: weapon_dice,
        effect_added,
        extra,
        steps: running.steps,
        blast,
        before_armour,
        armour: input.armour,
        after_armour,
        minimum_one_applied: after_armour > stopped,
    })
}

/// The weapon's own dice and bonus, or the 2D6 a spreading shotgun rolls instead.
fn roll_weapon_dice(
    input: &DamageInput,
    running: &mut Running,
    dice: &mut Dice,
) -> Result<Vec<u32>, RuleError> {
    let replaced = input.changes.iter().find_map(|change| match change.change {
        DamageChange::DiceBecome(count) => Some((count, change.code, &*change.reason)),
        _ => None,
    });
    if let Some((count, code, reason)) = replaced {
        let rolled = roll_d6s(count, format!("damage: {reason}").into(), dice)?;
        let sum = rolled.iter().sum::<u32>() as i32;
        running.step(DamageStepCode::of(code), format!("{reason} ({count}D6, replacing the weapon's damage)"), rolled.clone(), sum);
        return Ok(rolled);
    }
    let weapon = input.weapon;
    let rolled = roll_d6s(weapon.damage_dice, "damage: weapon".into(), dice)?;
    let sum = rolled.iter().sum::<u32>() as i32;
    let count = i32::try_from(weapon.damage_dice).unwrap_or(i32::MAX);
    running.step(DamageStepCode::WeaponDice, weapon_dice_reason(count), rolled.clone(), sum);
    if weapon.damage_bonus != 0 {
        running.step(DamageStepCode::WeaponBonus, format!("weapon bonus {:+}", weapon.damage_bonus), Vec::new(), weapon.damage_bonus);
    }
    Ok(rolled)
}

/// Extra dice first, then extra points; returns their sum (cepheus-engine.txt, "Burst Fire";
/// "Panic Fire"; "Aiming for the Kill").
fn add_extras(changes: &[DamageModifier], running: &mut Running, dice: &mut Dice) -> Result<i32, RuleError> {
    let before = running.total;
    for change in changes {
        if let DamageChange::PlusDice(count) = change.change {
            let rolled = roll_d6s(count, format!("damage: {}", change.reason).into(), dice)?;
            let sum = rolled.iter().sum::<u32>() as i32;
            running.step(DamageStepCode::of(change.code), format!("{} (+{count}D6)", change.reason), rolled, sum);
        }
    }
    for change in changes {
        if let DamageChange::PlusPoints(points) = change.change {
            running.step(DamageStepCode::of(change.code), format!("{} ({points:+})", change.reason), Vec::new(), points);
        }
    }
    Ok(running.total - before)
}

/// A thrown explosive's target dodging or diving from the blast (cepheus-engine.txt, "Explosions").
fn apply_blast(
    response: ExplosionResponse,
    running: &mut Running,
    dice: &mut Dice,
) -> Result<Option<ExplosionOutcome>, RuleError> {
    if response == ExplosionResponse::None {
        return Ok(None);
    }
    let outcome = resolve_explosion_exposure(running.total, response, dice)?;
    let dice_rolled = outcome.reduction_roll.into_iter().collect();
    running.step(DamageStepCode::Blast, outcome.explanation.clone(), dice_rolled, -outcome.reduction);
    Ok(Some(outcome))
}

#[cfg(test)]
mod reason_tests {
    use super::*;

    #[test]
    fn damage_reasons_read_as_written_with_format() {
        for count in -1..=52 {
            assert_eq!(weapon_dice_reason(count), format!("weapon {count}D6"));
        }
        for effect in -25..=25 {
            assert_eq!(effect_reason(effect), format!("attack Effect {effect:+}"));
        }
        assert_eq!(effect_reason(i32::MIN), format!("attack Effect {}", i32::MIN));
        assert_eq!(effect_reason(i32::MAX), format!("attack Effect +{}", i32::MAX));
    }
}
