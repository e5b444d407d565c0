//! Every DM and damage change one attack receives, each with its reason (cepheus-engine.txt,
//! table "Common Modifiers to Attacks in Personal Combat" and the sections cited on each function).
//!
//! Decisions:
//! - The list starts with the range difficulty DM ("Pistol at Long range: Very Difficult", −4),
//!   so the list holds every DM except the skill DM and the characteristic DM. Those come from
//!   `skill::effective_skill` and `characteristic_dm`.
//! - Aiming for the kill: the text says both "+2" and "equal to the number of minor actions",
//!   capped at +6 and "exactly like regular Aiming". It is read as +1 damage per minor action, up to
//!   6 actions (+6), the same scale as Aiming. It does not trigger the laser sight, which needs
//!   ordinary aiming.
//! - A sprayed burst gets the table's attack DM and no extra damage; a grouped burst gets the extra
//!   damage and no attack DM (see `burst.rs`).
//! - Target movement: −1 per full 10 m the target moved this round (9.9 m → none, 25 m → −2), for
//!   melee and ranged attacks alike, as the summary table does not limit it.
//! - Vehicles: +1 to hit any vehicle (the text says "most"; a referee can leave the flag off).
//! - Attacker states that the text applies to every check are included: acting hastily −1
//!   ("Dynamic Initiative"), −1 per reaction already made ("Reactions"), fatigue −2 ("Fatigue")
//!   and being suppressed −1 ("Suppression Fire").
//! - Intelligent weapons (+1): the text never defines a program's "tolerance", so the caller
//!   decides it and sends `intelligent_weapon` only when the total DM is within it.
//! - Damage changes are listed in the order to apply them: replace the dice (shotgun spread), add
//!   dice (burst), add points (burst, aiming for the kill, and the attack's Effect), then halve,
//!   rounding up (energy weapons at extreme range), then subtract armour.

use super::attack_difficulty::attack_difficulty;
use super::burst::{BurstMode, burst_effect, panic_fire_damage};
use super::circumstances::{AttackCircumstances, validate};
use super::conditions::{darkness_modifier, smoke_modifier, weather_modifiers};
use super::cover::cover_modifier;
use super::modifier::{DamageChange, DamageModifier, Modifier, ModifierCode, Reason};
use super::range::RangeBand;
use super::reactions::{dodge_modifier, own_reactions_modifier, parry_modifier};
use super::stance::target_stance_modifier;
use super::weapon::{WeaponTechnology, WeaponType};
use crate::rulesets::RuleError;

/// Every DM to the attack roll, in a fixed order, each with its reason (cepheus-engine.txt,
/// table "Common Modifiers to Attacks in Personal Combat", and the sections cited on each part); refuses impossible
/// combinations (see `circumstances.rs`).
pub fn attack_modifiers(attack: &AttackCircumstances) -> Result<Vec<Modifier>, RuleError> {
    let mut modifiers = Vec::with_capacity(8);
    push_attack_modifiers(attack, &mut modifiers)?;
    Ok(modifiers)
}

/// [`attack_modifiers`] appended to `modifiers`: the attack check writes the skill and
/// characteristic DMs and these into one list, with no second list to allocate and move.
pub fn push_attack_modifiers(attack: &AttackCircumstances, modifiers: &mut Vec<Modifier>) -> Result<(), RuleError> {
    validate(attack)?;
    range_modifiers(attack, modifiers)?;
    aiming_modifiers(attack, modifiers);
    fire_mode_modifiers(attack, modifiers)?;
    situation_modifiers(attack, modifiers);
    target_modifiers(attack, modifiers)?;
    if attack.is_ranged() {
        battlefield_modifiers(attack, modifiers);
    }
    attacker_state_modifiers(attack, modifiers);
    Ok(())
}

/// Every change to the attack's damage, in the order to apply them (cepheus-engine.txt, "Aiming for
/// the Kill", "Burst Fire", "Panic Fire", "Shotgun Spread", "Extreme Range Firing"); refuses the
/// same combinations as [`attack_modifiers`].
pub fn damage_modifiers(attack: &AttackCircumstances) -> Result<Vec<DamageModifier>, RuleError> {
    validate(attack)?;
    let mut changes = Vec::new();
    if spreads(attack) {
        changes.push(DamageModifier::new(ModifierCode::ShotgunSpread, "shotgun spread: damage becomes 2D6", DamageChange::DiceBecome(2)));
    }
    if let Some(burst) = attack.burst.filter(|burst| burst.mode == BurstMode::Grouped) {
        let extra = burst_effect(burst.rounds.get().unsigned_abs())?.extra_damage;
        changes.push(DamageModifier::new(ModifierCode::Burst, format!("grouped {}-round burst", burst.rounds.get()), extra.into()));
    }
    if let Some(rounds) = attack.panic_fire_rounds {
        let extra = panic_fire_damage(rounds)?;
        changes.push(DamageModifier::new(ModifierCode::PanicFire, format!("panic fire with {rounds} round(s)"), extra.into()));
    }
    if attack.aim_for_kill > 0 {
        let points = i32::from(attack.aim_for_kill);
        let reason = format!("aiming for the kill ({} minor actions)", attack.aim_for_kill);
        changes.push(DamageModifier::new(ModifierCode::AimForKill, reason, DamageChange::PlusPoints(points)));
    }
    if attack.extreme_range && attack.technology.is_energy() {
        changes.push(DamageModifier::new(ModifierCode::ExtremeRange, "energy weapon at extreme range", DamageChange::HalvedRoundUp));
    }
    Ok(changes)
}

/// The weapon/band difficulty and the extra −2 beyond Distant (cepheus-engine.txt, "Range";
/// "Extreme Range Firing").
fn range_modifiers(attack: &AttackCircumstances, modifiers: &mut Vec<Modifier>) -> Result<(), RuleError> {
    let (weapon, band) = (attack.weapon_type, attack.range_band);
    let difficulty = attack_difficulty(weapon, band)
        .ok_or_else(|| RuleError::invalid("range_band", "this weapon cannot attack at this range"))?;
    modifiers.push(Modifier::new(ModifierCode::Range, range_reason(weapon, band), difficulty.dm()));
    if attack.extreme_range {
        modifiers.push(Modifier::new(ModifierCode::ExtremeRange, "extreme range, beyond Distant", -2));
    }
    Ok(())
}

/// "Pistol at Long range: Very Difficult".
fn range_reason(weapon: WeaponType, band: RangeBand) -> Reason {
    let difficulty = attack_difficulty(weapon, band).map_or("", |difficulty| difficulty.label());
    format!("{} at {} range: {difficulty}", weapon.label(), band.label()).into()
}

/// +1 per aiming action, +1 more for a laser sight while aiming, and +1 for an intelligent weapon
/// within tolerance (cepheus-engine.txt, "Aiming"; table "Common Modifiers to Attacks in Personal Combat").
fn aiming_modifiers(attack: &AttackCircumstances, modifiers: &mut Vec<Modifier>) {
    if attack.aim > 0 {
        let reason = format!("aiming ({} minor actions)", attack.aim);
        modifiers.push(Modifier::new(ModifierCode::Aim, reason, i32::from(attack.aim)));
        if attack.laser_sight {
            modifiers.push(Modifier::new(ModifierCode::LaserSight, "laser sight while aiming", 1));
        }
    }
    if attack.intelligent_weapon {
        modifiers.push(Modifier::new(ModifierCode::IntelligentWeapon, "intelligent weapon within its program's tolerance", 1));
    }
}

/// Sprayed bursts, panic fire −2, flechette spread +1 at Medium and Long, and suppression fire −2
/// (cepheus-engine.txt, "Burst Fire"; "Panic Fire"; "Shotgun Spread"; "Suppression Fire").
fn fire_mode_modifiers(attack: &AttackCircumstances, modifiers: &mut Vec<Modifier>) -> Result<(), RuleError> {
    if let Some(burst) = attack.burst.filter(|burst| burst.mode == BurstMode::Spray) {
        let dm = burst_effect(burst.rounds.get().unsigned_abs())?.attack_dm;
        modifiers.push(Modifier::new(ModifierCode::Burst, format!("sprayed {}-round burst", burst.rounds.get()), dm));
    }
    if attack.panic_fire_rounds.is_some() {
        modifiers.push(Modifier::new(ModifierCode::PanicFire, "panic fire", -2));
    }
    if spreads(attack) {
        modifiers.push(Modifier::new(ModifierCode::ShotgunSpread, format!("shotgun spread at {} range", attack.range_band.label()), 1));
    }
    if attack.suppression {
        modifiers.push(Modifier::new(ModifierCode::SuppressionFire, "suppression fire: aiming at cover and objects near the target", -2));
    }
    Ok(())
}

/// A flechette shotgun spreads only at Medium or Long range (cepheus-engine.txt, "Shotgun Spread").
fn spreads(attack: &AttackCircumstances) -> bool {
    attack.shotgun_spread
        && attack.weapon_type == WeaponType::Shotgun
        && matches!(attack.range_band, RangeBand::Medium | RangeBand::Long)
}

/// Recoil in zero gravity −2; a target next to another combatant −2 (cepheus-engine.txt,
/// "Fighting in Zero Gravity"; "Firing into Combat").
fn situation_modifiers(attack: &AttackCircumstances, modifiers: &mut Vec<Modifier>) {
    if attack.zero_g && attack.recoil {
        modifiers.push(Modifier::new(ModifierCode::ZeroGRecoil, "weapon with recoil in zero gravity", -2));
    }
    if attack.firing_into_combat {
        modifiers
            .push(Modifier::new(ModifierCode::FiringIntoCombat, "firing into combat: target at Personal range of another combatant", -2));
    }
}

/// Cover, stance, dodge or parry, target movement and vehicle size (cepheus-engine.txt, "Cover";
/// "Stance"; "Dodging"; "Parrying"; table "Common Modifiers to Attacks in Personal Combat"; "Vehicles in
/// Personal Combat").
fn target_modifiers(attack: &AttackCircumstances, modifiers: &mut Vec<Modifier>) -> Result<(), RuleError> {
    modifiers.extend(cover_modifier(attack.cover, attack.target_stance)?);
    modifiers.extend(target_stance_modifier(attack.target_stance, attack.range_band, attack.is_ranged()));
    modifiers.extend(dodge_modifier(attack.dodge, attack.cover));
    modifiers.extend(attack.parry_skill.map(parry_modifier));
    modifiers.extend(movement_modifier(attack.target_movement_m));
    if attack.target_is_vehicle {
        modifiers.push(Modifier::new(ModifierCode::TargetVehicle, "target is a vehicle", 1));
    }
    Ok(())
}

/// −1 for every full 10 m the target moved (cepheus-engine.txt, table "Common Modifiers to Attacks in Personal Combat",
/// row "Movement").
fn movement_modifier(metres: f64) -> Option<Modifier> {
    let full_tens = (metres / 10.0).floor() as i32;
    if full_tens < 1 {
        return None;
    }
    Some(Modifier::new(ModifierCode::TargetMovement, format!("target moved {metres} m"), -full_tens))
}

/// Darkness, smoke and extreme weather (cepheus-engine.txt, "Battlefield Conditions").
fn battlefield_modifiers(attack: &AttackCircumstances, modifiers: &mut Vec<Modifier>) {
    let laser = attack.technology == WeaponTechnology::Laser;
    modifiers.extend(darkness_modifier(attack.darkness, attack.sensors));
    modifiers.extend(smoke_modifier(attack.smoke, laser, attack.infra_red));
    modifiers.extend(weather_modifiers(attack.extreme_weather, attack.sensors));
}

/// Penalties the attacker carries into every check: hasty −1, −1 per reaction, fatigued −2,
/// suppressed −1 (cepheus-engine.txt, "Dynamic Initiative"; "Reactions"; "Fatigue"; "Suppression
/// Fire").
fn attacker_state_modifiers(attack: &AttackCircumstances, modifiers: &mut Vec<Modifier>) {
    if attack.attacker_hasty {
        modifiers.push(Modifier::new(ModifierCode::Hasty, "attacker acting hastily", -1));
    }
    modifiers.extend(own_reactions_modifier(attack.attacker_reactions));
    if attack.attacker_fatigued {
        modifiers.push(Modifier::new(ModifierCode::Fatigue, "attacker fatigued", -2));
    }
    if attack.attacker_suppressed {
        modifiers.push(Modifier::new(ModifierCode::Suppressed, "attacker suppressed", -1));
    }
}

#[cfg(test)]
#[path = "attack_modifiers_tests.rs"]
mod tests;
