//! Damage put on a recorded vehicle: each Hit of the Vehicle Damage table gets a 2D6 location,
//! and each of its one, two or three hits climbs that location's ladder, moving on where the text
//! says (cepheus-engine.txt, "Vehicle Damage" and the location entries after "Table: Vehicle Hit
//! Location").
//!
//! Readings (docs/rulesets/cepheus-engine.md, §3 "Vehicles"):
//! - A Double or Triple is two or three hits on one location, one after the other, so a Double on
//!   the last point of Hull takes it and sends the second hit to the Internal column.
//! - Columns: "When Hull is reduced to 0, the vehicle starts taking damage to its internal
//!   systems", so each Hit of a vehicle with Hull left is looked up on the External column, and
//!   of one with none on the Internal column (else Passengers, row 7 and Armor outside, could
//!   never be hit). Robots and drones always use their own column. An attack's 2D6 per Hit is
//!   looked up here, on the column the vehicle is at when that Hit lands.
//! - A Hull hit with no Hull left (the rest of a Double or Triple, or a spent system's hit) is,
//!   for a vehicle, a hit on the Internal column at the row the 2D6 gave; for a robot or drone it
//!   is a Structure hit.
//! - Every Internal-column system passes hits on to Structure once spent; the text gives no
//!   "further" line for Power Plant, so a vehicle's fourth power plant hit does the same, and a
//!   robot's (its column passes spent systems to Hull) becomes a Hull hit.
//! - The third power plant hit rolls 1D6 Hull hits on the vehicle, applied at once, same row.
//! - Weapon (and a robot's Weapon or Limb, one pool of both) picks one of the parts not yet
//!   destroyed with one die of that many sides (no roll for one). Passengers pick among the living
//!   recorded passengers the same way.
//! - A cargo hit ruins the cargo ("may be destroyed": the engine cannot judge less); the next is a
//!   Structure hit. Armor at 0 stays 0.
//! - Passenger and pilot hits deal the vehicle's damage (after its armour) as it is: "damage equal
//!   to" fixes the amount, so the occupant's own armour does not reduce it.
//! - Structure at exactly 0 is scrap; a further Structure hit in the same attack takes it below 0
//!   and it explodes once: 4D6 to every recorded occupant (through their armour; none may dodge,
//!   as the request carries no reaction) and 2D6 rolled and reported for those within 12 m, whom
//!   the engine does not place. A destroyed vehicle takes no later attack.

use super::modifier::Reason;
use super::vehicle::vehicle_hits;
use super::vehicle_block::{PartHits, Vehicle, VehicleKind};
use super::vehicle_damage::hit_count;
use super::vehicle_location::{HitLocation, LocationRoll, LocationTable, hit_location, roll_hit_location};
use crate::dice::Dice;
use crate::encounter::CombatantId;
use crate::rulesets::RuleError;
use crate::score::Score;

pub use super::vehicle_track_report::{OccupantHit, OccupantHitCause, TrackedHit, TrackedVehicleDamage, VehicleStep};

/// Who rides in the vehicle, and what a hit on them does: stored combatants take it, an inline
/// block only reports it.
pub trait Occupants {
    type Error: From<RuleError>;
    /// Whether the occupant is alive (a passenger or pilot hit needs a living one).
    fn alive(&self, id: &CombatantId) -> Result<bool, Self::Error>;
    /// Puts `damage` on the occupant (through its armour when `blast`).
    fn hit(&mut self, id: &CombatantId, damage: i32, cause: OccupantHitCause, dice: &mut Dice)
    -> Result<OccupantHit, Self::Error>;
}

/// Where one unit hit goes, and from which row.
#[derive(Clone, Copy)]
struct Target {
    location: HitLocation,
    row: u32,
}

struct Run<'a, O: Occupants> {
    vehicle: &'a mut Vehicle,
    armour: &'a mut i32,
    damage: i32,
    occupants: &'a mut O,
    dice: &'a mut Dice,
    steps: Vec<VehicleStep>,
    occupant_hits: Vec<OccupantHit>,
    exploded_now: bool,
}

/// Resolves `damage` (after the vehicle's armour) on `vehicle`, whose armour is `armour`.
pub fn track_vehicle_damage<O: Occupants>(
    vehicle: &mut Vehicle,
    armour: &mut i32,
    damage: i32,
    occupants: &mut O,
    dice: &mut Dice,
) -> Result<TrackedVehicleDamage, O::Error> {
    track_with_locations(vehicle, armour, damage, None, occupants, dice)
}

/// [`track_vehicle_damage`] with the Hits' locations already rolled (an attack rolls them as it
/// resolves, one per Hit, in the table's order: `locations` must hold one per Hit).
pub fn track_with_locations<O: Occupants>(
    vehicle: &mut Vehicle,
    armour: &mut i32,
    damage: i32,
    locations: Option<&[LocationRoll]>,
    occupants: &mut O,
    dice: &mut Dice,
) -> Result<TrackedVehicleDamage, O::Error> {
    if vehicle.damage.destroyed {
        return Err(RuleError::Refused {
            field: "target_id".into(),
            message: "the vehicle is destroyed (Structure 0, cepheus-engine.txt \"Structure\"): scrap takes no more hits".into(),
        }
        .into());
    }
    let mut run = Run {
        vehicle,
        armour,
        damage,
        occupants,
        dice,
        steps: Vec::new(),
        occupant_hits: Vec::new(),
        exploded_now: false,
    };
    let mut hits = Vec::new();
    for (index, hit) in vehicle_hits(damage)?.into_iter().enumerate() {
        let purpose = format!("vehicle hit location: hit {} ({hit:?})", index + 1).to_lowercase();
        // Each Hit is looked up on the column the vehicle is at now (see the readings).
        let column = run.vehicle.column();
        let rolled = match locations {
            Some(rolled) => {
                let roll = rolled.get(index).ok_or_else(overflow)?.roll;
                LocationRoll { roll, location: hit_location(column, roll)? }
            }
            None => roll_hit_location(column, run.dice, &purpose)?,
        };
        let first_step = run.steps.len();
        for _ in 0..hit_count(hit) {
            if run.vehicle.damage.exploded {
                break;
            }
            run.unit(Target { location: rolled.location, row: rolled.roll })?;
        }
        hits.push(TrackedHit { hit, roll: rolled.roll, location: rolled.location, steps: run.steps.split_off(first_step) });
    }
    let explosion = if run.exploded_now { Some(run.explode()?) } else { None };
    Ok(TrackedVehicleDamage::new(damage, hits, run.occupant_hits, explosion, run.vehicle.clone(), *run.armour))
}

fn step(code: &'static str, value: i32, reason: impl Into<Reason>) -> VehicleStep {
    VehicleStep { code: code.into(), value, reason: reason.into() }
}

impl<O: Occupants> Run<'_, O> {
    fn push(&mut self, code: &'static str, value: i32, reason: impl Into<Reason>) {
        self.steps.push(step(code, value, reason));
    }

    /// One hit on one location (see the readings).
    fn unit(&mut self, target: Target) -> Result<(), O::Error> {
        let row = target.row;
        match target.location {
            HitLocation::Hull => self.hull(row),
            HitLocation::Structure => self.structure(),
            HitLocation::Armour => {
                let before = *self.armour;
                *self.armour = (before - 1).max(0);
                self.push("armour", *self.armour, format!("Armor hit: armour {before} → {}", *self.armour));
                Ok(())
            }
            HitLocation::Drive => self.ladder(Ladder::Drive, row),
            HitLocation::Sensors => self.ladder(Ladder::Sensors, row),
            HitLocation::PowerPlant => self.ladder(Ladder::PowerPlant, row),
            HitLocation::Computer => self.ladder(Ladder::Computer, row),
            HitLocation::Weapon => self.part(false, row),
            HitLocation::WeaponOrLimb => self.part(true, row),
            HitLocation::Cargo => self.cargo(),
            HitLocation::Passengers => self.passengers(),
            HitLocation::Cockpit => self.cockpit(),
        }
    }

    fn hull(&mut self, row: u32) -> Result<(), O::Error> {
        if self.vehicle.hull_left() > 0 {
            self.vehicle.damage.hull_lost = bump(self.vehicle.damage.hull_lost)?;
            let left = self.vehicle.hull_left();
            self.push("hull", left, format!("Hull hit: Hull {} → {left}", left + 1));
            return Ok(());
        }
        match self.vehicle.kind {
            VehicleKind::RobotOrDrone => {
                self.push("hull_to_structure", 0, "no Hull left: a robot or drone takes a Structure hit");
                self.structure()
            }
            VehicleKind::Vehicle => {
                let location = hit_location(LocationTable::Internal, row)?;
                self.push("hull_to_internal", row as i32, format!("no Hull left: row {row} of the Internal column, {location:?}"));
                self.unit(Target { location, row })
            }
        }
    }

    fn structure(&mut self) -> Result<(), O::Error> {
        if self.vehicle.damage.exploded {
            return Ok(());
        }
        let lost = self.vehicle.damage.structure_lost.get().checked_add(1).ok_or_else(overflow)?;
        self.vehicle.damage.structure_lost = Score::new(i64::from(lost)).map_err(|_| overflow())?;
        let left = self.vehicle.structure_left();
        self.push("structure", left, format!("Structure hit: Structure {} → {left}", left + 1));
        if left == 0 {
            self.vehicle.damage.destroyed = true;
            self.push("destroyed", 0, "Structure 0: the vehicle is scrap");
        } else if left < 0 {
            self.vehicle.damage.exploded = true;
            self.exploded_now = true;
            self.push("explodes", left, "driven below 0 Structure by this attack: it explodes");
        }
        Ok(())
    }

    fn ladder(&mut self, ladder: Ladder, row: u32) -> Result<(), O::Error> {
        let robot = self.vehicle.kind == VehicleKind::RobotOrDrone;
        let count = ladder.count(&mut self.vehicle.damage);
        if count.get() >= ladder.rungs() {
            let (code, reason) = match ladder.spent_goes_to(robot) {
                HitLocation::Hull => ("spent_to_hull", format!("{} spent: a Hull hit", ladder.name())),
                _ => ("spent_to_structure", format!("{} spent: a Structure hit", ladder.name())),
            };
            self.push(code, 0, reason);
            return match ladder.spent_goes_to(robot) {
                HitLocation::Hull => self.hull(row),
                _ => self.structure(),
            };
        }
        *count = bump(*count)?;
        let rung = count.get();
        self.push(ladder.code(), rung, ladder.effect(rung, robot));
        match (ladder, rung) {
            (Ladder::Drive, 3) => self.vehicle.damage.disabled = true,
            (Ladder::PowerPlant, 3) => {
                self.vehicle.damage.disabled = true;
                let extra = self.dice.roll(6, "power plant destroyed: 1D6 Hull hits").map_err(RuleError::from)?;
                self.push("power_plant_hull_hits", extra as i32, format!("{extra} Hull hits (1D6) from the power plant"));
                for _ in 0..extra {
                    self.hull(row)?;
                }
            }
            (Ladder::Computer, 1) if robot => {
                let rounds = self.dice.roll(6, "robot computer disabled: 1D6 rounds shut down").map_err(RuleError::from)?;
                self.vehicle.damage.shut_down_rounds = Score::new(i64::from(rounds)).ok();
                self.push("shut_down_rounds", rounds as i32, format!("shut down for {rounds} rounds (1D6)"));
            }
            (Ladder::Computer, 2) if robot => self.vehicle.damage.disabled = true,
            _ => {}
        }
        Ok(())
    }

    /// A weapon (or, for `limbs`, a robot's weapon or limb) picked at random among those left.
    fn part(&mut self, limbs: bool, row: u32) -> Result<(), O::Error> {
        let weapons = self.vehicle.weapons.get() as usize;
        let limb_count = if limbs { self.vehicle.limbs.get() as usize } else { 0 };
        let damage = &mut self.vehicle.damage;
        damage.weapon_hits.resize(weapons, PartHits::default());
        damage.limb_hits.resize(self.vehicle.limbs.get() as usize, PartHits::default());
        let left: Vec<(bool, usize)> = (0..weapons)
            .map(|i| (false, i))
            .chain((0..limb_count).map(|i| (true, i)))
            .filter(|(limb, i)| if *limb { damage.limb_hits[*i].get() < 2 } else { damage.weapon_hits[*i].get() < 2 })
            .collect();
        if left.is_empty() {
            self.push("spent_to_hull", 0, "no weapon (or limb) left to destroy: a Hull hit");
            return self.hull(row);
        }
        let pick = self.pick(left.len(), "which weapon or limb is hit")?;
        let (limb, index) = left[pick];
        let damage = &mut self.vehicle.damage;
        let slot = if limb { &mut damage.limb_hits[index] } else { &mut damage.weapon_hits[index] };
        *slot = Score::new(i64::from(slot.get() + 1)).map_err(|_| overflow())?;
        let (name, number, rung) = (if limb { "limb" } else { "weapon" }, index + 1, slot.get());
        let effect = if rung == 1 { "−2 DM to checks operating it" } else { "destroyed" };
        self.push(if limb { "limb" } else { "weapon" }, rung, format!("{name} {number}, hit {rung}: {effect}"));
        Ok(())
    }

    /// One of `count` choices (0-based): one die of that many sides, none for a single choice.
    fn pick(&mut self, count: usize, purpose: &str) -> Result<usize, O::Error> {
        if count <= 1 {
            return Ok(0);
        }
        let sides = u32::try_from(count).map_err(|_| overflow())?;
        let rolled = self.dice.roll(sides, format!("{purpose} (1 to {count})")).map_err(RuleError::from)?;
        Ok(rolled.saturating_sub(1) as usize)
    }

    fn cargo(&mut self) -> Result<(), O::Error> {
        if !self.vehicle.cargo || self.vehicle.damage.cargo_destroyed {
            self.push("spent_to_structure", 0, "no cargo left: a Structure hit");
            return self.structure();
        }
        self.vehicle.damage.cargo_destroyed = true;
        self.push("cargo", 1, "Cargo hit: the cargo aboard is ruined");
        Ok(())
    }

    fn passengers(&mut self) -> Result<(), O::Error> {
        let mut living = Vec::new();
        for id in self.vehicle.passenger_ids.clone() {
            if self.occupants.alive(&id)? {
                living.push(id);
            }
        }
        if living.is_empty() {
            self.push("spent_to_structure", 0, "no living passenger: a Structure hit");
            return self.structure();
        }
        let id = living[self.pick(living.len(), "which passenger is hit")?].clone();
        self.occupant(&id, OccupantHitCause::Passengers)
    }

    fn cockpit(&mut self) -> Result<(), O::Error> {
        let pilot = match self.vehicle.pilot_id.clone() {
            Some(id) if self.occupants.alive(&id)? => id,
            _ => {
                self.push("spent_to_structure", 0, "no living pilot: a Structure hit");
                return self.structure();
            }
        };
        self.occupant(&pilot, OccupantHitCause::Cockpit)
    }

    fn occupant(&mut self, id: &CombatantId, cause: OccupantHitCause) -> Result<(), O::Error> {
        self.push(cause.code(), self.damage, format!("{id} takes the vehicle's {} damage", self.damage));
        let hit = self.occupants.hit(id, self.damage, cause, self.dice)?;
        self.occupant_hits.push(hit);
        Ok(())
    }

    fn explode(&mut self) -> Result<super::vehicle_track_report::VehicleExplosion, O::Error> {
        let near = roll_sum(self.dice, 4, "vehicle explosion: 4D6 within 6 m")?;
        let far = roll_sum(self.dice, 2, "vehicle explosion: 2D6 within 12 m")?;
        let mut hits = Vec::new();
        for id in self.vehicle.occupants() {
            if self.occupants.alive(&id)? {
                hits.push(self.occupants.hit(&id, near, OccupantHitCause::Explosion, self.dice)?);
            }
        }
        Ok(super::vehicle_track_report::VehicleExplosion {
            damage_within_6_m: near,
            damage_within_12_m: far,
            closed: self.vehicle.closed,
            occupants: hits,
        })
    }
}

fn roll_sum(dice: &mut Dice, count: u32, purpose: &'static str) -> Result<i32, RuleError> {
    let mut total = 0;
    for _ in 0..count {
        total += dice.roll(6, purpose)? as i32;
    }
    Ok(total)
}

fn overflow() -> RuleError {
    RuleError::invalid("damage", "the vehicle's damage is beyond what its record can hold")
}

fn bump<const MIN: i32, const MAX: i32>(score: Score<MIN, MAX>) -> Result<Score<MIN, MAX>, RuleError> {
    Score::new(i64::from(score.get()) + 1).map_err(|_| overflow())
}

/// The four ladders counted on the vehicle as a whole.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ladder {
    Drive,
    Sensors,
    PowerPlant,
    Computer,
}

impl Ladder {
    fn count(self, damage: &mut super::vehicle_block::VehicleDamage) -> &mut Score<0, 3> {
        match self {
            Self::Drive => &mut damage.drive_hits,
            Self::Sensors => &mut damage.sensor_hits,
            Self::PowerPlant => &mut damage.power_plant_hits,
            Self::Computer => &mut damage.computer_hits,
        }
    }

    fn rungs(self) -> i32 {
        match self {
            Self::Drive | Self::PowerPlant => 3,
            Self::Sensors | Self::Computer => 2,
        }
    }

    /// Where a hit on a spent ladder goes (see the readings for Power Plant).
    fn spent_goes_to(self, robot: bool) -> HitLocation {
        match self {
            Self::Drive | Self::Sensors => HitLocation::Hull,
            Self::Computer => HitLocation::Structure,
            Self::PowerPlant if robot => HitLocation::Hull,
            Self::PowerPlant => HitLocation::Structure,
        }
    }

    fn code(self) -> &'static str {
        match self {
            Self::Drive => "drive",
            Self::Sensors => "sensors",
            Self::PowerPlant => "power_plant",
            Self::Computer => "computer",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Drive => "Drive",
            Self::Sensors => "Sensors",
            Self::PowerPlant => "Power Plant",
            Self::Computer => "Computer",
        }
    }

    fn effect(self, rung: i32, robot: bool) -> &'static str {
        match (self, rung, robot) {
            (Self::Drive, 1, _) => "Drive hit 1: movement −10%, −1 DM to vehicle control checks",
            (Self::Drive, 2, _) => "Drive hit 2: movement −25%, −2 DM to vehicle control checks",
            (Self::Drive, _, _) => "Drive hit 3: drive disabled",
            (Self::Sensors, 1, false) => "Sensors hit 1: −2 DM to Comms checks using sensors",
            (Self::Sensors, 1, true) => "Sensors hit 1: −2 DM to Comms checks using sensors and to Recon",
            (Self::Sensors, _, _) => "Sensors hit 2: sensors destroyed, blind",
            (Self::PowerPlant, 1, _) => "Power Plant hit 1: one round of actions lost",
            (Self::PowerPlant, 2, _) => "Power Plant hit 2: movement −50%",
            (Self::PowerPlant, _, _) => "Power Plant hit 3: destroyed, the vehicle disabled",
            (Self::Computer, 1, false) => "Computer hit 1: computer disabled",
            (Self::Computer, 1, true) => "Computer hit 1: computer disabled, shut down for 1D6 rounds",
            (Self::Computer, _, false) => "Computer hit 2: computer destroyed",
            (Self::Computer, _, true) => "Computer hit 2: computer destroyed, completely disabled",
        }
    }
}
