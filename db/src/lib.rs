//! Skirmish's persistence through diesel: SQLite (one server process) or PostgreSQL (several;
//! see `backend.rs`). One writer connection serialises every
//! mutation (SQLite allows one writer; several make it busy-wait), readers come from a pool.
//! A mutation is one savepoint holding the version check, the new state and its events, so a
//! refused or failed command leaves nothing behind; mutations waiting for the writer share one
//! transaction and one fsync (group commit, `store/writer.rs`).

mod backend;
mod connection;
mod copy;
mod error;
mod exclusive;
mod rows;
pub mod schema;
mod scratch;
mod store;

pub use backend::{Backend, DbConnection};
pub use connection::{PRAGMAS, database_path};
pub use copy::{
    ApiKeyRecord, AttemptRecord, CombatantRecord, CopyError, CreatureRecord, DeliveryRecord, EffectRecord,
    EncounterRecord, EventRecord, HistoryRecord, IdempotencyRecord, Snapshot, TemplateRecord, ViewerRecord,
    WebhookRecord, copy_sqlite_to_postgres, open_connection,
};
pub use error::{DbError, MutateError};
pub use exclusive::{DatabaseLock, lock_path};
pub use scratch::{DEFAULT_TEST_SERVER, ScratchDatabase, test_server};
pub use store::{
    AfterAttempt, Attempt, DELIVERED, DeliveryInfo, DueDelivery, FAILED, LEASE_MS, MAX_DELIVERIES_PAGE,
    MAX_LEASE_MS, MAX_WEBHOOKS_PER_TENANT, MIN_LEASE_MS, NewWebhook, PENDING, Webhook, now_ms, utc_text,
};
pub use store::{
    ApiKeyInfo, Archived, DELETED, EncounterFilter, EncounterPage, EventSink, Fresh, HISTORY_DEPTH,
    IDEMPOTENCY_TTL_HOURS, IdempotencyKey, KEYS_RECHECK, KeyOwner, MAX_BATCH, Mutation, PageStart,
    RETENTION_BATCH, Reply, Store, StoredEncounter, StoredEvent, StoredResponse, UndoRefused, Undone,
    WriteObserver, WriteTiming, Written, hex,
};
pub use store::{
    Creature, CreatureFilter, CreaturePage, CreaturePatch, CreaturePosition, MAX_CREATURES_PER_TENANT,
    NewCreature, creature_name_key,
};
pub use store::{
    MAX_TEMPLATES_PER_TENANT, PG_WRITERS_DEFAULT, PG_WRITERS_MAX, Template, WithLog, template_time,
};
pub use store::{
    MAX_VIEWERS_PER_ENCOUNTER, NewViewer, ViewerCreated, ViewerGrant, ViewerInfo, viewer_token_digest,
};
