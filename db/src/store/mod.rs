//! The repository. Every read and write is scoped to a tenant: another tenant's encounter is
//! indistinguishable from a missing one.

mod change_reply;
mod change_rows;
mod checkpoint;
mod children;
mod clock;
pub use clock::utc_text;
mod combatant_columns;
mod committed;
mod creatures;
mod encounters;
mod history;
mod hot;
mod idempotency;
mod jobs;
mod keys;
mod library;
mod line;
mod observed;
mod outbox;
mod postgres;
mod published;
mod reads;
mod reverse_diff;
#[cfg(test)]
mod round_trips;
mod statements;
mod templates;
mod types;
mod undo;
mod viewers;
mod webhooks;
mod writer;

pub use committed::DELETED;
pub use creatures::{
    Creature, CreatureFilter, CreaturePage, CreaturePatch, CreaturePosition, MAX_CREATURES_PER_TENANT,
    NewCreature, creature_name_key,
};
pub use history::HISTORY_DEPTH;
pub use idempotency::{IDEMPOTENCY_TTL_HOURS, IdempotencyKey, Reply, StoredResponse};
pub use keys::{ApiKeyInfo, KEYS_RECHECK, KeyOwner, hex};
pub use library::{Archived, EncounterFilter, EncounterPage, PageStart, RETENTION_BATCH};
pub use observed::WriteObserver;
pub use outbox::{
    AfterAttempt, Attempt, DELIVERED, DeliveryInfo, DueDelivery, FAILED, LEASE_MS, MAX_DELIVERIES_PAGE,
    MAX_LEASE_MS, MIN_LEASE_MS, PENDING,
};
pub use published::EventSink;
pub use reads::{Fresh, WithLog};
pub use templates::{MAX_TEMPLATES_PER_TENANT, Template, template_time};
pub use types::{Mutation, StoredEncounter, StoredEvent, now_ms};
pub use undo::{UndoRefused, Undone};
pub use viewers::{
    MAX_VIEWERS_PER_ENCOUNTER, NewViewer, ViewerCreated, ViewerGrant, ViewerInfo, viewer_token_digest,
};
pub use webhooks::{MAX_WEBHOOKS_PER_TENANT, NewWebhook, Webhook};
pub use writer::{MAX_BATCH, PG_WRITERS_DEFAULT, PG_WRITERS_MAX, WriteTiming, Written};

use crate::backend::Backend;
use crate::backend::DbConnection;
use crate::connection::{ReaderPool, Readers, database_path, open_readers, open_writer};
use crate::error::DbError;
use crate::exclusive::{DatabaseLock, lock_exclusively};
use committed::CommittedVersions;
use diesel::prelude::*;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use hot::HotEncounters;
use keys::KeysKnown;
use postgres::Notice;
use postgres::heard::{Remote, ViewerRevoked};
use postgres::listener::{self, Listening};
use published::Published;
use std::sync::Arc;
use webhooks::Subscriptions;
use writer::Writer;

/// A name for a newly opened store, unique across processes and time.
fn new_origin() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static OPENED: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    format!("{}-{}-{nanos}", std::process::id(), OPENED.fetch_add(1, Ordering::Relaxed))
}

pub(crate) const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
pub(crate) const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// The writer every change queues for (SQLite has one writer connection; this makes writers
/// queue in order instead of busy-waiting, and lets them share commits; PostgreSQL has a few, so
/// that changes to different encounters commit at once: see `writer.rs`) and a pool of readers.
#[derive(Clone)]
pub struct Store {
    writer: Arc<Writer>,
    readers: ReaderPool,
    keys: Arc<KeysKnown>,
    /// Encounters as the writer last wrote them (see `hot.rs`).
    hot: Arc<HotEncounters>,
    /// Told of every committed change (see `published.rs`).
    published: Published,
    /// Webhook subscriptions by tenant (see `webhooks.rs`).
    subscriptions: Arc<Subscriptions>,
    /// The latest committed version of the encounters changed lately (see `committed.rs`).
    committed: Arc<CommittedVersions>,
    /// Held by a server's store: no other process may use the file (see `exclusive.rs`).
    _exclusive: Option<Arc<DatabaseLock>>,
    /// The database's backend: what memory may be trusted depends on it (see `settled_version`).
    backend: Backend,
    /// Names this store (and its clones) in the notices it sends other replicas.
    origin: Arc<str>,
    /// Told of viewer links revoked by other replicas.
    viewer_revoked: ViewerRevoked,
    /// The listener of other replicas' notices (PostgreSQL only); stops with the last clone.
    _listening: Option<Arc<Listening>>,
}

impl Store {
    /// Opens (creating if needed) the database at `url` and applies pending migrations.
    pub fn open(url: &str) -> Result<Self, DbError> {
        Self::open_holding(url, None, PG_WRITERS_DEFAULT)
    }

    /// [`Store::open`] for a server: first takes the database file's exclusive lock for as long
    /// as this store (or a clone) lives, and fails with [`DbError::InUse`] if another process
    /// holds it. Stores of this process share the lock (see `exclusive.rs`).
    /// On PostgreSQL there is no such lock: any number of servers share the database.
    pub fn open_exclusive(url: &str) -> Result<Self, DbError> {
        Self::open_exclusive_with(url, PG_WRITERS_DEFAULT)
    }

    /// [`Store::open_exclusive`] with at most `pg_writers` writer connections on PostgreSQL
    /// (clamped to 1..=[`PG_WRITERS_MAX`]; opened as concurrent changes need them). SQLite always
    /// has one.
    pub fn open_exclusive_with(url: &str, pg_writers: usize) -> Result<Self, DbError> {
        let lock = match Backend::of(url) {
            Backend::Sqlite => lock_exclusively(database_path(url))?,
            Backend::Postgres => None,
        };
        Self::open_holding(url, lock, pg_writers)
    }

    /// Applies the pending migrations of the database at `url` (its backend's tree) and returns
    /// their names; creates a SQLite file if missing. What `skirmish migrate` runs (and what
    /// every [`Store::open`] does first).
    pub fn migrate(url: &str) -> Result<Vec<String>, DbError> {
        migrate(&mut open_writer(url)?)
    }

    fn open_holding(
        url: &str,
        exclusive: Option<Arc<DatabaseLock>>,
        pg_writers: usize,
    ) -> Result<Self, DbError> {
        let mut writer = open_writer(url)?;
        migrate(&mut writer)?;
        let backend = writer.backend();
        let hot = Arc::new(HotEncounters::default());
        let known_as = match backend {
            Backend::Sqlite => database_path(url),
            Backend::Postgres => url,
        };
        let committed = CommittedVersions::for_path(known_as);
        let listen = listener::wanted(&writer);
        let mut store = Self {
            writer: Arc::new(Writer::new(writer, url, pg_writers, hot.clone(), committed.clone())?),
            readers: open_readers(url)?,
            keys: KeysKnown::for_path(known_as),
            hot,
            published: Published::default(),
            subscriptions: Arc::default(),
            committed,
            _exclusive: exclusive,
            backend,
            origin: new_origin().into(),
            viewer_revoked: ViewerRevoked::default(),
            _listening: None,
        };
        store.load_subscriptions()?;
        if listen {
            let remote = Remote {
                readers: store.readers.clone(),
                published: store.published.clone(),
                hot: store.hot.clone(),
                keys: store.keys.clone(),
                subscriptions: store.subscriptions.clone(),
                viewer_revoked: store.viewer_revoked.clone(),
            };
            let listening = listener::listen(url, store.origin.to_string(), remote)
                .map_err(|e| DbError::WriterStopped(format!("cannot start the listener thread: {e}")))?;
            store._listening = Some(Arc::new(listening));
        }
        Ok(store)
    }

    /// Tells `sink` of every change committed from now on (by this store and its clones): the
    /// events each appended, once durably committed. One sink per store; false if one was set.
    pub fn publish_to(&self, sink: Arc<dyn EventSink>) -> bool {
        self.published.set(sink)
    }

    /// Calls `revoked` with the id of every viewer link that another replica revokes (this
    /// store's own revocations are its caller's to handle). One per store; false if set.
    pub fn when_viewer_revoked_elsewhere(&self, revoked: impl Fn(&str) + Send + Sync + 'static) -> bool {
        self.viewer_revoked.set(Box::new(revoked)).is_ok()
    }

    /// Sends `notice` to the other replicas from the transaction on `conn` (PostgreSQL only).
    pub(crate) fn tell(&self, conn: &mut DbConnection, notice: &Notice) -> Result<(), DbError> {
        postgres::tell(conn, &self.origin, notice)
    }

    /// Tells `observer` how long each write takes and how many changes each commit holds, from
    /// now on (for metrics). One observer per store; false if one was set.
    pub fn observe_writes(&self, observer: Arc<dyn WriteObserver>) -> bool {
        self.writer.observed.set(observer)
    }

    /// Runs `work` on the writer connection, after every earlier write, in its own savepoint of
    /// a transaction it may share with other writes, and returns once that transaction is
    /// durably committed. An `Err` from `work` undoes everything `work` wrote.
    ///
    /// A panic in `work` (a bug, or an arithmetic overflow caught by `overflow-checks`) becomes
    /// [`DbError::Panicked`] and its savepoint is rolled back, so nothing of the change is stored
    /// and later writes still work.
    pub(crate) fn write<T, E: From<DbError>>(
        &self,
        work: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        self.writer.write(work)
    }

    /// The version of encounter `id` as last durably committed through a store of this process,
    /// when no commit changing it is under way ([`DELETED`] once deleted); `None` when not known
    /// (never changed lately, forgotten, or being committed). Once a change's write returned,
    /// this answers its version, a later one or `None`. No SQL: with the server's exclusive lock nobody
    /// else changes the file.
    /// On PostgreSQL always `None`: other replicas change the database too, so only a read of
    /// it can say.
    pub fn settled_version(&self, id: &str) -> Option<i64> {
        match self.backend {
            Backend::Sqlite => self.committed.settled(id),
            Backend::Postgres => None,
        }
    }

    /// The database's backend.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub(crate) fn read(&self) -> Result<diesel::r2d2::PooledConnection<Readers>, DbError> {
        Ok(self.readers.get()?)
    }

    /// Checks that a reader connection answers.
    pub fn ping(&self) -> Result<(), DbError> {
        select_one(&mut *self.read()?)
    }

    /// [`Store::ping`] if a reader is free right now (`None` if all are busy), so a caller that
    /// must not block can fall back to a thread that may.
    pub fn try_ping(&self) -> Option<Result<(), DbError>> {
        Some(select_one(&mut *self.readers.try_get()?))
    }

    /// SQLite's own consistency check (`PRAGMA integrity_check`): "ok" when sound. PostgreSQL
    /// has no such check of a whole database: "ok" once a reader answers.
    pub fn integrity_check(&self) -> Result<String, DbError> {
        if self.backend == Backend::Postgres {
            return self.ping().map(|()| "ok".to_owned());
        }
        #[derive(QueryableByName)]
        struct Check {
            #[diesel(sql_type = diesel::sql_types::Text)]
            integrity_check: String,
        }
        let rows: Vec<Check> = diesel::sql_query("PRAGMA integrity_check").load(&mut *self.read()?)?;
        Ok(rows.into_iter().map(|r| r.integrity_check).collect::<Vec<_>>().join("; "))
    }
}

/// `SELECT 1` as a query diesel prepares once per connection and keeps (a `sql_query` is
/// prepared afresh on every call).
fn select_one(conn: &mut DbConnection) -> Result<(), DbError> {
    use diesel::sql_types::Integer;
    diesel::select(1.into_sql::<Integer>()).get_result::<i32>(conn)?;
    Ok(())
}

/// Key of the advisory lock that serialises migrations on PostgreSQL, so replicas started
/// together do not race to create the schema.
const MIGRATION_LOCK: i64 = 0x54B1_4D15;

/// Applies the pending migrations of the connection's backend; their names.
fn migrate(connection: &mut DbConnection) -> Result<Vec<String>, DbError> {
    let names = |applied: Vec<diesel::migration::MigrationVersion<'_>>| {
        applied.into_iter().map(|version| version.to_string()).collect::<Vec<_>>()
    };
    let failed = |e: Box<dyn std::error::Error + Send + Sync>| DbError::Migration(e.to_string());
    match connection {
        DbConnection::Sqlite(conn) => {
            conn.run_pending_migrations(SQLITE_MIGRATIONS).map(names).map_err(failed)
        }
        DbConnection::Pg(conn) => {
            advisory(conn, "SELECT pg_advisory_lock($1)")?;
            let applied = conn.run_pending_migrations(POSTGRES_MIGRATIONS).map(names).map_err(failed);
            advisory(conn, "SELECT pg_advisory_unlock($1)")?;
            applied
        }
    }
}

/// Runs `statement` on the advisory lock [`MIGRATION_LOCK`].
fn advisory(conn: &mut diesel::PgConnection, statement: &str) -> Result<(), DbError> {
    diesel::sql_query(statement).bind::<diesel::sql_types::BigInt, _>(MIGRATION_LOCK).execute(conn)?;
    Ok(())
}
