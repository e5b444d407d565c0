/// A storage failure. These are the server's fault: the API answers 500 with a generic body
/// and logs the detail.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("database error: {0}")]
    Query(#[from] diesel::result::Error),
    #[error("cannot connect to the database: {0}")]
    Connection(#[from] diesel::ConnectionError),
    #[error("connection pool error: {0}")]
    Pool(#[from] diesel::r2d2::PoolError),
    #[error("migration failed: {0}")]
    Migration(String),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    #[error("the writer connection was poisoned by a panic")]
    Poisoned,
    /// Code running in a write transaction panicked; the transaction was rolled back.
    #[error("a write panicked and was rolled back: {0}")]
    Panicked(String),
    /// The transaction holding a change failed to commit (or was abandoned); the change is not
    /// stored.
    #[error("the transaction holding this change was not committed: {0}")]
    CommitFailed(String),
    /// The writer thread cannot take changes (it could not start, or has stopped).
    #[error("{0}")]
    WriterStopped(String),
    /// Another process (another server) holds the database file's lock.
    #[error(
        "the database {database} is in use by another Skirmish server (it holds the lock file \
         {lock_file}); stop that server or use another database file"
    )]
    InUse { database: String, lock_file: String },
    /// The lock file could not be opened or locked.
    #[error("{0}")]
    Lock(String),
}

/// Why a mutation did not happen. Only `Db` is the server's fault.
#[derive(Debug, thiserror::Error)]
pub enum MutateError<E> {
    #[error("encounter not found")]
    NotFound,
    /// The client's `If-Match` names an older version.
    #[error("the encounter is at version {current}, not {expected}")]
    VersionMismatch { expected: i64, current: i64 },
    /// The idempotency key was used before with a different request.
    #[error("this Idempotency-Key was already used with a different request")]
    IdempotencyMismatch,
    /// The domain refused the command.
    #[error(transparent)]
    Domain(E),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl<E> From<diesel::result::Error> for MutateError<E> {
    fn from(error: diesel::result::Error) -> Self {
        Self::Db(DbError::Query(error))
    }
}
