//! The two backends behind one connection type: SQLite (a file, one server process) and
//! PostgreSQL (any number of server processes, "replicas", sharing one database). The backend is
//! chosen by the database URL's scheme; everything written once (row mapping, diffs, undo, the
//! outbox, the event log) runs on [`DbConnection`], and only what truly differs matches on it.

use diesel::{PgConnection, SqliteConnection};

/// A connection to either backend (diesel's `MultiConnection`: queries written once run on
/// both, and a `match` reaches the backend's own connection where SQL differs).
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Pg(PgConnection),
    Sqlite(SqliteConnection),
}

/// Which backend a database URL names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// A file path, `sqlite://path` or `sqlite:path`: one server process (it holds the file's lock).
    Sqlite,
    /// `postgres://…` or `postgresql://…`: any number of server processes.
    Postgres,
}

impl Backend {
    /// The backend of `url`: PostgreSQL for `postgres://` and `postgresql://`, else SQLite.
    pub fn of(url: &str) -> Self {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Self::Postgres
        } else {
            Self::Sqlite
        }
    }
}

impl DbConnection {
    /// Which backend this connection speaks.
    pub fn backend(&self) -> Backend {
        match self {
            Self::Pg(_) => Backend::Postgres,
            Self::Sqlite(_) => Backend::Sqlite,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scheme_chooses_the_backend() {
        assert_eq!(Backend::of("postgres://127.0.0.1/test"), Backend::Postgres);
        assert_eq!(Backend::of("postgresql://u@h:5432/db"), Backend::Postgres);
        assert_eq!(Backend::of("skirmish.db"), Backend::Sqlite);
        assert_eq!(Backend::of("sqlite://x.db"), Backend::Sqlite);
        assert_eq!(Backend::of("/var/lib/postgres.db"), Backend::Sqlite);
    }
}
