//! Where rulesets step into the generic flow of rounds: the end of a round (one-round changes
//! expire, delayed actions resolve) and a delayed combatant acting.

use super::{RulesetId, adeva_d100, cepheus_engine};
use crate::encounter::{CombatantId, Encounter, Event};

impl RulesetId {
    /// Runs after the end-of-round moment, before the next round starts. By default a combatant
    /// still delaying loses its held action.
    pub fn end_of_round(self, encounter: &mut Encounter, events: &mut Vec<Event>) {
        match self {
            Self::CepheusEngine => cepheus_engine::dynamic::end_of_round(encounter, events),
            Self::AdevaD100 => {
                adeva_d100::dynamic::end_of_round(encounter, events);
                forfeit_delayed_actions(encounter, events);
            }
            _ => forfeit_delayed_actions(encounter, events),
        }
    }

    /// A delaying combatant acts now, on the count `count`. By default (and in Cepheus Engine,
    /// "Delay") its initiative becomes that count.
    pub fn act_from_delay(
        self,
        encounter: &mut Encounter,
        id: &CombatantId,
        count: i32,
        events: &mut Vec<Event>,
    ) {
        if self == Self::CepheusEngine {
            cepheus_engine::dynamic::settle_this_round(encounter, id);
        }
        set_initiative(encounter, id, count, "acted from a delay on this count", events);
    }
}

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
