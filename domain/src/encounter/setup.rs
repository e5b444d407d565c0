//! An encounter's setup, as a template keeps it: its name, ruleset, options and combatants with
//! their flags and groups, and not how the fight went (initiative, turns, state, effects, damage).

use super::combatants::{NewCombatant, Origin, add_combatant_from};
use super::error::EncounterError;
use super::events::Event;
use super::model::{CombatantId, Encounter, EncounterId, Flags};
use crate::rulesets::{RulesetId, RulesetOptions, StatBlock};

/// A combatant as a template keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct SetupCombatant {
    pub name: String,
    pub side: String,
    pub stats: StatBlock,
    /// Surprised, hidden and public as set up; never defeated.
    pub flags: Flags,
    pub creature_id: Option<String>,
    /// The group it shares initiative with.
    pub group: Option<String>,
}

/// The combatants of `encounter` as they were set up: their stat blocks, names, sides and flags
/// now, without what the fight made of them (a defeated one comes back undefeated).
pub fn setup_combatants(encounter: &Encounter) -> Vec<SetupCombatant> {
    encounter
        .combatants
        .iter()
        .map(|combatant| SetupCombatant {
            name: combatant.name.clone(),
            side: combatant.side.clone(),
            stats: combatant.stats.clone(),
            flags: Flags { defeated: false, ..combatant.flags.clone() },
            creature_id: combatant.creature_id.clone(),
            group: combatant.group.clone(),
        })
        .collect()
}

/// A new encounter in setup holding `combatants` (ids from `new_id`, in order), with the events
/// of its making: created, then one `combatant_added` each. Each combatant is checked as an add
/// checks it (bounds, the ruleset of its stat block).
pub fn encounter_from_setup(
    id: EncounterId,
    ruleset: RulesetId,
    name: String,
    options: RulesetOptions,
    combatants: Vec<SetupCombatant>,
    mut new_id: impl FnMut() -> CombatantId,
) -> Result<(Encounter, Vec<Event>), EncounterError> {
    let mut encounter = Encounter::new(id, ruleset, name);
    encounter.options = options;
    let mut events =
        vec![Event::EncounterCreated { name: encounter.name.clone(), ruleset: ruleset.to_string() }];
    for combatant in combatants {
        let new = NewCombatant {
            id: new_id(),
            name: combatant.name,
            side: combatant.side,
            stats: combatant.stats,
            flags: combatant.flags,
        };
        let origin = Origin { creature_id: combatant.creature_id, group: combatant.group };
        events.extend(add_combatant_from(&mut encounter, new, origin)?);
    }
    Ok((encounter, events))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encounter::test_support::{add, cepheus, encounter, id};

    #[test]
    fn a_setup_keeps_names_stats_and_flags_and_starts_a_fresh_encounter() {
        let mut fought = encounter(RulesetId::CepheusEngine);
        add(&mut fought, "Vasquez", cepheus(8));
        add(&mut fought, "Drone", cepheus(4));
        fought.combatants[1].flags = Flags { surprised: true, defeated: true, hidden: true, public: false };
        fought.combatants[1].creature_id = Some("crt_drone".into());
        fought.combatants[1].group = Some("Drones".into());
        fought.round = 3;

        let setup = setup_combatants(&fought);
        let mut next = 0;
        let (fresh, events) = encounter_from_setup(
            EncounterId("enc_new".into()),
            RulesetId::CepheusEngine,
            "Again".into(),
            fought.options.clone(),
            setup,
            || {
                next += 1;
                id(&format!("c{next}"))
            },
        )
        .unwrap();

        assert_eq!((fresh.round, fresh.name.as_str()), (0, "Again"));
        assert_eq!(fresh.combatants.len(), 2);
        let drone = &fresh.combatants[1];
        assert_eq!((drone.id.as_str(), drone.name.as_str()), ("c2", "Drone"));
        assert_eq!(drone.flags, Flags { surprised: true, defeated: false, hidden: true, public: false });
        assert_eq!(drone.creature_id.as_deref(), Some("crt_drone"));
        assert_eq!(drone.group.as_deref(), Some("Drones"));
        assert_eq!(drone.stats, fought.combatants[1].stats);
        assert_eq!(events.len(), 3, "created and two adds");
        assert!(
            matches!(&events[2], Event::CombatantAdded { creature_id: Some(from), .. } if from == "crt_drone")
        );
    }
}
