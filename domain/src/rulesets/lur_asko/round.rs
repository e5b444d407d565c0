//! Round hooks (lur-asko.txt, "Damage Auras").

use crate::encounter::{Encounter, Event};

/// At the end of a round, auras whose owner could not act at the end of its turn are gone; then
/// any held action is forfeited as for every ruleset.
pub fn end_of_round(encounter: &mut Encounter, events: &mut Vec<Event>) {
    events.extend(super::commands::lapse_events(encounter));
    crate::rulesets::hooks::forfeit_delayed_actions(encounter, events);
}
