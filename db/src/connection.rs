//! Opening connections: SQLite with the pragmas every connection needs, PostgreSQL as it is
//! (readers there read in repeatable-read transactions, so a read of several statements is one
//! snapshot, as it is on SQLite).

use crate::backend::{Backend, DbConnection};
use crate::error::DbError;
use diesel::connection::SimpleConnection;
use diesel::r2d2::{ManageConnection, Pool, R2D2Connection};
use diesel::{Connection, PgConnection, SqliteConnection};

/// Pragmas are per connection; busy_timeout goes first so the others can wait for a lock.
/// `synchronous = FULL` makes an acknowledged change durable even through power loss (NORMAL
/// in WAL mode survives a process crash but may lose the last commits to an OS crash).
pub const PRAGMAS: &str = "PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; \
                       PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;";

/// A reader's multi-statement read is one snapshot on PostgreSQL too.
const PG_READER: &str = "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ";

/// Readers in the pool, at most; one is opened at start and the others when reads overlap (an idle
/// server keeps one connection's page cache, not four).
const READERS: u32 = 4;

/// The file path in a SQLite database URL: `sqlite://path`, `sqlite:path` or a plain path.
pub fn database_path(url: &str) -> &str {
    url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")).unwrap_or(url)
}

/// No automatic checkpoints on the writer (nor on the checkpointer's connection, which runs
/// them by hand): see `store/checkpoint.rs`.
const NO_AUTOCHECKPOINT: &str = "PRAGMA wal_autocheckpoint = 0;";

/// A SQLite connection as the writer (and the checkpointer) uses it.
pub(crate) fn open_sqlite_writer(path: &str) -> Result<SqliteConnection, DbError> {
    let mut connection = SqliteConnection::establish(path)?;
    connection.batch_execute(PRAGMAS)?;
    connection.batch_execute(NO_AUTOCHECKPOINT)?;
    Ok(connection)
}

/// The writer connection to the database at `url`.
pub(crate) fn open_writer(url: &str) -> Result<DbConnection, DbError> {
    match Backend::of(url) {
        Backend::Sqlite => Ok(DbConnection::Sqlite(open_sqlite_writer(database_path(url))?)),
        Backend::Postgres => Ok(DbConnection::Pg(PgConnection::establish(url)?)),
    }
}

/// A reader connection to the database at `url`.
fn open_reader(url: &str) -> Result<DbConnection, DbError> {
    match Backend::of(url) {
        Backend::Sqlite => {
            let mut connection = SqliteConnection::establish(database_path(url))?;
            connection.batch_execute(PRAGMAS)?;
            Ok(DbConnection::Sqlite(connection))
        }
        Backend::Postgres => {
            let mut connection = PgConnection::establish(url)?;
            connection.batch_execute(PG_READER)?;
            Ok(DbConnection::Pg(connection))
        }
    }
}

/// Opens readers for the pool (the URL's backend decides, never a guess from the text).
#[derive(Debug)]
pub(crate) struct Readers {
    url: String,
}

impl ManageConnection for Readers {
    type Connection = DbConnection;
    type Error = diesel::r2d2::Error;

    fn connect(&self) -> Result<DbConnection, Self::Error> {
        open_reader(&self.url).map_err(|error| match error {
            DbError::Connection(e) => diesel::r2d2::Error::ConnectionError(e),
            DbError::Query(e) => diesel::r2d2::Error::QueryError(e),
            other => diesel::r2d2::Error::QueryError(diesel::result::Error::QueryBuilderError(
                other.to_string().into(),
            )),
        })
    }

    fn is_valid(&self, connection: &mut DbConnection) -> Result<(), Self::Error> {
        connection.ping().map_err(diesel::r2d2::Error::QueryError)
    }

    fn has_broken(&self, connection: &mut DbConnection) -> bool {
        std::thread::panicking() || connection.is_broken()
    }
}

pub(crate) type ReaderPool = Pool<Readers>;

pub(crate) fn open_readers(url: &str) -> Result<ReaderPool, DbError> {
    // No test query on every checkout for a local file, which does not go stale (the test
    // doubled the statements of every read); a PostgreSQL connection may be cut by the server.
    let test = Backend::of(url) == Backend::Postgres;
    Ok(Pool::builder()
        .max_size(READERS)
        .min_idle(Some(1))
        .test_on_check_out(test)
        .build(Readers { url: url.to_owned() })?)
}
