//! The writer connection and the transaction open on it: on SQLite each change runs in its own
//! savepoint of that transaction, which the writer thread commits once for a whole batch (see
//! `writer.rs`). On PostgreSQL a transaction holds one change, which needs no savepoint: a
//! failed change rolls its whole transaction back (two round trips fewer per change).

use super::statements::{Begin, BeginImmediate, Commit, ReleaseChange, SavepointChange};
use crate::backend::DbConnection;
use crate::error::DbError;
use diesel::RunQueryDsl;
use diesel::connection::SimpleConnection;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The connection and the transaction open on it, if any.
pub(super) struct Line {
    pub(super) connection: DbConnection,
    /// Whether a transaction is open.
    open: bool,
    /// Changes run in the open transaction (for the log).
    members: usize,
    /// Whether each change runs in a savepoint of its own (SQLite, whose transactions hold a
    /// batch of changes); else the transaction holds one change (PostgreSQL, see `writer.rs`).
    savepoints: bool,
    /// Why the open transaction was abandoned (rolled back because a savepoint could not be
    /// released or undone), until the writer thread takes it.
    abandoned: Option<String>,
}

impl Line {
    pub(super) fn new(connection: DbConnection) -> Self {
        let savepoints = matches!(connection, DbConnection::Sqlite(_));
        Self { connection, open: false, members: 0, savepoints, abandoned: None }
    }

    /// Opens a transaction unless one is open.
    pub(super) fn begin_if_closed(&mut self) -> Result<(), diesel::result::Error> {
        if !self.open {
            match self.connection {
                DbConnection::Sqlite(_) => BeginImmediate.execute(&mut self.connection)?,
                DbConnection::Pg(_) => Begin.execute(&mut self.connection)?,
            };
            self.open = true;
            self.members = 0;
        }
        Ok(())
    }

    /// Runs `work` in a savepoint: released when it succeeds, rolled back when it fails or
    /// panics. If the savepoint itself cannot be released or undone, the whole transaction is
    /// abandoned (rolled back; [`Line::take_abandoned`] says why). Without savepoints (a
    /// transaction of one change), a failed `work` rolls the transaction back instead.
    pub(super) fn run<T, E: From<DbError>>(
        &mut self,
        work: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        self.members += 1;
        if !self.savepoints {
            return self.run_alone(work);
        }
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

    /// Runs `work` as the only change of the open transaction: if it fails or panics, the
    /// transaction is rolled back (and the commit that follows has nothing to do).
    fn run_alone<T, E: From<DbError>>(
        &mut self,
        work: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        let result = match catch_unwind(AssertUnwindSafe(|| work(&mut self.connection))) {
            Ok(result) => result,
            Err(payload) => Err(DbError::Panicked(panic_message(payload.as_ref())).into()),
        };
        if result.is_err() {
            self.roll_back();
        }
        result
    }

    /// Why the transaction was abandoned since the last call, if it was.
    pub(super) fn take_abandoned(&mut self) -> Option<String> {
        self.abandoned.take()
    }

    /// Commits the open transaction (nothing to do if none is open); the error's text if the
    /// commit failed, and then the transaction is rolled back.
    pub(super) fn commit(&mut self) -> Result<(), String> {
        if !std::mem::replace(&mut self.open, false) {
            return Ok(());
        }
        Commit.execute(&mut self.connection).map(drop).map_err(|error| {
            // A failed COMMIT may leave the transaction open; it must not linger.
            let _ = self.connection.batch_execute("ROLLBACK");
            log::error!("a commit of {} changes failed: {error}", self.members);
            error.to_string()
        })
    }

    /// Rolls the open transaction back, after something outside any change went wrong.
    pub(super) fn roll_back(&mut self) {
        self.open = false;
        let _ = self.connection.batch_execute("ROLLBACK");
    }

    /// Rolls the open transaction back and notes why, for every change in it to fail.
    fn abandon(&mut self, error: &diesel::result::Error) {
        let _ = self.connection.batch_execute("ROLLBACK");
        log::error!("a transaction of {} changes was abandoned: {error}", self.members);
        self.open = false;
        self.abandoned = Some(error.to_string());
    }
}

/// The text a panic was raised with, when it is one.
pub(super) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with no message".to_owned())
}
