//! Energy shielding: which precision may oppose which attack, and how points are spent
//! (lur-asko.txt, "Energy Shielding", "Shielding AoEs & ZAoEs", "Energy Damage").
//!
//! Decisions:
//! - Shields are used level by level (low, medium, high) and, within a level, in the order they
//!   are listed: the text lets the defenders pick that order, and the list is where they pick it.
//! - A techshield against blast negates 2 damage per point; the points spent are the damage
//!   negated halved, rounding up (an odd last point still costs a whole point).
//! - Each portion of energy damage is shielded on its own, one shield after another, so a second
//!   shield only ever meets what broke through the first.

use super::outcome::{Element, Portion, ShieldResult, ShieldUse, StepCode};
use super::state::Precision;
use super::weapon::{Delivery, Weapon};
use serde::{Deserialize, Serialize};

/// A shield's pool of points as one attack meets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool {
    pub owner: String,
    pub name: String,
    pub precision: Precision,
    pub points: u32,
    pub techshield: bool,
}

/// Where the attacker stands relative to the target, as the shields care.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoSituation))]
#[serde(deny_unknown_fields)]
pub struct Situation {
    /// The attacker is engaged or grouped up with the target (low precision cannot oppose it).
    #[serde(default)]
    pub engaged: bool,
    /// The target is grappling with the attacker (medium precision cannot oppose it).
    #[serde(default)]
    pub grappling: bool,
    /// The target is a vehicle the attacker has climbed onto (medium precision cannot oppose it).
    #[serde(default)]
    pub boarded_vehicle: bool,
}

/// Why a low-precision shield cannot oppose this weapon, if it cannot: it blocks only ranged
/// attacks of pure energy from beyond engagement range, never an explosive device.
pub fn low_refusal(weapon: &Weapon, situation: Situation) -> Option<&'static str> {
    match weapon.delivery {
        Delivery::Melee => Some("low precision opposes only ranged attacks"),
        Delivery::Explosive => Some("an explosive device cannot be shielded at low precision"),
        Delivery::Ranged if weapon.has_normal() || weapon.stopped_by_kinetic_shield => {
            Some("a weapon combining normal and energy damage cannot be shielded at low precision")
        }
        Delivery::Ranged if situation.engaged => {
            Some("the attacker is within engagement range: low precision cannot oppose it")
        }
        Delivery::Ranged => None,
    }
}

/// Why a medium-precision shield cannot oppose this weapon, if it cannot: it blocks ranged
/// attacks of pure energy at any range and an explosive's non-impact blast, but not melee, not a
/// grappler's attacks, not projectiles with added energy, and not on a boarded vehicle.
pub fn medium_refusal(weapon: &Weapon, situation: Situation) -> Option<&'static str> {
    if weapon.delivery == Delivery::Melee {
        return Some("melee attacks bypass medium precision");
    }
    if situation.grappling {
        return Some("the target is grappling with the attacker: medium precision cannot oppose it");
    }
    if situation.boarded_vehicle {
        return Some("the attacker has climbed onto the vehicle: medium precision cannot protect it");
    }
    match weapon.delivery {
        Delivery::Explosive if weapon.impact => {
            Some("an explosive's impact damage cannot be shielded at medium precision")
        }
        Delivery::Ranged if weapon.has_normal() || weapon.stopped_by_kinetic_shield => {
            Some("a projectile with added energy bypasses medium precision")
        }
        _ => None,
    }
}

/// Runs every shield of `precision` against the energy portions, grouped by weapon; `refusals`
/// says, weapon by weapon, why this level cannot oppose it. High precision keeps the drive (it
/// acts after drive); the others lower it with the damage.
pub fn shield_level(
    precision: Precision,
    portions: &mut [Vec<Portion>],
    refusals: &[Option<&'static str>],
    pools: &mut [Pool],
    uses: &mut Vec<ShieldUse>,
) {
    let energy_portions = portions
        .iter_mut()
        .zip(refusals)
        .flat_map(|(portions, refused)| portions.iter_mut().map(move |portion| (*refused, portion)))
        .filter(|(_, portion)| portion.element.energy().is_some());
    for (refused, portion) in energy_portions {
        for pool in pools.iter_mut().filter(|pool| pool.precision == precision) {
            let result = match refused {
                Some(reason) => ShieldResult::NotApplicable { reason: reason.to_owned() },
                None if portion.damage == 0 => break,
                None if pool.points == 0 => {
                    ShieldResult::NotApplicable { reason: "no shielding points left".to_owned() }
                }
                None => spend(pool, portion),
            };
            uses.push(ShieldUse {
                precision,
                shield: pool.name.clone(),
                owner: pool.owner.clone(),
                weapon: portion.weapon.clone(),
                element: portion.element,
                result,
            });
        }
    }
}

/// Spends points on one portion: all its damage if the pool holds enough, else all the points
/// (no partial shielding by choice, no declining).
fn spend(pool: &mut Pool, portion: &mut Portion) -> ShieldResult {
    let doubled = pool.techshield && portion.element == Element::Blast;
    let capacity = if doubled { pool.points.saturating_mul(2) } else { pool.points };
    let damage_before = portion.damage;
    let negated = damage_before.min(capacity);
    let points_used = if doubled { negated.div_ceil(2) } else { negated };
    let points_before = pool.points;
    pool.points -= points_used;
    let damage_after = damage_before - negated;
    let (code, drive, drive_note) = match pool.precision {
        Precision::Low => (StepCode::LowShielding, damage_after, "; the drive falls with it"),
        Precision::Medium => (StepCode::MediumShielding, damage_after, "; the drive falls with it"),
        Precision::High => (StepCode::HighShielding, portion.drive, " (after drive: the drive is untouched)"),
    };
    let doubled_note = if doubled { " (techshield against blast: 2 damage per point)" } else { "" };
    let reason = format!(
        "{} precision {} spends {points_used} of {points_before} points{doubled_note}: {damage_before} → {damage_after}{drive_note}",
        pool.precision.name(),
        pool.name,
    );
    portion.step(code, damage_after, drive, reason);
    ShieldResult::Applied {
        points_before,
        points_used,
        points_after: pool.points,
        damage_before,
        damage_after,
        blast_doubled: doubled,
    }
}
