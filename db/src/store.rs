//! The repository: load, create, mutate, list and delete encounters; read their event logs.

use crate::connection::{ReaderPool, database_path, open_readers, open_writer};
use crate::error::{DbError, MutateError};
use crate::rows::{
    CombatantRow, EffectRow, EncounterChanges, EncounterRow, EventRow, combatant_rows, effect_rows,
    encounter_from_rows, event_row,
};
use crate::schema::{combatants, effects, encounters, events};
use diesel::dsl::{max, sql};
use diesel::prelude::*;
use diesel::sql_types::Text;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use skirmish_domain::encounter::{Encounter, EncounterId, Event};
use std::sync::{Arc, Mutex};

const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");
const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// An encounter with its storage timestamps.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEncounter {
    pub encounter: Encounter,
    pub created_at: String,
    pub updated_at: String,
}

/// One stored event: its place in the log, when it was stored, and the event as JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    pub seq: i64,
    pub kind: String,
    pub data: serde_json::Value,
    pub created_at: String,
}

/// The outcome of a stored mutation.
#[derive(Debug, Clone)]
pub struct Mutation<T> {
    pub encounter: StoredEncounter,
    pub events: Vec<StoredEvent>,
    pub output: T,
}

pub struct EncounterPage {
    pub encounters: Vec<StoredEncounter>,
    pub total: i64,
}

#[derive(Clone)]
pub struct Store {
    writer: Arc<Mutex<SqliteConnection>>,
    readers: ReaderPool,
}

impl Store {
    /// Opens (creating if needed) the database at `url` and applies pending migrations.
    pub fn open(url: &str) -> Result<Self, DbError> {
        let path = database_path(url);
        let mut writer = open_writer(path)?;
        writer.run_pending_migrations(MIGRATIONS).map_err(|e| DbError::Migration(e.to_string()))?;
        Ok(Self { writer: Arc::new(Mutex::new(writer)), readers: open_readers(path)? })
    }

    fn write<T>(&self, work: impl FnOnce(&mut SqliteConnection) -> T) -> Result<T, DbError> {
        let mut connection = self.writer.lock().map_err(|_| DbError::Poisoned)?;
        Ok(work(&mut connection))
    }

    /// Stores a new encounter and its first events.
    pub fn create(&self, encounter: &Encounter, new_events: &[Event]) -> Result<Mutation<()>, DbError> {
        self.write(|conn| {
            conn.immediate_transaction(|conn| {
                diesel::insert_into(encounters::table)
                    .values(EncounterChanges::from_domain(encounter)?)
                    .execute(conn)?;
                save_children(conn, encounter)?;
                let stored = append_events(conn, &encounter.id, new_events)?;
                let encounter = load(conn, &encounter.id)?.ok_or(DbError::Query(diesel::NotFound))?;
                Ok(Mutation { encounter, events: stored, output: () })
            })
        })?
    }

    /// Loads the encounter, checks `expected_version`, applies `command`, and stores the new
    /// state (version + 1) with the events the command returned — all in one transaction under
    /// the writer lock, so concurrent mutations of one encounter are applied one after another.
    pub fn mutate<T, E>(
        &self,
        id: &EncounterId,
        expected_version: Option<i64>,
        command: impl FnOnce(&mut Encounter) -> Result<(Vec<Event>, T), E>,
    ) -> Result<Mutation<T>, MutateError<E>> {
        self.write(|conn| {
            conn.immediate_transaction(|conn| {
                let mut encounter = load(conn, id)?.ok_or(MutateError::NotFound)?.encounter;
                if let Some(expected) = expected_version.filter(|v| *v != encounter.version) {
                    return Err(MutateError::VersionMismatch { expected, current: encounter.version });
                }
                let (new_events, output) = command(&mut encounter).map_err(MutateError::Domain)?;
                encounter.version += 1;
                diesel::update(encounters::table.find(id.as_str()))
                    .set((
                        EncounterChanges::from_domain(&encounter)?,
                        encounters::updated_at.eq(sql::<Text>(NOW)),
                    ))
                    .execute(conn)?;
                save_children(conn, &encounter)?;
                let events = append_events(conn, id, &new_events)?;
                let encounter = load(conn, id)?.ok_or(MutateError::NotFound)?;
                Ok(Mutation { encounter, events, output })
            })
        })?
    }

    pub fn get(&self, id: &EncounterId) -> Result<Option<StoredEncounter>, DbError> {
        load(&mut *self.readers.get()?, id)
    }

    /// Encounters, oldest first.
    pub fn list(&self, limit: i64, offset: i64) -> Result<EncounterPage, DbError> {
        let conn = &mut self.readers.get()?;
        conn.transaction(|conn| {
            let total = encounters::table.count().get_result(conn)?;
            let ids: Vec<String> = encounters::table
                .select(encounters::id)
                .order((encounters::created_at, encounters::id))
                .limit(limit)
                .offset(offset)
                .load(conn)?;
            let encounters = ids
                .into_iter()
                .filter_map(|id| load(conn, &EncounterId(id)).transpose())
                .collect::<Result<Vec<_>, _>>()?;
            Ok(EncounterPage { encounters, total })
        })
    }

    /// Deletes an encounter with its combatants, effects and events. False if it did not exist.
    pub fn delete(&self, id: &EncounterId) -> Result<bool, DbError> {
        self.write(|conn| diesel::delete(encounters::table.find(id.as_str())).execute(conn))?
            .map(|deleted| deleted > 0)
            .map_err(DbError::from)
    }

    /// Events with `seq > after`, in order, at most `limit`. `None` if the encounter is unknown.
    pub fn events(
        &self,
        id: &EncounterId,
        after: i64,
        limit: i64,
    ) -> Result<Option<Vec<StoredEvent>>, DbError> {
        let conn = &mut self.readers.get()?;
        conn.transaction(|conn| {
            let exists: i64 = encounters::table.find(id.as_str()).count().get_result(conn)?;
            if exists == 0 {
                return Ok(None);
            }
            let rows: Vec<EventRow> = events::table
                .filter(events::encounter_id.eq(id.as_str()).and(events::seq.gt(after)))
                .order(events::seq)
                .limit(limit)
                .select(EventRow::as_select())
                .load(conn)?;
            rows.into_iter().map(stored_event).collect::<Result<Vec<_>, _>>().map(Some)
        })
    }
}

fn load(conn: &mut SqliteConnection, id: &EncounterId) -> Result<Option<StoredEncounter>, DbError> {
    let Some(row) =
        encounters::table.find(id.as_str()).select(EncounterRow::as_select()).first(conn).optional()?
    else {
        return Ok(None);
    };
    let combatant_rows: Vec<CombatantRow> = combatants::table
        .filter(combatants::encounter_id.eq(id.as_str()))
        .order(combatants::position)
        .select(CombatantRow::as_select())
        .load(conn)?;
    let effect_rows: Vec<EffectRow> = effects::table
        .filter(effects::encounter_id.eq(id.as_str()))
        .order(effects::position)
        .select(EffectRow::as_select())
        .load(conn)?;
    let (created_at, updated_at) = (row.created_at.clone(), row.updated_at.clone());
    let encounter = encounter_from_rows(row, combatant_rows, effect_rows)?;
    Ok(Some(StoredEncounter { encounter, created_at, updated_at }))
}

/// Replaces the encounter's combatants and effects with its current ones.
fn save_children(conn: &mut SqliteConnection, encounter: &Encounter) -> Result<(), DbError> {
    let id = encounter.id.as_str();
    diesel::delete(combatants::table.filter(combatants::encounter_id.eq(id))).execute(conn)?;
    diesel::delete(effects::table.filter(effects::encounter_id.eq(id))).execute(conn)?;
    diesel::insert_into(combatants::table).values(combatant_rows(encounter)?).execute(conn)?;
    diesel::insert_into(effects::table).values(effect_rows(encounter)?).execute(conn)?;
    Ok(())
}

fn append_events(
    conn: &mut SqliteConnection,
    id: &EncounterId,
    new: &[Event],
) -> Result<Vec<StoredEvent>, DbError> {
    let last: Option<i64> =
        events::table.filter(events::encounter_id.eq(id.as_str())).select(max(events::seq)).first(conn)?;
    let first = last.unwrap_or(0) + 1;
    let rows = new
        .iter()
        .zip(first..)
        .map(|(event, seq)| event_row(id, seq, event))
        .collect::<Result<Vec<_>, _>>()?;
    diesel::insert_into(events::table).values(&rows).execute(conn)?;
    let stored: Vec<EventRow> = events::table
        .filter(events::encounter_id.eq(id.as_str()).and(events::seq.ge(first)))
        .order(events::seq)
        .select(EventRow::as_select())
        .load(conn)?;
    stored.into_iter().map(stored_event).collect()
}

fn stored_event(row: EventRow) -> Result<StoredEvent, DbError> {
    let data =
        serde_json::from_str(&row.data).map_err(|e| DbError::Corrupt(format!("event {}: {e}", row.seq)))?;
    Ok(StoredEvent { seq: row.seq, kind: row.kind, data, created_at: row.created_at })
}

impl Store {
    /// Checks that a reader connection answers.
    pub fn ping(&self) -> Result<(), DbError> {
        diesel::sql_query("SELECT 1").execute(&mut *self.readers.get()?)?;
        Ok(())
    }
}
