//! The store on PostgreSQL: migrations from an empty database, and the same changes, reads,
//! logs and undo as on SQLite. Skipped (loudly) without a server, except with CI=true.

mod common;

use common::{add_goblin, created_for, version_body};
use skirmish_db::{Backend, ScratchDatabase, Store, test_server};
use skirmish_domain::encounter::EncounterError;

fn scratch() -> Option<ScratchDatabase> {
    Some(ScratchDatabase::create(&test_server()?).unwrap_or_else(|e| panic!("no scratch database: {e}")))
}

#[test]
fn migrations_run_on_an_empty_database_once() {
    let Some(server) = test_server() else { return };
    let scratch = ScratchDatabase::create(&server).unwrap();
    // The scratch database is a copy of the migrated template: nothing left to apply.
    assert_eq!(Store::migrate(&scratch.url).unwrap(), Vec::<String>::new());

    let empty = ScratchDatabase::create_empty(&server).unwrap();
    let first = Store::migrate(&empty.url).unwrap();
    let again = Store::migrate(&empty.url).unwrap();
    let store = Store::open(&empty.url).unwrap();
    let id = created_for(&store, "guild", "e1");

    assert_eq!(first, vec!["20261128000001".to_owned()]);
    assert!(again.is_empty());
    assert_eq!(id.as_str(), "e1");
}

#[test]
fn changes_reads_logs_and_undo_work_as_on_sqlite() {
    let Some(db) = scratch() else { return };
    let store = Store::open(&db.url).unwrap();
    let id = created_for(&store, "guild", "e1");
    for _ in 0..3 {
        store.mutate::<(), EncounterError>("guild", &id, None, None, add_goblin, version_body).unwrap();
    }
    let stale = store.mutate::<(), EncounterError>("guild", &id, Some(1), None, add_goblin, version_body);
    let undone = store.undo::<skirmish_db::UndoRefused>("guild", &id, Some(2), None, None, version_body);

    let stored = store.get("guild", &id).unwrap().unwrap();
    let events = store.events("guild", &id, 0, 100).unwrap().unwrap();
    let page = store.list("guild", 10, 0).unwrap();

    assert_eq!(store.backend(), Backend::Postgres);
    assert!(matches!(stale, Err(skirmish_db::MutateError::VersionMismatch { expected: 1, current: 4 })));
    assert!(undone.is_ok(), "{undone:?}");
    // Version 1 had no goblin, 2 one, 3 two, 4 three; the undo to version 2's state is version 5.
    assert_eq!(stored.encounter.version, 5);
    assert_eq!(stored.encounter.combatants.len(), 1);
    assert_eq!(
        events.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (1..=events.len() as i64).collect::<Vec<_>>()
    );
    assert_eq!(page.total, 1);
    assert!(store.get("other", &id).unwrap().is_none());
}
