//! The single writer and its group commit.
//!
//! Every change runs on one connection, each in its own savepoint inside a transaction that
//! changes share: a change that fails rolls back to its savepoint (nothing of it stays) while
//! the others in the transaction carry on. The change that finds no other writer waiting for the
//! connection — or is the [`MAX_BATCH`]th of its transaction — commits, and with
//! `synchronous = FULL` that one commit is one fsync for the whole batch. Each caller returns only
//! once the commit holding its change is on disk (or has failed, and then it reports the failure),
//! so a 2xx is never sent for a change that could still be lost.
//!
//! Nobody waits on purpose: a lone change commits at once. Batches form by themselves while a
//! commit is writing to disk, from the changes that queued up meanwhile. A caller waits at most
//! for the changes queued after it in its batch (at most `MAX_BATCH - 1`) and one commit.

use super::committed::{Changed, CommittedVersions};
use super::hot::HotEncounters;
use super::observed::Observed;
use super::statements::{BeginImmediate, Commit, ReleaseChange, SavepointChange};
use crate::connection::open_writer;
use crate::error::DbError;
use diesel::connection::SimpleConnection;
use diesel::{RunQueryDsl, SqliteConnection};
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Most changes one transaction holds before it commits, waiting writers or not.
pub const MAX_BATCH: usize = 64;

/// Where the time of one write went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteTiming {
    /// Waiting for the writer connection (behind earlier changes).
    pub queued: Duration,
    /// The change itself in its savepoint: reads, rules, writes (and rendering the response when
    /// an idempotency key keeps it; otherwise the response is rendered after the commit).
    pub work: Duration,
    /// From the end of the work until the transaction holding it was durably committed.
    pub durable: Duration,
}

thread_local! {
    static LAST_WRITE: Cell<Option<WriteTiming>> = const { Cell::new(None) };
}

/// The timing of the last write that completed on this thread (taken: a second call answers
/// `None`). Call it on the thread that wrote, right after the write returned.
pub fn take_write_timing() -> Option<WriteTiming> {
    LAST_WRITE.with(Cell::take)
}

pub(crate) struct Writer {
    line: Mutex<Line>,
    /// Transactions committed so far.
    commits: AtomicUsize,
    /// Callers waiting for the connection: while there are some, the holder leaves the
    /// transaction open for them.
    waiting: AtomicUsize,
    path: Arc<str>,
    /// Forgotten when a commit fails (see `hot.rs`).
    hot: Arc<HotEncounters>,
    /// Told of each committed transaction's changed encounters (see `committed.rs`).
    committed: Arc<CommittedVersions>,
    /// The encounters the open transaction changed, noted by its changes (touched only by the
    /// holder of `line`).
    changed: Mutex<Vec<Changed>>,
    /// Told of each write's timing and each commit's size (see `observed.rs`).
    pub(crate) observed: Observed,
}

/// The connection and the transaction open on it, if any.
struct Line {
    connection: SqliteConnection,
    open: Option<Arc<Batch>>,
    members: usize,
}

/// One transaction's outcome, awaited by every change in it.
#[derive(Default)]
struct Batch {
    outcome: Mutex<Option<Result<(), String>>>,
    settled: Condvar,
}

impl Batch {
    fn settle(&self, outcome: Result<(), String>) {
        *lock(&self.outcome) = Some(outcome);
        self.settled.notify_all();
    }

    fn wait(&self) -> Result<(), DbError> {
        let mut outcome = lock(&self.outcome);
        loop {
            match &*outcome {
                Some(Ok(())) => return Ok(()),
                Some(Err(message)) => return Err(DbError::CommitFailed(message.clone())),
                None => outcome = self.settled.wait(outcome).unwrap_or_else(PoisonError::into_inner),
            }
        }
    }
}

/// No code panics while holding these locks (work runs under `catch_unwind`), so a poisoned lock
/// still guards consistent data.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Writer {
    pub(crate) fn new(
        connection: SqliteConnection,
        path: &str,
        hot: Arc<HotEncounters>,
        committed: Arc<CommittedVersions>,
    ) -> Self {
        let line = Line { connection, open: None, members: 0 };
        Self {
            line: Mutex::new(line),
            commits: AtomicUsize::new(0),
            waiting: AtomicUsize::new(0),
            path: path.into(),
            hot,
            committed,
            changed: Mutex::default(),
            observed: Observed::default(),
        }
    }

    /// Notes, from inside a change's `work`, that it leaves encounter `id` at `version`
    /// ([`super::DELETED`] if it deleted it): recorded once the transaction is durably committed
    /// and before any of its changes is answered (dropped if the change fails).
    pub(crate) fn note_changed(&self, id: &str, version: i64) {
        lock(&self.changed).push((id.to_owned(), version));
    }

    /// Runs `work` in its own savepoint of the shared transaction and returns once that
    /// transaction is durably committed. An `Err` from `work` (or a panic, as
    /// [`DbError::Panicked`]) rolls its savepoint back; either way the result is returned only
    /// after the batch settled, and a failed commit turns it into [`DbError::CommitFailed`].
    pub(crate) fn write<T, E: From<DbError>>(
        &self,
        work: impl FnOnce(&mut SqliteConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        let queued_at = Instant::now();
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let mut line = lock(&self.line);
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        let started_at = Instant::now();
        let batch = line.join()?;
        let noted_before = lock(&self.changed).len();
        let result = line.run(work);
        let worked_at = Instant::now();
        if result.is_err() {
            lock(&self.changed).truncate(noted_before);
        }
        if line.open.is_none() {
            // The savepoint could not be undone: the transaction was abandoned and settled.
            self.forget_all();
            self.reopen_if_broken(&mut line);
        } else if line.members >= MAX_BATCH || self.waiting.load(Ordering::SeqCst) == 0 {
            self.observed.committed(line.members);
            let changed = std::mem::take(&mut *lock(&self.changed));
            let generation = self.committed.committing(&changed);
            if !line.commit(|| self.committed.committed(generation, &changed)) {
                self.forget_all();
            }
            self.commits.fetch_add(1, Ordering::SeqCst);
        }
        drop(line);
        batch.wait()?;
        let timing = WriteTiming {
            queued: started_at - queued_at,
            work: worked_at - started_at,
            durable: worked_at.elapsed(),
        };
        LAST_WRITE.with(|last| last.set(Some(timing)));
        self.observed.wrote(&timing);
        result
    }

    /// After a failed or abandoned transaction: what it changed is unknown.
    fn forget_all(&self) {
        lock(&self.changed).clear();
        self.hot.forget_all();
        self.committed.forget_all();
    }

    /// After a transaction was abandoned, a connection that no longer answers is replaced.
    fn reopen_if_broken(&self, line: &mut Line) {
        if line.connection.batch_execute("SELECT 1").is_err() {
            match open_writer(&self.path) {
                Ok(connection) => line.connection = connection,
                Err(error) => log::error!("cannot reopen the writer connection: {error}"),
            }
        }
    }
}

impl Line {
    /// The open transaction, or a new one.
    fn join(&mut self) -> Result<Arc<Batch>, DbError> {
        if let Some(batch) = &self.open {
            self.members += 1;
            return Ok(batch.clone());
        }
        BeginImmediate.execute(&mut self.connection)?;
        let batch = Arc::new(Batch::default());
        self.open = Some(batch.clone());
        self.members = 1;
        Ok(batch)
    }

    /// Runs `work` in a savepoint: released when it succeeds, rolled back when it fails or
    /// panics. If the savepoint itself cannot be released or undone, the whole transaction is
    /// abandoned (rolled back and settled as failed).
    fn run<T, E: From<DbError>>(
        &mut self,
        work: impl FnOnce(&mut SqliteConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        if let Err(error) = SavepointChange.execute(&mut self.connection) {
            self.abandon(&error);
            return Err(DbError::from(error).into());
        }
        let result = match catch_unwind(AssertUnwindSafe(|| work(&mut self.connection))) {
            Ok(result) => result,
            Err(payload) => Err(DbError::Panicked(panic_message(payload.as_ref())).into()),
        };
        let ended = if result.is_ok() {
            ReleaseChange.execute(&mut self.connection).map(drop)
        } else {
            self.connection.batch_execute("ROLLBACK TO change; RELEASE change")
        };
        if let Err(error) = ended {
            self.abandon(&error);
            return result.and(Err(DbError::from(error).into()));
        }
        result
    }

    /// Commits the open transaction, calls `on_durable` once it is committed (before any change
    /// in it is answered); false if the commit failed.
    fn commit(&mut self, on_durable: impl FnOnce()) -> bool {
        let Some(batch) = self.open.take() else { return true };
        let outcome = Commit.execute(&mut self.connection).map(drop).map_err(|error| {
            // A failed COMMIT may leave the transaction open; it must not linger.
            let _ = self.connection.batch_execute("ROLLBACK");
            error.to_string()
        });
        if let Err(message) = &outcome {
            log::error!("a commit of {} changes failed: {message}", self.members);
        }
        let committed = outcome.is_ok();
        if committed {
            on_durable();
        }
        batch.settle(outcome);
        committed
    }

    /// Rolls the open transaction back and fails every change in it.
    fn abandon(&mut self, error: &diesel::result::Error) {
        let _ = self.connection.batch_execute("ROLLBACK");
        log::error!("a transaction of {} changes was abandoned: {error}", self.members);
        if let Some(batch) = self.open.take() {
            batch.settle(Err(error.to_string()));
        }
    }
}

/// The text a panic was raised with, when it is one.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with no message".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::prelude::*;
    use std::sync::mpsc;
    use std::thread;

    fn writer(dir: &tempfile::TempDir) -> Writer {
        let path = dir.path().join("w.db").display().to_string();
        let mut connection = open_writer(&path).unwrap();
        connection.batch_execute("CREATE TABLE t (n INTEGER NOT NULL)").unwrap();
        Writer::new(connection, &path, Arc::default(), Arc::default())
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

    fn insert(conn: &mut SqliteConnection, n: i32) -> Result<i32, DbError> {
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
}
