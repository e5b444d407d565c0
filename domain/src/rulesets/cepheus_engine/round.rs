//! Cepheus Engine round hooks (cepheus-engine.txt, "Dynamic Initiative", "Delay"): the end of a
//! round advances extended actions, undoes the one-round changes that held and applies those
//! waiting, and sends combatants still delaying first into the next round (decisions in
//! `dynamic.rs`). A delayer that acts now interrupts the running turn, which is suspended and
//! resumes when the delayer's turn ends.

use super::commands::extended::progress_at_end_of_round;
use crate::encounter::{CombatantId, Encounter, Event};
use super::state::SuspendedTurn;
use crate::rulesets::{RulesetState, set_initiative};

/// The end of a round: changes that held this round are undone, changes waiting for the next
/// round apply, and combatants still delaying go first next round (top + 1).
pub fn end_of_round(encounter: &mut Encounter, events: &mut Vec<Event>) {
    let ending = encounter.round;
    progress_at_end_of_round(encounter, ending, events);
    let ids: Vec<CombatantId> = encounter.combatants.iter().map(|c| c.id.clone()).collect();
    for id in &ids {
        let Some(combatant) = encounter.combatant_mut(id) else { continue };
        let RulesetState::CepheusEngine(state) = &mut combatant.state else { continue };
        let undo: i32 = state.initiative_changes.iter().filter(|c| c.round == ending).map(|c| c.amount).sum();
        let apply: i32 =
            state.initiative_changes.iter().filter(|c| c.round == ending + 1).map(|c| c.amount).sum();
        state.initiative_changes.retain(|c| c.round > ending);
        state.check_penalties.retain(|p| p.round > ending);
        let Some(score) = combatant.initiative.as_ref().map(|i| i.score) else { continue };
        let reason = format!("one-round changes of round {ending} end");
        set_initiative(encounter, id, score - undo + apply, &reason, events);
    }
    first_next_round(encounter, events);
}

/// Acting from a delay sets initiative to the count acted on (cepheus-engine.txt, "Delay"): the
/// one-round changes of this round are then already part of that score and must not be undone
/// again at the end of the round.
pub fn settle_this_round(encounter: &mut Encounter, id: &CombatantId) {
    let round = encounter.round;
    if let Some(RulesetState::CepheusEngine(state)) = encounter.combatant_mut(id).map(|c| &mut c.state) {
        state.initiative_changes.retain(|change| change.round != round);
    }
}

/// Delay: combatants still holding their action take one more than the current top initiative
/// among those still in the fight.
fn first_next_round(encounter: &mut Encounter, events: &mut Vec<Event>) {
    let delayers: Vec<CombatantId> =
        encounter.combatants.iter().filter(|c| c.delaying).map(|c| c.id.clone()).collect();
    if delayers.is_empty() {
        return;
    }
    let top = encounter
        .combatants
        .iter()
        .filter(|c| !c.delaying && !c.flags.defeated)
        .filter_map(|c| c.initiative.as_ref().map(|i| i.score))
        .max();
    for id in &delayers {
        if let Some(combatant) = encounter.combatant_mut(id) {
            combatant.delaying = false;
        }
        if let Some(top) = top {
            set_initiative(encounter, id, top + 1, "delayed to the end of the round: acts first", events);
        }
    }
}

/// Delay (cepheus-engine.txt): a delayer "may act at any later point during the round, even
/// interrupting another's actions to do so". Read: the interrupted combatant has not given up
/// what it has not yet done, so its turn is suspended (not ended) and resumes, with the actions
/// it has left, when the interrupter's turn ends. Interrupts nest: the latest resumes first.
pub fn suspend_turn(encounter: &mut Encounter, current: &CombatantId, by: &CombatantId) -> bool {
    let depth = suspended(encounter).map_or(0, |(_, depth)| depth) + 1;
    let Some(combatant) = encounter.combatant_mut(current) else { return false };
    if combatant.state == RulesetState::None {
        combatant.state = RulesetState::for_ruleset(crate::rulesets::RulesetId::CepheusEngine);
    }
    let RulesetState::CepheusEngine(state) = &mut combatant.state else { return false };
    state.suspended_turn = Some(SuspendedTurn { by: by.clone(), depth });
    true
}

/// The most recently suspended turn, taken off the record.
pub fn take_suspended(encounter: &mut Encounter) -> Option<CombatantId> {
    let (id, _) = suspended(encounter)?;
    if let Some(RulesetState::CepheusEngine(state)) = encounter.combatant_mut(&id).map(|c| &mut c.state) {
        state.suspended_turn = None;
    }
    Some(id)
}

/// The combatant whose suspended turn is the most recent, and its depth.
fn suspended(encounter: &Encounter) -> Option<(CombatantId, u32)> {
    encounter
        .combatants
        .iter()
        .filter_map(|c| match &c.state {
            RulesetState::CepheusEngine(state) => state.suspended_turn.as_ref().map(|s| (c.id.clone(), s.depth)),
            _ => None,
        })
        .max_by_key(|(_, depth)| *depth)
}
