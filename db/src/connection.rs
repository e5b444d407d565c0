//! Opening SQLite with the pragmas every connection needs.

use crate::error::DbError;
use diesel::connection::SimpleConnection;
use diesel::r2d2::{ConnectionManager, CustomizeConnection, Pool};
use diesel::{Connection, SqliteConnection};

/// Pragmas are per connection; busy_timeout goes first so the others can wait for a lock.
/// `synchronous = FULL` makes an acknowledged change durable even through power loss (NORMAL
/// in WAL mode survives a process crash but may lose the last commits to an OS crash).
pub const PRAGMAS: &str = "PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; \
                       PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;";

/// Readers in the pool, at most; one is opened at start and the others when reads overlap (an idle
/// server keeps one connection's page cache, not four).
const READERS: u32 = 4;

/// The file path in a database URL: `sqlite://path`, `sqlite:path` or a plain path.
pub fn database_path(url: &str) -> &str {
    url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")).unwrap_or(url)
}

/// No automatic checkpoints on the writer (nor on the checkpointer's connection, which runs
/// them by hand): see `store/checkpoint.rs`.
const NO_AUTOCHECKPOINT: &str = "PRAGMA wal_autocheckpoint = 0;";

pub(crate) fn open_writer(path: &str) -> Result<SqliteConnection, DbError> {
    let mut connection = SqliteConnection::establish(path)?;
    connection.batch_execute(PRAGMAS)?;
    connection.batch_execute(NO_AUTOCHECKPOINT)?;
    Ok(connection)
}

#[derive(Debug)]
struct Pragmas;

impl CustomizeConnection<SqliteConnection, diesel::r2d2::Error> for Pragmas {
    fn on_acquire(&self, connection: &mut SqliteConnection) -> Result<(), diesel::r2d2::Error> {
        connection.batch_execute(PRAGMAS).map_err(diesel::r2d2::Error::QueryError)
    }
}

pub(crate) type ReaderPool = Pool<ConnectionManager<SqliteConnection>>;

pub(crate) fn open_readers(path: &str) -> Result<ReaderPool, DbError> {
    // No test query on every checkout: a connection to a local file does not go stale, and the
    // test doubled the statements of every read.
    Ok(Pool::builder()
        .max_size(READERS)
        .min_idle(Some(1))
        .test_on_check_out(false)
        .connection_customizer(Box::new(Pragmas))
        .build(ConnectionManager::new(path))?)
}
