//! Degrees of injury and the effects of energy damage (lur-asko.txt, "Damage, Drive, & Armor
//! Ranges", "Energy Damage", "Combined Energy/Normal Damage").
//!
//! Decisions:
//! - Damage taken accumulates; a hit inflicts one degree for every multiple of the injury factor
//!   its damage crosses. The energy portion's degrees (for its effects) are the attack's energy
//!   damage of that type divided by the injury factor, rounding down, as the text says; they can
//!   never exceed the hit's degrees.
//! - A blast "hits" (and deafens) when blast damage is still left after low and medium shielding
//!   and the defense fails, even if armour then stops all of it.
//! - Having a high-precision shield (any points) is "access" to it: no deafening, no ignition.
//! - Damage taken stops at [`MAX_DAMAGE_TAKEN`] (1,000,000), the bound of the `damage_taken` a
//!   stateless request sends: a hit past it takes only the rest, and its degrees (and every
//!   energy portion's, and so the fatigue and effects they bring) are counted from what it took.
//!   The stored record and the stateless form then hold the same numbers.

use super::outcome::{Element, EnergyDegrees, EnergyEffect, Injury, Portion};
use super::stats::EnergyType;

/// Turns of deafness a blast inflicts (30 seconds).
pub const DEAFENED_TURNS: u32 = 6;
/// Fatigue per degree of frost injury.
pub const FROST_FATIGUE: u32 = 25;

const ENERGIES: [EnergyType; 5] =
    [EnergyType::Particle, EnergyType::Electric, EnergyType::Heat, EnergyType::Frost, EnergyType::Blast];

/// The most damage a character's record holds: the bound of `damage_taken` in a stateless
/// request (`DamageTaken`), so both forms hold the same numbers.
pub const MAX_DAMAGE_TAKEN: u32 = 1_000_000;

/// The degrees of injury of one hit of `portions` on a character who had taken `damage_before`.
pub fn injury(damage_before: u32, portions: &[Portion], injury_factor: u32, injury_type: String) -> Injury {
    let factor = injury_factor.max(1);
    let damage_before = damage_before.min(MAX_DAMAGE_TAKEN);
    let dealt = portions.iter().map(|p| p.damage).fold(0, u32::saturating_add);
    let damage_after = damage_before.saturating_add(dealt).min(MAX_DAMAGE_TAKEN);
    let damage = damage_after - damage_before;
    let degrees = damage_after / factor - damage_before / factor;
    let energy = ENERGIES
        .into_iter()
        .filter_map(|energy| {
            let of_type = portions.iter().filter(|p| p.element == Element::of_energy(energy));
            let mut of_type = of_type.peekable();
            of_type.peek()?;
            let damage = of_type.map(|p| p.damage).fold(0, u32::saturating_add).min(damage);
            Some(EnergyDegrees { energy, damage, degrees: (damage / factor).min(degrees) })
        })
        .collect();
    Injury { injury_factor: factor, damage_before, damage, damage_after, degrees, injury_type, energy }
}

/// What the victim is, as the energy effects care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Victim {
    pub organic: bool,
    pub high_shielding: bool,
}

/// The energy effects of a hit (Energy Damage): war fever, stun, ignition, fatigue, deafness and
/// knockdown, or why the victim escapes one. `blast_hit` says a blast reached the victim;
/// `attacker` names whose next turn ends a stun.
pub fn effects(injury: &Injury, blast_hit: bool, victim: Victim, attacker: &str) -> Vec<EnergyEffect> {
    let degrees = |energy| injury.energy.iter().find(|e| e.energy == energy).map_or(0, |e| e.degrees);
    let prevented = |effect: &str, reason: &str| EnergyEffect::Prevented {
        prevented: effect.into(),
        reason: reason.into(),
    };
    let mut effects = Vec::new();
    let particle = degrees(EnergyType::Particle);
    if particle >= 1 {
        effects.push(EnergyEffect::WarFeverRoll { degrees: particle, hindrance: (particle - 1) / 2 });
    }
    let electric = degrees(EnergyType::Electric);
    if electric >= 2 {
        effects.push(EnergyEffect::Stunned {
            energy: EnergyType::Electric,
            degrees: electric,
            attacker: attacker.into(),
        });
    }
    let heat = degrees(EnergyType::Heat);
    if heat >= 1 {
        effects.push(if victim.high_shielding {
            prevented("ignited", "high-precision shielding prevents ignition")
        } else {
            EnergyEffect::Ignited { degrees: heat }
        });
    }
    let frost = degrees(EnergyType::Frost);
    if frost >= 1 {
        effects.push(EnergyEffect::Fatigue { degrees: frost, fatigue: frost.saturating_mul(FROST_FATIGUE) });
    }
    let blast = degrees(EnergyType::Blast);
    if blast_hit {
        effects.push(match victim {
            Victim { organic: false, .. } => {
                prevented("deafened", "non-organic characters cannot be deafened")
            }
            Victim { high_shielding: true, .. } => {
                prevented("deafened", "high-precision shielding prevents deafening")
            }
            _ => EnergyEffect::Deafened { turns: DEAFENED_TURNS },
        });
    }
    if blast >= 1 {
        effects.push(EnergyEffect::KnockedDown { degrees: blast });
    }
    if blast >= 2 {
        effects.push(if victim.organic {
            EnergyEffect::Stunned { energy: EnergyType::Blast, degrees: blast, attacker: attacker.into() }
        } else {
            prevented("stunned", "non-organic characters cannot be stunned by blast")
        });
    }
    effects
}
