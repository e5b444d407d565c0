//! A database holding the whole-state snapshots written before diffs: migrated, and undone to.

use super::super::reverse_diff::Rows;
use super::super::{Mutation, SQLITE_MIGRATIONS, Store, StoredResponse};
use crate::schema::encounter_history;
use diesel::prelude::*;
use diesel_migrations::MigrationHarness;
use skirmish_domain::encounter::{
    CombatantId, Encounter, EncounterError, EncounterId, Event, Flags, NewCombatant, add_combatant,
};
use skirmish_domain::rulesets::{RulesetId, StatBlock, lur_asko};
use std::convert::Infallible;

const TENANT: &str = "guild";

fn version_body<T, E>(mutation: Mutation<T>) -> Result<StoredResponse, E> {
    let body = mutation.encounter.encounter.version.to_string();
    Ok(StoredResponse { status: 200, body, headers: vec![] })
}

fn add_goblin(encounter: &mut Encounter) -> Result<(Vec<Event>, ()), EncounterError> {
    let new = NewCombatant {
        id: CombatantId(format!("gob{}", encounter.combatants.len())),
        name: "Goblin".into(),
        side: "monsters".into(),
        stats: StatBlock::LurAsko(lur_asko::Stats::default()),
        flags: Flags::default(),
    };
    Ok((add_combatant(encounter, new)?, ()))
}

fn stored(store: &Store, id: &EncounterId) -> Encounter {
    store.get(TENANT, id).unwrap().unwrap().encounter
}

/// Writes, as the store did before diffs, the snapshots of `states` into the history table as
/// it was then (migration 000009 and the later ones reverted).
fn write_old_snapshots(path: &str, states: &[Encounter]) {
    let mut conn = SqliteConnection::establish(path).unwrap();
    // Later migrations first, then 000009 itself.
    while conn.revert_last_migration(SQLITE_MIGRATIONS).unwrap().to_string() != "20261125000009" {}
    for state in states {
        let snapshot = serde_json::to_string(&Rows::of(state).unwrap()).unwrap();
        diesel::insert_into(encounter_history::table)
            .values((
                encounter_history::encounter_id.eq(state.id.as_str()),
                encounter_history::slot.eq(super::slot(state.version)),
                encounter_history::version.eq(state.version),
                encounter_history::state.eq(snapshot),
            ))
            .execute(&mut conn)
            .unwrap();
    }
}

#[test]
fn snapshots_written_before_diffs_survive_the_migration_and_an_undo_walks_through_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("legacy.db").display().to_string();
    let store = Store::open(&path).unwrap();
    let encounter = Encounter::new(EncounterId("e1".into()), RulesetId::LurAsko, "Bridge".into());
    let created = Event::EncounterCreated { name: "Bridge".into(), ruleset: "lur-asko".into() };
    store.create::<Infallible>(TENANT, &encounter, &[created], None, version_body).unwrap();
    let id = encounter.id;
    let mut states = vec![stored(&store, &id)];
    for _ in 0..4 {
        store.mutate(TENANT, &id, None, None, add_goblin, version_body).unwrap();
        states.push(stored(&store, &id));
    }
    drop(store);
    write_old_snapshots(&path, &states[..4]);

    let store = Store::open(&path).unwrap();
    store.mutate(TENANT, &id, None, None, add_goblin, version_body).unwrap();
    store.undo::<super::super::UndoRefused>(TENANT, &id, Some(2), None, None, version_body).unwrap();

    let restored = stored(&store, &id);
    assert_eq!(restored.version, 7, "versions 1 to 5 before, 6 the new change, 7 the undo");
    assert_eq!(Encounter { version: 2, ..restored }, states[1], "diff 6→5, snapshots 5→4→3→2");
    let mut conn = SqliteConnection::establish(&path).unwrap();
    let kinds: Vec<(i64, bool)> = encounter_history::table
        .order(encounter_history::version)
        .select((encounter_history::version, encounter_history::diff.is_not_null()))
        .load(&mut conn)
        .unwrap();
    let expected = vec![(1, false), (2, false), (3, false), (4, false), (5, true), (6, true)];
    assert_eq!(kinds, expected, "the old snapshots kept, the two new changes as diffs");
}
