//! The writer: the queue every change goes through, and its group commit.
//!
//! Changes are sent as jobs on a queue to the writer threads ("lanes", see `writer/lanes.rs`),
//! each owning a writer connection. A lane takes the first job, opens a transaction and runs the
//! change in its own savepoint, then runs every job already queued (up to [`MAX_BATCH`]) the same
//! way, and commits once — on SQLite, with `synchronous = FULL`, one fsync for the whole batch
//! (see `writer/batch.rs`). A change that fails rolls back to its savepoint (nothing of it stays)
//! while the others carry on. Each change is answered only once the commit holding it is on disk
//! (or has failed, and then it gets the failure), so a 2xx is never sent for a change that could
//! still be lost.
//!
//! Nobody waits on purpose: a lone change commits at once. Batches form by themselves while a
//! commit is writing to disk, from the changes that queued up meanwhile.
//!
//! SQLite has one lane (one writer). PostgreSQL has up to [`PG_WRITERS_DEFAULT`] (at most
//! [`PG_WRITERS_MAX`]), started as concurrent changes need them, each committing one change at a
//! time (in a transaction of its own, with no savepoint: see `line.rs`): changes to different
//! encounters commit at once, and each encounter's row lock keeps changes to it one after
//! another (see `encounters.rs`).
//!
//! An async caller ([`Writer::write_async`]) hands over work that a lane runs, and awaits the
//! answer holding no thread. A sync caller ([`Writer::write`]), whose work borrows from its
//! stack, queues a job that lends it a lane's connection: the lane waits while the caller runs
//! its savepoint on its own thread, then carries on with the batch.

mod batch;
mod lanes;

use super::checkpoint::Checkpoints;
use super::committed::{Changed, CommittedVersions};
use super::hot::HotEncounters;
use super::jobs::{Job, Lent, OnThread};
use super::line::Line;
use super::observed::Observed;
use crate::backend::Backend;
use crate::backend::DbConnection;
use crate::error::DbError;
use lanes::{Lanes, Queued};
use std::future::Future;
use std::ops::Deref;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// Most changes one transaction holds before it commits, queued changes or not (on SQLite; on
/// PostgreSQL each change commits alone: a transaction holding several encounters' row locks
/// could deadlock with another replica's, and PostgreSQL groups concurrent commits' WAL
/// flushes itself).
pub const MAX_BATCH: usize = 64;

/// Writer connections (lanes) a store opens on PostgreSQL at most, unless told otherwise
/// (`--pg-writers`): changes to that many encounters commit at once.
pub const PG_WRITERS_DEFAULT: usize = 4;
/// The most writer connections a store may be told to open on PostgreSQL.
pub const PG_WRITERS_MAX: usize = 32;

/// Where the time of one write went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteTiming {
    /// Waiting for a writer connection (behind earlier changes).
    pub queued: Duration,
    /// The change itself in its savepoint: reads, rules, writes (and rendering the response when
    /// an idempotency key keeps it; otherwise the response is rendered after the commit).
    pub work: Duration,
    /// From the end of the work until the transaction holding it was durably committed.
    pub durable: Duration,
}

/// What a change answered, with where its time went (`None` when it never reached the writer).
#[derive(Debug)]
pub struct Written<T> {
    pub result: T,
    pub timing: Option<WriteTiming>,
}

/// The handle every store clone shares. Dropping the last one stops the lanes (after the changes
/// already queued) and waits for them, so the connections are closed when the store is gone.
pub(crate) struct Writer {
    shared: Arc<Shared>,
}

/// What the lanes and the callers that borrow their connections share.
pub(crate) struct Shared {
    lanes: Lanes,
    /// Transactions committed so far.
    pub(crate) commits: AtomicUsize,
    /// Changes queued and not yet taken by a lane.
    pub(crate) waiting: AtomicUsize,
    url: String,
    /// Forgotten when a commit fails (see `hot.rs`).
    hot: Arc<HotEncounters>,
    /// Told of each committed transaction's changed encounters (see `committed.rs`).
    committed: Arc<CommittedVersions>,
    /// Whether changes note the encounters they change: on SQLite only, whose one lane runs one
    /// transaction at a time (PostgreSQL never trusts that record: see `Store::settled_version`).
    notes: bool,
    /// The encounters the open transaction changed, noted by its changes (touched only by
    /// whoever runs the current change).
    changed: Mutex<Vec<Changed>>,
    /// Told of each write's timing and each commit's size (see `observed.rs`).
    pub(crate) observed: Observed,
    /// The WAL checkpoints, off the writer's thread (see `checkpoint.rs`); told of each commit.
    /// SQLite only.
    pub(crate) checkpoints: Mutex<Option<Checkpoints>>,
    /// Most changes per transaction (see [`MAX_BATCH`]).
    max_batch: usize,
}

/// No code panics while holding these locks (work runs under `catch_unwind`), so a poisoned lock
/// still guards consistent data.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The error of a change that the writer can no longer take.
fn stopped() -> DbError {
    DbError::WriterStopped("the writer thread has stopped".into())
}

impl Writer {
    /// Starts the first lane on `connection`; on PostgreSQL up to `pg_writers` lanes in all
    /// (clamped to 1..=[`PG_WRITERS_MAX`]), on SQLite always one.
    pub(crate) fn new(
        connection: DbConnection,
        url: &str,
        pg_writers: usize,
        hot: Arc<HotEncounters>,
        committed: Arc<CommittedVersions>,
    ) -> Result<Self, DbError> {
        let backend = connection.backend();
        let (checkpoints, max_batch, lanes) = match backend {
            Backend::Sqlite => {
                (Some(Checkpoints::start(crate::connection::database_path(url))?), MAX_BATCH, 1)
            }
            Backend::Postgres => (None, 1, pg_writers.clamp(1, PG_WRITERS_MAX)),
        };
        let shared = Arc::new(Shared {
            lanes: Lanes::new(lanes),
            commits: AtomicUsize::new(0),
            waiting: AtomicUsize::new(0),
            url: url.to_owned(),
            hot,
            committed,
            notes: backend == Backend::Sqlite,
            changed: Mutex::default(),
            observed: Observed::default(),
            checkpoints: Mutex::new(checkpoints),
            max_batch,
        });
        Lanes::start_first(&shared, Line::new(connection))
            .map_err(|error| DbError::WriterStopped(format!("cannot start the writer thread: {error}")))?;
        Ok(Self { shared })
    }

    /// Runs `work` on a lane in its own savepoint of a transaction it may share, and answers
    /// once that transaction is durably committed: `work`'s result, or
    /// [`DbError::CommitFailed`] if the commit failed. An `Err` from `work` (or a panic, as
    /// [`DbError::Panicked`]) rolls its savepoint back. `then` maps the result on the lane once
    /// it settled (before it is answered, and even if nobody awaits it any more).
    pub(crate) fn write_async<W, H, T, E, U>(
        &self,
        work: W,
        then: H,
    ) -> impl Future<Output = Written<Result<U, DbError>>> + use<W, H, T, E, U>
    where
        W: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        H: FnOnce(Result<T, E>) -> U + Send + 'static,
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
        U: Send + 'static,
    {
        let (answer, answered) = oneshot::channel();
        self.submit(Box::new(OnThread { work: Some(work), result: None, then, answer }));
        async move {
            match answered.await {
                Ok(Written { result, timing }) => Written { result: Ok(result), timing },
                // The job was dropped unanswered: the writer is gone.
                Err(_) => Written { result: Err(stopped()), timing: None },
            }
        }
    }

    /// Runs `work` on this thread, on a lane's connection, in its own savepoint of a
    /// transaction it may share, and returns once that transaction is durably committed; as
    /// [`Writer::write_async`] otherwise. Blocks this thread meanwhile.
    pub(crate) fn write<T, E: From<DbError>>(
        &self,
        work: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        let (go, turn) = mpsc::sync_channel(1);
        let (finished, done) = mpsc::sync_channel(1);
        let (settled, outcome) = mpsc::sync_channel(1);
        self.submit(Box::new(Lent { go, done, settled }));
        let result = turn.recv().ok().map(|line| {
            let result = lock(&line).run(work);
            let _ = finished.send(result.is_ok());
            result
        });
        outcome.recv().unwrap_or_else(|_| Err(stopped()))?;
        result.unwrap_or_else(|| Err(stopped().into()))
    }

    /// Queues `job` for a lane; if the writer is closed, the job is dropped unanswered (and its
    /// caller gets [`DbError::WriterStopped`]).
    fn submit(&self, job: Box<dyn Job>) {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        if !Lanes::submit(&self.shared, Queued { at: Instant::now(), job }) {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

impl Deref for Writer {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.shared
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.shared.lanes.close();
    }
}

impl Shared {
    /// Notes, from inside a change's `work`, that it leaves encounter `id` at `version`
    /// ([`super::DELETED`] if it deleted it): recorded once the transaction is durably committed
    /// and before any of its changes is answered (dropped if the change fails). SQLite only.
    pub(crate) fn note_changed(&self, id: &str, version: i64) {
        if self.notes {
            lock(&self.changed).push((id.to_owned(), version));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connection::open_writer;
    use diesel::connection::SimpleConnection;
    use diesel::prelude::*;
    use std::sync::mpsc;
    use std::thread;

    fn writer(dir: &tempfile::TempDir) -> Writer {
        let path = dir.path().join("w.db").display().to_string();
        let mut connection = open_writer(&path).unwrap();
        connection.batch_execute("CREATE TABLE t (n INTEGER NOT NULL)").unwrap();
        Writer::new(connection, &path, 1, Arc::default(), Arc::default()).unwrap()
    }

    /// Remembers what the writer told its observer.
    #[derive(Default)]
    struct Recorder {
        wrote: Mutex<Vec<WriteTiming>>,
        commits: Mutex<Vec<usize>>,
    }

    impl super::super::WriteObserver for Recorder {
        fn wrote(&self, timing: &WriteTiming) {
            lock(&self.wrote).push(*timing);
        }
        fn committed(&self, changes: usize) {
            lock(&self.commits).push(changes);
        }
    }

    fn insert(conn: &mut DbConnection, n: i32) -> Result<i32, DbError> {
        diesel::sql_query(format!("INSERT INTO t VALUES ({n})")).execute(conn)?;
        Ok(n)
    }

    fn stored(writer: &Writer) -> Vec<i32> {
        #[derive(QueryableByName)]
        struct Row {
            #[diesel(sql_type = diesel::sql_types::Integer)]
            n: i32,
        }
        let rows: Vec<Row> = writer
            .write(|c| Ok::<_, DbError>(diesel::sql_query("SELECT n FROM t ORDER BY n").load(c)?))
            .unwrap();
        rows.into_iter().map(|r| r.n).collect()
    }

    #[test]
    fn writers_queued_behind_one_share_its_commit_and_a_refused_one_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let writer = writer(&dir);
        let recorder = Arc::new(Recorder::default());
        assert!(writer.observed.set(recorder.clone()));
        let (holding, held) = mpsc::channel();
        let results = thread::scope(|scope| {
            let first = scope.spawn(|| {
                writer.write(|conn| {
                    holding.send(()).unwrap();
                    // Keeps the connection until both others queue for it.
                    while writer.waiting.load(Ordering::SeqCst) < 2 {
                        thread::yield_now();
                    }
                    insert(conn, 1)
                })
            });
            held.recv().unwrap();
            let refused = scope.spawn(|| {
                writer.write(|conn| {
                    insert(conn, 2)?;
                    Err::<i32, _>(DbError::Corrupt("refused after writing".into()))
                })
            });
            let third = scope.spawn(|| writer.write(|conn| insert(conn, 3)));
            [first.join().unwrap(), refused.join().unwrap(), third.join().unwrap()]
        });

        let commits = writer.commits.load(Ordering::SeqCst);
        assert_eq!(results.iter().map(Result::is_ok).collect::<Vec<_>>(), [true, false, true]);
        assert_eq!(commits, 1, "three changes, one commit");
        assert_eq!(stored(&writer), [1, 3], "the refused change's row is gone, its neighbours stay");
        assert_eq!(*lock(&recorder.commits), [3, 1], "the observer heard the shared commit, then the read's");
        assert_eq!(lock(&recorder.wrote).len(), 4, "and each change's timing, the refused one's too");
    }

    #[test]
    fn a_lone_writer_commits_at_once_and_a_panic_rolls_back_only_itself() {
        let dir = tempfile::tempdir().unwrap();
        let writer = writer(&dir);

        let first = writer.write(|conn| insert(conn, 1));
        let panicked = writer.write(|conn| -> Result<i32, DbError> {
            insert(conn, 2)?;
            panic!("attempt to add with overflow")
        });
        let later = writer.write(|conn| insert(conn, 3));

        assert_eq!(first.unwrap(), 1);
        assert!(matches!(panicked, Err(DbError::Panicked(ref m)) if m.contains("overflow")), "{panicked:?}");
        assert_eq!(later.unwrap(), 3);
        assert_eq!(writer.commits.load(Ordering::SeqCst), 3, "nobody waited, so each committed alone");
        assert_eq!(stored(&writer), [1, 3]);
    }

    /// A change that says on `tell` it runs, then waits, holding its transaction, to hear that
    /// another one runs too (bounded by 30 s, so that a writer with one lane fails, not hangs).
    fn meets(writer: &Writer, tell: &mpsc::Sender<()>, hear: mpsc::Receiver<()>) -> bool {
        writer
            .write(|conn| {
                insert(conn, 1)?;
                tell.send(()).unwrap();
                Ok::<_, DbError>(hear.recv_timeout(Duration::from_secs(30)).is_ok())
            })
            .unwrap()
    }

    #[test]
    fn on_postgres_changes_run_on_several_lanes_at_once_up_to_the_bound_and_a_quiet_writer_keeps_one() {
        let Some(server) = crate::test_server() else { return };
        let db = crate::ScratchDatabase::create(&server).unwrap();
        let mut connection = open_writer(&db.url).unwrap();
        connection.batch_execute("CREATE TABLE t (n INTEGER NOT NULL)").unwrap();
        let writer = Writer::new(connection, &db.url, 2, Arc::default(), Arc::default()).unwrap();
        for n in 0..20 {
            writer.write(|conn| insert(conn, n)).unwrap();
        }
        let quiet_lanes = writer.lanes.started();

        let ((tell_a, hear_a), (tell_b, hear_b)) = (mpsc::channel(), mpsc::channel());
        let writer = &writer;
        let (met, burst) = thread::scope(|scope| {
            // Two changes that each wait, holding their transaction, until the other one runs.
            let first = scope.spawn(move || meets(writer, &tell_a, hear_b));
            let second = scope.spawn(move || meets(writer, &tell_b, hear_a));
            let met = [first.join().unwrap(), second.join().unwrap()];
            let burst: Vec<_> =
                (0..8).map(|n| scope.spawn(move || writer.write(|conn| insert(conn, n)))).collect();
            (met, burst.into_iter().map(|w| w.join().unwrap().is_ok()).collect::<Vec<_>>())
        });

        assert_eq!(quiet_lanes, 1, "one change at a time needs one connection");
        assert_eq!(met, [true, true], "two changes ran at once, each on its own connection");
        assert_eq!(burst, [true; 8]);
        assert_eq!(writer.lanes.started(), 2, "never more lanes than the bound");
        assert_eq!(writer.commits.load(Ordering::SeqCst), 30, "each change committed alone");
    }
}
