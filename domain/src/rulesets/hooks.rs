//! Round hooks every ruleset may use: moving an initiative score, forfeiting held actions.

use crate::encounter::{CombatantId, Encounter, Event};

/// Sets a combatant's initiative score and logs the change (no event when it is unchanged).
pub fn set_initiative(
    encounter: &mut Encounter,
    id: &CombatantId,
    to: i32,
    reason: &str,
    events: &mut Vec<Event>,
) {
    let Some(combatant) = encounter.combatant_mut(id) else { return };
    let Some(initiative) = combatant.initiative.as_mut() else { return };
    let from = initiative.score;
    if from == to {
        return;
    }
    initiative.score = to;
    let (combatant_id, name) = (combatant.id.clone(), combatant.name.clone());
    events.push(Event::InitiativeChanged { combatant_id, name, from, to, reason: reason.into() });
}

pub(crate) fn forfeit_delayed_actions(encounter: &mut Encounter, events: &mut Vec<Event>) {
    for combatant in encounter.combatants.iter_mut().filter(|c| c.delaying) {
        combatant.delaying = false;
        events.push(Event::TurnSkipped {
            combatant_id: combatant.id.clone(),
            name: combatant.name.clone(),
            reason: "held its action past the end of the round".into(),
        });
    }
}
