//! The single writer thread and its group commit.
//!
//! One thread owns the writer connection. Changes are sent to it as jobs on a queue: it takes
//! the first, opens a transaction and runs the change in its own savepoint, then runs every job
//! already queued (up to [`MAX_BATCH`]) the same way, and commits once — with
//! `synchronous = FULL`, one fsync for the whole batch. A change that fails rolls back to its
//! savepoint (nothing of it stays) while the others carry on. Each change is answered only once
//! the commit holding it is on disk (or has failed, and then it gets the failure), so a 2xx is
//! never sent for a change that could still be lost.
//!
//! Nobody waits on purpose: a lone change commits at once. Batches form by themselves while a
//! commit is writing to disk, from the changes that queued up meanwhile.
//!
//! An async caller ([`Writer::write_async`]) hands over work that the writer thread runs, and
//! awaits the answer holding no thread. A sync caller ([`Writer::write`]), whose work borrows
//! from its stack, queues a job that lends it the connection: the writer thread waits while the
//! caller runs its savepoint on its own thread, then carries on with the batch.

use super::checkpoint::Checkpoints;
use super::committed::{Changed, CommittedVersions};
use super::hot::HotEncounters;
use super::jobs::{Job, Lent, OnThread};
use super::line::Line;
use super::observed::Observed;
use crate::backend::Backend;
use crate::backend::DbConnection;
use crate::connection::open_writer;
use crate::error::DbError;
use diesel::connection::SimpleConnection;
use std::future::Future;
use std::ops::Deref;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// Most changes one transaction holds before it commits, queued changes or not (on SQLite; on
/// PostgreSQL each change commits alone: a transaction holding several encounters' row locks
/// could deadlock with another replica's, and PostgreSQL groups concurrent commits' WAL
/// flushes itself).
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

/// What a change answered, with where its time went (`None` when it never reached the writer).
#[derive(Debug)]
pub struct Written<T> {
    pub result: T,
    pub timing: Option<WriteTiming>,
}

/// The handle every store clone shares: the queue to the writer thread. Dropping the last one
/// stops the thread (after the changes already queued) and waits for it, so the connection is
/// closed when the store is gone.
pub(crate) struct Writer {
    queue: Option<Sender<Queued>>,
    thread: Option<JoinHandle<()>>,
    shared: Arc<Shared>,
}

/// What the writer thread and the callers that borrow its connection share.
pub(crate) struct Shared {
    line: Mutex<Line>,
    /// Transactions committed so far.
    pub(crate) commits: AtomicUsize,
    /// Changes queued and not yet taken by the writer thread.
    pub(crate) waiting: AtomicUsize,
    url: String,
    /// Forgotten when a commit fails (see `hot.rs`).
    hot: Arc<HotEncounters>,
    /// Told of each committed transaction's changed encounters (see `committed.rs`).
    committed: Arc<CommittedVersions>,
    /// The encounters the open transaction changed, noted by its changes (touched only by
    /// whoever runs the current change).
    changed: Mutex<Vec<Changed>>,
    /// Told of each write's timing and each commit's size (see `observed.rs`).
    pub(crate) observed: Observed,
    /// The WAL checkpoints, off this thread (see `checkpoint.rs`); told of each commit. SQLite
    /// only.
    pub(crate) checkpoints: Mutex<Option<Checkpoints>>,
    /// Most changes per transaction (see [`MAX_BATCH`]).
    max_batch: usize,
}

/// A job and when it was queued.
struct Queued {
    at: Instant,
    job: Box<dyn Job>,
}

/// A job run in the open transaction, waiting for its commit.
struct Member {
    job: Box<dyn Job>,
    queued: Duration,
    work: Duration,
    worked_at: Instant,
}

/// No code panics while holding these locks (work runs under `catch_unwind`), so a poisoned lock
/// still guards consistent data.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The error of a change that the writer thread can no longer take.
fn stopped() -> DbError {
    DbError::WriterStopped("the writer thread has stopped".into())
}

impl Writer {
    /// Starts the writer thread on `connection`.
    pub(crate) fn new(
        connection: DbConnection,
        url: &str,
        hot: Arc<HotEncounters>,
        committed: Arc<CommittedVersions>,
    ) -> Result<Self, DbError> {
        let (checkpoints, max_batch) = match connection.backend() {
            Backend::Sqlite => (Some(Checkpoints::start(crate::connection::database_path(url))?), MAX_BATCH),
            Backend::Postgres => (None, 1),
        };
        let shared = Arc::new(Shared {
            line: Mutex::new(Line::new(connection)),
            commits: AtomicUsize::new(0),
            waiting: AtomicUsize::new(0),
            url: url.to_owned(),
            hot,
            committed,
            changed: Mutex::default(),
            observed: Observed::default(),
            checkpoints: Mutex::new(checkpoints),
            max_batch,
        });
        let (queue, jobs) = mpsc::channel();
        let drainer = shared.clone();
        let thread = thread::Builder::new()
            .name("skirmish-writer".into())
            .spawn(move || drainer.drain(&jobs))
            .map_err(|error| DbError::WriterStopped(format!("cannot start the writer thread: {error}")))?;
        Ok(Self { queue: Some(queue), thread: Some(thread), shared })
    }

    /// Runs `work` on the writer thread in its own savepoint of a transaction it may share, and
    /// answers once that transaction is durably committed: `work`'s result, or
    /// [`DbError::CommitFailed`] if the commit failed. An `Err` from `work` (or a panic, as
    /// [`DbError::Panicked`]) rolls its savepoint back. `then` maps the result on the writer
    /// thread once it settled (before it is answered, and even if nobody awaits it any more).
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
                // The job was dropped unanswered: the writer thread is gone.
                Err(_) => Written { result: Err(stopped()), timing: None },
            }
        }
    }

    /// Runs `work` on this thread, on the writer connection, in its own savepoint of a
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
        let result = turn.recv().ok().map(|()| {
            let result = lock(&self.line).run(work);
            let _ = finished.send(result.is_ok());
            result
        });
        outcome.recv().unwrap_or_else(|_| Err(stopped()))?;
        result.unwrap_or_else(|| Err(stopped().into()))
    }

    /// Queues `job` for the writer thread; if it is gone, the job is dropped unanswered (and its
    /// caller gets [`DbError::WriterStopped`]).
    fn submit(&self, job: Box<dyn Job>) {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let queued = Queued { at: Instant::now(), job };
        if self.queue.as_ref().is_none_or(|queue| queue.send(queued).is_err()) {
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
        drop(self.queue.take());
        // The last handle may be dropped by a change running on the writer thread itself: that
        // thread ends on its own once its queue is empty.
        if let Some(thread) = self.thread.take()
            && thread.thread().id() != thread::current().id()
        {
            let _ = thread.join();
        }
    }
}

impl Shared {
    /// Notes, from inside a change's `work`, that it leaves encounter `id` at `version`
    /// ([`super::DELETED`] if it deleted it): recorded once the transaction is durably committed
    /// and before any of its changes is answered (dropped if the change fails).
    pub(crate) fn note_changed(&self, id: &str, version: i64) {
        lock(&self.changed).push((id.to_owned(), version));
    }

    /// The writer thread: batch after batch until every handle is dropped and the queue is
    /// empty. A panic outside any change (none is expected) fails its batch, not the thread.
    fn drain(&self, jobs: &Receiver<Queued>) {
        while let Ok(first) = jobs.recv() {
            let mut members = Vec::new();
            let batch = catch_unwind(AssertUnwindSafe(|| self.batch(first, jobs, &mut members)));
            if batch.is_err() {
                log::error!("the writer thread panicked outside a change; its transaction is rolled back");
                lock(&self.line).roll_back();
                self.forget_all();
                self.settle(&mut members, &Err("the writer panicked".into()));
            }
        }
    }

    /// Runs `first` and every job queued behind it (up to [`MAX_BATCH`]) in one transaction,
    /// commits it and answers them.
    fn batch(&self, first: Queued, jobs: &Receiver<Queued>, members: &mut Vec<Member>) {
        let mut next = Some(first);
        while let Some(queued) = next {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            self.run(queued, members);
            next = if members.len() < self.max_batch { jobs.try_recv().ok() } else { None };
        }
        self.commit(members);
    }

    /// Runs one job in its savepoint of the open transaction (opened if need be).
    fn run(&self, Queued { at, mut job }: Queued, members: &mut Vec<Member>) {
        let started_at = Instant::now();
        let begun = lock(&self.line).begin_if_closed();
        if let Err(error) = begun {
            // A PostgreSQL server restarted or a connection cut: the next change gets a new one.
            self.reopen_if_broken(&mut lock(&self.line));
            let timing =
                WriteTiming { queued: started_at - at, work: Duration::ZERO, durable: Duration::ZERO };
            self.observed.wrote(&timing);
            job.settle(Err(error.into()), timing);
            return;
        }
        let noted_before = lock(&self.changed).len();
        let succeeded = job.run(&self.line);
        let worked_at = Instant::now();
        if !succeeded {
            lock(&self.changed).truncate(noted_before);
        }
        members.push(Member { job, queued: started_at - at, work: worked_at - started_at, worked_at });
        let abandoned = lock(&self.line).take_abandoned();
        if let Some(why) = abandoned {
            // The savepoint could not be undone: the transaction was rolled back.
            self.forget_all();
            self.reopen_if_broken(&mut lock(&self.line));
            self.settle(members, &Err(why));
        }
    }

    /// Commits the open transaction and answers its changes; the committed versions are
    /// recorded before any of them is answered.
    fn commit(&self, members: &mut Vec<Member>) {
        if members.is_empty() {
            return;
        }
        self.observed.committed(members.len());
        let changed = std::mem::take(&mut *lock(&self.changed));
        let generation = self.committed.committing(&changed);
        let outcome = lock(&self.line).commit();
        match outcome {
            Ok(()) => self.committed.committed(generation, &changed),
            Err(_) => self.forget_all(),
        }
        self.commits.fetch_add(1, Ordering::SeqCst);
        let changes = members.len();
        self.settle(members, &outcome);
        // After the answers: a checkpoint the writer runs itself delays the next batch only.
        if outcome.is_ok()
            && let Some(checkpoints) = lock(&self.checkpoints).as_mut()
            && let DbConnection::Sqlite(connection) = &mut lock(&self.line).connection
        {
            checkpoints.committed(changes, connection);
        }
    }

    /// Answers every member with its transaction's `outcome`.
    fn settle(&self, members: &mut Vec<Member>, outcome: &Result<(), String>) {
        for Member { job, queued, work, worked_at } in members.drain(..) {
            let timing = WriteTiming { queued, work, durable: worked_at.elapsed() };
            self.observed.wrote(&timing);
            job.settle(outcome.clone().map_err(DbError::CommitFailed), timing);
        }
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
            match open_writer(&self.url) {
                Ok(connection) => *line = Line::new(connection),
                Err(error) => log::error!("cannot reopen the writer connection: {error}"),
            }
        }
    }
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
        Writer::new(connection, &path, Arc::default(), Arc::default()).unwrap()
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
}
