//! Throwaway PostgreSQL databases for tests, one per test so tests stay parallel: each is
//! copied from a migrated template (created once per set of migrations, under an advisory lock
//! so concurrent test processes share it) and dropped with `DROP DATABASE … WITH (FORCE)`.

use crate::error::DbError;
use crate::store::POSTGRES_MIGRATIONS;
use diesel::migration::MigrationSource;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicU64, Ordering};

/// The PostgreSQL server tests use unless `SKIRMISH_TEST_DATABASE_URL` names another.
pub const DEFAULT_TEST_SERVER: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// Serialises template creation across processes.
const TEMPLATE_LOCK: i64 = 0x54B1_7E57;

/// A database made for one test; dropped (with whatever sessions are still open) when this is.
#[derive(Debug)]
pub struct ScratchDatabase {
    /// Its URL, for a store or a server.
    pub url: String,
    name: String,
    server: String,
}

/// The PostgreSQL server for tests: `SKIRMISH_TEST_DATABASE_URL`, else [`DEFAULT_TEST_SERVER`],
/// if it answers. When it does not: with `CI=true` this panics (CI must run the PostgreSQL leg);
/// elsewhere it says loudly on stderr (once per process) that the leg is skipped and how to run
/// it, and answers `None`.
pub fn test_server() -> Option<String> {
    static CHECKED: std::sync::OnceLock<Result<String, String>> = std::sync::OnceLock::new();
    let checked = CHECKED.get_or_init(|| {
        let url =
            std::env::var("SKIRMISH_TEST_DATABASE_URL").unwrap_or_else(|_| DEFAULT_TEST_SERVER.to_owned());
        match PgConnection::establish(&url) {
            Ok(_) => Ok(url),
            Err(error) => Err(format!("PostgreSQL at {url} does not answer: {error}")),
        }
    });
    match checked {
        Ok(url) => Some(url.clone()),
        Err(why) if std::env::var("CI").is_ok_and(|ci| ci == "true") => {
            panic!("{why} (CI=true: the PostgreSQL leg must run)")
        }
        Err(why) => {
            static TOLD: std::sync::Once = std::sync::Once::new();
            TOLD.call_once(|| {
                use std::io::Write;
                // Straight to stderr, past the test harness's capture of `eprintln!`.
                let _ = writeln!(
                    std::io::stderr(),
                    "\n==== THE POSTGRESQL LEG OF THE TESTS IS SKIPPED ====\n{why}\nRun it with a \
                     PostgreSQL server that trusts local connections (15 or later), e.g.\n  \
                     SKIRMISH_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres cargo test \
                     --workspace\n(CI=true makes an unreachable server fail the run.)\n"
                );
            });
            None
        }
    }
}

impl ScratchDatabase {
    /// A fresh, migrated database on the PostgreSQL server of `server_url` (a URL of any
    /// database there that may create databases, e.g. `postgres://127.0.0.1/test`).
    pub fn create(server_url: &str) -> Result<Self, DbError> {
        let mut admin = PgConnection::establish(server_url)?;
        let template = template_name()?;
        ensure_template(&mut admin, server_url, &template)?;
        let name = unique_name();
        diesel::sql_query(format!("CREATE DATABASE {name} TEMPLATE {template}")).execute(&mut admin)?;
        let url = with_database(server_url, &name);
        Ok(Self { url, name, server: server_url.to_owned() })
    }

    /// An empty database (no schema at all), e.g. to test migrations from nothing.
    pub fn create_empty(server_url: &str) -> Result<Self, DbError> {
        let mut admin = PgConnection::establish(server_url)?;
        let name = unique_name();
        diesel::sql_query(format!("CREATE DATABASE {name} TEMPLATE template0")).execute(&mut admin)?;
        let url = with_database(server_url, &name);
        Ok(Self { url, name, server: server_url.to_owned() })
    }
}

impl Drop for ScratchDatabase {
    fn drop(&mut self) {
        let dropped = PgConnection::establish(&self.server).map_err(DbError::from).and_then(|mut admin| {
            diesel::sql_query(format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name))
                .execute(&mut admin)
                .map_err(DbError::from)
        });
        if let Err(error) = dropped {
            log::warn!("could not drop the test database {}: {error}", self.name);
        }
    }
}

/// The template of the current migrations: named by a digest of their names, so a new migration
/// gets a new template (and a changed one needs a new name, as diesel requires anyway).
fn template_name() -> Result<String, DbError> {
    let migrations = MigrationSource::<Pg>::migrations(&POSTGRES_MIGRATIONS)
        .map_err(|e| DbError::Migration(e.to_string()))?;
    let mut digest = Sha256::new();
    for migration in &migrations {
        digest.update(migration.name().to_string().as_bytes());
        digest.update(b"\n");
    }
    Ok(format!("skirmish_template_{}", &crate::hex(&digest.finalize())[..16]))
}

/// Creates and migrates `template` unless it exists (under a session lock: `CREATE DATABASE`
/// cannot run in a transaction).
fn ensure_template(admin: &mut PgConnection, server_url: &str, template: &str) -> Result<(), DbError> {
    diesel::sql_query("SELECT pg_advisory_lock($1)").bind::<BigInt, _>(TEMPLATE_LOCK).execute(admin)?;
    let made = make_template(admin, server_url, template);
    diesel::sql_query("SELECT pg_advisory_unlock($1)").bind::<BigInt, _>(TEMPLATE_LOCK).execute(admin)?;
    made
}

fn make_template(admin: &mut PgConnection, server_url: &str, template: &str) -> Result<(), DbError> {
    #[derive(QueryableByName)]
    struct Found {
        #[diesel(sql_type = BigInt)]
        found: i64,
    }
    let found: Found = diesel::sql_query("SELECT count(*) AS found FROM pg_database WHERE datname = $1")
        .bind::<Text, _>(template)
        .get_result(admin)?;
    if found.found > 0 {
        return Ok(());
    }
    let building = format!("{template}_building_{}", std::process::id());
    diesel::sql_query(format!("DROP DATABASE IF EXISTS {building} WITH (FORCE)")).execute(admin)?;
    diesel::sql_query(format!("CREATE DATABASE {building} TEMPLATE template0")).execute(admin)?;
    crate::Store::migrate(&with_database(server_url, &building))?;
    diesel::sql_query(format!("ALTER DATABASE {building} RENAME TO {template}")).execute(admin)?;
    Ok(())
}

/// A name no other test (of this or another process) uses.
fn unique_name() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.subsec_nanos());
    format!("skirmish_test_{}_{}_{nanos}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// `url` with its database name replaced by `database` (query parameters kept).
fn with_database(url: &str, database: &str) -> String {
    let (base, query) = url.split_once('?').map_or((url, None), |(base, query)| (base, Some(query)));
    let after_scheme = base.find("://").map_or(0, |at| at + 3);
    let base = match base[after_scheme..].find('/') {
        Some(slash) => &base[..after_scheme + slash],
        None => base,
    };
    match query {
        Some(query) => format!("{base}/{database}?{query}"),
        None => format!("{base}/{database}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_names_another_database() {
        assert_eq!(with_database("postgres://127.0.0.1/test", "x"), "postgres://127.0.0.1/x");
        assert_eq!(with_database("postgres://u@h:5432", "x"), "postgres://u@h:5432/x");
        assert_eq!(
            with_database("postgresql://h/db?sslmode=disable", "x"),
            "postgresql://h/x?sslmode=disable"
        );
    }
}
