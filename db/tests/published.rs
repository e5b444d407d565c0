#![expect(clippy::unwrap_used, reason = "a failed step should fail the test loudly")]
//! The store tells its event sink of committed changes only, after the commit.

mod common;
use common::{add_goblin, created_for, version_body};
use skirmish_db::{EventSink, IdempotencyKey, Mutation, Store, StoredEvent, StoredResponse};
use skirmish_domain::encounter::{Encounter, EncounterError, EncounterId, Event};
use std::sync::{Arc, Mutex};

const TENANT: &str = "guild";

/// What the sink heard: (encounter, seqs, how many of them a reader could already see).
type Heard = Vec<(String, Vec<i64>, usize)>;

/// Records what it is told, and checks that each told event is already readable on another
/// connection (so it was committed before it was told).
struct Recorder {
    store: Mutex<Option<Store>>,
    heard: Mutex<Heard>,
    deleted: Mutex<Vec<String>>,
    listening: bool,
}

impl EventSink for Recorder {
    fn listens(&self, _: &str) -> bool {
        self.listening
    }

    fn committed(&self, encounter: &str, events: &[StoredEvent]) {
        let store = self.store.lock().unwrap().clone().unwrap();
        let after = events[0].seq - 1;
        let visible = store.events(TENANT, &EncounterId(encounter.into()), after, 100).unwrap().unwrap();
        let seqs = events.iter().map(|event| event.seq).collect();
        self.heard.lock().unwrap().push((encounter.to_owned(), seqs, visible.len()));
    }

    fn deleted(&self, encounter: &str) {
        self.deleted.lock().unwrap().push(encounter.to_owned());
    }
}

fn recorded(dir: &tempfile::TempDir, listening: bool) -> (Store, Arc<Recorder>) {
    let store = Store::open(dir.path().join("test.db").to_str().unwrap()).unwrap();
    let recorder = Arc::new(Recorder {
        store: Mutex::new(Some(store.clone())),
        heard: Mutex::default(),
        deleted: Mutex::default(),
        listening,
    });
    assert!(store.publish_to(recorder.clone()));
    assert!(!store.publish_to(recorder.clone()), "one sink per store");
    (store, recorder)
}

fn created(store: &Store) -> EncounterId {
    created_for(store, TENANT, "e1")
}

#[test]
fn committed_changes_are_told_once_after_their_commit_and_refused_ones_never() {
    let dir = tempfile::tempdir().unwrap();
    let (store, recorder) = recorded(&dir, true);
    let id = created(&store);
    let key = IdempotencyKey { key: "k1".into(), fingerprint: "f1".into() };

    store.mutate(TENANT, &id, None, Some(&key), add_goblin, version_body).unwrap();
    let replayed = store.mutate(TENANT, &id, None, Some(&key), add_goblin, version_body).unwrap();
    let refused = |_: &mut Encounter| Err::<(Vec<Event>, ()), _>(EncounterError::Conflict("no".into()));
    assert!(store.mutate(TENANT, &id, None, None, refused, version_body).is_err());
    let failing =
        |_: Mutation<()>| Err::<StoredResponse, _>(EncounterError::Conflict("cannot render".into()));
    // A response that a key keeps is rendered in the savepoint; its failure rolls the change back.
    let kept = IdempotencyKey { key: "k2".into(), fingerprint: "f2".into() };
    assert!(store.mutate(TENANT, &id, None, Some(&kept), add_goblin, failing).is_err());
    assert!(store.mutate(TENANT, &id, Some(1), None, add_goblin, version_body).is_err(), "stale version");
    store.mutate(TENANT, &id, None, None, add_goblin, version_body).unwrap();
    assert!(store.delete(TENANT, &id).unwrap());

    assert!(replayed.replayed);
    let heard = recorder.heard.lock().unwrap().clone();
    let e1 = || "e1".to_owned();
    // Each told event was already readable elsewhere: created (1), the first goblin (2) and the
    // last (3: the refused changes in between took no number).
    assert_eq!(heard, [(e1(), vec![1], 1), (e1(), vec![2], 1), (e1(), vec![3], 1)]);
    assert_eq!(*recorder.deleted.lock().unwrap(), [e1()]);
}

#[test]
fn nothing_is_told_of_an_encounter_nobody_listens_to() {
    let dir = tempfile::tempdir().unwrap();
    let (store, recorder) = recorded(&dir, false);
    let id = created(&store);

    store.mutate(TENANT, &id, None, None, add_goblin, version_body).unwrap();

    assert!(recorder.heard.lock().unwrap().is_empty());
}
