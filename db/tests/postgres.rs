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

    assert_eq!(
        first,
        ["20261128000001", "20261207000002", "20261207000003", "20261207000004", "20261208000005"]
            .map(String::from)
    );
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
    let page = store
        .list("guild", &skirmish_db::EncounterFilter::default(), skirmish_db::PageStart::Offset(0), 10)
        .unwrap();

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

#[test]
fn a_due_delivery_is_leased_to_one_replica_until_its_lease_ends() {
    let Some(db) = scratch() else { return };
    let (first, second) = (Store::open(&db.url).unwrap(), Store::open(&db.url).unwrap());
    let hook = skirmish_db::NewWebhook {
        id: "wh_1".into(),
        tenant: "guild".into(),
        url: "http://127.0.0.1:9/hook".into(),
        kinds: vec![],
        encounter_id: None,
        format: "standard".into(),
        secret: "whsec_test".into(),
    };
    first.create_webhook(&hook).unwrap().unwrap();
    let id = created_for(&second, "guild", "e1");
    second.mutate::<(), EncounterError>("guild", &id, None, None, add_goblin, version_body).unwrap();
    let now = skirmish_db::now_ms() + 1;

    let taken = first.due_deliveries(now, 10, &[]).unwrap();
    let meanwhile = second.due_deliveries(now, 10, &[]).unwrap();
    let after_the_lease = second.due_deliveries(now + skirmish_db::LEASE_MS, 10, &[]).unwrap();

    let seqs = |due: &[skirmish_db::DueDelivery]| due.iter().map(|d| d.seq).collect::<Vec<_>>();
    assert_eq!(seqs(&taken), vec![1, 2], "the second replica's change wrote both deliveries");
    assert!(meanwhile.is_empty(), "leased to the first replica");
    assert_eq!(seqs(&after_the_lease), vec![1, 2], "a dead replica's deliveries come back");
    assert_eq!(after_the_lease[0].id, taken[0].id, "with the same webhook-id");
}

#[test]
fn connections_cut_by_the_server_are_opened_again() {
    let Some(server) = test_server() else { return };
    let db = ScratchDatabase::create(&server).unwrap();
    let store = Store::open(&db.url).unwrap();
    let id = created_for(&store, "guild", "e1");
    let name = db.url.rsplit('/').next().unwrap().to_owned();
    let mut admin = <diesel::PgConnection as diesel::Connection>::establish(&server).unwrap();
    let cut = format!("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'");
    diesel::RunQueryDsl::execute(diesel::sql_query(cut), &mut admin).unwrap();

    // The first change may meet the cut connection; the one after it gets a new one.
    let _ = store.mutate::<(), EncounterError>("guild", &id, None, None, add_goblin, version_body);
    let after = store.mutate::<(), EncounterError>("guild", &id, None, None, add_goblin, version_body);

    assert!(after.is_ok(), "{after:?}");
    assert!(store.get("guild", &id).unwrap().is_some());
}
