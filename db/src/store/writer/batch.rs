//! What a lane (a writer thread, see `lanes.rs`) does with the jobs it takes: runs the first in
//! its savepoint of a transaction on the lane's connection, then every job already queued (up to
//! the batch bound: [`super::MAX_BATCH`] on SQLite, one on PostgreSQL), commits once and answers
//! them with the commit's outcome.

use super::lanes::Queued;
use super::{Line, Shared, WriteTiming, lock};
use crate::backend::DbConnection;
use crate::connection::open_writer;
use crate::error::DbError;
use diesel::connection::SimpleConnection;
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A job run in the open transaction, waiting for its commit.
struct Member {
    job: Box<dyn super::Job>,
    queued: Duration,
    work: Duration,
    worked_at: Instant,
}

impl Shared {
    /// A lane on `line`: batch after batch until the writer is closed and the queue is empty.
    /// A panic outside any change (none is expected) fails its batch, not the lane.
    pub(super) fn drain(&self, line: &Arc<Mutex<Line>>) {
        // A lane starts counted as about to take a job (see `lanes.rs`).
        let finishing = Cell::new(true);
        while let Some(first) = self.lanes.take(finishing.replace(false)) {
            let mut members = Vec::new();
            let batch = catch_unwind(AssertUnwindSafe(|| self.batch(line, first, &mut members, &finishing)));
            if batch.is_err() {
                log::error!("the writer thread panicked outside a change; its transaction is rolled back");
                lock(line).roll_back();
                self.forget_all();
                self.settle(&mut members, &Err("the writer panicked".into()));
            }
        }
    }

    /// Runs `first` and every job queued behind it (up to the batch bound) in one transaction,
    /// commits it and answers them; sets `finishing` once it told the lanes so.
    fn batch(
        &self,
        line: &Arc<Mutex<Line>>,
        first: Queued,
        members: &mut Vec<Member>,
        finishing: &Cell<bool>,
    ) {
        let mut next = Some(first);
        while let Some(queued) = next {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            self.run(line, queued, members);
            next = if members.len() < self.max_batch { self.lanes.try_take() } else { None };
        }
        self.commit(line, members, finishing);
    }

    /// Runs one job in its savepoint of the open transaction (opened if need be).
    fn run(&self, line: &Arc<Mutex<Line>>, Queued { at, mut job }: Queued, members: &mut Vec<Member>) {
        let started_at = Instant::now();
        let begun = lock(line).begin_if_closed();
        if let Err(error) = begun {
            // A PostgreSQL server restarted or a connection cut: the next change gets a new one.
            self.reopen_if_broken(&mut lock(line));
            let timing =
                WriteTiming { queued: started_at - at, work: Duration::ZERO, durable: Duration::ZERO };
            self.observed.wrote(&timing);
            job.settle(Err(error.into()), timing);
            return;
        }
        let noted_before = lock(&self.changed).len();
        let succeeded = job.run(line);
        let worked_at = Instant::now();
        if !succeeded {
            lock(&self.changed).truncate(noted_before);
        }
        members.push(Member { job, queued: started_at - at, work: worked_at - started_at, worked_at });
        let abandoned = lock(line).take_abandoned();
        if let Some(why) = abandoned {
            // The savepoint could not be undone: the transaction was rolled back.
            self.forget_all();
            self.reopen_if_broken(&mut lock(line));
            self.settle(members, &Err(why));
        }
    }

    /// Commits the open transaction and answers its changes; the committed versions are
    /// recorded before any of them is answered. Tells the lanes it is finishing first.
    fn commit(&self, line: &Mutex<Line>, members: &mut Vec<Member>, finishing: &Cell<bool>) {
        if members.is_empty() {
            return;
        }
        self.observed.committed(members.len());
        let changed = std::mem::take(&mut *lock(&self.changed));
        let generation = self.committed.committing(&changed);
        let outcome = lock(line).commit();
        match outcome {
            Ok(()) => self.committed.committed(generation, &changed),
            Err(_) => self.forget_all(),
        }
        self.commits.fetch_add(1, Ordering::SeqCst);
        self.lanes.finishing();
        finishing.set(true);
        let changes = members.len();
        self.settle(members, &outcome);
        // After the answers: a checkpoint the writer runs itself delays the next batch only.
        if outcome.is_ok()
            && let Some(checkpoints) = lock(&self.checkpoints).as_mut()
            && let DbConnection::Sqlite(connection) = &mut lock(line).connection
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
