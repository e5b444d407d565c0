//! What damage did to a recorded vehicle (`vehicle_track.rs`): every step of every hit with
//! `{code, value, reason}`, the occupants it reached, the explosion, and the vehicle afterwards.

use super::commands::HitResult;
use super::modifier::Reason;
use super::vehicle::Hit;
use super::vehicle_block::Vehicle;
use super::vehicle_location::HitLocation;
use crate::encounter::CombatantId;
use serde::{Deserialize, Serialize};

/// One step a hit took: `code` names it (`hull`, `hull_to_internal`, `structure`, `drive`, …),
/// `value` is the number it left (Hull or Structure left, the ladder's hit count, the row moved
/// to, the damage dealt), `reason` says it in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineVehicleStep))]
pub struct VehicleStep {
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub code: Reason,
    pub value: i32,
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub reason: Reason,
}

/// One Hit of the Vehicle Damage table: its 2D6 location and the steps of its one to three hits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineTrackedHit))]
pub struct TrackedHit {
    pub hit: Hit,
    pub roll: u32,
    pub location: HitLocation,
    pub steps: Vec<VehicleStep>,
}

/// Why an occupant was hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineOccupantHitCause))]
#[serde(rename_all = "snake_case")]
pub enum OccupantHitCause {
    Passengers,
    Cockpit,
    Explosion,
}

impl OccupantHitCause {
    pub fn code(self) -> &'static str {
        match self {
            Self::Passengers => "passenger_hit",
            Self::Cockpit => "pilot_hit",
            Self::Explosion => "explosion",
        }
    }
}

/// Damage that reached someone aboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineOccupantHit))]
pub struct OccupantHit {
    pub combatant_id: CombatantId,
    pub cause: OccupantHitCause,
    /// The damage dealt, before the occupant's armour for the explosion.
    pub damage: i32,
    /// The occupant's armour subtracted (explosion only).
    pub armour: u32,
    /// What it did to a stored occupant (absent for an inline vehicle: nothing is stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit: Option<HitResult>,
}

/// A vehicle driven below 0 Structure explodes ("Structure").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineVehicleExplosion))]
pub struct VehicleExplosion {
    /// 4D6: the occupants, and everyone within 6 m.
    pub damage_within_6_m: i32,
    /// 2D6: everyone within 12 m (not placed by the engine: apply it with `explosion`/`damage`).
    pub damage_within_12_m: i32,
    /// Occupants of a closed vehicle could not dodge or dive.
    pub closed: bool,
    pub occupants: Vec<OccupantHit>,
}

/// What damage did to a recorded vehicle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineTrackedVehicleDamage))]
pub struct TrackedVehicleDamage {
    /// The damage after the vehicle's armour, which the table turned into hits.
    pub damage: i32,
    pub hits: Vec<TrackedHit>,
    /// Passenger and pilot hits, in order.
    pub occupant_hits: Vec<OccupantHit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explosion: Option<VehicleExplosion>,
    pub hull_left: i32,
    pub structure_left: i32,
    pub destroyed: bool,
    /// The vehicle block afterwards, and its armour.
    pub vehicle_after: Vehicle,
    pub armour_after: i32,
    /// One line: "3 hits: Hull 2 → 0, …; Structure 1".
    pub summary: String,
}

impl TrackedVehicleDamage {
    pub fn new(
        damage: i32,
        hits: Vec<TrackedHit>,
        occupant_hits: Vec<OccupantHit>,
        explosion: Option<VehicleExplosion>,
        vehicle_after: Vehicle,
        armour_after: i32,
    ) -> Self {
        let (hull_left, structure_left) = (vehicle_after.hull_left(), vehicle_after.structure_left());
        let destroyed = vehicle_after.damage.destroyed;
        let units: usize = hits.iter().map(|hit| super::vehicle_damage::hit_count(hit.hit) as usize).sum();
        let mut summary = format!(
            "{damage} damage, {units} vehicle hit{}: Hull {hull_left}, Structure {structure_left}",
            if units == 1 { "" } else { "s" }
        );
        if explosion.is_some() {
            summary.push_str(", destroyed and exploded");
        } else if destroyed {
            summary.push_str(", destroyed");
        }
        Self {
            damage,
            hits,
            occupant_hits,
            explosion,
            hull_left,
            structure_left,
            destroyed,
            vehicle_after,
            armour_after,
            summary,
        }
    }
}
