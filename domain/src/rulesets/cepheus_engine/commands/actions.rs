//! Declared actions (cepheus-engine.txt, "Dynamic Initiative", "Minor Actions", "Aiming",
//! "Aiming for the Kill", "Changing Stance", "Drawing and Reloading", "Movement", "Significant
//! Actions", "Reactions", "Free Actions", "Extended Actions", "Battlefield Comms", "Tactics and
//! Leadership", "Grappling", "Explosions", "Fatigue").
//!
//! Decisions:
//! - Turn actions (aim, aim_for_kill, change_stance, move, draw_or_reload, other_minor,
//!   leadership, start_extended_action, grapple, other_significant) need the combatant's turn, a
//!   combatant able to act, and room in its turn (`economy.rs`). Costs: aim, aim_for_kill,
//!   change_stance, move, draw_or_reload and other_minor are minor; leadership, grapple,
//!   start_extended_action and other_significant are significant.
//! - Free, off-turn: hasten (its own timing rules, `dynamic::hasten`), react, explosion (both
//!   reactions), comms, fatigue (the referee's), abandon_extended_action (at any time, as the text
//!   allows), tactics (see below) and free (a shouted warning can come at any moment; it needs a
//!   combatant able to act, and a note of 1 to 200 characters).
//! - Aiming: each aim adds +1 (each aim for the kill +1 damage) at one target, at most 6 of each;
//!   a seventh is refused. Aiming at a new target starts again from 0. Aim and aim for the kill at
//!   the same target are kept side by side.
//! - Changing to the stance already held is refused (field `stance`).
//! - Movement: up to 6 m, halved when crouched; prone characters crawl, like the seriously
//!   wounded, at most 1.5 m (the text is silent on crawling speed). `metres` is optional and is
//!   only checked against that limit; terrain is the table's.
//! - Leadership: a significant action; the leader rolls 2D6 + Leadership (−3 unskilled) + the
//!   characteristic DM (SOC unless another is named) + its own penalties, against 8. The target's
//!   Initiative rises by a positive Effect for one round. Neither may be cut off from comms.
//! - Tactics: a check at the start of combat, so it is refused after round 1 or once the commander
//!   has taken an action. 2D6 + Tactics + the characteristic DM (INT unless named) + penalties.
//!   Every listed unit member in communication gains the Effect for the combat; those cut off are
//!   skipped and listed in the notes. A member that already has a Tactics bonus is refused.
//! - Grapple: a significant action of the combatant whose turn it is (side `a`) against
//!   `target_id` (side `b`). Each side's DM is its Natural Weapons skill ("natural_weapons", −3
//!   unskilled) + STR or DEX DM (the side's choice, else the better current one) + its own
//!   penalties. The two are in an established grapple when they are recorded as grappling each
//!   other. Grapple damage goes to the loser with the request's `overflow_to` / `allocation`; a
//!   knocked-prone loser becomes prone. The grapple is recorded on both or cleared from both.
//!   Range is taken as Personal: asking to grapple says the two are in the same square.
//! - Explosion: `damage` (0 to 10,000, before armour) on the combatant, reduced by its response
//!   (a reaction: dodge −1D6, dive half and prone and the next significant action lost), then its
//!   armour, then allocated.
//! - Fatigue on a fatigued combatant knocks it out: it is marked defeated.
//! - A dead combatant takes no action at all, free ones included (fatigue, rest, comms, tactics,
//!   healing), and a dead unit member named in a Tactics check receives no bonus: the ruleset's
//!   one rule answers before the action runs (`CepheusEngine::may_receive`, asked by
//!   `receiving::run`), 409 on `combatant_id` or `unit_ids[i]`, as for attacks and damage.

use super::super::allocation::AllocationChoice;
use super::super::circumstances::MAX_AIM;
use super::super::dynamic::{hasten, set_comms};
use super::super::modifier::{Modifier, ModifierCode};
use super::super::stance::Stance;
use super::super::CepheusEngine;
use super::super::economy::Cost;
use super::extended::{abandon_extended_action, start_extended_action};
use super::{CharacteristicName, clear_aim, combatant, ensure_can_act, invalid, lose_aim, other, own_check_modifiers, parts, state_mut, turn_action};
use super::delegated_actions::{recovery_action, vehicle_action};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::{RulesetReport, plugin};
use crate::score::Measure;
use super::action_request::{Action, MAX_NOTE_CHARS};
use super::action_report::{ActionReport, AimReport};
use super::leadership::{leadership, skill_modifier, tactics};
use super::grapple::grapple;
use super::free_actions::{explosion, fatigue, standalone_reaction};

/// Carries out one declared action (see the module decisions). Refused actions leave the
/// encounter unchanged: each action checks its refusals (its spending, a reaction, the split of
/// rolled damage) and rolls its dice before it writes.
pub fn act(
    encounter: &mut Encounter,
    action: Action,
    dice: &mut Dice,
) -> Result<(Vec<Event>, ActionReport), EncounterError> {
    plugin::ensure_active::<CepheusEngine>(encounter)?;
    let mut consequences = Vec::new();
    let start = dice.rolls().len();
    let report = perform(encounter, &action, dice, &mut consequences)?;
    let mut events = vec![Event::ActionTaken {
        combatant_id: action.combatant_id().clone(),
        action: action.name().to_string(),
        report: RulesetReport::CepheusEngine(crate::rulesets::cepheus_engine::Report::Action(Box::new(report.clone()))),
        dice: dice.rolls()[start..].to_vec(),
    }];
    events.extend(consequences);
    Ok((events, report))
}

pub(super) fn check_note(field: &str, note: &str) -> Result<(), EncounterError> {
    let length = note.chars().count();
    if note.trim().is_empty() || length > MAX_NOTE_CHARS {
        return Err(invalid(field, format!("a note has 1 to {MAX_NOTE_CHARS} characters (got {length})")));
    }
    Ok(())
}

/// The modifiers of a skill check: skill, characteristic DM and own penalties.
pub(super) fn skill_check_with(
    encounter: &Encounter,
    id: &CombatantId,
    skill: &str,
    characteristic: CharacteristicName,
) -> Result<Vec<Modifier>, EncounterError> {
    let found = combatant(encounter, id, "combatant_id")?;
    let (stats, state) = parts(found, "combatant_id")?;
    let mut modifiers = vec![skill_modifier(stats, skill)];
    modifiers.push(Modifier::new(ModifierCode::CharacteristicDm, format!("{} DM", characteristic.label()), characteristic.dm(stats)));
    modifiers.extend(own_check_modifiers(stats, state, encounter.round));
    Ok(modifiers)
}

/// Carries out one declared action of a living combatant: the turn's own actions here, vehicle
/// and recovery actions through `vehicle_action` and `recovery_action`.
pub(super) fn perform(
    encounter: &mut Encounter,
    action: &Action,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<ActionReport, EncounterError> {
    let id = action.combatant_id().clone();
    let found = combatant(encounter, &id, "combatant_id")?;
    let _ = parts(found, "combatant_id")?;
    let name = found.name.clone();
    let new = |cost| ActionReport::new(&id, &name, action.name(), cost);
    match action {
        Action::Hasten { .. } => hasten_action(encounter, &id, new(Cost::Free), events),
        Action::React { reaction, .. } => {
            standalone_reaction(encounter, &id, *reaction, new(Cost::Free), events)
        }
        Action::Aim { target_id, .. } => aim(encounter, &id, target_id, false, new(Cost::Minor)),
        Action::AimForKill { target_id, .. } => aim(encounter, &id, target_id, true, new(Cost::Minor)),
        Action::ChangeStance { stance, .. } => change_stance(encounter, &id, *stance, new(Cost::Minor)),
        Action::Leadership { target_id, characteristic, .. } => leadership(
            encounter,
            &id,
            target_id,
            characteristic.unwrap_or(CharacteristicName::Soc),
            new(Cost::Significant),
            dice,
            events,
        ),
        Action::Tactics { unit_ids, characteristic, .. } => tactics(
            encounter,
            &id,
            unit_ids,
            characteristic.unwrap_or(CharacteristicName::Int),
            new(Cost::Free),
            dice,
            events,
        ),
        Action::Comms { in_contact, .. } => comms(encounter, &id, *in_contact, new(Cost::Free), events),
        Action::Fatigue { .. } => fatigue(encounter, &id, new(Cost::Free)),
        Action::StartExtendedAction { skill, rounds, .. } => {
            start_extended_action(encounter, &id, skill, rounds.get().unsigned_abs(), new(Cost::Significant))
        }
        Action::AbandonExtendedAction { .. } => abandon_extended_action(encounter, &id, new(Cost::Free)),
        Action::Grapple { .. } => grapple(encounter, action, new(Cost::Significant), dice),
        Action::Explosion { damage, response, overflow_to, allocation, .. } => {
            let choice = AllocationChoice { overflow_to: *overflow_to, allocation: allocation.map(Into::into) };
            explosion(encounter, &id, damage.get(), *response, &choice, new(Cost::Free), dice, events)
        }
        Action::Move { metres, .. } => movement(encounter, &id, metres.map(Measure::get), new(Cost::Minor)),
        Action::DrawOrReload { .. } => {
            simple(encounter, &id, Cost::Minor, new(Cost::Minor), format!("{name} draws or reloads a weapon"))
        }
        Action::OtherMinor { note, .. } => other_action(encounter, &id, Cost::Minor, note.as_deref(), new(Cost::Minor)),
        Action::OtherSignificant { note, .. } => {
            other_action(encounter, &id, Cost::Significant, note.as_deref(), new(Cost::Significant))
        }
        Action::Free { note, .. } => free_action(encounter, &id, note, new(Cost::Free)),
        Action::Collision { .. }
        | Action::EvasiveAction { .. }
        | Action::Ram { .. }
        | Action::Stunt { .. }
        | Action::Weave { .. }
        | Action::Drive { .. } => vehicle_action(encounter, &id, action, new, dice),
        Action::RegainConsciousness { .. } | Action::Rest { .. } | Action::Heal { .. } => {
            recovery_action(encounter, &id, action, new, dice)
        }
    }
}

/// Hasten: +2 Initiative and −1 DM on all checks this round (`dynamic::hasten`).
fn hasten_action(
    encounter: &mut Encounter,
    id: &CombatantId,
    mut report: ActionReport,
    events: &mut Vec<Event>,
) -> Result<ActionReport, EncounterError> {
    ensure_can_act(combatant(encounter, id, "combatant_id")?, "combatant_id")?;
    hasten(encounter, id, events)?;
    report.description =
        format!("{} acts hastily: +2 Initiative and −1 DM on all checks this round", report.name);
    Ok(report)
}

/// Changing stance, a minor action; the stance already held is refused (field `stance`).
fn change_stance(
    encounter: &mut Encounter,
    id: &CombatantId,
    stance: Stance,
    mut report: ActionReport,
) -> Result<ActionReport, EncounterError> {
    let (_, state) = parts(combatant(encounter, id, "combatant_id")?, "combatant_id")?;
    if state.stance == stance {
        return Err(invalid("stance", format!("{} is already {}", report.name, stance.label())));
    }
    report.economy = Some(turn_action(encounter, id, Cost::Minor, "changing stance", false)?);
    lose_aim(encounter, id, &mut report)?;
    state_mut(encounter, id, "combatant_id")?.stance = stance;
    report.stance = Some(stance);
    report.description = format!("{} is now {}", report.name, stance.label());
    Ok(report)
}

/// Battlefield Comms: in contact with its unit and commander, or cut off.
fn comms(
    encounter: &mut Encounter,
    id: &CombatantId,
    in_contact: bool,
    mut report: ActionReport,
    events: &mut Vec<Event>,
) -> Result<ActionReport, EncounterError> {
    set_comms(encounter, id, in_contact, events)?;
    let name = &report.name;
    report.description = if in_contact {
        format!("{name} is in communication with its unit and commander")
    } else {
        format!("{name} is cut off: no Tactics or Leadership benefit until contact returns")
    };
    Ok(report)
}

/// Another minor or significant action, with an optional note.
fn other_action(
    encounter: &mut Encounter,
    id: &CombatantId,
    cost: Cost,
    note: Option<&str>,
    report: ActionReport,
) -> Result<ActionReport, EncounterError> {
    if let Some(note) = note {
        check_note("note", note)?;
    }
    let what = note.unwrap_or("something else");
    let description = format!("{}: {what}", report.name);
    simple(encounter, id, cost, report, description)
}

/// A free action with its note (1 to 200 characters), for a combatant able to act.
fn free_action(
    encounter: &Encounter,
    id: &CombatantId,
    note: &str,
    mut report: ActionReport,
) -> Result<ActionReport, EncounterError> {
    check_note("note", note)?;
    ensure_can_act(combatant(encounter, id, "combatant_id")?, "combatant_id")?;
    report.description = format!("{}: {note}", report.name);
    Ok(report)
}

pub(super) fn simple(
    encounter: &mut Encounter,
    id: &CombatantId,
    cost: Cost,
    mut report: ActionReport,
    description: String,
) -> Result<ActionReport, EncounterError> {
    report.economy = Some(turn_action(encounter, id, cost, &description, false)?);
    lose_aim(encounter, id, &mut report)?;
    report.description = description;
    Ok(report)
}

/// Aiming or aiming for the kill (cepheus-engine.txt, "Aiming", "Aiming for the Kill").
pub(super) fn aim(
    encounter: &mut Encounter,
    id: &CombatantId,
    target: &CombatantId,
    for_kill: bool,
    mut report: ActionReport,
) -> Result<ActionReport, EncounterError> {
    let target_name = other(encounter, id, target)?;
    let (_, state) = parts(combatant(encounter, id, "combatant_id")?, "combatant_id")?;
    let same = state.aim_target.as_ref() == Some(target);
    let current = if !same {
        0
    } else if for_kill {
        state.aim_for_kill
    } else {
        state.aim
    };
    if current >= MAX_AIM {
        let what = if for_kill { "aiming for the kill" } else { "aiming" };
        return Err(invalid("action", format!("{} already has the most {what} allowed (+6)", report.name)));
    }
    report.economy = Some(turn_action(encounter, id, Cost::Minor, "aiming", false)?);
    let state = state_mut(encounter, id, "combatant_id")?;
    if !same {
        if clear_aim(state) {
            report.notes.push("aim at the previous target lost".into());
        }
        state.aim_target = Some(target.clone());
    }
    if for_kill {
        state.aim_for_kill += 1;
    } else {
        state.aim += 1;
    }
    report.aim =
        Some(AimReport { target_id: target.clone(), aim: state.aim, aim_for_kill: state.aim_for_kill });
    report.target_id = Some(target.clone());
    report.description = if for_kill {
        format!(
            "{} aims for the kill at {target_name}: +{} damage on the next attack",
            report.name, state.aim_for_kill
        )
    } else {
        format!("{} aims at {target_name}: +{} on the next attack", report.name, state.aim)
    };
    Ok(report)
}

/// Movement (cepheus-engine.txt, "Movement", "Stance", "Injury and Recovery").
pub(super) fn movement(
    encounter: &mut Encounter,
    id: &CombatantId,
    metres: Option<f64>,
    mut report: ActionReport,
) -> Result<ActionReport, EncounterError> {
    let (stats, state) = parts(combatant(encounter, id, "combatant_id")?, "combatant_id")?;
    let mut limit = stats.status().movement_limit_metres().unwrap_or(6.0);
    match state.stance {
        Stance::Standing => {}
        Stance::Crouched => limit /= 2.0,
        Stance::Prone => limit = limit.min(1.5),
    }
    if let Some(metres) = metres
        && (!metres.is_finite() || metres <= 0.0 || metres > limit)
    {
        return Err(invalid(
            "metres",
            format!("{} can move more than 0 and at most {limit} m now", report.name),
        ));
    }
    report.economy = Some(turn_action(encounter, id, Cost::Minor, "moving", false)?);
    lose_aim(encounter, id, &mut report)?;
    let round = encounter.round;
    state_mut(encounter, id, "combatant_id")?.moved_round = Some(round);
    report.description = match metres {
        Some(metres) => format!("{} moves {metres} m (at most {limit} m)", report.name),
        None => format!("{} moves (at most {limit} m)", report.name),
    };
    Ok(report)
}
