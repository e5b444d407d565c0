//! Damage applied outside an attack: falls, fire, a blind-fire pick, a referee's ruling, on a
//! stored combatant or on an inline stat block (cepheus-engine.txt, "Damage", "Armor", "Table:
//! Damage Results", "Vehicle Damage" and "Extended Actions").
//!
//! Decisions:
//! - `damage` is 0 to 10,000 points. With `apply_armour: true` the target's armour is subtracted
//!   first, and `effect` (−100 to +100, default 0) decides the at-least-one-point rule for Effect
//!   6+; `effect` without `apply_armour` is refused, since nothing reads it.
//! - Allowed during setup and while active, not once the encounter has ended; no turn is needed
//!   (damage happens to you). A dead target is refused.
//! - A `hit_location_table` says the target is a vehicle (or a robot or drone): the damage after
//!   armour becomes vehicle hits with a location rolled for each on that column, as for an attack
//!   on a vehicle. They are reported and put on nothing; `overflow_to` / `allocation` are refused
//!   with it.
//! - A target whose stat block records a `vehicle` takes the damage after armour as tracked
//!   vehicle hits (`vehicle_track.rs`): the record decides the column, so a `hit_location_table`
//!   other than its first column is refused, and `overflow_to` / `allocation` are refused.
//! - What follows from damage to a character is `apply.rs`'s: status, the defeated flag, lost
//!   aim, the extended-action check.
//! - The stateless twin takes the stat block inline (`target`, named `target_name`, default
//!   "target") and answers with the same report; its hit has no `combatant_id`.

use super::super::Stats;
use super::super::allocation::{AllocationChoice, DamageSplit, Overflow, allocate_damage, apply};
use super::super::damage::apply_armour;
use super::super::vehicle_damage::{VehicleDamageOutcome, resolve_vehicle_damage};
use super::super::vehicle_location::LocationTable;
use super::apply::{HitResult, apply_hit, inline_hit};
use super::super::CepheusEngine;
use super::super::vehicle_block::Vehicle;
use super::super::vehicle_location::LocationRoll;
use super::super::vehicle_track::{TrackedVehicleDamage, track_vehicle_damage, track_with_locations};
use super::vehicle_occupants::{NamedOccupants, StoredOccupants};
use super::{combatant, combatant_mut, parts, parts_mut};
use crate::rulesets::plugin;
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, EncounterStatus, Event};
use crate::rulesets::cepheus_engine::Report;
use crate::rulesets::{RuleError, RulesetReport};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// Points of damage one request may apply: 0 to 10,000.
pub type DamagePoints = Score<0, 10_000>;
/// The Effect of the hit a damage request names: −100 to +100.
pub type DamageEffect = Score<-100, 100>;

/// POST /v1/encounters/{id}/cepheus-engine/damage.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineEncounterDamage))]
#[serde(deny_unknown_fields)]
pub struct EncounterDamage {
    pub target_id: CombatantId,
    /// Points of damage, before armour when `apply_armour` is true.
    pub damage: DamagePoints,
    /// Subtract the target's armour first.
    #[serde(default)]
    pub apply_armour: bool,
    /// The Effect of the hit, for the Effect 6+ minimum through armour.
    #[serde(default)]
    pub effect: Option<DamageEffect>,
    /// The target is a vehicle (or robot, drone): roll its hits on this column.
    #[serde(default)]
    pub hit_location_table: Option<LocationTable>,
    #[serde(default)]
    pub overflow_to: Option<Overflow>,
    #[serde(default)]
    pub allocation: Option<DamageSplit>,
}

/// POST /v1/rulesets/cepheus-engine/damage: damage on an inline stat block.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineInlineDamage))]
#[serde(deny_unknown_fields)]
pub struct InlineDamage {
    pub target: Stats,
    /// The name used in the report (1 to 100 characters; default "target").
    #[serde(default)]
    pub target_name: Option<String>,
    pub damage: DamagePoints,
    #[serde(default)]
    pub apply_armour: bool,
    #[serde(default)]
    pub effect: Option<DamageEffect>,
    #[serde(default)]
    pub hit_location_table: Option<LocationTable>,
    #[serde(default)]
    pub overflow_to: Option<Overflow>,
    #[serde(default)]
    pub allocation: Option<DamageSplit>,
}

/// What the damage did: the same report for a stored combatant and an inline stat block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDamageReport))]
pub struct DamageReport {
    /// The stored target (absent for an inline stat block).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_id: Option<CombatantId>,
    /// The target's name (was `target_name`, still read from older stored reports).
    #[serde(rename = "target", alias = "target_name")]
    pub target_name: String,
    /// As sent.
    pub damage: i32,
    /// Armour subtracted (0 unless `apply_armour` was sent).
    pub armour: u32,
    pub effect: Option<i32>,
    pub after_armour: i32,
    /// Armour would have stopped it all, but Effect 6+ forced one point through.
    pub minimum_one_applied: bool,
    /// What the points did to a character, its stat block afterwards included.
    pub hit: Option<HitResult>,
    /// A vehicle's hits and their locations (nothing is stored for them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vehicle: Option<VehicleDamageOutcome>,
    /// A target whose stat block records a `vehicle`: each hit put on its Hull, Structure and
    /// systems, its occupants and its explosion (`vehicle_track.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tracked_vehicle: Option<TrackedVehicleDamage>,
}

/// The fields both forms share.
struct Fields {
    damage: DamagePoints,
    apply_armour: bool,
    effect: Option<DamageEffect>,
    hit_location_table: Option<LocationTable>,
    choice: AllocationChoice,
}

/// Checks the fields the types cannot (see the decisions).
fn check(fields: &Fields, recorded: Option<&Vehicle>) -> Result<(), RuleError> {
    if fields.effect.is_some() && !fields.apply_armour {
        return Err(RuleError::invalid("effect", "effect only matters with apply_armour: true"));
    }
    if let (Some(vehicle), Some(table)) = (recorded, fields.hit_location_table)
        && table != vehicle.column()
    {
        return Err(RuleError::invalid(
            "hit_location_table",
            format!("the record says the target's next hit is looked up on the {:?} column", vehicle.column()),
        ));
    }
    if fields.hit_location_table.is_some() || recorded.is_some() {
        let field = if fields.choice.allocation.is_some() { Some("allocation") } else { None };
        let field = field.or(fields.choice.overflow_to.map(|_| "overflow_to"));
        if let Some(field) = field {
            return Err(RuleError::invalid(field, "a vehicle's damage becomes hits; nothing is allocated"));
        }
    }
    Ok(())
}

/// Armour, then whether Effect 6+ forced a point through (cepheus-engine.txt, "Armor").
pub(crate) fn through_armour(damage: i32, armour: u32, effect: i32) -> (i32, bool) {
    let after = apply_armour(damage, armour, effect);
    let stopped = damage.saturating_sub(i32::try_from(armour).unwrap_or(i32::MAX)).max(0);
    (after, after > stopped)
}

/// The report before anything is put on the target.
fn armour_step(stats: &Stats, fields: &Fields, target_id: Option<CombatantId>, name: String) -> DamageReport {
    let armour = if fields.apply_armour { stats.armour.get().unsigned_abs() } else { 0 };
    let effect = fields.effect.map(Score::get);
    let (after_armour, minimum_one_applied) =
        through_armour(fields.damage.get(), armour, effect.unwrap_or(0));
    DamageReport {
        target_id,
        target_name: name,
        damage: fields.damage.get(),
        armour,
        effect,
        after_armour,
        minimum_one_applied,
        hit: None,
        vehicle: None,
        tracked_vehicle: None,
    }
}

fn vehicle_hits(report: &DamageReport, table: LocationTable, dice: &mut Dice) -> Result<VehicleDamageOutcome, RuleError> {
    resolve_vehicle_damage(report.after_armour, table, dice)
}

/// Puts `damage` (after armour) on the stored vehicle `id` and writes its block back; a destroyed
/// vehicle is marked defeated.
/// The occupants' hits are put on a copy of the encounter that replaces it only on success, so a
/// refusal midway changes nothing. `locations` are an attack's rolled Hit locations.
pub(crate) fn track_stored(
    encounter: &mut Encounter,
    id: &CombatantId,
    damage: i32,
    locations: Option<&[LocationRoll]>,
    dice: &mut Dice,
) -> Result<TrackedVehicleDamage, EncounterError> {
    let (stats, _) = parts(combatant(encounter, id, "target_id")?, "target_id")?;
    let (mut armour, Some(mut vehicle)) = (stats.armour.get(), stats.vehicle.clone()) else {
        return Err(EncounterError::invalid("target_id", "the target is not a vehicle"));
    };
    let mut working = encounter.clone();
    let mut occupants = StoredOccupants { encounter: &mut working };
    let tracked = track_with_locations(&mut vehicle, &mut armour, damage, locations, &mut occupants, dice)?;
    *encounter = working;
    let target = combatant_mut(encounter, id, "target_id")?;
    if tracked.destroyed {
        target.flags.defeated = true;
    }
    let (stats, _) = parts_mut(target, "target_id")?;
    stats.vehicle = Some(vehicle);
    stats.armour = Score::new(i64::from(armour)).map_err(|error| EncounterError::invalid("target_id", error.to_string()))?;
    Ok(tracked)
}

/// Applies damage to a stored combatant (see the module decisions).
pub fn damage(
    encounter: &mut Encounter,
    request: EncounterDamage,
    dice: &mut Dice,
) -> Result<(Vec<Event>, DamageReport), EncounterError> {
    plugin::ensure_ruleset::<CepheusEngine>(encounter)?;
    if encounter.status == EncounterStatus::Ended {
        return Err(EncounterError::Conflict("the encounter has ended".into()));
    }
    let fields = Fields {
        damage: request.damage,
        apply_armour: request.apply_armour,
        effect: request.effect,
        hit_location_table: request.hit_location_table,
        choice: AllocationChoice { overflow_to: request.overflow_to, allocation: request.allocation.map(Into::into) },
    };
    let target = combatant(encounter, &request.target_id, "target_id")?;
    let target_name = target.name.clone();
    let (stats, _) = parts(target, "target_id")?;
    check(&fields, stats.vehicle.as_ref())?;
    let mut report = armour_step(stats, &fields, Some(request.target_id.clone()), target_name);
    let start = dice.rolls().len();
    if stats.vehicle.is_some() {
        let tracked = track_stored(encounter, &request.target_id, report.after_armour, None, dice)?;
        report.tracked_vehicle = Some(tracked);
    } else if let Some(table) = fields.hit_location_table {
        report.vehicle = Some(vehicle_hits(&report, table, dice)?);
    } else {
        let hit = apply_hit(encounter, &request.target_id, report.after_armour, &fields.choice, dice, "target_id")?;
        report.hit = Some(hit);
    }
    let events = vec![Event::DamageApplied {
        combatant_id: request.target_id,
        report: RulesetReport::CepheusEngine(Report::Damage(Box::new(report.clone()))),
        dice: dice.rolls()[start..].to_vec(),
    }];
    Ok((events, report))
}

/// Applies damage to an inline stat block (see the module decisions).
pub fn damage_inline(request: InlineDamage, dice: &mut Dice) -> Result<DamageReport, RuleError> {
    let name = super::inline::name_or(request.target_name.as_deref(), "target", "target_name")?;
    let fields = Fields {
        damage: request.damage,
        apply_armour: request.apply_armour,
        effect: request.effect,
        hit_location_table: request.hit_location_table,
        choice: AllocationChoice { overflow_to: request.overflow_to, allocation: request.allocation.map(Into::into) },
    };
    check(&fields, request.target.vehicle.as_ref())?;
    let mut report = armour_step(&request.target, &fields, None, name);
    if let Some(mut vehicle) = request.target.vehicle.clone() {
        let mut armour = request.target.armour.get();
        let tracked = track_vehicle_damage(&mut vehicle, &mut armour, report.after_armour, &mut NamedOccupants, dice)?;
        report.tracked_vehicle = Some(tracked);
    } else if let Some(table) = fields.hit_location_table {
        report.vehicle = Some(vehicle_hits(&report, table, dice)?);
    } else {
        let mut target = request.target;
        let allocation = allocate_damage(&target, report.after_armour, &fields.choice)?;
        apply(&mut target, &allocation)?;
        report.hit = Some(inline_hit(&report.target_name.clone().into(), allocation, target));
    }
    Ok(report)
}
