//! Dynamic initiative (cepheus-engine.txt, "Dynamic Initiative", "Reactions", "Delay",
//! "Tactics and Leadership", "Battlefield Comms"): initiative is rolled once and then moves.
//!
//! Decisions:
//! - A one-round change made before the combatant has acted this round applies now and is undone
//!   at the end of this round; made after it has acted, it applies from the start of the next
//!   round and is undone at the end of that one (the text: "the current round if you have yet to
//!   act or the following round if you have acted already").
//! - The −1 DM of a reaction lasts "until the following round": to the end of the current round.
//! - Leadership's initiative boost is a one-round change like the others in the Dynamic
//!   Initiative section; Tactics' boost lasts the whole combat (removed while cut off).
//! - Delayers still waiting at the end of the round act first in the next: their initiative
//!   becomes one more than the highest of everyone else's for that round; several delayers get the
//!   same score and then go by DEX (and share a slot if DEX ties too).
//! - The end of a round also advances extended actions (`commands::extended`); suppression's
//!   −1 DM is stored as one check penalty for the current round and one for the next, so the
//!   usual expiry here ends it after the following round.

use super::state::{CheckPenalty, CombatState, InitiativeChange};
use crate::encounter::{Combatant, CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::plugin::{self, combatant_mut};
use crate::rulesets::set_initiative;

/// The combatant's Cepheus state ([`plugin::parts_mut`]), or an error naming the field if it is
/// not a Cepheus combatant.
pub fn state_mut<'a>(combatant: &'a mut Combatant, field: &str) -> Result<&'a mut CombatState, EncounterError> {
    Ok(plugin::parts_mut::<super::CepheusEngine>(combatant, field)?.1)
}

/// Changes initiative for one round: now if the combatant has not acted this round, else next
/// round (cepheus-engine.txt, "Dynamic Initiative").
pub fn change_for_one_round(
    encounter: &mut Encounter,
    id: &CombatantId,
    amount: i32,
    reason: &str,
    events: &mut Vec<Event>,
) -> Result<(), EncounterError> {
    let round = encounter.round;
    let score = initiative_score(encounter, id)?;
    let combatant = combatant_mut(encounter, id, "combatant_id")?;
    let applies_now = !combatant.acted_this_round;
    let applies_in = if applies_now { round } else { round + 1 };
    state_mut(combatant, "combatant_id")?.initiative_changes.push(InitiativeChange {
        amount,
        round: applies_in,
        reason: reason.into(),
    });
    if applies_now {
        set_initiative(encounter, id, score + amount, reason, events);
    }
    Ok(())
}

/// The combatant's initiative score: [`change_for_one_round`]'s one refusal, changing nothing.
pub fn initiative_score(encounter: &Encounter, id: &CombatantId) -> Result<i32, EncounterError> {
    let combatant = plugin::combatant(encounter, id, "combatant_id")?;
    combatant.initiative.as_ref().map(|i| i.score).ok_or_else(|| {
        EncounterError::invalid("combatant_id", format!("{} has no initiative yet", combatant.name))
    })
}

/// Adds a DM to every check the combatant makes for the rest of this round.
pub fn penalise_checks_this_round(
    encounter: &mut Encounter,
    id: &CombatantId,
    dm: i32,
    reason: &str,
) -> Result<(), EncounterError> {
    let round = encounter.round;
    let combatant = combatant_mut(encounter, id, "combatant_id")?;
    state_mut(combatant, "combatant_id")?.check_penalties.push(CheckPenalty {
        dm,
        round,
        reason: reason.into(),
    });
    Ok(())
}

/// The one-round DMs on the combatant's checks this round, with their reasons.
pub fn check_penalties(state: &CombatState, round: u32) -> Vec<(String, i32)> {
    state.check_penalties.iter().filter(|p| p.round == round).map(|p| (p.reason.clone(), p.dm)).collect()
}

/// A reaction (cepheus-engine.txt, "Reactions"): −2 initiative for one round and −1 DM on all
/// checks until the following round; any number per round, penalties cumulative. Only an aware
/// combatant that can act may react.
pub fn react(
    encounter: &mut Encounter,
    id: &CombatantId,
    what: &str,
    events: &mut Vec<Event>,
) -> Result<(), EncounterError> {
    check_react(encounter, id)?;
    let reason = format!("reaction: {what}");
    change_for_one_round(encounter, id, -2, &reason, events)?;
    penalise_checks_this_round(encounter, id, -1, &reason)
}

/// [`react`]'s refusals, changing nothing.
pub fn check_react(encounter: &Encounter, id: &CombatantId) -> Result<(), EncounterError> {
    let combatant = encounter.combatant(id).ok_or_else(|| EncounterError::UnknownCombatant(id.clone()))?;
    if combatant.flags.defeated {
        return Err(EncounterError::invalid(
            "reaction",
            format!("{} is out of the fight and cannot react", combatant.name),
        ));
    }
    if combatant.flags.surprised && encounter.round <= 1 {
        let message = format!("{} is unaware of the attack and cannot react to it", combatant.name);
        return Err(EncounterError::invalid("reaction", message));
    }
    initiative_score(encounter, id)?;
    plugin::parts::<super::CepheusEngine>(combatant, "combatant_id").map(drop)
}

/// Hastening (cepheus-engine.txt, "Dynamic Initiative"): "at the start of each combat round" a
/// character may declare it: +2 initiative and −1 DM on all actions for that round; once per
/// combat. The start of the round is read as the moment before its first turn: the round has
/// started and no turn has run or is running in it (`advance` with `start_round` stops there).
pub fn hasten(
    encounter: &mut Encounter,
    id: &CombatantId,
    events: &mut Vec<Event>,
) -> Result<(), EncounterError> {
    if let Some(running) = round_under_way(encounter) {
        let message = format!(
            "hasten is declared at the start of a round (cepheus-engine.txt, \"Dynamic Initiative\"), and \
             round {} is under way ({running}): advance with {{\"to\": \"start_round\"}} to stop at the start \
             of the next one",
            encounter.round
        );
        return Err(EncounterError::invalid("action", message));
    }
    let combatant = plugin::combatant(encounter, id, "combatant_id")?;
    if plugin::parts::<super::CepheusEngine>(combatant, "combatant_id")?.1.has_hastened {
        return Err(EncounterError::invalid("action", "a character can hasten only once per combat"));
    }
    initiative_score(encounter, id)?;
    state_mut(combatant_mut(encounter, id, "combatant_id")?, "combatant_id")?.has_hastened = true;
    change_for_one_round(encounter, id, 2, "hastened", events)?;
    penalise_checks_this_round(encounter, id, -1, "hastened")
}

/// What shows the round is past its start, if it is: a turn running, a turn had (or skipped), a
/// combatant holding its action, or a turn suspended by an interrupt.
pub fn round_under_way(encounter: &Encounter) -> Option<String> {
    if let Some(current) = &encounter.current {
        return Some(format!("{}'s turn is running", encounter.name_of(current)));
    }
    let had = |c: &Combatant| {
        c.acted_this_round
            || c.delaying
            || matches!(&c.state, crate::rulesets::RulesetState::CepheusEngine(s) if s.suspended_turn.is_some())
    };
    encounter.combatants.iter().find(|c| had(c)).map(|c| format!("{} has had its turn", c.name))
}

/// Leadership (cepheus-engine.txt, "Tactics and Leadership"): the target's initiative rises by
/// the check's Effect (one round; nothing on a failure).
pub fn leadership_boost(
    encounter: &mut Encounter,
    target: &CombatantId,
    effect: i32,
    events: &mut Vec<Event>,
) -> Result<(), EncounterError> {
    if effect <= 0 {
        return Ok(());
    }
    change_for_one_round(encounter, target, effect, &format!("Leadership, Effect {effect}"), events)
}

/// Tactics (cepheus-engine.txt, "Tactics and Leadership"): everyone in the commander's unit in
/// communication adds the check's Effect to initiative for the combat.
pub fn tactics_boost(
    encounter: &mut Encounter,
    unit: &[CombatantId],
    effect: i32,
    events: &mut Vec<Event>,
) -> Result<(), EncounterError> {
    if effect <= 0 {
        return Ok(());
    }
    for (index, id) in unit.iter().enumerate() {
        let field = format!("unit_ids[{index}]");
        let combatant = combatant_mut(encounter, id, &field)?;
        let score = combatant.initiative.as_ref().map(|i| i.score).ok_or_else(|| {
            EncounterError::invalid(field.clone(), format!("{} has no initiative yet", combatant.name))
        })?;
        let state = state_mut(combatant, &field)?;
        if state.tactics_bonus != 0 {
            return Err(EncounterError::invalid(field, "already has a Tactics bonus this combat"));
        }
        state.tactics_bonus = effect;
        set_initiative(encounter, id, score + effect, &format!("Tactics, Effect {effect}"), events);
    }
    Ok(())
}

/// Battlefield Comms (cepheus-engine.txt): cut off from the commander, a combatant loses its
/// Tactics bonus until communication is restored.
pub fn set_comms(
    encounter: &mut Encounter,
    id: &CombatantId,
    in_contact: bool,
    events: &mut Vec<Event>,
) -> Result<(), EncounterError> {
    let combatant = combatant_mut(encounter, id, "combatant_id")?;
    let score = combatant.initiative.as_ref().map(|i| i.score);
    let state = state_mut(combatant, "combatant_id")?;
    if state.cut_off != in_contact {
        return Ok(());
    }
    state.cut_off = !in_contact;
    let bonus = state.tactics_bonus;
    if let (Some(score), true) = (score, bonus != 0) {
        let (to, reason) = if in_contact {
            (score + bonus, "communication restored: Tactics bonus back")
        } else {
            (score - bonus, "cut off from the commander: Tactics bonus lost")
        };
        set_initiative(encounter, id, to, reason, events);
    }
    Ok(())
}
