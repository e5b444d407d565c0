#![expect(clippy::unwrap_used, reason = "a failed step should fail the test loudly")]
//! Changes awaited by async callers, run on the store's writer thread: a batch shares one commit,
//! and a change refused or panicking in it leaves the others stored.

mod common;
use common::{add_goblin, created_for, version_body};
use skirmish_db::{DbError, MutateError, Store, WriteObserver, WriteTiming};
use skirmish_domain::encounter::{Encounter, EncounterError, EncounterId, Event};
use std::sync::{Arc, Mutex, mpsc};

const TENANT: &str = "guild";
const CHANGES: usize = 24;
const REFUSED: usize = 5;
const PANICKING: usize = 9;

/// Remembers the size of each commit and how many changes were timed.
#[derive(Default)]
struct Commits {
    sizes: Mutex<Vec<usize>>,
    timed: Mutex<usize>,
}

impl WriteObserver for Commits {
    fn wrote(&self, _timing: &WriteTiming) {
        *self.timed.lock().unwrap() += 1;
    }
    fn committed(&self, changes: usize) {
        self.sizes.lock().unwrap().push(changes);
    }
}

type Command = Box<dyn FnOnce(&mut Encounter) -> Result<(Vec<Event>, ()), EncounterError> + Send>;

/// The command of change `n`: the refused one and the panicking one write first, then fail.
fn command(n: usize) -> Command {
    match n {
        REFUSED => Box::new(|encounter| {
            add_goblin(encounter)?;
            Err(EncounterError::Conflict("refused".into()))
        }),
        PANICKING => Box::new(|encounter| {
            add_goblin(encounter)?;
            panic!("attempt to add with overflow")
        }),
        _ => Box::new(add_goblin),
    }
}

#[tokio::test]
async fn changes_queued_while_one_runs_share_its_commit_and_a_failing_one_leaves_only_itself_out() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("w.db").to_str().unwrap()).unwrap();
    let ids: Vec<EncounterId> = (0..CHANGES).map(|n| created_for(&store, TENANT, &format!("e{n}"))).collect();
    let commits = Arc::new(Commits::default());
    assert!(store.observe_writes(commits.clone()));

    // The first change holds the writer thread until every other change is queued behind it.
    let (release, released) = mpsc::channel::<()>();
    let held = move |encounter: &mut Encounter| {
        released.recv().unwrap();
        add_goblin(encounter)
    };
    let first = store.mutate_async(TENANT.into(), ids[0].clone(), None, None, held, version_body);
    let others: Vec<_> = (1..CHANGES)
        .map(|n| store.mutate_async(TENANT.into(), ids[n].clone(), Some(1), None, command(n), version_body))
        .collect();
    release.send(()).unwrap();
    let mut results = vec![first.await];
    for other in others {
        results.push(other.await);
    }

    for (n, written) in results.iter().enumerate() {
        let timing = written.timing.unwrap();
        assert!(timing.durable > std::time::Duration::ZERO, "change {n} waited for its commit");
        match (n, &written.result) {
            (REFUSED, Err(MutateError::Domain(EncounterError::Conflict(why)))) => assert_eq!(why, "refused"),
            (PANICKING, Err(MutateError::Db(DbError::Panicked(why)))) => assert!(why.contains("overflow")),
            (REFUSED | PANICKING, other) => panic!("change {n} should have failed: {other:?}"),
            (_, Ok(reply)) => assert_eq!((reply.response.body.as_str(), reply.replayed), ("2", false)),
            (_, Err(error)) => panic!("change {n} failed: {error}"),
        }
    }
    assert_eq!(*commits.sizes.lock().unwrap(), [CHANGES], "one commit for the whole batch");
    assert_eq!(*commits.timed.lock().unwrap(), CHANGES);
    for (n, id) in ids.iter().enumerate() {
        let stored = store.get(TENANT, id).unwrap().unwrap().encounter;
        let expected = if n == REFUSED || n == PANICKING { (1, 0) } else { (2, 1) };
        assert_eq!((stored.version, stored.combatants.len()), expected, "encounter {n}");
    }
}

#[tokio::test]
async fn a_change_awaited_alone_commits_at_once_and_sync_and_async_changes_mix() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("w.db").to_str().unwrap()).unwrap();
    let id = created_for(&store, TENANT, "e1");
    let commits = Arc::new(Commits::default());
    assert!(store.observe_writes(commits.clone()));

    let async_reply =
        store.mutate_async(TENANT.into(), id.clone(), Some(1), None, add_goblin, version_body).await;
    let sync_reply = store.mutate(TENANT, &id, Some(2), None, add_goblin, version_body).unwrap();
    let stale = store.mutate_async(TENANT.into(), id.clone(), Some(2), None, add_goblin, version_body).await;

    assert_eq!(async_reply.result.unwrap().response.body, "2");
    assert_eq!(sync_reply.response.body, "3");
    assert!(matches!(stale.result, Err(MutateError::VersionMismatch { expected: 2, current: 3 })));
    assert_eq!(*commits.sizes.lock().unwrap(), [1, 1, 1], "nobody queued behind any of them");
}

#[test]
fn dropping_the_last_store_stops_its_writer_so_the_file_can_be_taken_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.db").display().to_string();
    for round in 0..20 {
        let store = Store::open_exclusive(&path).unwrap();
        let clone = store.clone();
        created_for(&clone, TENANT, &format!("e{round}"));
        drop((store, clone));
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(
        store
            .list(TENANT, &skirmish_db::EncounterFilter::default(), skirmish_db::PageStart::Offset(0), 100)
            .unwrap()
            .total,
        20
    );
}
