//! Free actions that need no turn: a standalone reaction, the referee's fatigue and an
//! explosion's exposure (cepheus-engine.txt, "Reactions", "Fatigue", "Explosions"; decisions in
//! `actions.rs`).

use super::super::allocation::{AllocationChoice, allocate_damage};
use super::super::damage::apply_armour;
use super::super::dynamic::{check_react, react};
use super::super::explosion::{
    ExplosionResponse, check_can_react, resolve_explosion_exposure,
};
use super::super::fatigue::{FatigueOutcome, apply_fatigue};
use super::super::stance::Stance;
use super::apply::apply_hit;
use super::{
    combatant, combatant_mut, parts, parts_mut, state_mut,
};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use super::action_request::{MAX_EXPLOSION_DAMAGE, StandaloneReaction};
use super::action_report::ActionReport;
use super::{clear_aim, invalid, lose_aim};

/// A reaction on its own (cepheus-engine.txt, "Reactions", "Dodging", "Parrying", "Stance").
pub(super) fn standalone_reaction(
    encounter: &mut Encounter,
    id: &CombatantId,
    reaction: StandaloneReaction,
    mut report: ActionReport,
    events: &mut Vec<Event>,
) -> Result<ActionReport, EncounterError> {
    let found = combatant(encounter, id, "combatant_id")?;
    let (stats, state) = parts(found, "combatant_id")?;
    let name = found.name.clone();
    if !stats.status().can_act() {
        return Err(invalid("reaction", format!("{name} cannot react in its state")));
    }
    if state.extended.is_some() {
        return Err(invalid("reaction", format!("{name} is busy with an extended action and cannot react")));
    }
    if reaction == StandaloneReaction::Dodge && state.stance == Stance::Prone {
        return Err(invalid("reaction", format!("{name} is prone and cannot dodge")));
    }
    let what = match reaction {
        StandaloneReaction::Dodge => "dodge",
        StandaloneReaction::Parry => "parry",
    };
    react(encounter, id, what, events)?;
    lose_aim(encounter, id, &mut report)?;
    report.description =
        format!("{name} reacts ({what}): −2 Initiative for one round, −1 DM on checks this round");
    Ok(report)
}

/// Fatigue imposed by the referee (cepheus-engine.txt, "Fatigue"); a grapple partner it would
/// leave is looked up before anything changes.
pub(super) fn fatigue(
    encounter: &mut Encounter,
    id: &CombatantId,
    mut report: ActionReport,
) -> Result<ActionReport, EncounterError> {
    let (_, state) = parts(combatant(encounter, id, "combatant_id")?, "combatant_id")?;
    if let Some(partner) = &state.grappling_with {
        parts(combatant(encounter, partner, "combatant_id")?, "combatant_id")?;
    }
    let combatant = combatant_mut(encounter, id, "combatant_id")?;
    let name = combatant.name.clone();
    let (stats, state) = parts_mut(combatant, "combatant_id")?;
    let outcome = apply_fatigue(stats);
    let out = !stats.status().can_act();
    if out {
        state.extended = None;
        clear_aim(state);
    }
    if outcome == FatigueOutcome::KnockedOut {
        state.wake_checks_failed = Some(0);
    }
    let partner = if out { state.grappling_with.take() } else { None };
    if out {
        combatant_mut(encounter, id, "combatant_id")?.flags.defeated = true;
    }
    if let Some(partner) = partner {
        state_mut(encounter, &partner, "combatant_id")?.grappling_with = None;
    }
    report.description = match outcome {
        FatigueOutcome::Fatigued => format!("{name} is fatigued: −2 DM on all checks until rested"),
        FatigueOutcome::KnockedOut => format!("{name} was already fatigued and falls unconscious"),
    };
    report.fatigue = Some(outcome);
    Ok(report)
}

/// A reaction's refusal, named on the explosion's `response`.
fn on_response(error: EncounterError) -> EncounterError {
    match error {
        EncounterError::Invalid { message, .. } => invalid("response", message),
        other => other,
    }
}

/// Caught in an explosion (cepheus-engine.txt, "Explosions", "Reactions", "Armor"): the
/// reaction, the response roll and the split of the damage are checked before anything changes.
#[allow(clippy::too_many_arguments)]
pub(super) fn explosion(
    encounter: &mut Encounter,
    id: &CombatantId,
    damage: i32,
    response: ExplosionResponse,
    choice: &AllocationChoice,
    mut report: ActionReport,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<ActionReport, EncounterError> {
    if !(0..=MAX_EXPLOSION_DAMAGE).contains(&damage) {
        return Err(invalid("damage", "blast damage must be a whole number from 0 to 10000"));
    }
    let found = combatant(encounter, id, "combatant_id")?;
    let (stats, state) = parts(found, "combatant_id")?;
    let name = found.name.clone();
    let armour = u32::try_from(stats.armour.get()).unwrap_or(0);
    if response != ExplosionResponse::None {
        if !stats.status().can_act() || found.flags.defeated {
            return Err(invalid("response", format!("{name} cannot react in its state")));
        }
        if state.extended.is_some() {
            return Err(invalid(
                "response",
                format!("{name} is busy with an extended action and cannot react"),
            ));
        }
        check_can_react("response", response, state.stance)?;
        check_react(encounter, id).map_err(on_response)?;
    }
    let exposure = resolve_explosion_exposure(damage, response, dice)?;
    let after_armour = apply_armour(exposure.damage_after, armour, 0);
    allocate_damage(stats, after_armour, choice)?;
    if response != ExplosionResponse::None {
        let what = if response == ExplosionResponse::Dive {
            "dived for cover from a blast"
        } else {
            "dodged a blast"
        };
        react(encounter, id, what, events).map_err(on_response)?;
        lose_aim(encounter, id, &mut report)?;
    }
    if exposure.ends_prone {
        let state = state_mut(encounter, id, "combatant_id")?;
        state.stance = Stance::Prone;
        state.loses_next_significant_action = true;
    }
    report.hit = Some(apply_hit(encounter, id, after_armour, choice, dice, "combatant_id")?);
    report.description = format!(
        "{name} is caught in a blast: {}; armour {armour} leaves {after_armour}",
        exposure.explanation
    );
    if exposure.ends_prone {
        report.stance = Some(Stance::Prone);
    }
    report.explosion = Some(exposure);
    Ok(report)
}
