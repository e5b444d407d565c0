//! Collisions (cepheus-engine.txt, "Collisions").
//!
//! Decisions:
//! - Speed is in kph, a finite number from 0 to 5,000 (field `speed_kph`). Every started 10 kph
//!   counts: 0 kph → no dice, 1–10 kph → 1D6, 11–20 kph → 2D6.
//! - Unsecured passengers are thrown 3 m for each of those same started 10 kph (35 kph → 4 × 3 =
//!   12 m); "if possible" is left to the referee.
//! - Secured passengers take a quarter of the damage, rounded up, as the text rounds its other
//!   divisions up ("round up" for the dice here and for halved energy damage).
//! - The damage goes to whatever was hit and, if that was solid enough, to the ramming vehicle too;
//!   judging "solid enough", and whether the vehicle was damaged at all (which is what throws its
//!   passengers about), is the caller's.

use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Fastest collision accepted, in kph.
pub const MAX_COLLISION_SPEED_KPH: f64 = 5000.0;

/// Metres an unsecured passenger is thrown per started 10 kph.
pub const THROWN_M_PER_10_KPH: u32 = 3;

/// The damage of one collision and what it does to the passengers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineCollisionOutcome))]
pub struct CollisionOutcome {
    pub speed_kph: f64,
    /// Started tens of kph: the number of D6.
    pub dice_count: u32,
    pub dice: Vec<u32>,
    /// Damage to what was hit (and to the vehicle if what it hit was solid enough).
    pub damage: i32,
    /// Unsecured passengers take the full damage…
    pub unsecured_passenger_damage: i32,
    /// …and are thrown this far, where there is room.
    pub unsecured_thrown_m: u32,
    /// Secured passengers take a quarter, rounded up, and stay put.
    pub secured_passenger_damage: i32,
}

/// Rolls a collision's damage: 1D6 per 10 kph rounded up, with the full damage and a throw of
/// 3 m per 10 kph for unsecured passengers and a quarter of the damage for secured ones
/// (cepheus-engine.txt, "Collisions").
pub fn collision_damage(speed_kph: f64, dice: &mut Dice) -> Result<CollisionOutcome, RuleError> {
    if !speed_kph.is_finite() || !(0.0..=MAX_COLLISION_SPEED_KPH).contains(&speed_kph) {
        return Err(RuleError::invalid("speed_kph", "speed must be a finite number of kph from 0 to 5000"));
    }
    let dice_count = (speed_kph / 10.0).ceil() as u32;
    let mut rolled = Vec::new();
    for _ in 0..dice_count {
        rolled.push(dice.roll(6, "collision damage")?);
    }
    let damage = rolled.iter().sum::<u32>() as i32;
    Ok(CollisionOutcome {
        speed_kph,
        dice_count,
        dice: rolled,
        damage,
        unsecured_passenger_damage: damage,
        unsecured_thrown_m: dice_count * THROWN_M_PER_10_KPH,
        secured_passenger_damage: (damage + 3) / 4,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_five_kph_is_four_dice() {
        // 35 / 10 = 3.5 → 4D6: 3 + 5 + 2 + 6 = 16; thrown 4 × 3 = 12 m; secured 16 / 4 = 4.
        let mut dice = Dice::scripted(vec![3, 5, 2, 6], 0).unwrap();
        let outcome = collision_damage(35.0, &mut dice).unwrap();
        assert_eq!(outcome.dice_count, 4);
        assert_eq!(outcome.dice, vec![3, 5, 2, 6]);
        assert_eq!(outcome.damage, 16);
        assert_eq!(outcome.unsecured_passenger_damage, 16);
        assert_eq!(outcome.unsecured_thrown_m, 12);
        assert_eq!(outcome.secured_passenger_damage, 4);
    }

    #[test]
    fn exact_tens_do_not_round_up_and_quarters_do() {
        // 20 kph → 2D6: 4 + 3 = 7; thrown 6 m; secured 7 / 4 = 1.75 → 2.
        let mut dice = Dice::scripted(vec![4, 3], 0).unwrap();
        let outcome = collision_damage(20.0, &mut dice).unwrap();
        assert_eq!((outcome.dice_count, outcome.damage), (2, 7));
        assert_eq!((outcome.unsecured_thrown_m, outcome.secured_passenger_damage), (6, 2));
    }

    #[test]
    fn a_crawl_is_one_die_and_standing_still_is_none() {
        // 0.5 kph → 1D6 (a started ten); 0 kph → nothing.
        let mut dice = Dice::scripted(vec![1], 0).unwrap();
        let slow = collision_damage(0.5, &mut dice).unwrap();
        assert_eq!((slow.dice_count, slow.damage, slow.secured_passenger_damage), (1, 1, 1));
        let still = collision_damage(0.0, &mut dice).unwrap();
        assert_eq!((still.dice_count, still.damage, still.unsecured_thrown_m), (0, 0, 0));
    }

    #[test]
    fn impossible_speeds_are_refused() {
        let mut dice = Dice::scripted(vec![], 0).unwrap();
        for speed in [-1.0, f64::NAN, f64::INFINITY, 5000.5] {
            let err = collision_damage(speed, &mut dice).unwrap_err();
            assert!(matches!(err, RuleError::Invalid { ref field, .. } if field == "speed_kph"), "{speed}");
        }
    }
}
