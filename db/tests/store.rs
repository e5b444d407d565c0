#![expect(clippy::unwrap_used, reason = "a failed step should fail the test loudly")]
//! Repository behaviour against a real SQLite file.

mod common;
use common::{add_goblin, created_for, version_body};
use skirmish_db::{EncounterFilter, IdempotencyKey, MutateError, Mutation, PageStart, Store, StoredResponse};
use skirmish_domain::encounter::{Encounter, EncounterError, EncounterId, Event};

const TENANT: &str = "guild";

fn new_store(dir: &tempfile::TempDir) -> Store {
    Store::open(dir.path().join("test.db").to_str().unwrap()).unwrap()
}

fn created(store: &Store, tenant: &str, id: &str) -> EncounterId {
    created_for(store, tenant, id)
}

fn key(key: &str, fingerprint: &str) -> IdempotencyKey {
    IdempotencyKey { key: key.into(), fingerprint: fingerprint.into() }
}

#[test]
fn a_mutation_bumps_the_version_and_appends_numbered_events() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(&dir);
    let id = created(&store, TENANT, "e1");
    let reply = store.mutate(TENANT, &id, Some(1), None, add_goblin, version_body).unwrap();
    assert_eq!((reply.response.body.as_str(), reply.replayed), ("2", false));
    let log = store.events(TENANT, &id, 0, 100).unwrap().unwrap();
    assert_eq!(
        log.iter().map(|e| (e.seq, e.kind.as_str())).collect::<Vec<_>>(),
        [(1, "encounter_created"), (2, "combatant_added")]
    );
}

#[test]
fn a_stale_version_or_a_refused_command_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(&dir);
    let id = created(&store, TENANT, "e1");
    let stale = store.mutate(TENANT, &id, Some(7), None, add_goblin, version_body).unwrap_err();
    assert!(matches!(stale, MutateError::VersionMismatch { expected: 7, current: 1 }));
    let refuse = |_: &mut Encounter| Err::<(Vec<Event>, ()), _>(EncounterError::Conflict("no".into()));
    assert!(matches!(
        store.mutate(TENANT, &id, None, None, refuse, version_body),
        Err(MutateError::Domain(_))
    ));
    let stored = store.get(TENANT, &id).unwrap().unwrap();
    assert_eq!((stored.encounter.version, stored.encounter.combatants.len()), (1, 0));
    assert_eq!(store.events(TENANT, &id, 0, 100).unwrap().unwrap().len(), 1);
}

#[test]
fn a_failed_render_of_a_kept_response_rolls_the_change_back() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(&dir);
    let id = created(&store, TENANT, "e1");
    let failing =
        |_: Mutation<()>| Err::<StoredResponse, _>(EncounterError::Conflict("cannot render".into()));
    assert!(store.mutate(TENANT, &id, None, Some(&key("k1", "f")), add_goblin, failing).is_err());
    let stored = store.get(TENANT, &id).unwrap().unwrap();
    assert_eq!((stored.encounter.version, stored.encounter.combatants.len()), (1, 0));
}

#[test]
fn without_a_key_the_response_is_rendered_after_the_commit() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(&dir);
    let id = created(&store, TENANT, "e1");
    let failing =
        |_: Mutation<()>| Err::<StoredResponse, _>(EncounterError::Conflict("cannot render".into()));
    let refused = store.mutate(TENANT, &id, None, None, add_goblin, failing).unwrap_err();
    assert!(matches!(refused, MutateError::Domain(EncounterError::Conflict(_))), "{refused:?}");
    let stored = store.get(TENANT, &id).unwrap().unwrap();
    assert_eq!(
        (stored.encounter.version, stored.encounter.combatants.len()),
        (2, 1),
        "nothing in the transaction needed the response, so the change was already committed"
    );
}

/// Everything a change hands its renderer but the clock, as one body.
fn whole_body<E>(mutation: Mutation<()>) -> Result<StoredResponse, E> {
    let events: Vec<_> =
        mutation.events.iter().map(|e| (e.seq, e.kind.clone(), e.data.to_string())).collect();
    let body =
        format!("{:?} {events:?} {}", mutation.encounter.encounter, mutation.encounter.created_at.len());
    Ok(StoredResponse { status: 200, body, headers: vec![("ETag".into(), "\"2\"".into())] })
}

#[test]
fn a_keyed_and_an_unkeyed_identical_change_answer_byte_identical_bodies() {
    let (keyed_dir, unkeyed_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (keyed_store, unkeyed_store) = (new_store(&keyed_dir), new_store(&unkeyed_dir));
    let keyed_id = created(&keyed_store, TENANT, "e1");
    let unkeyed_id = created(&unkeyed_store, TENANT, "e1");
    let k = key("k1", "f");

    let keyed = keyed_store.mutate(TENANT, &keyed_id, None, Some(&k), add_goblin, whole_body).unwrap();
    let unkeyed = unkeyed_store.mutate(TENANT, &unkeyed_id, None, None, add_goblin, whole_body).unwrap();
    let replayed = keyed_store.mutate(TENANT, &keyed_id, None, Some(&k), add_goblin, whole_body).unwrap();

    assert!(keyed.response.body.contains("Goblin"), "{}", keyed.response.body);
    assert_eq!(keyed.response, unkeyed.response, "rendered in the savepoint or after the commit alike");
    assert_eq!((replayed.response, replayed.replayed), (unkeyed.response, true));
}

#[test]
fn state_survives_reopening_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let id = {
        let store = new_store(&dir);
        let id = created(&store, TENANT, "e1");
        store.mutate(TENANT, &id, None, None, add_goblin, version_body).unwrap();
        id
    };
    let reopened = new_store(&dir);
    assert_eq!(reopened.get(TENANT, &id).unwrap().unwrap().encounter.combatants[0].name, "Goblin");
    assert_eq!(reopened.events(TENANT, &id, 1, 100).unwrap().unwrap().len(), 1);
    assert_eq!(reopened.integrity_check().unwrap(), "ok");
}

#[test]
fn delete_removes_the_encounter_and_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(&dir);
    let id = created(&store, TENANT, "e1");
    created(&store, TENANT, "e2");
    assert!(store.delete(TENANT, &id).unwrap());
    assert!(!store.delete(TENANT, &id).unwrap());
    assert_eq!(store.events(TENANT, &id, 0, 10).unwrap(), None);
    let page = store.list(TENANT, &EncounterFilter::default(), PageStart::Offset(0), 10).unwrap();
    assert_eq!((page.total, page.encounters[0].encounter.id.as_str()), (1, "e2"));
}

#[test]
fn another_tenant_cannot_see_change_or_delete_an_encounter() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(&dir);
    let id = created(&store, TENANT, "e1");
    assert_eq!(store.get("rival", &id).unwrap(), None);
    assert_eq!(store.list("rival", &EncounterFilter::default(), PageStart::Offset(0), 10).unwrap().total, 0);
    assert_eq!(store.events("rival", &id, 0, 10).unwrap(), None);
    assert!(matches!(
        store.mutate("rival", &id, None, None, add_goblin, version_body),
        Err(MutateError::NotFound)
    ));
    assert!(!store.delete("rival", &id).unwrap());
    assert_eq!(store.get(TENANT, &id).unwrap().unwrap().encounter.version, 1);
}

#[test]
fn a_repeated_idempotency_key_replays_without_applying_again() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(&dir);
    let id = created(&store, TENANT, "e1");
    let first = store.mutate(TENANT, &id, None, Some(&key("k1", "f")), add_goblin, version_body).unwrap();
    let again = store.mutate(TENANT, &id, None, Some(&key("k1", "f")), add_goblin, version_body).unwrap();
    assert_eq!((again.response, again.replayed), (first.response, true));
    assert_eq!(store.get(TENANT, &id).unwrap().unwrap().encounter.combatants.len(), 1, "applied once");
    let other = store.mutate(TENANT, &id, None, Some(&key("k1", "g")), add_goblin, version_body).unwrap_err();
    assert!(matches!(other, MutateError::IdempotencyMismatch));
    let rival_id = created(&store, "rival", "e2");
    let rivals =
        store.mutate("rival", &rival_id, None, Some(&key("k1", "f")), add_goblin, version_body).unwrap();
    assert!(!rivals.replayed, "keys are per tenant");
}

#[test]
fn keys_are_stored_hashed_and_can_be_revoked() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(&dir);
    assert!(!store.has_keys().unwrap());
    store.create_key("key_1", TENANT, "sk_secret").unwrap();
    assert!(store.has_keys().unwrap());
    assert_eq!(store.key_owner("sk_secret").unwrap().map(|o| o.tenant), Some(TENANT.to_string()));
    assert_eq!(store.key_owner("sk_other").unwrap(), None);
    assert!(store.revoke_key("key_1").unwrap());
    assert!(!store.revoke_key("key_1").unwrap());
    assert_eq!(store.key_owner("sk_secret").unwrap(), None);
    assert!(store.has_keys().unwrap(), "a revoked key still closes open mode");
    assert_eq!(store.list_keys().unwrap()[0].tenant, TENANT);
}

#[test]
fn readers_racing_a_writer_always_see_one_version_of_an_encounter() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(&dir);
    let id = created(&store, TENANT, "e1");
    let writes = 60;
    let seen = std::thread::scope(|scope| {
        let writer = scope.spawn(|| {
            for _ in 0..writes {
                store
                    .mutate(TENANT, &id, None, None, add_goblin, version_body::<(), EncounterError>)
                    .unwrap();
            }
        });
        let readers: Vec<_> = (0..3)
            .map(|_| {
                scope.spawn(|| {
                    let mut seen = Vec::new();
                    while seen.last().is_none_or(|&(version, _)| version < 1 + writes) {
                        let stored = store.get(TENANT, &id).unwrap().unwrap().encounter;
                        seen.push((stored.version, stored.combatants.len() as i64));
                    }
                    seen
                })
            })
            .collect();
        writer.join().unwrap();
        readers.into_iter().flat_map(|r| r.join().unwrap()).collect::<Vec<_>>()
    });

    let torn: Vec<_> = seen.iter().filter(|(version, goblins)| *goblins != version - 1).collect();
    assert!(torn.is_empty(), "version n holds n - 1 goblins in every read: {torn:?}");
    assert!(seen.len() >= 3, "each reader read at least once");
}

#[test]
fn a_change_made_through_another_handle_is_never_missed_by_the_writers_hot_copy() {
    let dir = tempfile::tempdir().unwrap();
    let (store, elsewhere) = (new_store(&dir), new_store(&dir));
    let id = created(&store, TENANT, "e1");
    store.mutate(TENANT, &id, None, None, add_goblin, version_body).unwrap();

    let other = elsewhere.mutate(TENANT, &id, None, None, add_goblin, version_body).unwrap();
    let next = store.mutate(TENANT, &id, None, None, add_goblin, version_body).unwrap();
    let refuse = |_: &mut Encounter| -> Result<(Vec<Event>, ()), EncounterError> {
        Err(EncounterError::Conflict("refused".into()))
    };
    let refused = store.mutate(TENANT, &id, Some(4), None, refuse, version_body);
    let after_refusal = store.mutate(TENANT, &id, None, None, add_goblin, version_body).unwrap();

    let names = |store: &Store| store.get(TENANT, &id).unwrap().unwrap().encounter.combatants.len();
    assert_eq!((other.response.body.as_str(), next.response.body.as_str()), ("3", "4"));
    assert!(matches!(refused, Err(MutateError::Domain(EncounterError::Conflict(_)))), "{refused:?}");
    assert_eq!(after_refusal.response.body, "5");
    assert_eq!((names(&store), names(&elsewhere)), (4, 4), "all four goblins, whichever handle added them");
}
