#![expect(clippy::unwrap_used, reason = "a failed step should fail the test loudly")]

//! Repository behaviour against a real SQLite file.

use skirmish_db::{MutateError, Store};
use skirmish_domain::encounter::{
    CombatantId, Encounter, EncounterError, EncounterId, Event, Flags, NewCombatant, add_combatant,
};
use skirmish_domain::rulesets::{RulesetId, StatBlock, lur_asko};

fn new_store(dir: &tempfile::TempDir) -> Store {
    Store::open(dir.path().join("test.db").to_str().unwrap()).unwrap()
}

fn created(store: &Store, id: &str) -> EncounterId {
    let encounter = Encounter::new(EncounterId(id.into()), RulesetId::LurAsko, "Bridge".into());
    let event = Event::EncounterCreated { name: "Bridge".into(), ruleset: "lur-asko".into() };
    store.create(&encounter, &[event]).unwrap();
    encounter.id
}

fn add_goblin(encounter: &mut Encounter) -> Result<(Vec<Event>, ()), EncounterError> {
    let new = NewCombatant {
        id: CombatantId("gob".into()),
        name: "Goblin".into(),
        side: "monsters".into(),
        stats: StatBlock::LurAsko(lur_asko::Stats {}),
        flags: Flags::default(),
    };
    Ok((add_combatant(encounter, new)?, ()))
}

#[test]
fn a_mutation_bumps_the_version_and_appends_numbered_events() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(&dir);
    let id = created(&store, "e1");
    let mutation = store.mutate(&id, Some(1), add_goblin).unwrap();
    assert_eq!(mutation.encounter.encounter.version, 2);
    assert_eq!(
        mutation.events.iter().map(|e| (e.seq, e.kind.as_str())).collect::<Vec<_>>(),
        [(2, "combatant_added")]
    );
    let log = store.events(&id, 0, 100).unwrap().unwrap();
    assert_eq!(log.iter().map(|e| e.seq).collect::<Vec<_>>(), [1, 2]);
}

#[test]
fn a_stale_version_or_a_refused_command_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(&dir);
    let id = created(&store, "e1");
    let stale = store.mutate(&id, Some(7), add_goblin).unwrap_err();
    assert!(matches!(stale, MutateError::VersionMismatch { expected: 7, current: 1 }));
    let refused = store
        .mutate(&id, None, |_| Err::<(Vec<Event>, ()), _>(EncounterError::Conflict("no".into())))
        .unwrap_err();
    assert!(matches!(refused, MutateError::Domain(_)));
    let stored = store.get(&id).unwrap().unwrap();
    assert_eq!((stored.encounter.version, stored.encounter.combatants.len()), (1, 0));
    assert_eq!(store.events(&id, 0, 100).unwrap().unwrap().len(), 1);
}

#[test]
fn state_survives_reopening_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let id = {
        let store = new_store(&dir);
        let id = created(&store, "e1");
        store.mutate(&id, None, add_goblin).unwrap();
        id
    };
    let reopened = new_store(&dir);
    let stored = reopened.get(&id).unwrap().unwrap();
    assert_eq!(stored.encounter.combatants[0].name, "Goblin");
    assert_eq!(reopened.events(&id, 1, 100).unwrap().unwrap().len(), 1);
}

#[test]
fn delete_removes_the_encounter_and_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(&dir);
    let id = created(&store, "e1");
    created(&store, "e2");
    assert!(store.delete(&id).unwrap());
    assert!(!store.delete(&id).unwrap());
    assert_eq!(store.events(&id, 0, 10).unwrap(), None);
    let page = store.list(10, 0).unwrap();
    assert_eq!((page.total, page.encounters[0].encounter.id.as_str()), (1, "e2"));
}
