#![expect(clippy::unwrap_used, reason = "a failed step should fail the test loudly")]
//! `skirmish copy-data`: a SQLite database filled through the store is copied into a fresh
//! PostgreSQL database row for row; a non-empty target is refused unless asked; bad sources and
//! targets fail clearly. Skipped (loudly) without a PostgreSQL server, except with CI=true.

mod common;

use common::{add_goblin, created_for, version_body};
use skirmish_db::{
    AfterAttempt, Attempt, CopyError, IdempotencyKey, NewCreature, NewViewer, NewWebhook, ScratchDatabase,
    Snapshot, Store, StoredResponse, Template, copy_sqlite_to_postgres, now_ms, test_server,
};
use skirmish_domain::encounter::{EncounterError, SetupCombatant};

/// A SQLite database holding every kind of row: keys, encounters with logs and undo history,
/// an idempotency record, viewer links, webhooks with deliveries (one attempted), a creature, a template.
fn filled_sqlite(dir: &tempfile::TempDir) -> String {
    let url = dir.path().join("source.db").display().to_string();
    let store = Store::open(&url).unwrap();
    store.create_key("key_1", "guild", "sk_guild_secret").unwrap();
    store.create_key("key_2", "rivals", "sk_rivals_secret").unwrap();
    store.revoke_key("key_2").unwrap();
    store.create_webhook(&hook("wh_all", "guild")).unwrap().unwrap();
    let wolf = NewCreature {
        id: "crt_wolf".into(),
        ruleset: "cepheus-engine".into(),
        name: "Wolf".into(),
        stats: r#"{"str":5,"dex":9,"end":6,"int":1,"edu":0,"soc":0}"#.into(),
        side: Some("pack".into()),
        notes: None,
        hidden: false,
        public: true,
    };
    let answer =
        |_: &skirmish_db::Creature| Ok(StoredResponse { status: 201, body: String::new(), headers: vec![] });
    store
        .create_creature::<EncounterError>("guild", &wolf, None, || unreachable!("empty library"), answer)
        .unwrap();
    for name in ["enc_b", "enc_a", "enc_c"] {
        let id = created_for(&store, "guild", name);
        for _ in 0..3 {
            store.mutate::<(), EncounterError>("guild", &id, None, None, add_goblin, version_body).unwrap();
        }
    }
    let drone = SetupCombatant {
        name: "Drone".into(),
        side: "hostiles".into(),
        stats: skirmish_domain::rulesets::RulesetId::CepheusEngine
            .deserialize_stats(
                serde_json::json!({"str": 9, "dex": 4, "end": 9, "int": 2, "edu": 0, "soc": 0}),
            )
            .unwrap(),
        flags: Default::default(),
        creature_id: Some("crt_wolf".into()),
        group: Some("Drones".into()),
    };
    let template = Template {
        id: "tpl_dock".into(),
        name: "Dock".into(),
        ruleset: skirmish_domain::rulesets::RulesetId::CepheusEngine,
        encounter_name: "Dock fight".into(),
        options: skirmish_domain::rulesets::RulesetOptions::for_ruleset(
            skirmish_domain::rulesets::RulesetId::CepheusEngine,
        ),
        combatants: vec![drone],
        created_at: "2026-12-07T20:00:00.000Z".into(),
    };
    let answer = |_: &Template| Ok(StoredResponse { status: 201, body: String::new(), headers: vec![] });
    store
        .create_template::<EncounterError>("guild", &template, None, || unreachable!("none kept"), answer)
        .unwrap();
    assert_eq!(store.template("guild", "tpl_dock").unwrap(), Some(template));
    let id = created_for(&store, "rivals", "enc_r");
    let key = IdempotencyKey { key: "k1".into(), fingerprint: "f1".into() };
    store.mutate::<(), EncounterError>("rivals", &id, None, Some(&key), add_goblin, version_body).unwrap();
    store.undo::<skirmish_db::UndoRefused>("rivals", &id, None, None, None, version_body).unwrap();
    let viewer =
        NewViewer { id: "vw_1", token: "vt_token", label: Some("table"), expires_in_seconds: Some(60) };
    store.create_viewer("rivals", &id, &viewer).unwrap();
    let first = store.due_deliveries(now_ms() + 1, 10, &[]).unwrap().remove(0);
    let failed = Attempt { at_ms: 1_000, status_code: Some(500), error: Some("boom".into()) };
    store.record_attempt(&first, &failed, AfterAttempt::RetryAt { at_ms: 0, counted: true }, None).unwrap();
    url
}

fn hook(id: &str, tenant: &str) -> NewWebhook {
    NewWebhook {
        id: id.into(),
        tenant: tenant.into(),
        url: "http://127.0.0.1:9/hook".into(),
        kinds: vec![],
        encounter_id: None,
        format: "standard".into(),
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".into(),
    }
}

fn snapshot(url: &str) -> Snapshot {
    Snapshot::read(&mut skirmish_db::open_connection(url).unwrap()).unwrap()
}

#[test]
fn every_table_arrives_row_for_row() {
    let Some(server) = test_server() else { return };
    let target = ScratchDatabase::create_empty(&server).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let source = filled_sqlite(&dir);
    let mut progress = Vec::new();

    let counts =
        copy_sqlite_to_postgres(&source, &target.url, false, &mut |t, n| progress.push((t.to_owned(), n)))
            .unwrap();

    let (copied, original) = (snapshot(&target.url), snapshot(&source));
    assert_eq!(copied, original);
    assert_eq!(
        original.encounters.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
        ["enc_b", "enc_a", "enc_c", "enc_r"]
    );
    assert_eq!(counts.iter().map(|(t, n)| ((*t).to_owned(), *n)).collect::<Vec<_>>(), progress);
    for (table, rows) in counts.iter().filter(|(table, _)| *table != "effects") {
        assert!(*rows > 0, "{table} should hold rows in this fixture (all but effects do)");
    }
    // Serial ids continue past the copied ones, and the copy serves as a store.
    let store = Store::open(&target.url).unwrap();
    let id = created_for(&store, "guild", "enc_new");
    let before = original.deliveries.iter().map(|d| d.n).max().unwrap();
    assert!(snapshot(&target.url).deliveries.iter().all(|d| d.n <= before || d.encounter_id == id.0));
    assert_eq!(
        store
            .list("guild", &skirmish_db::EncounterFilter::default(), skirmish_db::PageStart::Offset(0), 10)
            .unwrap()
            .total,
        4
    );
}

#[test]
fn a_non_empty_target_is_refused_unless_asked_and_left_as_it_was() {
    let Some(server) = test_server() else { return };
    let target = ScratchDatabase::create(&server).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let source = filled_sqlite(&dir);
    let store = Store::open(&target.url).unwrap();
    created_for(&store, "guild", "enc_there");
    let before = snapshot(&target.url);

    let refused = copy_sqlite_to_postgres(&source, &target.url, false, &mut |_, _| {});
    let added = copy_sqlite_to_postgres(&source, &target.url, true, &mut |_, _| {});
    let clash = copy_sqlite_to_postgres(&source, &target.url, true, &mut |_, _| {});

    assert!(matches!(refused, Err(CopyError::TargetNotEmpty(_))), "{refused:?}");
    assert!(added.is_ok(), "{added:?}");
    assert!(clash.is_err(), "the same keys again must fail the copy");
    let after = snapshot(&target.url);
    assert_eq!(after.encounters.len(), before.encounters.len() + 4);
}

#[test]
fn bad_sources_and_targets_fail_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.db").display().to_string();
    let pg = "postgres://postgres@127.0.0.1:1/none";

    let no_file = copy_sqlite_to_postgres(&missing, pg, false, &mut |_, _| {});
    let not_pg = copy_sqlite_to_postgres(&missing, "other.db", false, &mut |_, _| {});
    let not_sqlite = copy_sqlite_to_postgres(pg, pg, false, &mut |_, _| {});
    let source = filled_sqlite(&dir);
    let unreachable = copy_sqlite_to_postgres(&source, pg, false, &mut |_, _| {});

    assert!(matches!(no_file, Err(CopyError::NoSourceFile(_))), "{no_file:?}");
    assert!(!std::path::Path::new(&missing).exists(), "no file is created");
    assert!(matches!(not_pg, Err(CopyError::TargetNotPostgres(_))), "{not_pg:?}");
    assert!(matches!(not_sqlite, Err(CopyError::SourceNotSqlite(_))), "{not_sqlite:?}");
    assert!(unreachable.unwrap_err().to_string().contains("cannot connect"));
}
