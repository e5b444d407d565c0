//! Where the points of a hit go among Strength, Dexterity and Endurance (cepheus-engine.txt,
//! "Damage" and "Table: Damage Results").
//!
//! Decisions:
//! - The damage given is what got through armour (`damage::apply_armour`); it cannot be negative.
//! - First damage (the character has none recorded) follows the text's fixed path: Endurance until
//!   it is 0, then `overflow_to` until that is 0, then the other one. A split is refused for a
//!   first hit, since the text gives the target no choice beyond `overflow_to`.
//! - Default `overflow_to` is whichever of STR and DEX is higher now. Once Endurance is 0, the first
//!   of them to reach 0 leaves two at zero (unconscious), so pouring into the larger one keeps the
//!   character conscious longest, which is what most players want. On a tie Strength takes it,
//!   keeping Dexterity, which drives more combat rules (initiative, its ties, shooting and thrown
//!   attacks; Strength is only an option for melee).
//! - Later hits may carry an explicit split (`allocation`: `{str, dex, end}`, missing parts 0).
//!   Without one they follow the same path as a first hit, with the same `overflow_to` choice and
//!   default: predictable, and it keeps the character below "seriously wounded" for as long as
//!   possible. `overflow_to` is ignored when a split is sent.
//! - A split may not put points on a characteristic already at 0, nor more than one has left, and
//!   must total the damage. Damage beyond all three characteristics' remaining points cannot be
//!   placed; then the split must take every remaining point, and the rest is reported as `excess`.
//! - Unconscious and dead come from the Damage Results table (two at zero, three at zero), as in
//!   `damage.rs`. The prose's "Strength or Dexterity at 0 → unconscious" agrees on the first-damage
//!   path, where Endurance is already 0 by then. A later split that zeroes only Strength, say,
//!   leaves one at zero: wounded or seriously wounded, not unconscious.
//! - Error fields are relative to the object holding `overflow_to` and `allocation`: "damage",
//!   "allocation" and "allocation.str" / ".dex" / ".end".

use super::Stats;
use super::character::Physical;
use super::damage::Status;
use crate::rulesets::RuleError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// Which of Strength and Dexterity takes damage once Endurance is 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineOverflow))]
#[serde(rename_all = "lowercase")]
pub enum Overflow {
    Str,
    Dex,
}

/// Points placed on each physical characteristic.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineSplit))]
#[serde(deny_unknown_fields)]
pub struct Split {
    #[serde(default)]
    pub str: i32,
    #[serde(default)]
    pub dex: i32,
    #[serde(default)]
    pub end: i32,
}

/// Points a client asks to place on each physical characteristic (each 0 to 30).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDamageSplit))]
#[serde(deny_unknown_fields)]
pub struct DamageSplit {
    #[serde(default)]
    pub str: crate::score::Score<0, 30>,
    #[serde(default)]
    pub dex: crate::score::Score<0, 30>,
    #[serde(default)]
    pub end: crate::score::Score<0, 30>,
}

impl From<DamageSplit> for Split {
    fn from(split: DamageSplit) -> Self {
        Split { str: split.str.get(), dex: split.dex.get(), end: split.end.get() }
    }
}

impl Split {
    pub fn of(&self, physical: Physical) -> i32 {
        match physical {
            Physical::Str => self.str,
            Physical::Dex => self.dex,
            Physical::End => self.end,
        }
    }

    pub(crate) fn add(&mut self, physical: Physical, points: i32) {
        match physical {
            Physical::Str => self.str += points,
            Physical::Dex => self.dex += points,
            Physical::End => self.end += points,
        }
    }

    fn total(&self) -> i64 {
        Physical::ALL.iter().map(|physical| i64::from(self.of(*physical))).sum()
    }
}

/// The target's choices for a hit; both optional.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineAllocationChoice))]
#[serde(deny_unknown_fields)]
pub struct AllocationChoice {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overflow_to: Option<Overflow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocation: Option<Split>,
}

/// Where a hit's points went and what they did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineAllocation))]
pub struct Allocation {
    /// The points to place (after armour).
    pub damage: i32,
    pub str: i32,
    pub dex: i32,
    pub end: i32,
    /// Points with nowhere left to go (all three characteristics at 0).
    pub excess: i32,
    /// The hit followed the first-damage path.
    pub first_damage: bool,
    pub status_before: Status,
    pub status_after: Status,
    /// `status_after` is unconscious (not published: `status_after` says it).
    #[serde(skip)]
    pub unconscious: bool,
    /// `status_after` is dead (not published: `status_after` says it).
    #[serde(skip)]
    pub dead: bool,
}

impl Allocation {
    pub fn split(&self) -> Split {
        Split { str: self.str, dex: self.dex, end: self.end }
    }
}

/// Places a hit's points: the first damage goes to Endurance, then to the chosen one of
/// Strength and Dexterity, then the other; later hits go where the target says
/// (cepheus-engine.txt, "Damage"). The result reports the status before and after
/// ("Table: Damage Results").
pub fn allocate_damage(
    stats: &Stats,
    damage: i32,
    choice: &AllocationChoice,
) -> Result<Allocation, RuleError> {
    if damage < 0 {
        return Err(RuleError::invalid("damage", "damage cannot be negative"));
    }
    let first_damage = !stats.has_been_damaged();
    let split = match choice.allocation {
        Some(_) if first_damage => return Err(first_hit_split_refused()),
        Some(split) => checked_split(stats, damage, split)?,
        None => pour(stats, damage, default_order(stats, choice.overflow_to)),
    };
    // Everything but the skills and a vehicle block, which the status does not read: no copy.
    let mut after = Stats {
        str: stats.str,
        dex: stats.dex,
        end: stats.end,
        int: stats.int,
        edu: stats.edu,
        soc: stats.soc,
        skills: Default::default(),
        armour: stats.armour,
        damage: stats.damage,
        fatigued: stats.fatigued,
        knocked_out: stats.knocked_out,
        vehicle: None,
    };
    add_damage(&mut after, split)?;
    let status_after = after.status();
    Ok(Allocation {
        damage,
        str: split.str,
        dex: split.dex,
        end: split.end,
        excess: damage - (split.str + split.dex + split.end),
        first_damage,
        status_before: stats.status(),
        status_after,
        unconscious: status_after == Status::Unconscious,
        dead: status_after == Status::Dead,
    })
}

/// Records an allocation's points as damage on the stat block, refusing points a characteristic
/// no longer has (cepheus-engine.txt, "Damage").
pub fn apply(stats: &mut Stats, allocation: &Allocation) -> Result<(), RuleError> {
    add_damage(stats, allocation.split())
}

fn first_hit_split_refused() -> RuleError {
    RuleError::invalid(
        "allocation",
        "a character's first damage goes to Endurance, then to overflow_to; a split is only \
         allowed once the character has been damaged",
    )
}

/// Endurance, then the chosen (or default) one of Strength and Dexterity, then the other.
fn default_order(stats: &Stats, overflow: Option<Overflow>) -> [Physical; 3] {
    let first = match overflow {
        Some(Overflow::Str) => Physical::Str,
        Some(Overflow::Dex) => Physical::Dex,
        None if stats.current(Physical::Dex) > stats.current(Physical::Str) => Physical::Dex,
        None => Physical::Str,
    };
    let second = if first == Physical::Str { Physical::Dex } else { Physical::Str };
    [Physical::End, first, second]
}

/// Fills each characteristic in order up to what it has left.
fn pour(stats: &Stats, damage: i32, order: [Physical; 3]) -> Split {
    let mut split = Split::default();
    let mut left = damage;
    for physical in order {
        let taken = left.min(stats.current(physical));
        split.add(physical, taken);
        left -= taken;
    }
    split
}

fn checked_split(stats: &Stats, damage: i32, split: Split) -> Result<Split, RuleError> {
    Physical::ALL.iter().try_for_each(|physical| check_part(stats, *physical, split.of(*physical)))?;
    let room: i64 = Physical::ALL.iter().map(|physical| i64::from(stats.current(*physical))).sum();
    let (wanted, total) = (i64::from(damage).min(room), split.total());
    if total == wanted {
        return Ok(split);
    }
    let message = if wanted == i64::from(damage) {
        format!("the split totals {total} but the damage is {damage}")
    } else {
        format!(
            "the damage ({damage}) is more than the {room} points left, so the split must place all {room}; it totals {total}"
        )
    };
    Err(RuleError::invalid("allocation", message))
}

fn check_part(stats: &Stats, physical: Physical, points: i32) -> Result<(), RuleError> {
    // The field is written only for an error: this check runs three times per hit.
    let field = || format!("allocation.{}", physical.field());
    let (name, left) = (physical.name(), stats.current(physical));
    if points < 0 {
        return Err(RuleError::invalid(field(), "damage points cannot be negative"));
    }
    if points > 0 && left == 0 {
        return Err(RuleError::invalid(field(), format!("{name} is already 0")));
    }
    if points > left {
        return Err(RuleError::invalid(field(), format!("{name} has only {left} points left, not {points}")));
    }
    Ok(())
}

fn add_damage(stats: &mut Stats, split: Split) -> Result<(), RuleError> {
    Physical::ALL.iter().try_for_each(|physical| check_part(stats, *physical, split.of(*physical)))?;
    for physical in Physical::ALL {
        let taken = stats.damage.of(physical) + split.of(physical);
        // check_part keeps `taken` within the characteristic, so within 0..=30.
        *stats.damage.slot(physical) = Score::new(i64::from(taken)).map_err(|error| {
            RuleError::invalid(format!("allocation.{}", physical.field()), error.to_string())
        })?;
    }
    Ok(())
}

#[cfg(test)]
#[path = "allocation_tests.rs"]
mod tests;

/// A coup de grâce (cepheus-engine.txt, "Coup de Grace"): every physical characteristic is
/// brought to 0, so the character is dead; the allocation records what was taken.
pub fn kill(stats: &mut Stats) -> Result<Allocation, RuleError> {
    let status_before = stats.status();
    let first_damage = !stats.has_been_damaged();
    let left = Physical::ALL.map(|physical| stats.current(physical));
    for physical in Physical::ALL {
        let maximum = i64::from(stats.maximum(physical));
        *stats.damage.slot(physical) =
            Score::new(maximum).map_err(|error| RuleError::invalid("target", error.to_string()))?;
    }
    let total = left.iter().sum();
    Ok(Allocation {
        damage: total,
        str: left[0],
        dex: left[1],
        end: left[2],
        excess: 0,
        first_damage,
        status_before,
        status_after: stats.status(),
        unconscious: false,
        dead: true,
    })
}
