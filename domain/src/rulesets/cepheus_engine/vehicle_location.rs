//! Where a vehicle, robot or drone is hit (cepheus-engine.txt, "Vehicle Damage", table "Vehicle
//! Hit Location").
//!
//! Decisions:
//! - Roll once per Hit from `vehicle_hits`: a Double or Triple lands all its hits on that one
//!   location.
//! - The internal column's "Computers" and the robot column's "Computer" are the same system
//!   (`computer`).
//! - Once a vehicle's Hull is used up, the text sends further Hull hits to the same row of the
//!   Internal column. Callers do that by looking up the same roll with `LocationTable::Internal`.
//!   Robots and drones turn such hits into Structure hits instead.
//! - A roll outside 2–12 is refused (field `roll`).

use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// The three columns of the Vehicle Hit Location table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineLocationTable))]
#[serde(rename_all = "snake_case")]
pub enum LocationTable {
    External,
    Internal,
    RobotOrDrone,
}

/// A hit location as printed in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineHitLocation))]
#[serde(rename_all = "snake_case")]
pub enum HitLocation {
    Hull,
    Structure,
    Armour,
    Sensors,
    Drive,
    Weapon,
    WeaponOrLimb,
    PowerPlant,
    Cargo,
    Passengers,
    Computer,
    Cockpit,
}

/// A 2D6 location roll and where it landed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineLocationRoll))]
pub struct LocationRoll {
    pub roll: u32,
    pub location: HitLocation,
}

use HitLocation::{
    Armour, Cargo, Cockpit, Computer, Drive, Hull, Passengers, PowerPlant, Sensors, Structure, Weapon,
    WeaponOrLimb,
};

/// Each column for rolls 2 to 12.
const EXTERNAL: [HitLocation; 11] =
    [Hull, Sensors, Drive, Weapon, Hull, Armour, Hull, Weapon, Drive, Sensors, Hull];
const INTERNAL: [HitLocation; 11] = [
    Structure, PowerPlant, PowerPlant, Cargo, Structure, Passengers, Structure, Cargo, Computer, Cockpit,
    Cockpit,
];
const ROBOT_OR_DRONE: [HitLocation; 11] =
    [Hull, PowerPlant, Sensors, WeaponOrLimb, Hull, Armour, Hull, WeaponOrLimb, Drive, Sensors, Computer];

/// The location for a 2D6 roll on one column of the Vehicle Hit Location table
/// (cepheus-engine.txt, "Vehicle Damage").
pub fn hit_location(table: LocationTable, roll: u32) -> Result<HitLocation, RuleError> {
    if !(2..=12).contains(&roll) {
        return Err(RuleError::invalid("roll", "a hit location roll is 2D6, from 2 to 12"));
    }
    let column = match table {
        LocationTable::External => &EXTERNAL,
        LocationTable::Internal => &INTERNAL,
        LocationTable::RobotOrDrone => &ROBOT_OR_DRONE,
    };
    Ok(column[(roll - 2) as usize])
}

/// Rolls 2D6 through `dice` and looks the total up on one column (cepheus-engine.txt, "Vehicle
/// Damage").
pub fn roll_hit_location(
    table: LocationTable,
    dice: &mut Dice,
    purpose: &str,
) -> Result<LocationRoll, RuleError> {
    let roll = dice.roll(6, purpose)? + dice.roll(6, purpose)?;
    Ok(LocationRoll { roll, location: hit_location(table, roll)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(table: LocationTable) -> Vec<HitLocation> {
        (2..=12).map(|roll| hit_location(table, roll).unwrap()).collect()
    }

    #[test]
    fn external_column_as_printed() {
        assert_eq!(
            column(LocationTable::External),
            vec![Hull, Sensors, Drive, Weapon, Hull, Armour, Hull, Weapon, Drive, Sensors, Hull]
        );
    }

    #[test]
    fn internal_column_as_printed() {
        assert_eq!(
            column(LocationTable::Internal),
            vec![
                Structure, PowerPlant, PowerPlant, Cargo, Structure, Passengers, Structure, Cargo, Computer,
                Cockpit, Cockpit
            ]
        );
    }

    #[test]
    fn robot_or_drone_column_as_printed() {
        assert_eq!(
            column(LocationTable::RobotOrDrone),
            vec![
                Hull,
                PowerPlant,
                Sensors,
                WeaponOrLimb,
                Hull,
                Armour,
                Hull,
                WeaponOrLimb,
                Drive,
                Sensors,
                Computer
            ]
        );
    }

    #[test]
    fn rolls_outside_2d6_are_refused() {
        for roll in [0, 1, 13] {
            let err = hit_location(LocationTable::External, roll).unwrap_err();
            assert!(matches!(err, RuleError::Invalid { ref field, .. } if field == "roll"), "{roll}");
        }
    }

    #[test]
    fn a_rolled_location_uses_two_dice() {
        // 3 + 4 = 7 → Passengers on the internal column.
        let mut dice = Dice::scripted(vec![3, 4], 0).unwrap();
        let rolled = roll_hit_location(LocationTable::Internal, &mut dice, "hit location").unwrap();
        assert_eq!(rolled, LocationRoll { roll: 7, location: Passengers });
        assert_eq!(dice.rolls().len(), 2);
    }
}
