//! The repository. Every read and write is scoped to a tenant: another tenant's encounter is
//! indistinguishable from a missing one.

mod encounters;
mod idempotency;
mod keys;

pub use encounters::{EncounterPage, Mutation, StoredEncounter, StoredEvent};
pub use idempotency::{IDEMPOTENCY_TTL_HOURS, IdempotencyKey, Reply, StoredResponse};
pub use keys::{ApiKeyInfo, KeyOwner};

use crate::connection::{ReaderPool, database_path, open_readers, open_writer};
use crate::error::DbError;
use diesel::prelude::*;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};

const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

/// SQLite's clock as RFC 3339 UTC with milliseconds.
pub(crate) const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// One writer connection behind a mutex (SQLite has one writer; this makes writers queue in
/// order instead of busy-waiting) and a pool of readers.
#[derive(Clone)]
pub struct Store {
    writer: Arc<Mutex<SqliteConnection>>,
    readers: ReaderPool,
    /// The database file, to reopen the writer after a panic.
    path: Arc<str>,
}

impl Store {
    /// Opens (creating if needed) the database at `url` and applies pending migrations.
    pub fn open(url: &str) -> Result<Self, DbError> {
        let path = database_path(url);
        let mut writer = open_writer(path)?;
        writer.run_pending_migrations(MIGRATIONS).map_err(|e| DbError::Migration(e.to_string()))?;
        Ok(Self { writer: Arc::new(Mutex::new(writer)), readers: open_readers(path)?, path: path.into() })
    }

    /// Runs `work` on the writer connection, after every earlier write has finished.
    ///
    /// A panic in `work` (a bug, or an arithmetic overflow caught by `overflow-checks`) becomes
    /// [`DbError::Panicked`]: the writer connection is closed, which rolls back the transaction
    /// the panic left open, and a fresh one takes its place, so nothing of the change is stored
    /// and later writes still work.
    pub(crate) fn write<T>(&self, work: impl FnOnce(&mut SqliteConnection) -> T) -> Result<T, DbError> {
        let mut connection = self.writer.lock().map_err(|_| DbError::Poisoned)?;
        match catch_unwind(AssertUnwindSafe(|| work(&mut connection))) {
            Ok(done) => Ok(done),
            Err(payload) => {
                *connection = open_writer(&self.path)?;
                Err(DbError::Panicked(panic_message(payload.as_ref())))
            }
        }
    }

    pub(crate) fn read(
        &self,
    ) -> Result<diesel::r2d2::PooledConnection<diesel::r2d2::ConnectionManager<SqliteConnection>>, DbError>
    {
        Ok(self.readers.get()?)
    }

    /// Checks that a reader connection answers.
    pub fn ping(&self) -> Result<(), DbError> {
        diesel::sql_query("SELECT 1").execute(&mut *self.read()?)?;
        Ok(())
    }

    /// SQLite's own consistency check (`PRAGMA integrity_check`): "ok" when sound.
    pub fn integrity_check(&self) -> Result<String, DbError> {
        #[derive(QueryableByName)]
        struct Check {
            #[diesel(sql_type = diesel::sql_types::Text)]
            integrity_check: String,
        }
        let rows: Vec<Check> = diesel::sql_query("PRAGMA integrity_check").load(&mut *self.read()?)?;
        Ok(rows.into_iter().map(|r| r.integrity_check).collect::<Vec<_>>().join("; "))
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
