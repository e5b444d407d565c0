#![expect(clippy::unwrap_used, reason = "a failed step should fail the test loudly")]
//! Undo's history against a real SQLite file: bounded, deleted with its encounter, and exact
//! whichever store handle (and so whichever hot copy) made the changes.

mod common;
use common::{add_goblin, created_for, version_body};
use diesel::prelude::*;
use skirmish_db::{HISTORY_DEPTH, MutateError, Store, UndoRefused};
use skirmish_domain::encounter::EncounterId;

const TENANT: &str = "guild";

fn path(dir: &tempfile::TempDir) -> String {
    dir.path().join("undo.db").display().to_string()
}

fn created(store: &Store) -> EncounterId {
    created_for(store, TENANT, "e1")
}

fn goblins(store: &Store, id: &EncounterId) -> usize {
    store.get(TENANT, id).unwrap().unwrap().encounter.combatants.len()
}

fn history_rows(path: &str) -> i64 {
    use skirmish_db::schema::encounter_history::dsl::encounter_history;
    let mut conn = SqliteConnection::establish(path).unwrap();
    encounter_history.count().get_result(&mut conn).unwrap()
}

fn undo(store: &Store, id: &EncounterId, to: Option<i64>) -> Result<String, MutateError<UndoRefused>> {
    store.undo(TENANT, id, to, None, None, version_body).map(|reply| reply.response.body)
}

#[test]
fn the_history_keeps_the_last_versions_only_and_goes_with_its_encounter() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&path(&dir)).unwrap();
    let id = created(&store);
    for _ in 0..60 {
        store.mutate(TENANT, &id, None, None, add_goblin, version_body).unwrap();
    }

    assert_eq!(history_rows(&path(&dir)), HISTORY_DEPTH, "versions 11 to 60 of 61");
    let too_old = undo(&store, &id, Some(10));
    assert!(
        matches!(too_old, Err(MutateError::Domain(UndoRefused::TooOld { earliest: 11, .. }))),
        "{too_old:?}"
    );
    assert_eq!(undo(&store, &id, Some(11)).unwrap(), "62");
    assert_eq!(goblins(&store, &id), 10, "version 11 had ten goblins");
    assert!(store.delete(TENANT, &id).unwrap());
    assert_eq!(history_rows(&path(&dir)), 0);
}

#[test]
fn an_undo_restores_what_another_handle_wrote_and_the_hot_copy_follows_it() {
    let dir = tempfile::tempdir().unwrap();
    let (store, elsewhere) = (Store::open(&path(&dir)).unwrap(), Store::open(&path(&dir)).unwrap());
    let id = created(&store);
    store.mutate(TENANT, &id, None, None, add_goblin, version_body).unwrap();
    elsewhere.mutate(TENANT, &id, None, None, add_goblin, version_body).unwrap();

    // The writer's hot copy of `store` is at version 2; the database is at 3.
    assert_eq!(undo(&store, &id, None).unwrap(), "4");
    assert_eq!(goblins(&store, &id), 1, "back to version 2: one goblin");
    let next = store.mutate(TENANT, &id, None, None, add_goblin, version_body).unwrap();
    assert_eq!((next.response.body.as_str(), goblins(&elsewhere, &id)), ("5", 2));
    let stale = store.undo(TENANT, &id, None, Some(4), None, version_body::<_, UndoRefused>);
    assert!(matches!(stale, Err(MutateError::VersionMismatch { expected: 4, current: 5 })), "{stale:?}");
    assert_eq!(goblins(&store, &id), 2, "a refused undo changes nothing");
}
