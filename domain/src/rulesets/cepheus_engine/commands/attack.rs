//! An attack between two stored combatants (cepheus-engine.txt, "Attack", "Reactions",
//! "Dodging", "Parrying", "Coup de Grace", "Firing into Combat", "Suppression Fire",
//! "Explosions", "Damage" and "Extended Actions").
//!
//! Decisions:
//! - The attacker must be able to act, it must be its turn, and the attack is its significant
//!   action (`economy.rs`), bursts and suppression fire included. A combatant locked in a
//!   grapple cannot attack (only grapple checks are open to it).
//! - The target must be another Cepheus combatant of the encounter (and not dead: `Cepheus::may_receive`).
//! - The attacker's aim counts only if it was aimed at this target; attacking uses it up either
//!   way. Its stance and the target's stance come from their combat state.
//! - A target's reaction (`reaction`, or `blast_response` against a thrown explosive) is spent
//!   through `dynamic::react` before the roll: −2 Initiative for one round and −1 DM on its checks
//!   this round. It is refused (field `reaction` / `blast_response`) for a target that is unaware
//!   in round 1, out of the fight, busy with an extended action, helpless (coup de grâce), prone
//!   (no dodging), or for a parry against a ranged attack. Reacting loses the target's aim.
//!   Diving from a blast also leaves it prone and costs its next significant action.
//! - A hit's damage after armour is allocated to the target with `overflow_to` / `allocation`
//!   (`apply.rs`). Damage to a vehicle target (`target_is_vehicle` or a `hit_location_table`) is
//!   reported but not put on characteristics. A blind-fire hit lands on the target only when the
//!   pick is 1 (the target is eligible target 1); otherwise it is reported for the referee.
//! - Firing into combat: on a miss whose 1D6 is 4+, if the request names `nearest_other_id`
//!   (the combatant nearest the original target, the table's call), the weapon's damage is rolled
//!   at Effect 0 against that combatant's armour and allocated along its default path. Without
//!   `nearest_other_id` the stray shot is only reported.
//! - A coup de grâce needs a helpless target: unconscious, defeated, or `target_helpless: true`
//!   (bound, asleep). The target dies (`apply::kill`).

use super::super::allocation::AllocationChoice;
use super::super::attack::{AttackOutcome, resolve_attack};
use super::super::attack_damage::DamageBreakdown;
use super::super::attack_request::validate_request;
use super::super::dynamic::react;
use super::super::explosion::ExplosionResponse;
use super::super::modifier::{Modifier, ModifierCode, Reason};
use super::super::range::RangeBand;
use super::super::stance::Stance;
use super::apply::{HitResult, apply_hit, kill};
use super::super::economy::{ActionEconomy, Cost, check_spend};
use super::attack_build::{Sides, client_field};
use super::attack_checks::{check_outcome, check_reaction, check_sides, check_target_reacts};
use super::request::{Reaction, attack_request_struct};
use super::super::suppression::{self, SuppressionApplied};
use super::vehicle_actions::evasive_dm;
use super::super::vehicle_location::LocationRoll;
use super::super::vehicle_track::TrackedVehicleDamage;
use super::super::CepheusEngine;
use super::{clear_aim, combatant, own_check_modifiers, parts, state_mut};
use crate::rulesets::plugin;
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::cepheus_engine::Report;
use crate::rulesets::{RuleError, RulesetReport};
use serde::{Deserialize, Serialize};

attack_request_struct! {
    /// `POST /v1/encounters/{id}/cepheus-engine/attacks`: one attack between stored combatants.
    #[derive(Debug, Clone, PartialEq, Deserialize)]
    #[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineEncounterAttack))]
    #[serde(deny_unknown_fields)]
    pub struct EncounterAttack {
        pub attacker_id: CombatantId,
        pub target_id: CombatantId,
        /// Firing into combat: who a stray shot hits (see the decisions).
        #[serde(default)]
        pub nearest_other_id: Option<CombatantId>,
        /// The target is in or on the vehicle this combatant drives (its evasive action counts).
        #[serde(default)]
        pub vehicle_driver_id: Option<CombatantId>,
        /// The attacker is in or on the vehicle this combatant drives (its evasive action counts).
        #[serde(default)]
        pub attacker_vehicle_driver_id: Option<CombatantId>,
    }
}

/// A stray shot that hit the combatant nearest the target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineStrayHit))]
pub struct StrayHit {
    pub damage: DamageBreakdown,
    pub hit: HitResult,
}

/// Everything one attack did: the same report for stored combatants and inline stat blocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineAttackReport))]
pub struct AttackReport {
    /// The stored attacker (absent for an inline attack).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_id: Option<CombatantId>,
    /// The attacker's name (was `attacker_name`, still read from older stored reports).
    #[serde(rename = "attacker", alias = "attacker_name")]
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub attacker_name: Reason,
    /// The stored target (absent for an inline attack).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_id: Option<CombatantId>,
    /// The target's name (was `target_name`, still read from older stored reports).
    #[serde(rename = "target", alias = "target_name")]
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub target_name: Reason,
    /// The skill the attack used and the attacker's level in it (`None` = unskilled).
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub skill: Reason,
    pub skill_level: Option<i32>,
    pub range_band: RangeBand,
    pub reaction: Reaction,
    pub blast_response: ExplosionResponse,
    /// Aim (and aiming for the kill) the attacker had on this target and used.
    pub aim_used: u8,
    pub aim_for_kill_used: u8,
    /// The roll, every modifier, stray shot and scatter.
    pub outcome: AttackOutcome,
    /// A hit's damage working, step by step (was `outcome.damage`): dice, Effect, extras, blast
    /// response, armour. Absent on a miss.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<DamageBreakdown>,
    /// What the hit did to the target, its stat block afterwards included (`None` when nothing
    /// was put on it).
    pub target_hit: Option<HitResult>,
    /// A target recorded as a vehicle: the hits put on it (`vehicle_track.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tracked_vehicle: Option<TrackedVehicleDamage>,
    /// Suppression put on a stored target.
    pub suppression: Option<SuppressionApplied>,
    pub stray_shot: Option<StrayHit>,
    /// The stored attacker's actions this turn, after the attack (absent inline).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub economy: Option<ActionEconomy>,
    #[cfg_attr(feature = "schema", schema(value_type = Vec<String>))]
    pub notes: Vec<Reason>,
}

/// Resolves one attack between stored combatants and applies its consequences (see the module
/// decisions). Refused commands leave the encounter unchanged: every refusal (the spending, the
/// reaction, the roll, the allocation of the rolled damage) comes before the first change.
pub fn attack(
    encounter: &mut Encounter,
    request: EncounterAttack,
    dice: &mut Dice,
) -> Result<(Vec<Event>, AttackReport), EncounterError> {
    plugin::ensure_active::<CepheusEngine>(encounter)?;
    let (request, facts) = super::attack_facts::with_recorded_facts(encounter, request)?;
    let mut events = Vec::new();
    let start = dice.rolls().len();
    let mut report = resolve(encounter, &request, dice, &mut events)?;
    report.notes.splice(0..0, facts);
    events.push(Event::AttackResolved {
        attacker_id: request.attacker_id.clone(),
        target_id: request.target_id.clone(),
        report: RulesetReport::CepheusEngine(Report::Attack(Box::new(report.clone()))),
        dice: dice.rolls()[start..].to_vec(),
    });
    Ok((events, report))
}

fn resolve(
    encounter: &mut Encounter,
    request: &EncounterAttack,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<AttackReport, EncounterError> {
    check_sides(encounter, request)?;
    let fields = request.attack_fields();
    let (attacker_id, target_id) = (&request.attacker_id, &request.target_id);
    let round = encounter.round;
    let attacker = combatant(encounter, attacker_id, "attacker_id")?;
    let attacker_name = Reason::from(attacker.name.clone());
    let (attacker_stats, attacker_state) = parts(attacker, "attacker_id")?;
    let target = combatant(encounter, target_id, "target_id")?;
    let target_name = Reason::from(target.name.clone());
    let (target_stats, target_state) = parts(target, "target_id")?;
    let helpless = !target_stats.status().can_act() || target.flags.defeated || request.target_helpless;
    let aimed = attacker_state.aim_target.as_ref() == Some(target_id);
    let (aim, aim_for_kill) = if aimed { (attacker_state.aim, attacker_state.aim_for_kill) } else { (0, 0) };
    let mut own_modifiers = own_check_modifiers(attacker_stats, attacker_state, round);
    for (driver, field) in [
        (&request.vehicle_driver_id, "vehicle_driver_id"),
        (&request.attacker_vehicle_driver_id, "attacker_vehicle_driver_id"),
    ] {
        if let Some(driver) = driver {
            let dm = evasive_dm(encounter, driver, field)?;
            if dm > 0 {
                own_modifiers.push(Modifier::new(ModifierCode::EvasiveAction, "evasive action", -dm));
            }
        }
    }
    let sides = Sides {
        attacker: attacker_stats,
        target: target_stats,
        attacker_stance: attacker_state.stance,
        target_stance: target_state.stance,
        aim,
        aim_for_kill,
        own_modifiers,
        target_helpless: helpless,
        stored: true,
    };
    let built = fields.build(&sides)?;
    let to_client = |error: RuleError| EncounterError::from(client_field(error, built.range_field, true));
    validate_request(&built.request).map_err(to_client)?;
    check_reaction(encounter, request, built.request.kind(), helpless)?;
    let spending = check_spend(encounter, attacker_id, Cost::Significant, "an attack")?;
    check_target_reacts(encounter, request)?;
    let outcome = resolve_attack(&built.request, dice).map_err(to_client)?;
    let stray = check_outcome(encounter, request, &built.request, &outcome, dice)?;
    let economy = spending.record(encounter, attacker_id)?;
    let mut notes = Vec::new();
    react_to_attack(encounter, request, events, &mut notes)?;
    clear_aim(state_mut(encounter, attacker_id, "attacker_id")?);
    let mut consequences = Vec::new();
    let mut report = AttackReport {
        attacker_id: Some(attacker_id.clone()),
        attacker_name,
        target_id: Some(target_id.clone()),
        target_name,
        skill: built.skill.clone(),
        skill_level: built.skill_level,
        range_band: built.range_band,
        reaction: request.reaction,
        blast_response: request.blast_response,
        aim_used: aim,
        aim_for_kill_used: aim_for_kill,
        damage: outcome.damage.clone(),
        outcome,
        target_hit: None,
        tracked_vehicle: None,
        suppression: None,
        stray_shot: None,
        economy: Some(economy),
        notes,
    };
    apply_outcome(encounter, request, stray, &mut report, dice, &mut consequences)?;
    events.extend(consequences);
    Ok(report)
}

/// Spends the target's reaction, if it made one (cepheus-engine.txt, "Reactions"; "Explosions").
fn react_to_attack(
    encounter: &mut Encounter,
    request: &EncounterAttack,
    events: &mut Vec<Event>,
    notes: &mut Vec<Reason>,
) -> Result<(), EncounterError> {
    let what = match (request.reaction, request.blast_response) {
        (Reaction::None, ExplosionResponse::None) => return Ok(()),
        (Reaction::None, ExplosionResponse::Dodge) => "dodged the blast".to_string(),
        (Reaction::None, ExplosionResponse::Dive) => "dived for cover from the blast".to_string(),
        (reaction, _) => {
            format!("{} against {}'s attack", reaction.label(), encounter.name_of(&request.attacker_id))
        }
    };
    react(encounter, &request.target_id, &what, events)?;
    let name = encounter.name_of(&request.target_id);
    let state = state_mut(encounter, &request.target_id, "target_id")?;
    if state.aim > 0 || state.aim_for_kill > 0 {
        notes.push(format!("{name} reacted and lost its aim").into());
    }
    state.aim = 0;
    state.aim_for_kill = 0;
    state.aim_target = None;
    if request.blast_response == ExplosionResponse::Dive {
        state.stance = Stance::Prone;
        state.loses_next_significant_action = true;
        notes.push(format!("{name} dived for cover: now prone, and loses its next significant action").into());
    }
    notes.push(format!("{name} reacted: −2 Initiative for one round and −1 DM on its checks this round").into());
    Ok(())
}

/// The Hits' rolled locations when the target is recorded as a vehicle (`None` otherwise).
fn recorded_vehicle_hits(
    encounter: &Encounter,
    target_id: &CombatantId,
    outcome: &AttackOutcome,
) -> Result<Option<Vec<LocationRoll>>, EncounterError> {
    let (stats, _) = parts(combatant(encounter, target_id, "target_id")?, "target_id")?;
    if stats.vehicle.is_none() {
        return Ok(None);
    }
    let hits = outcome.vehicle.as_ref().map(|vehicle| vehicle.hits.as_slice()).unwrap_or_default();
    Ok(Some(hits.iter().map(|hit| LocationRoll { roll: hit.roll, location: hit.location }).collect()))
}

/// Puts the outcome on the encounter: death, suppression, damage or a stray shot.
fn apply_outcome(
    encounter: &mut Encounter,
    request: &EncounterAttack,
    stray_damage: Option<DamageBreakdown>,
    report: &mut AttackReport,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<(), EncounterError> {
    let outcome = &report.outcome;
    let target_id = &request.target_id;
    if outcome.coup_de_grace {
        report.target_hit = Some(kill(encounter, target_id, "target_id")?);
        return Ok(());
    }
    if outcome.hit {
        if let Some(suppressed) = outcome.suppression {
            let applied = suppression::apply(
                encounter,
                target_id,
                suppressed.initiative_penalty,
                request.suppression_immune,
                events,
            )?;
            report.suppression = Some(applied);
            return Ok(());
        }
        let Some(damage) = &outcome.damage else { return Ok(()) };
        if let Some(rolled) = recorded_vehicle_hits(encounter, target_id, outcome)? {
            let (after_armour, rolled) = (damage.after_armour, rolled);
            report.tracked_vehicle =
                Some(super::damage::track_stored(encounter, target_id, after_armour, Some(&rolled), dice)?);
        } else if request.target_is_vehicle || request.hit_location_table.is_some() {
            report
                .notes
                .push("vehicle damage is reported (hits and locations), not put on characteristics".into());
        } else if outcome.blind_fire_target.is_some_and(|pick| pick != 1) {
            report.notes.push(
                "blind fire picked another eligible target: apply the damage to it with the damage command"
                    .into(),
            );
        } else {
            let choice =
                AllocationChoice { overflow_to: request.overflow_to, allocation: request.allocation.map(Into::into) };
            report.target_hit =
                Some(apply_hit(encounter, target_id, damage.after_armour, &choice, dice, "target_id")?);
        }
        return Ok(());
    }
    let Some(stray) = outcome.firing_into_combat.filter(|stray| stray.hits_nearest_other) else {
        return Ok(());
    };
    let Some(other) = &request.nearest_other_id else {
        report.notes.push(
            "the stray shot hits the combatant nearest the target; name it in nearest_other_id to apply it"
                .into(),
        );
        return Ok(());
    };
    let Some(breakdown) = stray_damage else { return Ok(()) };
    let hit = apply_hit(
        encounter,
        other,
        breakdown.after_armour,
        &AllocationChoice::default(),
        dice,
        "nearest_other_id",
    )?;
    report.notes.push(format!("stray shot (1D6 = {}) hits {}", stray.roll, hit.name).into());
    report.stray_shot = Some(StrayHit { damage: breakdown, hit });
    Ok(())
}
