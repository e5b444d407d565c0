//! Vehicles in personal combat: collisions and the driver's actions (cepheus-engine.txt,
//! "Collisions", "Vehicular Actions", "Vehicles in Personal Combat").
//!
//! Decisions:
//! - `collision` is a free action (an event the referee records); `combatant_id` is the driver or
//!   the vehicle and only has to be in the encounter. `target_ids` (what was hit) and
//!   `unsecured_ids` take the full damage, `secured_ids` a quarter rounded up (`collision.rs`);
//!   each listed person's armour is subtracted first (the "Armor" section applies to all damage;
//!   "directly" is read as "without an attack roll"), then the default allocation path with the
//!   request's `overflow_to`. A combatant may be listed once across the three lists; dead ones are
//!   refused. Thrown distances for the unsecured are reported as notes.
//! - Vehicle checks (evasive_action, ram, stunt, weave) are 2D6 + the named skill (−3 unskilled) +
//!   DEX DM (current; `characteristic` names another) + the driver's own penalties, against 8.
//!   They are significant actions on the driver's turn (`economy.rs`) and lose any aim.
//! - Evasive action: a positive Effect is stored on the driver for this round and the next up to
//!   the driver's next turn ("until the driver's next action"). An attack whose
//!   `vehicle_driver_id` (the target rides with that driver) or `attacker_vehicle_driver_id` (the
//!   attacker rides with that driver) names it gets −Effect, reason "evasive action"; both apply
//!   if both are named. Any later vehicular action of the driver replaces it.
//! - Ram: `dm` (−10..=10) carries the referee's bonuses and the target's dodging or evasion. On a
//!   success the collision damage at `speed_kph` goes to the target (armour, then `overflow_to`);
//!   if `target_solid`, the same damage applies to the ramming vehicle (reported) and its listed
//!   `unsecured_ids` / `secured_ids` as in a collision. On a failure nothing is hit.
//! - Weave: `weaving_number` from 1 to ceil(speed / 20 kph) is a penalty on the check. Failure is
//!   a crash, reported (record it with `collision`); success reports the number pursuers must
//!   weave at.
//! - Drive: the driver's control action each round, minor normally, significant when `demanding`
//!   (obstacles, evasion, pursuit, dodging fire). Maneuvering needs no check and no separate
//!   action.

use super::super::allocation::{AllocationChoice, Overflow};
use super::super::collision::{CollisionOutcome, MAX_COLLISION_SPEED_KPH, collision_damage};
use super::super::damage::apply_armour;
use super::super::state::EvasiveMark;
use super::super::modifier::{Modifier, ModifierCode, total_dm};
use super::super::opposed::roll_check;
use super::CharacteristicName;
use super::action_report::{ActionReport, CheckReport};
use super::{check_turn_action, invalid, lose_aim, other, turn_action};
use super::actions::skill_check_with;
use super::apply::{HitResult, apply_hit};
use super::super::economy::Cost;
use super::{combatant, parts, state_mut};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};

/// Most characters in a skill name.
pub const MAX_SKILL_CHARS: usize = 60;
/// Largest extra DM a ram or stunt accepts.
pub const MAX_EXTRA_DM: i32 = 10;

/// Who takes a collision's damage.
pub struct Occupants<'a> {
    pub targets: &'a [CombatantId],
    pub unsecured: &'a [CombatantId],
    pub secured: &'a [CombatantId],
}

fn check_speed(speed: f64, positive: bool) -> Result<(), EncounterError> {
    let low_ok = if positive { speed > 0.0 } else { speed >= 0.0 };
    if !speed.is_finite() || !low_ok || speed > MAX_COLLISION_SPEED_KPH {
        let low = if positive { "above 0" } else { "from 0" };
        return Err(invalid("speed_kph", format!("speed must be a finite number of kph {low} to 5000")));
    }
    Ok(())
}

pub(super) fn check_skill(skill: &str) -> Result<(), EncounterError> {
    let length = skill.chars().count();
    if skill.trim().is_empty() || length > MAX_SKILL_CHARS {
        return Err(invalid("skill", format!("name a skill of 1 to {MAX_SKILL_CHARS} characters")));
    }
    Ok(())
}

fn check_extra_dm(dm: i32) -> Result<(), EncounterError> {
    if !(-MAX_EXTRA_DM..=MAX_EXTRA_DM).contains(&dm) {
        return Err(invalid("value", format!("value must be from -{MAX_EXTRA_DM} to {MAX_EXTRA_DM}")));
    }
    Ok(())
}

/// Every listed person exists and is listed once (a dead one is refused before the action runs,
/// by the one rule: `receivers.rs`).
fn check_occupants(encounter: &Encounter, occupants: &Occupants) -> Result<(), EncounterError> {
    let mut seen: Vec<&CombatantId> = Vec::new();
    let lists = [
        ("target_ids", occupants.targets),
        ("unsecured_ids", occupants.unsecured),
        ("secured_ids", occupants.secured),
    ];
    for (name, list) in lists {
        for (index, id) in list.iter().enumerate() {
            let field = format!("{name}[{index}]");
            let found = combatant(encounter, id, &field)?;
            parts(found, &field)?;
            if seen.contains(&id) {
                return Err(invalid(&field, format!("{} is listed twice", found.name)));
            }
            seen.push(id);
        }
    }
    Ok(())
}

/// Puts `damage` (before armour) on one combatant.
fn hit(
    encounter: &mut Encounter,
    id: &CombatantId,
    damage: i32,
    overflow_to: Option<Overflow>,
    dice: &mut Dice,
    field: &str,
) -> Result<HitResult, EncounterError> {
    let (stats, _) = parts(combatant(encounter, id, field)?, field)?;
    let armour = u32::try_from(stats.armour.get()).unwrap_or(0);
    let after = apply_armour(damage, armour, 0);
    let choice = AllocationChoice { overflow_to, allocation: None };
    apply_hit(encounter, id, after, &choice, dice, field)
}

/// Applies a rolled collision to everyone listed (see the module decisions).
fn apply_collision(
    encounter: &mut Encounter,
    outcome: &CollisionOutcome,
    occupants: &Occupants,
    overflow_to: Option<Overflow>,
    report: &mut ActionReport,
    dice: &mut Dice,
) -> Result<(), EncounterError> {
    let groups = [
        ("target_ids", occupants.targets, outcome.damage),
        ("unsecured_ids", occupants.unsecured, outcome.unsecured_passenger_damage),
        ("secured_ids", occupants.secured, outcome.secured_passenger_damage),
    ];
    for (name, list, damage) in groups {
        for (index, id) in list.iter().enumerate() {
            let result = hit(encounter, id, damage, overflow_to, dice, &format!("{name}[{index}]"))?;
            if name == "unsecured_ids" {
                report.notes.push(format!(
                    "{} is unsecured: thrown {} m where there is room",
                    result.name, outcome.unsecured_thrown_m
                ));
            }
            report.hits.push(result);
        }
    }
    Ok(())
}

/// A collision (cepheus-engine.txt, "Collisions").
#[allow(clippy::too_many_arguments)]
pub(super) fn collision(
    encounter: &mut Encounter,
    speed_kph: f64,
    occupants: &Occupants,
    overflow_to: Option<Overflow>,
    mut report: ActionReport,
    dice: &mut Dice,
) -> Result<ActionReport, EncounterError> {
    check_speed(speed_kph, false)?;
    check_occupants(encounter, occupants)?;
    let outcome = collision_damage(speed_kph, dice)?;
    apply_collision(encounter, &outcome, occupants, overflow_to, &mut report, dice)?;
    report.description = format!(
        "collision at {speed_kph} kph: {}D6 = {} damage (secured passengers {})",
        outcome.dice_count, outcome.damage, outcome.secured_passenger_damage
    );
    report.collision = Some(outcome);
    Ok(report)
}

/// The driver's vehicle check with any extra modifiers, rolled before the action is spent.
#[allow(clippy::too_many_arguments)]
fn vehicle_check(
    encounter: &mut Encounter,
    id: &CombatantId,
    skill: &str,
    characteristic: Option<CharacteristicName>,
    extra: Vec<Modifier>,
    purpose: &str,
    report: &mut ActionReport,
    dice: &mut Dice,
) -> Result<CheckReport, EncounterError> {
    let spending = check_turn_action(encounter, id, Cost::Significant, purpose, false)?;
    let mut modifiers =
        skill_check_with(encounter, id, skill, characteristic.unwrap_or(CharacteristicName::Dex))?;
    modifiers.extend(extra);
    let roll = roll_check(total_dm(&modifiers), dice, purpose)?;
    report.economy = Some(spending.record(encounter, id)?);
    lose_aim(encounter, id, report)?;
    state_mut(encounter, id, "combatant_id")?.evasive = None;
    Ok(CheckReport { purpose: purpose.to_string(), modifiers, roll })
}

/// Evasive Action (cepheus-engine.txt, "Vehicular Actions").
pub(super) fn evasive_action(
    encounter: &mut Encounter,
    id: &CombatantId,
    skill: &str,
    characteristic: Option<CharacteristicName>,
    mut report: ActionReport,
    dice: &mut Dice,
) -> Result<ActionReport, EncounterError> {
    check_skill(skill)?;
    let check =
        vehicle_check(encounter, id, skill, characteristic, Vec::new(), "evasive action", &mut report, dice)?;
    let effect = check.roll.effect;
    if effect > 0 {
        let round = encounter.round;
        state_mut(encounter, id, "combatant_id")?.evasive = Some(EvasiveMark { dm: effect, round });
        report.description = format!(
            "{} drives evasively (Effect {effect:+}): −{effect} DM on attacks against the vehicle or its passengers and on attacks made from it, until the driver's next action",
            report.name
        );
    } else {
        report.description = format!("{}'s evasive action (Effect {effect:+}) gains nothing", report.name);
    }
    report.check = Some(check);
    Ok(report)
}

/// The evasive-action DM the driver's vehicle gives now, if any (see the module decisions).
pub(crate) fn evasive_dm(
    encounter: &Encounter,
    driver: &CombatantId,
    field: &str,
) -> Result<i32, EncounterError> {
    let found = combatant(encounter, driver, field)?;
    let (_, state) = parts(found, field)?;
    let Some(mark) = &state.evasive else { return Ok(0) };
    let before_next_turn = encounter.current.as_ref() != Some(driver) && !found.acted_this_round;
    let active = mark.round == encounter.round || (mark.round + 1 == encounter.round && before_next_turn);
    Ok(if active { mark.dm } else { 0 })
}

/// Ram (cepheus-engine.txt, "Vehicular Actions", "Collisions").
#[allow(clippy::too_many_arguments)]
pub(super) fn ram(
    encounter: &mut Encounter,
    id: &CombatantId,
    skill: &str,
    characteristic: Option<CharacteristicName>,
    target: &CombatantId,
    speed_kph: f64,
    dm: i32,
    target_solid: bool,
    occupants: &Occupants,
    overflow_to: Option<Overflow>,
    mut report: ActionReport,
    dice: &mut Dice,
) -> Result<ActionReport, EncounterError> {
    check_skill(skill)?;
    check_speed(speed_kph, true)?;
    check_extra_dm(dm)?;
    let target_name = other(encounter, id, target)?;
    check_occupants(encounter, occupants)?;
    if occupants.unsecured.contains(target) || occupants.secured.contains(target) {
        return Err(invalid("target_id", format!("{target_name} cannot be both rammed and aboard")));
    }
    let extra = if dm != 0 { vec![Modifier::new(ModifierCode::Difficulty, "referee's DM for the ram", dm)] } else { Vec::new() };
    let check = vehicle_check(encounter, id, skill, characteristic, extra, "ram", &mut report, dice)?;
    report.target_id = Some(target.clone());
    if check.roll.success {
        let outcome = collision_damage(speed_kph, dice)?;
        report.hits.push(hit(encounter, target, outcome.damage, overflow_to, dice, "target_id")?);
        report.description =
            format!("{} rams {target_name} at {speed_kph} kph for {} damage", report.name, outcome.damage);
        if target_solid {
            let aboard =
                Occupants { targets: &[], unsecured: occupants.unsecured, secured: occupants.secured };
            apply_collision(encounter, &outcome, &aboard, overflow_to, &mut report, dice)?;
            report.notes.push(format!(
                "the target is solid: the ramming vehicle also takes {} damage",
                outcome.damage
            ));
        }
        report.collision = Some(outcome);
    } else {
        report.description = format!("{} fails to ram {target_name}", report.name);
    }
    report.check = Some(check);
    Ok(report)
}

/// Stunt (cepheus-engine.txt, "Vehicular Actions").
pub(super) fn stunt(
    encounter: &mut Encounter,
    id: &CombatantId,
    skill: &str,
    characteristic: Option<CharacteristicName>,
    dm: i32,
    mut report: ActionReport,
    dice: &mut Dice,
) -> Result<ActionReport, EncounterError> {
    check_skill(skill)?;
    check_extra_dm(dm)?;
    let extra = if dm != 0 { vec![Modifier::new(ModifierCode::Difficulty, "stunt difficulty", dm)] } else { Vec::new() };
    let check = vehicle_check(encounter, id, skill, characteristic, extra, "stunt", &mut report, dice)?;
    let effect = check.roll.effect;
    report.description = if check.roll.success {
        format!("{} pulls off the stunt (Effect {effect:+})", report.name)
    } else {
        format!("{} fails the stunt (Effect {effect:+})", report.name)
    };
    report.check = Some(check);
    Ok(report)
}

/// The highest weaving number at this speed: one per started 20 kph.
pub fn max_weaving_number(speed_kph: f64) -> i32 {
    (speed_kph / 20.0).ceil() as i32
}

/// Weave (cepheus-engine.txt, "Vehicular Actions").
#[allow(clippy::too_many_arguments)]
pub(super) fn weave(
    encounter: &mut Encounter,
    id: &CombatantId,
    skill: &str,
    characteristic: Option<CharacteristicName>,
    weaving_number: i32,
    speed_kph: f64,
    mut report: ActionReport,
    dice: &mut Dice,
) -> Result<ActionReport, EncounterError> {
    check_skill(skill)?;
    check_speed(speed_kph, true)?;
    let most = max_weaving_number(speed_kph);
    if !(1..=most).contains(&weaving_number) {
        return Err(invalid(
            "weaving_number",
            format!("at {speed_kph} kph the weaving number is 1 to {most}"),
        ));
    }
    let extra = vec![Modifier::new(ModifierCode::WeavingNumber, "weaving number", -weaving_number)];
    let check = vehicle_check(encounter, id, skill, characteristic, extra, "weave", &mut report, dice)?;
    report.weaving_number = Some(weaving_number);
    report.description = if check.roll.success {
        format!(
            "{} weaves through the obstacles: pursuers must weave at −{weaving_number} or break off",
            report.name
        )
    } else {
        format!("{} weaves into an obstacle and crashes at {speed_kph} kph", report.name)
    };
    if !check.roll.success {
        report.notes.push("record the crash with a collision action".into());
    }
    report.check = Some(check);
    Ok(report)
}

/// Keeping control of the vehicle (cepheus-engine.txt, "Vehicles in Personal Combat").
pub(super) fn drive(
    encounter: &mut Encounter,
    id: &CombatantId,
    demanding: bool,
    mut report: ActionReport,
) -> Result<ActionReport, EncounterError> {
    let cost = if demanding { Cost::Significant } else { Cost::Minor };
    report.cost = cost;
    report.economy = Some(turn_action(encounter, id, cost, "driving", false)?);
    lose_aim(encounter, id, &mut report)?;
    let round = encounter.round;
    super::state_mut(encounter, id, "combatant_id")?.moved_round = Some(round);
    report.description = if demanding {
        format!("{} drives through obstacles, evasion or pursuit (significant action)", report.name)
    } else {
        format!("{} keeps control of the vehicle (minor action)", report.name)
    };
    Ok(report)
}
