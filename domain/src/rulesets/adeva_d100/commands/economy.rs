//! Extended actions on a stored encounter (adeva-d100.txt, "Actions": Extended Actions).
//!
//! Decisions: `extended_start` (own turn) spends the Extended action, which fills the turn, and
//! counts as its first turn of work; `extended_work` (own turn, one a turn) spends the turn again
//! and adds a turn. Progress is stored in `extended`; once a known length is reached it is
//! reported complete and cleared. `extended_interrupt` is the GM's (any time, no budget): the
//! work restarts or stands as the action says. Starting a new one replaces an old one.

use super::super::actions::ExtendedAction;
use super::super::actions::economy::Interruption;
use super::action_outcome::{ActionOutcome, Ran};
use super::manoeuvres::spend;
use super::{peek, refreshed_mut};
use crate::encounter::{CombatantId, Encounter, EncounterError};

fn work(
    encounter: &mut Encounter,
    actor: CombatantId,
    mut extended: ExtendedAction,
) -> Result<Ran, EncounterError> {
    spend(encounter, &actor, &extended.spec())?;
    let complete = extended.work_turn();
    let state = refreshed_mut(encounter, &actor, "combatant_id")?.1;
    state.extended = (!complete).then(|| extended.clone());
    let mut notes = vec![format!("{}: {} turn(s) of work", extended.name, extended.turns_done)];
    if complete {
        notes.push("complete".into());
    }
    let outcome = ActionOutcome::Extended { extended, complete, interruption: None };
    Ok((actor, "extended action".into(), outcome, notes))
}

pub(super) fn start(
    encounter: &mut Encounter,
    actor: CombatantId,
    name: &str,
    turns_needed: Option<u32>,
    restarts_if_interrupted: bool,
) -> Result<Ran, EncounterError> {
    let extended = ExtendedAction::new(name, turns_needed, restarts_if_interrupted)?;
    work(encounter, actor, extended)
}

pub(super) fn keep_working(encounter: &mut Encounter, actor: CombatantId) -> Result<Ran, EncounterError> {
    let Some(extended) = peek(encounter, &actor, "combatant_id")?.1.extended else {
        return Err(EncounterError::invalid("combatant_id", "no extended action is under way"));
    };
    work(encounter, actor, extended)
}

pub(super) fn interrupt(encounter: &mut Encounter, actor: CombatantId) -> Result<Ran, EncounterError> {
    if peek(encounter, &actor, "combatant_id")?.1.extended.is_none() {
        return Err(EncounterError::invalid("combatant_id", "no extended action is under way"));
    }
    let state = refreshed_mut(encounter, &actor, "combatant_id")?.1;
    let Some(extended) = state.extended.as_mut() else {
        return Err(EncounterError::invalid("combatant_id", "no extended action is under way"));
    };
    let interruption = extended.interrupt();
    let extended = extended.clone();
    let note = match interruption {
        Interruption::MustRestart => "interrupted: the work starts again",
        Interruption::ProgressKept => "interrupted: the work so far stands",
    };
    let outcome = ActionOutcome::Extended { extended, complete: false, interruption: Some(interruption) };
    Ok((actor, "extended action interrupted".into(), outcome, vec![note.into()]))
}
