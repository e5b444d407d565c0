//! Combatants added from a library creature: several at once, named after the creature and
//! numbered past the numbers the encounter already uses ("Goblin 1", "Goblin 2", …).

use super::combatants::{NewCombatant, Origin, add_combatant_from};
use super::error::EncounterError;
use super::events::Event;
use super::model::{Encounter, MAX_COMBATANTS, MAX_NAME_LEN, validate_name};

/// Most combatants one request adds from a creature.
pub const MAX_CREATURE_COUNT: usize = 50;

/// The names of `count` new combatants of the creature called `base`: `"{base} {n}"` for the
/// `count` numbers after the highest `n` a combatant of the encounter is already named with
/// (`"{base} {n}"`, `n` written without leading zeros), from 1 when there is none. A combatant
/// named `base` alone uses no number. The numbers stop at `u64::MAX`.
pub fn numbered_names(encounter: &Encounter, base: &str, count: usize) -> Vec<String> {
    let highest = encounter
        .combatants
        .iter()
        .filter_map(|combatant| number_after(&combatant.name, base))
        .max()
        .unwrap_or(0);
    (1..=count as u64).map(|step| format!("{base} {}", highest.saturating_add(step))).collect()
}

/// `n` if `name` is `"{base} {n}"`, `n` a positive whole number without leading zeros.
fn number_after(name: &str, base: &str) -> Option<u64> {
    let digits = name.strip_prefix(base)?.strip_prefix(' ')?;
    let plain = !digits.is_empty() && !digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit());
    plain.then(|| digits.parse().ok()).flatten()
}

/// Adds `instances` (already named; see [`numbered_names`]), each with its group, as combatants
/// that came from the library creature `creature_id`, all or none: the encounter must have room
/// for every one, and a name or side that breaks its bounds is refused naming `instances[i].name`
/// or `.side`.
pub fn add_from_creature(
    encounter: &mut Encounter,
    creature_id: &str,
    instances: Vec<(NewCombatant, Option<String>)>,
) -> Result<Vec<Event>, EncounterError> {
    if instances.is_empty() || instances.len() > MAX_CREATURE_COUNT {
        return Err(EncounterError::invalid("count", format!("must be 1 to {MAX_CREATURE_COUNT}")));
    }
    let room = MAX_COMBATANTS.saturating_sub(encounter.combatants.len());
    if instances.len() > room {
        let message = format!(
            "an encounter holds at most {MAX_COMBATANTS} combatants: room for {room} more, not {}",
            instances.len()
        );
        return Err(EncounterError::invalid("count", message));
    }
    for (index, (instance, _)) in instances.iter().enumerate() {
        if instance.name.chars().count() > MAX_NAME_LEN {
            let message = format!(
                "the numbered name {:?} is longer than {MAX_NAME_LEN} characters: name this instance",
                instance.name
            );
            return Err(EncounterError::invalid(format!("instances[{index}].name"), message));
        }
        validate_name(&format!("instances[{index}].name"), &instance.name)?;
        validate_name(&format!("instances[{index}].side"), &instance.side)?;
    }
    let mut events = Vec::with_capacity(instances.len());
    for (instance, group) in instances {
        let origin = Origin { creature_id: Some(creature_id.to_owned()), group };
        events.extend(add_combatant_from(encounter, instance, origin)?);
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encounter::test_support::{cepheus, encounter};
    use crate::encounter::{CombatantId, Flags, add_combatant};
    use crate::rulesets::RulesetId;

    fn goblin(id: &str, name: &str) -> NewCombatant {
        NewCombatant {
            id: CombatantId(id.into()),
            name: name.into(),
            side: "monsters".into(),
            stats: cepheus(0),
            flags: Flags::default(),
        }
    }

    #[test]
    fn numbering_starts_at_one_and_continues_past_the_highest_number_used() {
        let mut encounter = encounter(RulesetId::CepheusEngine);
        assert_eq!(numbered_names(&encounter, "Goblin", 3), ["Goblin 1", "Goblin 2", "Goblin 3"]);
        for (id, name) in [("a", "Goblin"), ("b", "Goblin 7"), ("c", "Goblin 07x"), ("d", "Goblin 012")] {
            add_combatant(&mut encounter, goblin(id, name)).unwrap();
        }
        // "Goblin" alone, a leading zero and trailing text are not numbers of the creature.
        assert_eq!(numbered_names(&encounter, "Goblin", 2), ["Goblin 8", "Goblin 9"]);
        assert_eq!(numbered_names(&encounter, "Gob", 1), ["Gob 1"]);
    }

    #[test]
    fn instances_keep_the_creature_and_name_it_in_their_events() {
        let mut encounter = encounter(RulesetId::CepheusEngine);
        let names = numbered_names(&encounter, "Goblin", 2);
        let instances = vec![(goblin("g1", &names[0]), None), (goblin("g2", &names[1]), None)];
        let events = add_from_creature(&mut encounter, "crt_1", instances).unwrap();
        assert_eq!(events.len(), 2);
        assert!(matches!(&events[1], Event::CombatantAdded { name, creature_id: Some(from), .. }
            if name == "Goblin 2" && from == "crt_1"));
        assert_eq!(encounter.combatants[0].creature_id.as_deref(), Some("crt_1"));
        assert_eq!(encounter.combatants[1].name, "Goblin 2");
    }

    #[test]
    fn all_or_none_when_the_encounter_has_no_room() {
        let mut encounter = encounter(RulesetId::CepheusEngine);
        for index in 0..MAX_COMBATANTS - 1 {
            add_combatant(&mut encounter, goblin(&format!("x{index}"), "Extra")).unwrap();
        }
        let instances = vec![(goblin("g1", "Goblin 1"), None), (goblin("g2", "Goblin 2"), None)];
        let refused = add_from_creature(&mut encounter, "crt_1", instances).unwrap_err();
        assert!(matches!(&refused, EncounterError::Invalid { field, .. } if field == "count"), "{refused:?}");
        assert_eq!(encounter.combatants.len(), MAX_COMBATANTS - 1);
    }

    #[test]
    fn a_bad_instance_name_is_refused_by_its_index_before_any_is_added() {
        let mut encounter = encounter(RulesetId::CepheusEngine);
        let instances = vec![(goblin("g1", "Goblin 1"), None), (goblin("g2", "  "), None)];
        let refused = add_from_creature(&mut encounter, "crt_1", instances).unwrap_err();
        assert!(
            matches!(&refused, EncounterError::Invalid { field, .. } if field == "instances[1].name"),
            "{refused:?}"
        );
        assert!(encounter.combatants.is_empty());
    }
}
