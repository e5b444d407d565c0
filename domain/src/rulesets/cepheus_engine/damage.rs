//! Armour and the state of a damaged character (cepheus-engine.txt, "Damage", table "Damage
//! Results", "Armor" and "Injury and Recovery").
//!
//! Decisions:
//! - Characteristic arrays are in the order `[str, dex, end]`, matching `Stats`.
//! - A characteristic is "damaged" when it is below its maximum, and "at zero" when it is 0.
//! - The Damage Results table decides the state, checked from worst to mildest: all three at zero
//!   → dead; two at zero → unconscious; all three damaged → seriously wounded; any damaged →
//!   wounded; otherwise uninjured. The "Damage" prose says Strength or Dexterity at 0 means
//!   unconscious. On the normal path Endurance is already 0 by then, so that is two at zero and the
//!   two agree. When later damage is spread freely and one characteristic reaches 0 alone, the
//!   table's rule is used: the character is wounded or seriously wounded, not unconscious.
//! - Maximums must be at least 1; current values must lie between 0 and the maximum (damage
//!   beyond 0 carries to another characteristic, it never makes one negative).
//! - Armour cannot be negative. Damage never goes below 0 after armour, and an Effect of 6 or more
//!   leaves at least 1 point whatever the armour.

use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// A character's condition after damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineStatus))]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Uninjured,
    Wounded,
    SeriouslyWounded,
    Unconscious,
    Dead,
}

/// Effect at which a hit always does at least 1 point (cepheus-engine.txt, "Armor").
pub const ARMOUR_PIERCING_EFFECT: i32 = 6;

/// Damage left after armour: damage minus armour, never below 0, and at least 1 when the
/// attack's Effect is 6 or more (cepheus-engine.txt, "Armor").
pub fn apply_armour(damage: i32, armour: u32, effect: i32) -> i32 {
    let armour = i32::try_from(armour).unwrap_or(i32::MAX);
    let through = damage.saturating_sub(armour).max(0);
    if effect >= ARMOUR_PIERCING_EFFECT { through.max(1) } else { through }
}

/// The character's state from maximum and current Strength, Dexterity and Endurance, per the
/// Damage Results table (cepheus-engine.txt, "Damage" and "Injury and Recovery").
pub fn damage_status(max: [i32; 3], current: [i32; 3]) -> Result<Status, RuleError> {
    check_characteristics(max, current)?;
    let at_zero = current.iter().filter(|value| **value == 0).count();
    let damaged = current.iter().zip(max).filter(|(now, full)| **now < *full).count();
    let status = match (at_zero, damaged) {
        (3, _) => Status::Dead,
        (2, _) => Status::Unconscious,
        (_, 3) => Status::SeriouslyWounded,
        (_, 0) => Status::Uninjured,
        _ => Status::Wounded,
    };
    Ok(status)
}

fn check_characteristics(max: [i32; 3], current: [i32; 3]) -> Result<(), RuleError> {
    if max.iter().any(|value| *value < 1) {
        return Err(RuleError::invalid("max", "each maximum characteristic must be at least 1"));
    }
    if current.iter().zip(max).any(|(now, full)| *now < 0 || *now > full) {
        return Err(RuleError::invalid(
            "current",
            "each current characteristic must be between 0 and its maximum",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn armour_subtracts_and_stops_at_zero() {
        // 10 − 4 = 6; 5 − 8 = −3 → 0; 3 − 0 = 3.
        assert_eq!(apply_armour(10, 4, 2), 6);
        assert_eq!(apply_armour(5, 8, 3), 0);
        assert_eq!(apply_armour(3, 0, 0), 3);
    }

    #[test]
    fn effect_six_always_gets_one_point_through() {
        // 5 − 8 → 0, raised to 1 by Effect 6; Effect 5 is not enough.
        assert_eq!(apply_armour(5, 8, 6), 1);
        assert_eq!(apply_armour(5, 8, 5), 0);
        // 12 − 5 = 7: already above 1, unchanged.
        assert_eq!(apply_armour(12, 5, 9), 7);
    }

    #[test]
    fn huge_armour_does_not_overflow() {
        assert_eq!(apply_armour(i32::MIN, u32::MAX, 0), 0);
        assert_eq!(apply_armour(4, u32::MAX, 6), 1);
    }

    const FULL: [i32; 3] = [7, 8, 9];

    fn status(current: [i32; 3]) -> Status {
        damage_status(FULL, current).unwrap()
    }

    #[test]
    fn the_table_from_uninjured_to_dead() {
        assert_eq!(status([7, 8, 9]), Status::Uninjured);
        // Only END lost points → wounded.
        assert_eq!(status([7, 8, 4]), Status::Wounded);
        // END at 0 alone, the others untouched → still only wounded.
        assert_eq!(status([7, 8, 0]), Status::Wounded);
        // All three lost at least a point → seriously wounded.
        assert_eq!(status([6, 7, 1]), Status::SeriouslyWounded);
        assert_eq!(status([6, 7, 0]), Status::SeriouslyWounded);
        // END 0 and STR 0 → two at zero → unconscious.
        assert_eq!(status([0, 8, 0]), Status::Unconscious);
        assert_eq!(status([0, 0, 9]), Status::Unconscious);
        assert_eq!(status([0, 0, 0]), Status::Dead);
    }

    #[test]
    fn a_single_characteristic_at_zero_is_not_unconscious() {
        // STR 0 from freely allocated damage, DEX and END untouched: one at zero → wounded.
        assert_eq!(status([0, 8, 9]), Status::Wounded);
    }

    #[test]
    fn impossible_characteristics_are_refused() {
        let field = |max, current| match damage_status(max, current) {
            Err(RuleError::Invalid { field, .. }) => field,
            other => panic!("expected a refusal, got {other:?}"),
        };
        assert_eq!(field([0, 8, 9], [0, 8, 9]), "max");
        assert_eq!(field(FULL, [-1, 8, 9]), "current");
        assert_eq!(field(FULL, [8, 8, 9]), "current");
    }
}
