//! A vehicle (or robot, drone) as a target: its Hull and Structure, the systems the Vehicle Damage
//! ladders count hits on, and who rides in it (cepheus-engine.txt, "Vehicle Damage", "Table:
//! Vehicle Hit Location" and the location entries after it).
//!
//! Decisions:
//! - A vehicle is a combatant whose stat block carries `vehicle`; its characteristics are not
//!   read for the vehicle. Its armour is the stat block's `armour`, which Armor hits reduce.
//! - Hull 0–1,000 and Structure 1–1,000 are the maximums; `damage` holds what has been lost and
//!   every ladder's count, and is refused when it exceeds what the block has (a Structure loss
//!   beyond the Structure is the negative score of an exploded vehicle, up to 1,000 more).
//! - Occupants are recorded by id (`pilot_id`, at most 50 `passenger_ids`): they are the
//!   combatants passenger and cockpit hits and the explosion reach.

use super::vehicle_location::LocationTable;
use crate::encounter::CombatantId;
use crate::rulesets::RuleError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// Hull points (0–1,000).
pub type HullPoints = Score<0, 1000>;
/// Structure points (1–1,000).
pub type StructurePoints = Score<1, 1000>;
/// Structure lost: up to 2,000 (1,000 below zero for an exploded vehicle).
pub type StructureLost = Score<0, 2000>;
/// A count of weapons or limbs (0–50).
pub type SystemCount = Score<0, 50>;
/// Hits counted on one ladder (0–3).
pub type LadderHits = Score<0, 3>;
/// Hits counted on one weapon or limb (0–2: the second destroys it).
pub type PartHits = Score<0, 2>;
/// Most passengers recorded aboard.
pub const MAX_PASSENGERS: usize = 50;

/// Which column of Table: Vehicle Hit Location the target uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineVehicleKind))]
#[serde(rename_all = "snake_case")]
pub enum VehicleKind {
    /// External column, then Internal once Hull runs out.
    #[default]
    Vehicle,
    /// Robot or Drone column; Hull runs out into Structure.
    RobotOrDrone,
}

/// What the vehicle has lost, ladder by ladder; all zero for an undamaged vehicle.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineVehicleDamage))]
#[serde(default, deny_unknown_fields)]
pub struct VehicleDamage {
    pub hull_lost: HullPoints,
    pub structure_lost: StructureLost,
    pub drive_hits: LadderHits,
    pub sensor_hits: LadderHits,
    pub power_plant_hits: LadderHits,
    pub computer_hits: LadderHits,
    /// Hits on each weapon or device, in the order of `weapons` (absent ones 0).
    #[cfg_attr(feature = "schema", schema(max_items = 50))]
    pub weapon_hits: Vec<PartHits>,
    /// Hits on each limb (robots and drones).
    #[cfg_attr(feature = "schema", schema(max_items = 50))]
    pub limb_hits: Vec<PartHits>,
    /// The cargo was struck (a cargo hit ruins it; later cargo hits are Structure hits).
    pub cargo_destroyed: bool,
    /// Drive disabled (third drive hit) or power plant destroyed (third power plant hit).
    pub disabled: bool,
    /// Structure reached 0: scrap.
    pub destroyed: bool,
    /// Driven below 0 Structure by one attack: it exploded.
    pub exploded: bool,
    /// A robot or drone whose computer was disabled shuts down for these rounds (1D6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shut_down_rounds: Option<Score<1, 6>>,
}

/// A vehicle's own block inside the stat block (see the module decisions).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineVehicle))]
#[serde(deny_unknown_fields)]
pub struct Vehicle {
    #[serde(default)]
    pub kind: VehicleKind,
    pub hull: HullPoints,
    pub structure: StructurePoints,
    /// A closed vehicle: its occupants cannot dodge or dive from its explosion.
    #[serde(default)]
    pub closed: bool,
    /// Weapons or devices mounted (the Weapon location picks one at random).
    #[serde(default)]
    pub weapons: SystemCount,
    /// Limbs (robots and drones).
    #[serde(default)]
    pub limbs: SystemCount,
    /// Cargo aboard.
    #[serde(default)]
    pub cargo: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pilot_id: Option<CombatantId>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schema(max_items = 50))]
    pub passenger_ids: Vec<CombatantId>,
    #[serde(default)]
    pub damage: VehicleDamage,
}

impl Vehicle {
    /// The column the next Hit is looked up on: External while a vehicle has Hull, Internal once
    /// it has none ("Vehicle Damage": at Hull 0 it "starts taking damage to its internal
    /// systems"); a robot's or drone's own column always.
    pub fn column(&self) -> LocationTable {
        match self.kind {
            VehicleKind::Vehicle if self.hull_left() > 0 => LocationTable::External,
            VehicleKind::Vehicle => LocationTable::Internal,
            VehicleKind::RobotOrDrone => LocationTable::RobotOrDrone,
        }
    }

    /// Hull left (never below 0).
    pub fn hull_left(&self) -> i32 {
        self.hull.get() - self.damage.hull_lost.get()
    }

    /// Structure left: negative once an attack drove it below 0.
    pub fn structure_left(&self) -> i32 {
        self.structure.get() - self.damage.structure_lost.get()
    }

    /// The block's own checks (see the module decisions); field paths start at `vehicle`.
    pub fn check(&self) -> Result<(), RuleError> {
        let damage = &self.damage;
        if damage.hull_lost.get() > self.hull.get() {
            return Err(RuleError::invalid("vehicle.damage.hull_lost", "more Hull lost than the vehicle has"));
        }
        if self.structure_left() < -1000 {
            return Err(RuleError::invalid("vehicle.damage.structure_lost", "more than 1,000 below 0 Structure"));
        }
        if damage.weapon_hits.len() > self.weapons.get() as usize {
            return Err(RuleError::invalid("vehicle.damage.weapon_hits", "more entries than `weapons`"));
        }
        if damage.limb_hits.len() > self.limbs.get() as usize {
            return Err(RuleError::invalid("vehicle.damage.limb_hits", "more entries than `limbs`"));
        }
        if self.passenger_ids.len() > MAX_PASSENGERS {
            return Err(RuleError::invalid("vehicle.passenger_ids", "at most 50 passengers"));
        }
        Ok(())
    }

    /// Everyone aboard: the pilot first, then the passengers as listed, each once.
    pub fn occupants(&self) -> Vec<CombatantId> {
        let mut all: Vec<CombatantId> = self.pilot_id.iter().cloned().collect();
        for id in &self.passenger_ids {
            if !all.contains(id) {
                all.push(id.clone());
            }
        }
        all
    }
}
