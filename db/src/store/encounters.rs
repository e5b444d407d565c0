//! Encounters: create, change, read, list, delete, and their event logs.

use super::idempotency::{IdempotencyKey, Reply, StoredResponse, remember, replay};
use super::{NOW, Store};
use crate::error::{DbError, MutateError};
use crate::rows::{
    CombatantRow, EffectRow, EncounterChanges, EncounterRow, EventRow, NewEncounterRow, combatant_rows,
    effect_rows, encounter_from_rows, event_row,
};
use crate::schema::{combatants, effects, encounters, events, idempotency_records};
use diesel::dsl::{max, sql};
use diesel::prelude::*;
use diesel::sql_types::Text;
use skirmish_domain::encounter::{Encounter, EncounterId, Event};

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

/// A change as stored: the encounter after it, the events it appended, and the command's output.
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

impl Store {
    /// Stores a new encounter for `tenant` with its first events; `render` turns the result into
    /// the response, which an idempotency key keeps for replays. If `render` fails, nothing is
    /// stored.
    pub fn create<E>(
        &self,
        tenant: &str,
        encounter: &Encounter,
        new_events: &[Event],
        key: Option<&IdempotencyKey>,
        render: impl FnOnce(Mutation<()>) -> Result<StoredResponse, E>,
    ) -> Result<Reply, MutateError<E>> {
        self.write(|conn| {
            conn.immediate_transaction(|conn| {
                if let Some(reply) = key.map(|key| replay(conn, tenant, key)).transpose()?.flatten() {
                    return Ok(reply);
                }
                let row = NewEncounterRow { state: EncounterChanges::from_domain(encounter)?, tenant };
                diesel::insert_into(encounters::table).values(row).execute(conn)?;
                save_children(conn, encounter)?;
                let events = append_events(conn, &encounter.id, new_events)?;
                let stored = load(conn, tenant, &encounter.id)?.ok_or(MutateError::NotFound)?;
                let response = render(Mutation { encounter: stored, events, output: () })
                    .map_err(MutateError::Domain)?;
                finish(conn, tenant, key, &encounter.id, response)
            })
        })?
    }

    /// Loads the tenant's encounter, applies `command`, checks `expected_version`, stores the new
    /// state (version + 1) with the events it returned and renders the response — all in one
    /// transaction on the single writer, so concurrent changes to one encounter apply one after
    /// another and an idempotency key's retry replays instead of applying again. If the command
    /// or `render` fails, the transaction rolls back and nothing is stored.
    pub fn mutate<T, E>(
        &self,
        tenant: &str,
        id: &EncounterId,
        expected_version: Option<i64>,
        key: Option<&IdempotencyKey>,
        command: impl FnOnce(&mut Encounter) -> Result<(Vec<Event>, T), E>,
        render: impl FnOnce(Mutation<T>) -> Result<StoredResponse, E>,
    ) -> Result<Reply, MutateError<E>> {
        self.write(|conn| {
            conn.immediate_transaction(|conn| {
                if let Some(reply) = key.map(|key| replay(conn, tenant, key)).transpose()?.flatten() {
                    return Ok(reply);
                }
                let mut encounter = load(conn, tenant, id)?.ok_or(MutateError::NotFound)?.encounter;
                let current = encounter.version;
                // A request that would fail anyway gets that failure, not 412 (RFC 9110, 13.2.1):
                // the command runs first, and the transaction discards it on a stale version.
                let (new_events, output) = command(&mut encounter).map_err(MutateError::Domain)?;
                if let Some(expected) = expected_version.filter(|v| *v != current) {
                    return Err(MutateError::VersionMismatch { expected, current });
                }
                encounter.version += 1;
                diesel::update(encounters::table.find(id.as_str()))
                    .set((
                        EncounterChanges::from_domain(&encounter)?,
                        encounters::updated_at.eq(sql::<Text>(NOW)),
                    ))
                    .execute(conn)?;
                save_children(conn, &encounter)?;
                let events = append_events(conn, id, &new_events)?;
                let stored = load(conn, tenant, id)?.ok_or(MutateError::NotFound)?;
                let response =
                    render(Mutation { encounter: stored, events, output }).map_err(MutateError::Domain)?;
                finish(conn, tenant, key, id, response)
            })
        })?
    }

    pub fn get(&self, tenant: &str, id: &EncounterId) -> Result<Option<StoredEncounter>, DbError> {
        load(&mut *self.read()?, tenant, id)
    }

    /// The tenant's encounters, oldest first (in insertion order: SQLite's rowid, since
    /// timestamps have only millisecond precision).
    pub fn list(&self, tenant: &str, limit: i64, offset: i64) -> Result<EncounterPage, DbError> {
        let conn = &mut self.read()?;
        conn.transaction(|conn| {
            let owned = encounters::table.filter(encounters::tenant.eq(tenant));
            let total = owned.count().get_result(conn)?;
            let ids: Vec<String> = owned
                .select(encounters::id)
                .order(sql::<diesel::sql_types::BigInt>("rowid"))
                .limit(limit)
                .offset(offset)
                .load(conn)?;
            let encounters = ids
                .into_iter()
                .filter_map(|id| load(conn, tenant, &EncounterId(id)).transpose())
                .collect::<Result<Vec<_>, _>>()?;
            Ok(EncounterPage { encounters, total })
        })
    }

    /// Deletes the tenant's encounter with its combatants, effects, events and idempotency
    /// records. False if there is no such encounter for this tenant.
    pub fn delete(&self, tenant: &str, id: &EncounterId) -> Result<bool, DbError> {
        let target =
            encounters::table.filter(encounters::id.eq(id.as_str()).and(encounters::tenant.eq(tenant)));
        let records = idempotency_records::table.filter(idempotency_records::encounter_id.eq(id.as_str()));
        let deleted = self.write(|conn| {
            conn.immediate_transaction(|conn| {
                let deleted = diesel::delete(target).execute(conn)?;
                if deleted > 0 {
                    diesel::delete(records).execute(conn)?;
                }
                Ok::<_, diesel::result::Error>(deleted)
            })
        })??;
        Ok(deleted > 0)
    }

    /// Events with `seq > after`, in order, at most `limit`. `None` if the tenant has no such
    /// encounter.
    pub fn events(
        &self,
        tenant: &str,
        id: &EncounterId,
        after: i64,
        limit: i64,
    ) -> Result<Option<Vec<StoredEvent>>, DbError> {
        let conn = &mut self.read()?;
        conn.transaction(|conn| {
            if !owned(conn, tenant, id)? {
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

/// Keeps the response for the idempotency key, if any, and hands it back.
fn finish<E>(
    conn: &mut SqliteConnection,
    tenant: &str,
    key: Option<&IdempotencyKey>,
    encounter: &EncounterId,
    response: StoredResponse,
) -> Result<Reply, MutateError<E>> {
    if let Some(key) = key {
        remember(conn, tenant, key, Some(encounter.as_str()), &response)?;
    }
    Ok(Reply { response, replayed: false })
}

fn owned(conn: &mut SqliteConnection, tenant: &str, id: &EncounterId) -> Result<bool, DbError> {
    let query = encounters::table.filter(encounters::id.eq(id.as_str()).and(encounters::tenant.eq(tenant)));
    Ok(diesel::select(diesel::dsl::exists(query)).get_result(conn)?)
}

fn load(
    conn: &mut SqliteConnection,
    tenant: &str,
    id: &EncounterId,
) -> Result<Option<StoredEncounter>, DbError> {
    let Some(row) = encounters::table
        .filter(encounters::id.eq(id.as_str()).and(encounters::tenant.eq(tenant)))
        .select(EncounterRow::as_select())
        .first(conn)
        .optional()?
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
