//! `skirmish copy-data`: moves everything a SQLite database holds (tenants' API keys,
//! encounters with their event logs and undo history, idempotency records, webhooks with their
//! pending deliveries and attempts, viewer links, creature libraries, templates) into a PostgreSQL database, table by table
//! through the shared schema, in one transaction on the target.

mod rows;

pub use rows::*;

use crate::backend::{Backend, DbConnection};
use crate::connection::{database_path, open_writer};
use crate::error::DbError;
use crate::exclusive::lock_exclusively;
use crate::schema;
use crate::store::Store;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::BigInt;

/// Rows per INSERT (the widest table has 17 columns: far below PostgreSQL's 65 535 parameters).
const BATCH: usize = 1000;

/// Why `copy-data` did not copy; the target is left as it was.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("--from must name a SQLite database file, not {0}")]
    SourceNotSqlite(String),
    #[error("--to must be a postgres:// or postgresql:// URL, not {0}")]
    TargetNotPostgres(String),
    #[error("there is no SQLite database file at {0}")]
    NoSourceFile(String),
    #[error(
        "the target database already holds {0} rows; copy into an empty database, or pass \
         --into-non-empty to add these rows to it (any clashing key then fails the whole copy)"
    )]
    TargetNotEmpty(i64),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<diesel::result::Error> for CopyError {
    fn from(error: diesel::result::Error) -> Self {
        Self::Db(DbError::Query(error))
    }
}

/// Declares [`Snapshot`]: every table, in an order where a row's parents come first.
macro_rules! snapshot {
    ($($field:ident: $row:ident from $table:ident by $order:expr;)*) => {
        /// Every row of every table, each table in a fixed order (encounters in insertion
        /// order, which lists follow; the rest by primary key).
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct Snapshot {
            $(pub $field: Vec<$row>,)*
        }

        impl Snapshot {
            /// Reads every table of the database behind `connection`.
            pub fn read(connection: &mut DbConnection) -> Result<Self, DbError> {
                Ok(Self {
                    $($field: schema::$table::table
                        .select($row::as_select())
                        .order($order)
                        .load(connection)?,)*
                })
            }

            /// Each table's name and row count, in copying order.
            pub fn counts(&self) -> Vec<(&'static str, usize)> {
                vec![$((stringify!($table), self.$field.len()),)*]
            }

            fn insert(
                &self,
                target: &mut PgConnection,
                progress: &mut dyn FnMut(&str, usize),
            ) -> QueryResult<()> {
                $(
                    for chunk in self.$field.chunks(BATCH) {
                        diesel::insert_into(schema::$table::table).values(chunk).execute(target)?;
                    }
                    progress(stringify!($table), self.$field.len());
                )*
                Ok(())
            }
        }

        /// How many rows the database behind `target` holds, all tables together.
        fn rows_held(target: &mut PgConnection) -> QueryResult<i64> {
            let mut total = 0;
            $(total += schema::$table::table.count().get_result::<i64>(target)?;)*
            Ok(total)
        }
    };
}

snapshot! {
    api_keys: ApiKeyRecord from api_keys by schema::api_keys::id;
    encounters: EncounterRecord from encounters by sql::<BigInt>("rowid");
    combatants: CombatantRecord from combatants
        by (schema::combatants::encounter_id, schema::combatants::id);
    effects: EffectRecord from effects by (schema::effects::encounter_id, schema::effects::id);
    events: EventRecord from events by (schema::events::encounter_id, schema::events::seq);
    history: HistoryRecord from encounter_history
        by (schema::encounter_history::encounter_id, schema::encounter_history::slot);
    idempotency: IdempotencyRecord from idempotency_records
        by (schema::idempotency_records::tenant, schema::idempotency_records::key);
    viewers: ViewerRecord from viewers by schema::viewers::id;
    creatures: CreatureRecord from creatures by (schema::creatures::tenant, schema::creatures::id);
    templates: TemplateRecord from templates by (schema::templates::tenant, schema::templates::id);
    webhooks: WebhookRecord from webhooks by schema::webhooks::id;
    deliveries: DeliveryRecord from webhook_deliveries by schema::webhook_deliveries::n;
    attempts: AttemptRecord from webhook_attempts
        by (schema::webhook_attempts::delivery_n, schema::webhook_attempts::attempt);
}

/// Copies the SQLite database `from` into the PostgreSQL database `to`: migrates both first,
/// holds the SQLite file's server lock (no server may write meanwhile), refuses a target holding
/// any row unless `into_non_empty`, inserts every table in one transaction (calling `progress`
/// with each table's name and row count as it is inserted), moves PostgreSQL's serial counters
/// past the copied ids, and answers each table's row count.
pub fn copy_sqlite_to_postgres(
    from: &str,
    to: &str,
    into_non_empty: bool,
    progress: &mut dyn FnMut(&str, usize),
) -> Result<Vec<(&'static str, usize)>, CopyError> {
    if Backend::of(from) != Backend::Sqlite {
        return Err(CopyError::SourceNotSqlite(from.to_owned()));
    }
    if Backend::of(to) != Backend::Postgres {
        return Err(CopyError::TargetNotPostgres(to.to_owned()));
    }
    let path = database_path(from);
    if !std::path::Path::new(path).is_file() {
        return Err(CopyError::NoSourceFile(path.to_owned()));
    }
    let _lock = lock_exclusively(path)?;
    Store::migrate(from)?;
    Store::migrate(to)?;
    let snapshot = open_writer(from)?.transaction(Snapshot::read)?;
    let mut target = PgConnection::establish(to).map_err(DbError::from)?;
    target.transaction(|target| {
        let held = rows_held(target)?;
        if held > 0 && !into_non_empty {
            return Err(CopyError::TargetNotEmpty(held));
        }
        snapshot.insert(target, progress)?;
        restart_serials(target)?;
        Ok(())
    })?;
    Ok(snapshot.counts())
}

/// Moves the serial counters past the highest copied id, so rows added later get new ones
/// (`encounters.rowid` is not copied: PostgreSQL numbers the copies in insertion order).
fn restart_serials(target: &mut PgConnection) -> QueryResult<()> {
    diesel::sql_query(
        "SELECT setval(pg_get_serial_sequence('webhook_deliveries', 'n'), \
         COALESCE((SELECT MAX(n) FROM webhook_deliveries), 1), \
         (SELECT MAX(n) FROM webhook_deliveries) IS NOT NULL)",
    )
    .execute(target)?;
    Ok(())
}

/// A plain connection to the database at `url` (either backend), e.g. to read a [`Snapshot`].
pub fn open_connection(url: &str) -> Result<DbConnection, DbError> {
    open_writer(url)
}
