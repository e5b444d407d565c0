//! Where a missed shot or throw goes (cepheus-engine.txt, "Firing into Combat" and "Thrown
//! Weapons").
//!
//! Decisions:
//! - A miss fired into combat rolls 1D6; on 4+ it hits the combatant nearest the original target.
//!   Who that is, and the hit's damage, are the caller's: the text gives the stray hit no Effect of
//!   its own, so `roll_damage` with Effect 0 is the natural way to resolve it.
//! - A thrown miss scatters (6 + Effect) metres, never less than 0. The Effect of a miss is
//!   negative, so a worse throw lands nearer the target; that is what the text's formula says.
//! - The random direction is 1D8, one of the eight compass points relative to the throw: 1 is
//!   straight on past the target, then clockwise seen from above: 2 long right, 3 right, 4 short
//!   right, 5 short (back toward the thrower), 6 short left, 7 left, 8 long left. Eight matches the
//!   neighbours of a square on the 1.5 m grid the text uses.
//! - A throw into combat rolls the 1D6 first; if it hits the other combatant it does not scatter.

use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Least 1D6 at which a miss into combat hits the nearest other combatant.
pub const STRAY_HIT_ON: u32 = 4;

/// Base scatter distance before the Effect is added, in metres.
pub const SCATTER_BASE_M: i32 = 6;

/// A miss fired into combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineStrayShot))]
pub struct StrayShot {
    pub roll: u32,
    pub hits_nearest_other: bool,
}

/// The eight directions a thrown miss can scatter, relative to the line of the throw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineScatterDirection))]
#[serde(rename_all = "snake_case")]
pub enum ScatterDirection {
    Long,
    LongRight,
    Right,
    ShortRight,
    Short,
    ShortLeft,
    Left,
    LongLeft,
}

const DIRECTIONS: [ScatterDirection; 8] = [
    ScatterDirection::Long,
    ScatterDirection::LongRight,
    ScatterDirection::Right,
    ScatterDirection::ShortRight,
    ScatterDirection::Short,
    ScatterDirection::ShortLeft,
    ScatterDirection::Left,
    ScatterDirection::LongLeft,
];

/// Where a thrown miss lands, from the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineScatter))]
pub struct Scatter {
    pub direction_roll: u32,
    pub direction: ScatterDirection,
    pub distance_m: i32,
}

/// Rolls 1D6 for a miss fired into combat: 4+ hits the nearest other combatant
/// (cepheus-engine.txt, "Firing into Combat").
pub fn roll_stray_shot(dice: &mut Dice) -> Result<StrayShot, RuleError> {
    let roll = dice.roll(6, "firing into combat: stray shot (4+ hits the nearest other)")?;
    Ok(StrayShot { roll, hits_nearest_other: roll >= STRAY_HIT_ON })
}

/// Rolls where a thrown miss lands: a random direction (1D8, see the decisions) and (6 + Effect)
/// metres, not below 0 (cepheus-engine.txt, "Thrown Weapons").
pub fn roll_scatter(effect: i32, dice: &mut Dice) -> Result<Scatter, RuleError> {
    let direction_roll = dice.roll(8, "thrown miss: scatter direction (1 = long, clockwise)")?;
    Ok(Scatter {
        direction_roll,
        direction: DIRECTIONS[(direction_roll - 1) as usize],
        distance_m: (SCATTER_BASE_M + effect).max(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stray_shot_hits_on_four_or_more() {
        let mut dice = Dice::scripted(vec![3, 4], 0).unwrap();
        assert_eq!(roll_stray_shot(&mut dice).unwrap(), StrayShot { roll: 3, hits_nearest_other: false });
        assert_eq!(roll_stray_shot(&mut dice).unwrap(), StrayShot { roll: 4, hits_nearest_other: true });
    }

    #[test]
    fn scatter_is_six_plus_effect_metres() {
        // Effect −2: 6 − 2 = 4 m; direction 3 → right.
        let mut dice = Dice::scripted(vec![3, 8], 0).unwrap();
        let scatter = roll_scatter(-2, &mut dice).unwrap();
        assert_eq!(scatter, Scatter { direction_roll: 3, direction: ScatterDirection::Right, distance_m: 4 });
        assert_eq!(dice.rolls()[0].sides, 8);
        // Effect −7: 6 − 7 = −1 → 0 m; direction 8 → long left.
        let scatter = roll_scatter(-7, &mut dice).unwrap();
        assert_eq!((scatter.direction, scatter.distance_m), (ScatterDirection::LongLeft, 0));
    }
}
