//! A weapon's damage split into portions, and what drive and armour do to each
//! (lur-asko.txt, "Damage, Drive, & Armor Ranges", "Energy Damage", "Combined Energy/Normal
//! Damage", "Voluntarily Reducing Damage").

use super::outcome::{Element, Portion, StepCode};
use super::stats::Armour;
use super::weapon::{Delivery, Reduction, Weapon};

/// `value` × `percent` %, rounding down (the chapter's one rounding rule: 17 halved is 8).
pub fn percent_of(value: u32, percent: u32) -> u32 {
    let scaled = u64::from(value) * u64::from(percent) / 100;
    u32::try_from(scaled).unwrap_or(u32::MAX)
}

/// The portions of one weapon before any shield or defense, with the attacker's voluntary
/// reductions (Voluntarily Reducing Damage) and a kinetic shield's stop (Combined Energy/Normal
/// Damage). The first is the normal portion, if the weapon has one; the energy portions follow
/// (`energy`, then each of `extra_energy`), each reduced on its own.
pub fn start(weapon: &Weapon, reduction: Reduction, strength_withheld: bool) -> Vec<Portion> {
    let mut portions = Vec::with_capacity(2 + weapon.extra_energy.len());
    if weapon.has_normal() {
        portions.push(normal_portion(weapon, reduction, strength_withheld));
    }
    for energy in weapon.energies() {
        let damage = energy.damage.get() as u32;
        let element = Element::of_energy(energy.energy);
        let reason = format!("{} {damage}: energy drive equals its damage", element.name());
        let mut portion = Portion::new(&weapon.name, element, damage, damage, reason);
        if reduction != Reduction::None {
            let reduced = percent_of(damage, reduction.percent());
            let reason = format!(
                "voluntarily reduced to {}% ({damage} → {reduced}); the drive follows the damage",
                reduction.percent()
            );
            portion.step(StepCode::VoluntaryReduction, reduced, reduced, reason);
        }
        portions.push(portion);
    }
    portions
}

fn normal_portion(weapon: &Weapon, reduction: Reduction, strength_withheld: bool) -> Portion {
    let (damage, drive) = (weapon.damage.get() as u32, weapon.drive.get() as u32);
    let element = if weapon.delivery == Delivery::Explosive { Element::Frag } else { Element::Normal };
    let reason = format!("{damage} damage, {drive} drive");
    let mut portion = Portion::new(&weapon.name, element, damage, drive, reason);
    match reduction {
        Reduction::None => {}
        Reduction::MeleeHalf | Reduction::MeleeQuarter => {
            let reduced = percent_of(damage, reduction.percent());
            let reason = format!(
                "weapon damage (not STR) voluntarily reduced to {}% ({damage} → {reduced})",
                reduction.percent()
            );
            portion.step(StepCode::VoluntaryReduction, reduced, drive, reason);
        }
        Reduction::RangedHalf => {
            let (reduced, reduced_drive) = (percent_of(damage, 50), percent_of(drive, 50));
            let reason = format!(
                "damage and drive voluntarily reduced to 50% ({damage} → {reduced}, {drive} → {reduced_drive})"
            );
            portion.step(StepCode::VoluntaryReduction, reduced, reduced_drive, reason);
        }
    }
    if let Some(strength) = weapon.strength {
        if strength_withheld {
            let reason = "STR voluntarily used as 0: nothing added".to_owned();
            portion.step(StepCode::StrengthWithheld, portion.damage, portion.drive, reason);
        } else {
            let (plus_damage, plus_drive) = (strength.damage.get() as u32, strength.drive.get() as u32);
            let reason = format!("STR adds {plus_damage} damage and {plus_drive} drive");
            portion.step(
                StepCode::Strength,
                portion.damage + plus_damage,
                portion.drive + plus_drive,
                reason,
            );
        }
    }
    if weapon.stopped_by_kinetic_shield {
        let reason =
            "the projectile was stopped by a kinetic shield: normal damage and drive are 0".to_owned();
        portion.step(StepCode::KineticShield, 0, 0, reason);
    }
    portion
}

/// Adds the Ability and critical drive bonuses to every portion of one weapon, then settles the
/// energy portion's drive against the normal one (Combined Energy/Normal Damage): a higher normal
/// drive carries both portions; otherwise each keeps its own. An explosive's frag and blast always
/// keep their own drives. A weapon with several energy portions settles each against the normal
/// drive by itself (weapon.rs, the reading on more than one energy portion); a weapon without a
/// normal portion has nothing to settle.
pub fn settle_drives(portions: &mut [Portion], weapon: &Weapon, critical_bonus: u32) {
    let bonus = weapon.drive_bonus.get() as u32;
    for portion in portions.iter_mut() {
        if bonus > 0 {
            let reason = format!("Abilities add {bonus} drive");
            portion.step(StepCode::DriveBonus, portion.damage, portion.drive + bonus, reason);
        }
        if critical_bonus > 0 {
            let reason = format!("critical hit: +{critical_bonus} drive");
            portion.step(StepCode::CriticalDrive, portion.damage, portion.drive + critical_bonus, reason);
        }
    }
    if !weapon.has_normal() {
        return;
    }
    let Some((normal, energies)) = portions.split_first_mut() else { return };
    for energy in energies {
        settle_one(normal, energy, weapon.delivery);
    }
}

/// One energy portion's drive against the weapon's normal drive (Combined Energy/Normal Damage).
fn settle_one(normal: &Portion, energy: &mut Portion, delivery: Delivery) {
    if delivery == Delivery::Explosive {
        let reason =
            format!("explosive: frag keeps drive {}, blast keeps drive {}", normal.drive, energy.drive);
        energy.step(StepCode::CombinedDrive, energy.damage, energy.drive, reason);
    } else if normal.drive > energy.drive {
        let reason = format!(
            "normal drive {} is higher than energy drive {}: both use {}",
            normal.drive, energy.drive, normal.drive
        );
        energy.step(StepCode::CombinedDrive, energy.damage, normal.drive, reason);
    } else {
        let reason = format!(
            "energy drive {} is not below normal drive {}: each keeps its own",
            energy.drive, normal.drive
        );
        energy.step(StepCode::CombinedDrive, energy.damage, energy.drive, reason);
    }
}

/// Damage through an armour range: below it nothing, inside it (inclusive) half rounded down,
/// above it all (Damage, Drive, & Armor Ranges). Electric damage inside the range of metallic
/// armour is not halved (Energy Damage, Electric).
pub fn through_armour(portion: &mut Portion, armour: Option<Armour>) {
    let (damage, drive) = (portion.damage, portion.drive);
    let Some(armour) = armour else {
        portion.step(StepCode::Armour, damage, drive, "no armour: full damage".to_owned());
        return;
    };
    let (low, high) = (armour.low.get() as u32, armour.high.get() as u32);
    let range = format!("armour range {low}-{high}");
    let (after, why) = if drive < low {
        (0, format!("drive {drive} is below {range}: no damage"))
    } else if drive > high {
        (damage, format!("drive {drive} is above {range}: full damage"))
    } else if portion.element == Element::Electric && armour.metallic {
        (damage, format!("drive {drive} is within metallic {range}: electric is not halved"))
    } else {
        let half = percent_of(damage, 50);
        (half, format!("drive {drive} is within {range}: half damage ({damage} → {half})"))
    };
    portion.step(StepCode::Armour, after, drive, why);
}
