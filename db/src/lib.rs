//! Skirmish's persistence: SQLite through diesel. One writer connection serialises every
//! mutation (SQLite allows one writer; several make it busy-wait), readers come from a pool.
//! A mutation is one immediate transaction holding the version check, the new state and its
//! events, so a refused or failed command leaves nothing behind.

mod connection;
mod error;
mod rows;
pub mod schema;
mod store;

pub use connection::database_path;
pub use error::{DbError, MutateError};
pub use store::{
    ApiKeyInfo, EncounterPage, IDEMPOTENCY_TTL_HOURS, IdempotencyKey, KeyOwner, Mutation, Reply, Store,
    StoredEncounter, StoredEvent, StoredResponse,
};
