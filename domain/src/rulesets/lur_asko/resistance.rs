//! Resistances and weaknesses (lur-asko.txt, "Damage Resistances and Weaknesses").
//!
//! Decision: each source multiplies the damage left by the one before it and rounds down at once
//! (the chapter's only rounding, 17 halved to 8, rounds down), in the order the stat block lists
//! them.

use super::outcome::{Portion, StepCode};
use super::portions::percent_of;
use super::stats::{Against, Resistance};

/// Applies every matching resistance and weakness to one portion, after defenses and drive:
/// weapon-tag ones touch only the base and STR damage of a weapon with that tag, energy ones only
/// the energy portion of their type. The drive is never changed.
pub fn apply(portion: &mut Portion, weapon_tags: &[String], resistances: &[Resistance]) {
    for resistance in resistances {
        let matches = match &resistance.against {
            Against::Energy(energy) => portion.element.energy() == Some(*energy),
            Against::WeaponTag(tag) => {
                portion.element.energy().is_none() && weapon_tags.iter().any(|t| t.eq_ignore_ascii_case(tag))
            }
        };
        if !matches {
            continue;
        }
        let percent = resistance.percent.get() as u32;
        let before = portion.damage;
        let after = percent_of(before, percent);
        let code = if percent > 100 { StepCode::Weakness } else { StepCode::Resistance };
        let what = match &resistance.against {
            Against::Energy(energy) => format!("{} damage", energy.name()),
            Against::WeaponTag(tag) => format!("{tag} weapons"),
        };
        let reason = format!("{}: {percent}% from {what} ({before} → {after})", resistance.source);
        portion.step(code, after, portion.drive, reason);
    }
}
