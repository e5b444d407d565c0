//! Turns and rounds: start the encounter, next turn, delay and act later, next round, end the
//! encounter. Defeated combatants' turns are skipped, but their turn moments still pass so
//! durations keep time. A delaying combatant's turn has started (its start-of-turn moment has
//! passed); its end-of-turn moment passes when it finally acts, or when the round ends.
//!
//! Interrupts: when the ruleset suspends a turn (Cepheus Engine, "Delay": a delayer may act
//! "even interrupting another's actions"), `act_now` leaves the interrupted turn unfinished; when
//! the interrupter's turn ends (`next_turn` or `delay`), the most recently suspended turn resumes
//! before anyone new starts. A round that ends with turns still suspended ends them too.

use super::effects::{Moment, expire_all, pass_moment};
use super::error::EncounterError;
use super::events::Event;
use super::model::{CombatantId, Encounter, EncounterStatus};
use super::order::ranked;
use crate::dice::Dice;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Advance {
    /// End the current turn and start the next (starts round 1 from setup).
    NextTurn,
    /// The current combatant holds its action; the next in order starts.
    Delay,
    /// A delaying combatant acts now, on the current count: after the current turn, or (when the
    /// ruleset suspends turns) interrupting it, to resume when the delayer's turn ends.
    ActNow(CombatantId),
    /// Everyone still to act this round passes; the next round starts.
    NextRound,
    /// Like `NextRound` (or the first start from setup), but stops at the start of the round:
    /// no turn runs until the next `NextTurn`. Declarations made "at the start of each combat
    /// round" (Cepheus Engine hasten) are taken in this moment.
    StartRound,
    /// Combat is over: every effect ends.
    EndEncounter,
}

/// Applies `step` with dice from a fixed seed (0): for callers that script no dice and need no
/// replay of their own (the rules tests). The api rolls through [`advance_with`].
pub fn advance(encounter: &mut Encounter, step: Advance) -> Result<Vec<Event>, EncounterError> {
    advance_with(encounter, step, &mut Dice::seeded(0))
}

/// Applies `step`; whatever the round hooks roll (arrgs' End of Round checks, spycraft2's
/// roll-offs of the ties fluid initiative creates) comes from `dice`. On an error the caller
/// discards the encounter, as for a ruleset command ([`crate::rulesets::Command::run`]): a step
/// checks what a request can get wrong before it changes anything, but a round hook may still
/// refuse midway on its dice (a scripted value that does not fit, or too few with
/// `strict_rolls`).
pub fn advance_with(
    encounter: &mut Encounter,
    step: Advance,
    dice: &mut Dice,
) -> Result<Vec<Event>, EncounterError> {
    let mut events = Vec::new();
    match (encounter.status, step) {
        (EncounterStatus::Ended, _) => {
            return Err(EncounterError::Conflict("the encounter has ended".into()));
        }
        (_, Advance::EndEncounter) => end_encounter(encounter, &mut events),
        (EncounterStatus::Setup, Advance::StartRound) => start_at_round_start(encounter, &mut events)?,
        (EncounterStatus::Setup, _) => start(encounter, &mut events)?,
        (EncounterStatus::Active, Advance::StartRound) => {
            if encounter.current.is_none() && encounter.combatants.iter().all(|c| !c.acted_this_round) {
                let message =
                    format!("round {} has just started: advance to its first turn", encounter.round);
                return Err(EncounterError::Conflict(message));
            }
            round_start(encounter, &mut events, dice)?;
        }
        (EncounterStatus::Active, Advance::NextTurn) => next_turn(encounter, &mut events, dice)?,
        (EncounterStatus::Active, Advance::Delay) => delay(encounter, &mut events, dice)?,
        (EncounterStatus::Active, Advance::ActNow(id)) => act_now(encounter, &id, &mut events)?,
        (EncounterStatus::Active, Advance::NextRound) => next_round(encounter, &mut events, dice)?,
    }
    Ok(events)
}

fn start(encounter: &mut Encounter, events: &mut Vec<Event>) -> Result<(), EncounterError> {
    start_at_round_start(encounter, events)?;
    begin_next_turn(encounter, events);
    Ok(())
}

/// Leaves setup and starts round 1 with no turn running yet.
fn start_at_round_start(encounter: &mut Encounter, events: &mut Vec<Event>) -> Result<(), EncounterError> {
    let missing: Vec<&str> = encounter
        .combatants
        .iter()
        .filter(|c| c.initiative.is_none() && !c.flags.defeated)
        .map(|c| c.name.as_str())
        .collect();
    if !missing.is_empty() {
        let names = missing.join(", ");
        return Err(EncounterError::Conflict(format!("roll initiative first: no initiative for {names}")));
    }
    ensure_someone_can_act(encounter)?;
    encounter.status = EncounterStatus::Active;
    events.push(Event::EncounterStarted);
    start_round(encounter, events);
    Ok(())
}

fn next_turn(
    encounter: &mut Encounter,
    events: &mut Vec<Event>,
    dice: &mut Dice,
) -> Result<(), EncounterError> {
    ensure_someone_can_act(encounter)?;
    end_current_turn(encounter, events);
    if resume_suspended(encounter, events) {
        return Ok(());
    }
    if !begin_next_turn(encounter, events) {
        end_round(encounter, events, dice)?;
        start_round(encounter, events);
        begin_next_turn(encounter, events);
    }
    Ok(())
}

/// Cepheus Engine, "Delay": a combatant need not act on its count; it may act at any later
/// point in the round. The generic part: the turn is held and the next combatant starts.
fn delay(encounter: &mut Encounter, events: &mut Vec<Event>, dice: &mut Dice) -> Result<(), EncounterError> {
    let id = encounter
        .current
        .take()
        .ok_or_else(|| EncounterError::Conflict("no turn is running to delay".into()))?;
    if let Some(combatant) = encounter.combatant_mut(&id) {
        combatant.delaying = true;
    }
    events.push(Event::TurnDelayed { name: encounter.name_of(&id), combatant_id: id });
    if resume_suspended(encounter, events) {
        return Ok(());
    }
    if !begin_next_turn(encounter, events) {
        end_round(encounter, events, dice)?;
        start_round(encounter, events);
        begin_next_turn(encounter, events);
    }
    Ok(())
}

/// A delaying combatant acts now, on the current count (the ruleset sets its initiative). The
/// current turn is suspended if the ruleset says so (it resumes when the delayer's turn ends),
/// otherwise it ends first.
fn act_now(
    encounter: &mut Encounter,
    id: &CombatantId,
    events: &mut Vec<Event>,
) -> Result<(), EncounterError> {
    let combatant = encounter.combatant(id).ok_or_else(|| EncounterError::UnknownCombatant(id.clone()))?;
    if !combatant.delaying {
        let message = format!("{} is not delaying", combatant.name);
        return Err(EncounterError::invalid("combatant_id", message));
    }
    let count = encounter
        .current
        .as_ref()
        .and_then(|current| encounter.combatant(current))
        .and_then(|current| current.initiative.as_ref())
        .map(|initiative| initiative.score);
    interrupt_current_turn(encounter, id, events);
    if let Some(combatant) = encounter.combatant_mut(id) {
        combatant.delaying = false;
    }
    if let Some(count) = count {
        encounter.ruleset.act_from_delay(encounter, id, count, events);
    }
    encounter.current = Some(id.clone());
    events.push(Event::TurnStarted { name: encounter.name_of(id), combatant_id: id.clone() });
    Ok(())
}

fn next_round(
    encounter: &mut Encounter,
    events: &mut Vec<Event>,
    dice: &mut Dice,
) -> Result<(), EncounterError> {
    round_start(encounter, events, dice)?;
    begin_next_turn(encounter, events);
    Ok(())
}

/// Everyone still to act passes, the round ends and the next one starts with no turn running.
fn round_start(
    encounter: &mut Encounter,
    events: &mut Vec<Event>,
    dice: &mut Dice,
) -> Result<(), EncounterError> {
    ensure_someone_can_act(encounter)?;
    end_current_turn(encounter, events);
    end_suspended_turns(encounter, events);
    while let Some(id) = next_unacted(encounter) {
        skip_turn(encounter, &id, "the round was advanced", events);
    }
    end_round(encounter, events, dice)?;
    start_round(encounter, events);
    Ok(())
}

fn end_encounter(encounter: &mut Encounter, events: &mut Vec<Event>) {
    encounter.status = EncounterStatus::Ended;
    encounter.current = None;
    while encounter.ruleset.take_suspended(encounter).is_some() {}
    expire_all(encounter, "end of encounter", events);
    events.push(Event::EncounterEnded { round: encounter.round });
}

/// A turn needs a combatant with an initiative who is not defeated.
fn ensure_someone_can_act(encounter: &Encounter) -> Result<(), EncounterError> {
    if ranked(encounter).iter().any(|combatant| !combatant.flags.defeated) {
        Ok(())
    } else {
        Err(EncounterError::Conflict(
            "no combatant can act: add one with an initiative, or revive one".into(),
        ))
    }
}

fn start_round(encounter: &mut Encounter, events: &mut Vec<Event>) {
    encounter.round += 1;
    for combatant in &mut encounter.combatants {
        combatant.acted_this_round = false;
    }
    events.push(Event::RoundStarted { round: encounter.round });
    pass_moment(encounter, &Moment::StartOfRound, events);
}

fn end_round(
    encounter: &mut Encounter,
    events: &mut Vec<Event>,
    dice: &mut Dice,
) -> Result<(), EncounterError> {
    events.push(Event::RoundEnded { round: encounter.round });
    let delayers: Vec<CombatantId> =
        encounter.combatants.iter().filter(|c| c.delaying).map(|c| c.id.clone()).collect();
    for id in delayers {
        end_of_turn(encounter, id, events);
    }
    pass_moment(encounter, &Moment::EndOfRound, events);
    encounter.ruleset.end_of_round(encounter, events, dice)
}

/// Starts the turn of the next combatant who can act, skipping defeated ones. False when
/// everyone has acted this round.
fn begin_next_turn(encounter: &mut Encounter, events: &mut Vec<Event>) -> bool {
    while let Some(id) = next_unacted(encounter) {
        if encounter.combatant(&id).is_some_and(|c| c.flags.defeated) {
            skip_turn(encounter, &id, "defeated", events);
            continue;
        }
        encounter.current = Some(id.clone());
        events.push(Event::TurnStarted { name: encounter.name_of(&id), combatant_id: id.clone() });
        pass_moment(encounter, &Moment::StartOfTurn { combatant_id: id }, events);
        return true;
    }
    false
}

/// The current turn makes way for the delayer `by`: suspended if the ruleset keeps suspended turns,
/// ended otherwise.
fn interrupt_current_turn(encounter: &mut Encounter, by: &CombatantId, events: &mut Vec<Event>) {
    let Some(current) = encounter.current.clone() else { return };
    if !encounter.ruleset.suspend_turn(encounter, &current, by) {
        end_current_turn(encounter, events);
        return;
    }
    encounter.current = None;
    events.push(Event::TurnInterrupted {
        name: encounter.name_of(&current),
        combatant_id: current,
        by_name: encounter.name_of(by),
        by_id: by.clone(),
    });
}

/// Resumes the most recently suspended turn (no start-of-turn moment: the turn had started). A
/// suspended combatant that has been defeated meanwhile has its turn ended instead, and the next
/// suspended turn is tried. False when no turn was suspended.
fn resume_suspended(encounter: &mut Encounter, events: &mut Vec<Event>) -> bool {
    while let Some(id) = encounter.ruleset.take_suspended(encounter) {
        let Some(defeated) = encounter.combatant(&id).map(|c| c.flags.defeated) else { continue };
        encounter.current = Some(id.clone());
        if defeated {
            end_current_turn(encounter, events);
            continue;
        }
        events.push(Event::TurnResumed { name: encounter.name_of(&id), combatant_id: id });
        return true;
    }
    false
}

/// The round ends with turns still suspended: each of them ends, innermost first.
fn end_suspended_turns(encounter: &mut Encounter, events: &mut Vec<Event>) {
    while let Some(id) = encounter.ruleset.take_suspended(encounter) {
        if encounter.combatant(&id).is_some() {
            encounter.current = Some(id);
            end_current_turn(encounter, events);
        }
    }
}

fn end_current_turn(encounter: &mut Encounter, events: &mut Vec<Event>) {
    let Some(id) = encounter.current.take() else { return };
    mark_acted(encounter, &id);
    events.push(Event::TurnEnded { name: encounter.name_of(&id), combatant_id: id.clone() });
    end_of_turn(encounter, id, events);
}

/// The ruleset's end-of-turn hook, then the end-of-turn moment (effects lasting "until the end of"
/// the turn are still on while the hook runs).
fn end_of_turn(encounter: &mut Encounter, id: CombatantId, events: &mut Vec<Event>) {
    encounter.ruleset.end_of_turn(encounter, &id, events);
    pass_moment(encounter, &Moment::EndOfTurn { combatant_id: id }, events);
}

fn skip_turn(encounter: &mut Encounter, id: &CombatantId, reason: &str, events: &mut Vec<Event>) {
    mark_acted(encounter, id);
    events.push(Event::TurnSkipped {
        combatant_id: id.clone(),
        name: encounter.name_of(id),
        reason: reason.into(),
    });
    pass_moment(encounter, &Moment::StartOfTurn { combatant_id: id.clone() }, events);
    end_of_turn(encounter, id.clone(), events);
}

fn mark_acted(encounter: &mut Encounter, id: &CombatantId) {
    if let Some(combatant) = encounter.combatant_mut(id) {
        combatant.acted_this_round = true;
    }
}

/// The highest in the order who has not yet had a turn this round. Initiative is read afresh
/// each time, so changes mid-round (reactions, delays) reorder the rest of the round.
fn next_unacted(encounter: &Encounter) -> Option<CombatantId> {
    ranked(encounter)
        .into_iter()
        .find(|combatant| !combatant.acted_this_round && !combatant.delaying)
        .map(|combatant| combatant.id.clone())
}
