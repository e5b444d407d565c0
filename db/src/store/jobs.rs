//! The changes queued for the writer (see `writer.rs`): run on the lane (writer thread) that took
//! them (an async caller, which awaits the answer holding no thread), or on their caller's own
//! thread while that lane waits (a sync caller, whose work borrows from its stack).

use super::line::Line;
use super::writer::{WriteTiming, Written, lock};
use crate::backend::DbConnection;
use crate::error::DbError;
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

/// One change in a batch of the writer thread.
pub(super) trait Job: Send {
    /// Runs the change in its savepoint of the transaction open on `line`; true if it
    /// succeeded.
    fn run(&mut self, line: &Arc<Mutex<Line>>) -> bool;
    /// Answers the change once its transaction settled: `outcome` is the transaction's (an
    /// `Err` fails the change whatever it did).
    fn settle(self: Box<Self>, outcome: Result<(), DbError>, timing: WriteTiming);
}

/// A change run on the writer thread; `then` sees its result once it settled, still on the
/// writer thread (so that it runs even when nobody awaits the answer any more).
pub(super) struct OnThread<W, R, H, U> {
    pub(super) work: Option<W>,
    pub(super) result: Option<R>,
    pub(super) then: H,
    pub(super) answer: oneshot::Sender<Written<U>>,
}

impl<W, T, E, H, U> Job for OnThread<W, Result<T, E>, H, U>
where
    W: FnOnce(&mut DbConnection) -> Result<T, E> + Send,
    T: Send,
    E: From<DbError> + Send,
    H: FnOnce(Result<T, E>) -> U + Send,
    U: Send,
{
    fn run(&mut self, line: &Arc<Mutex<Line>>) -> bool {
        let Some(work) = self.work.take() else { return false };
        let result = lock(line).run(work);
        let succeeded = result.is_ok();
        self.result = Some(result);
        succeeded
    }

    fn settle(self: Box<Self>, outcome: Result<(), DbError>, timing: WriteTiming) {
        let result = match (outcome, self.result) {
            (Ok(()), Some(result)) => result,
            (Err(error), _) => Err(error.into()),
            (Ok(()), None) => Err(DbError::WriterStopped("the change was never run".into()).into()),
        };
        let answer = (self.then)(result);
        // Nobody awaits it any more (the request was dropped): the change is stored all the same.
        let _ = self.answer.send(Written { result: answer, timing: Some(timing) });
    }
}

/// A change whose caller runs it on its own thread: sent on `go` the lane's connection when it
/// is its turn, it runs its savepoint and says on `done` whether it succeeded; then waits on
/// `settled`.
pub(super) struct Lent {
    pub(super) go: SyncSender<Arc<Mutex<Line>>>,
    pub(super) done: Receiver<bool>,
    pub(super) settled: SyncSender<Result<(), DbError>>,
}

impl Job for Lent {
    fn run(&mut self, line: &Arc<Mutex<Line>>) -> bool {
        // The caller waits for `go` until it has it or this job is dropped, and then always
        // answers `done` (its work runs under `catch_unwind`); a hang-up counts as a failure.
        self.go.send(line.clone()).is_ok() && self.done.recv().unwrap_or(false)
    }

    fn settle(self: Box<Self>, outcome: Result<(), DbError>, _timing: WriteTiming) {
        let _ = self.settled.send(outcome);
    }
}
