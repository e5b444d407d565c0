//! Burst fire and panic fire (cepheus-engine.txt, "Burst Fire", table "Burst Fire Effects", and
//! "Panic Fire").
//!
//! Decisions:
//! - The prose says the attacker picks one purpose per burst: spray it for the attack DM, or group
//!   it for the extra damage. A burst therefore gets one column of the table, never both
//!   ([`BurstMode`]).
//! - The prose lists bursts of 2, 3, 4, 10, 20 and 100; the table has rows for 1, 3, 4, 10, 20 and
//!   100. A 1-round "burst" is an ordinary shot (+0, +0). A 2-round burst is accepted, but with no
//!   row of its own it takes the 1-round row (+0, +0): the table gives no bonus below 3 rounds. This
//!   is the same "largest row not above the rounds fired" rule panic fire uses. Any other size is
//!   refused.
//! - Panic fire empties the weapon; its damage bonus is the row for the largest burst size not
//!   above the rounds left (e.g. 30 rounds → the 20-round row, +3D6). It never takes the burst's
//!   attack DM, only the −2.

use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Extra damage from a burst: flat points or extra D6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineExtraDamage))]
#[serde(rename_all = "snake_case")]
pub enum ExtraDamage {
    Flat(i32),
    Dice(u32),
}

/// One row of the Burst Fire Effects table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineBurstEffect))]
pub struct BurstEffect {
    pub attack_dm: i32,
    pub extra_damage: ExtraDamage,
}

/// Whether a burst is sprayed (attack DM) or grouped (extra damage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineBurstMode))]
#[serde(rename_all = "snake_case")]
pub enum BurstMode {
    Spray,
    Grouped,
}

/// A burst as a client describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineBurst))]
#[serde(deny_unknown_fields)]
pub struct Burst {
    pub rounds: u32,
    pub mode: BurstMode,
}

/// The table's rows, smallest burst first.
const ROWS: [(u32, BurstEffect); 6] = [
    (1, BurstEffect { attack_dm: 0, extra_damage: ExtraDamage::Flat(0) }),
    (3, BurstEffect { attack_dm: 1, extra_damage: ExtraDamage::Flat(1) }),
    (4, BurstEffect { attack_dm: 1, extra_damage: ExtraDamage::Dice(1) }),
    (10, BurstEffect { attack_dm: 2, extra_damage: ExtraDamage::Dice(2) }),
    (20, BurstEffect { attack_dm: 3, extra_damage: ExtraDamage::Dice(3) }),
    (100, BurstEffect { attack_dm: 4, extra_damage: ExtraDamage::Dice(4) }),
];

/// The row for the largest listed burst not above `rounds` (`rounds` is at least 1).
fn largest_row_within(rounds: u32) -> BurstEffect {
    ROWS.iter().rev().find(|(size, _)| *size <= rounds).map_or(ROWS[0].1, |(_, effect)| *effect)
}

/// The attack DM and extra damage for a burst of this many rounds (cepheus-engine.txt, "Burst
/// Fire"). Sizes 1, 2, 3, 4, 10, 20 and 100 are accepted; 2 takes the 1-round row (see decisions).
pub fn burst_effect(rounds: u32) -> Result<BurstEffect, RuleError> {
    match rounds {
        1 | 2 | 3 | 4 | 10 | 20 | 100 => Ok(largest_row_within(rounds)),
        _ => Err(RuleError::invalid("burst", "a burst must be 1, 2, 3, 4, 10, 20 or 100 rounds")),
    }
}

/// The burst damage bonus of panic fire, which fires every round left in the weapon
/// (cepheus-engine.txt, "Panic Fire"); the row is the largest burst not above those rounds.
pub fn panic_fire_damage(rounds_left: u32) -> Result<ExtraDamage, RuleError> {
    if rounds_left == 0 {
        return Err(RuleError::invalid(
            "panic_fire_rounds",
            "panic fire needs at least one round left in the weapon",
        ));
    }
    Ok(largest_row_within(rounds_left).extra_damage)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effect(attack_dm: i32, extra_damage: ExtraDamage) -> BurstEffect {
        BurstEffect { attack_dm, extra_damage }
    }

    #[test]
    fn each_table_row_is_returned_as_printed() {
        assert_eq!(burst_effect(1).unwrap(), effect(0, ExtraDamage::Flat(0)));
        assert_eq!(burst_effect(3).unwrap(), effect(1, ExtraDamage::Flat(1)));
        assert_eq!(burst_effect(4).unwrap(), effect(1, ExtraDamage::Dice(1)));
        assert_eq!(burst_effect(10).unwrap(), effect(2, ExtraDamage::Dice(2)));
        assert_eq!(burst_effect(20).unwrap(), effect(3, ExtraDamage::Dice(3)));
        assert_eq!(burst_effect(100).unwrap(), effect(4, ExtraDamage::Dice(4)));
    }

    #[test]
    fn a_two_round_burst_takes_the_one_round_row() {
        assert_eq!(burst_effect(2).unwrap(), effect(0, ExtraDamage::Flat(0)));
    }

    #[test]
    fn unlisted_sizes_are_refused_on_burst() {
        for rounds in [0, 5, 9, 11, 50, 101] {
            let err = burst_effect(rounds).unwrap_err();
            assert!(matches!(err, RuleError::Invalid { ref field, .. } if field == "burst"), "{rounds}");
        }
    }

    #[test]
    fn panic_fire_uses_the_largest_row_within_the_rounds_left() {
        // 2 left → 1-round row +0; 7 → 4-round row +1D6; 30 → 20-round row +3D6; 250 → 100-round +4D6.
        assert_eq!(panic_fire_damage(2).unwrap(), ExtraDamage::Flat(0));
        assert_eq!(panic_fire_damage(3).unwrap(), ExtraDamage::Flat(1));
        assert_eq!(panic_fire_damage(7).unwrap(), ExtraDamage::Dice(1));
        assert_eq!(panic_fire_damage(30).unwrap(), ExtraDamage::Dice(3));
        assert_eq!(panic_fire_damage(250).unwrap(), ExtraDamage::Dice(4));
    }

    #[test]
    fn panic_fire_with_an_empty_weapon_is_refused() {
        let err = panic_fire_damage(0).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "panic_fire_rounds"));
    }
}
