//! Damage to a vehicle, robot or drone: hits, their locations and what each location suffers
//! (cepheus-engine.txt, "Vehicle Damage", tables "Vehicle Damage" and "Vehicle Hit Location", and
//! the location entries after them).
//!
//! Decisions:
//! - The damage given is what got past the vehicle's armour; `vehicle_hits` turns it into hits.
//! - Each Hit gets one 2D6 location roll (`roll_hit_location`) on the column the caller names:
//!   External while the vehicle has Hull left, Internal once it has none, RobotOrDrone for those.
//!   A Double or Triple is two or three hits on that one location (`hits_on_location`).
//! - What a hit does depends on how often that location was hit before and on what is left
//!   (weapons, passengers, cargo), which this function does not know. Each location therefore
//!   carries the text's whole ladder of effects as a description; the encounter layer tracks the
//!   count and applies the right step.
//! - "Weapon or Limb" on the robot column: the text does not say how to choose, so both ladders
//!   are given and the referee picks.
//! - Passenger and cockpit hits report `occupant_damage`: the damage dealt to the vehicle (after
//!   armour), which the struck passenger or pilot takes, once per hit on that location.

use super::vehicle::{Hit, vehicle_hits};
use super::vehicle_location::{HitLocation, LocationTable, roll_hit_location};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// One hit from the Vehicle Damage table, where it landed and what that does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineVehicleHitResult))]
pub struct VehicleHitResult {
    pub hit: Hit,
    /// 1 for a Single, 2 for a Double, 3 for a Triple.
    pub hits_on_location: u32,
    /// The 2D6 location roll.
    pub roll: u32,
    pub location: HitLocation,
    /// The location's effects as the text lists them, first hit onwards.
    pub effect: String,
    /// For passenger and cockpit hits: the damage the struck occupant takes, per hit.
    pub occupant_damage: Option<i32>,
}

/// Every hit one attack (or collision) does to a vehicle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineVehicleDamageOutcome))]
pub struct VehicleDamageOutcome {
    /// Damage after armour, as brought to the Vehicle Damage table.
    pub damage: i32,
    pub table: LocationTable,
    pub hits: Vec<VehicleHitResult>,
}

/// Turns damage past armour into hits and rolls a location for each on the named column
/// (cepheus-engine.txt, "Vehicle Damage").
pub fn resolve_vehicle_damage(
    damage: i32,
    table: LocationTable,
    dice: &mut Dice,
) -> Result<VehicleDamageOutcome, RuleError> {
    let mut hits = Vec::new();
    for (index, hit) in vehicle_hits(damage)?.into_iter().enumerate() {
        let purpose = format!("vehicle hit location: hit {} ({})", index + 1, hit_label(hit));
        let rolled = roll_hit_location(table, dice, &purpose)?;
        hits.push(VehicleHitResult {
            hit,
            hits_on_location: hit_count(hit),
            roll: rolled.roll,
            location: rolled.location,
            effect: location_effect(rolled.location).to_string(),
            occupant_damage: occupant_damage(rolled.location, damage),
        });
    }
    Ok(VehicleDamageOutcome { damage, table, hits })
}

/// How many hits a table entry puts on its location (cepheus-engine.txt, "Vehicle Damage").
pub fn hit_count(hit: Hit) -> u32 {
    match hit {
        Hit::Single => 1,
        Hit::Double => 2,
        Hit::Triple => 3,
    }
}

fn hit_label(hit: Hit) -> &'static str {
    match hit {
        Hit::Single => "single",
        Hit::Double => "double",
        Hit::Triple => "triple",
    }
}

/// Passengers and the pilot take the damage dealt to the vehicle (cepheus-engine.txt,
/// "Passengers" and "Cockpit" under "Vehicle Damage").
fn occupant_damage(location: HitLocation, damage: i32) -> Option<i32> {
    matches!(location, HitLocation::Passengers | HitLocation::Cockpit).then_some(damage)
}

/// What a hit on this location does, paraphrasing the location entries (cepheus-engine.txt,
/// "Vehicle Damage": "Hull" through "Computer").
pub fn location_effect(location: HitLocation) -> &'static str {
    match location {
        HitLocation::Hull => {
            "Hull −1. With no Hull left, a vehicle takes the hit on the same row of the Internal \
             column instead; a robot or drone takes a Structure hit."
        }
        HitLocation::Structure => {
            "Structure −1. At 0 the vehicle is scrap; if the attack drives Structure below 0 it \
             explodes for 4D6 within 6 m (occupants included) and 2D6 within 12 m, and occupants of a \
             closed vehicle cannot dodge or dive."
        }
        HitLocation::Armour => "Armour −1.",
        HitLocation::Drive => DRIVE,
        HitLocation::Weapon => WEAPON,
        HitLocation::WeaponOrLimb => {
            "Weapon or limb (referee's choice). Weapon: random weapon or device; first hit −2 DM to \
             operate it, second destroys it; none left → Hull hit. Limb: random limb; first hit −2 DM \
             to checks using it, second destroys it; further limb hits → Hull hits."
        }
        HitLocation::Sensors => SENSORS,
        HitLocation::PowerPlant => POWER_PLANT,
        HitLocation::Passengers => {
            "A random passenger takes damage equal to the damage dealt to the vehicle; once all \
             passengers are dead, further passenger hits are Structure hits."
        }
        HitLocation::Cargo => {
            "Whatever cargo is aboard is struck and may be ruined; once none is left, a Structure hit."
        }
        HitLocation::Cockpit => {
            "The pilot takes damage equal to the damage dealt to the vehicle; once the pilot is \
             dead, further cockpit hits are Structure hits."
        }
        HitLocation::Computer => COMPUTER,
    }
}

const DRIVE: &str = "First hit: movement −10% and −1 DM to vehicle control checks. Second: movement −25% \
     and −2 DM. Third: drive disabled. Further drive hits → Hull hits.";
const WEAPON: &str = "A random weapon or device per hit. First hit: −2 DM to checks operating it. \
     Second: destroyed. With nothing left to destroy → Hull hit.";
const SENSORS: &str = "First hit: −2 DM to Comms checks using sensors (and to Recon for robots and \
     drones). Second: sensors destroyed, the vehicle is blind. Further sensor hits → Hull hits.";
const POWER_PLANT: &str = "First hit: one round of actions lost. Second: movement −50%. Third: power \
     plant destroyed, the vehicle disabled and 1D6 Hull hits on it.";
const COMPUTER: &str = "First hit: computer disabled (a robot or drone shuts down for 1D6 rounds). \
     Second: computer destroyed (a robot or drone is wholly disabled). Further computer hits → \
     Structure hits.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fourteen_damage_is_two_singles_and_a_double_each_with_a_location() {
        // 14 → row 13–15: Single, Single, Double. External rolls: 1 + 1 = 2 Hull; 3 + 4 = 7
        // Armour; 5 + 5 = 10 Drive (the Double: two drive hits).
        let mut dice = Dice::scripted(vec![1, 1, 3, 4, 5, 5], 0).unwrap();
        let outcome = resolve_vehicle_damage(14, LocationTable::External, &mut dice).unwrap();
        let summary: Vec<_> =
            outcome.hits.iter().map(|hit| (hit.hit, hit.hits_on_location, hit.roll, hit.location)).collect();
        assert_eq!(
            summary,
            vec![
                (Hit::Single, 1, 2, HitLocation::Hull),
                (Hit::Single, 1, 7, HitLocation::Armour),
                (Hit::Double, 2, 10, HitLocation::Drive),
            ]
        );
        assert_eq!(outcome.hits[2].effect, DRIVE);
        assert_eq!(dice.rolls()[4].purpose, "vehicle hit location: hit 3 (double)");
    }

    #[test]
    fn occupants_take_the_vehicle_damage() {
        // 2 → one Single; internal 3 + 4 = 7 → Passengers, who take the 2 points.
        let mut dice = Dice::scripted(vec![3, 4], 0).unwrap();
        let outcome = resolve_vehicle_damage(2, LocationTable::Internal, &mut dice).unwrap();
        assert_eq!(outcome.hits[0].location, HitLocation::Passengers);
        assert_eq!(outcome.hits[0].occupant_damage, Some(2));
        // 21 → Triple; internal 6 + 6 = 12 → Cockpit: the pilot takes 21, three times over.
        let mut dice = Dice::scripted(vec![6, 6], 0).unwrap();
        let outcome = resolve_vehicle_damage(21, LocationTable::Internal, &mut dice).unwrap();
        assert_eq!((outcome.hits[0].hits_on_location, outcome.hits[0].occupant_damage), (3, Some(21)));
    }

    #[test]
    fn no_damage_rolls_nothing_and_other_locations_have_no_occupant_damage() {
        let mut dice = Dice::scripted(vec![2, 2], 0).unwrap();
        assert!(resolve_vehicle_damage(0, LocationTable::External, &mut dice).unwrap().hits.is_empty());
        assert!(dice.rolls().is_empty());
        // 3 → Single; robot column 2 + 2 = 4 → Sensors.
        let outcome = resolve_vehicle_damage(3, LocationTable::RobotOrDrone, &mut dice).unwrap();
        assert_eq!((outcome.hits[0].location, outcome.hits[0].occupant_damage), (HitLocation::Sensors, None));
    }

    #[test]
    fn every_location_has_an_effect() {
        use HitLocation::*;
        let all = [
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
        ];
        assert!(all.iter().all(|location| !location_effect(*location).is_empty()));
    }
}
