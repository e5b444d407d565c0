//! Reading encounters and event logs. Each read is one read transaction — one snapshot, so the
//! encounter and its combatants and effects always come from the same version — with a fixed
//! number of statements however many encounters or combatants it returns.

use super::Store;
use super::types::{StoredEncounter, StoredEvent};
use crate::backend::DbConnection;
use crate::error::DbError;
use crate::rows::{CombatantRow, EffectRow, EncounterRow, EventRow, encounter_from_rows};
use crate::schema::{combatants, effects, encounters, events};
use diesel::connection::DefaultLoadingMode;
use diesel::prelude::*;
use skirmish_domain::encounter::EncounterId;
use std::collections::HashMap;

impl Store {
    /// The tenant's encounter, read in one snapshot (three statements).
    pub fn get(&self, tenant: &str, id: &EncounterId) -> Result<Option<StoredEncounter>, DbError> {
        self.read()?.transaction(|conn| load(conn, tenant, id))
    }

    /// The tenant's encounter unless it is still at version `known` (then only that is said):
    /// one statement when unchanged (a statement is a snapshot of its own), else the encounter
    /// read in one read transaction.
    pub fn get_if_changed(
        &self,
        tenant: &str,
        id: &EncounterId,
        known: Option<i64>,
    ) -> Result<Option<Fresh>, DbError> {
        if_changed(&mut *self.read()?, tenant, id, known)
    }

    /// [`Store::get_if_changed`] if a reader is free right now (`None` if all are busy).
    pub fn try_get_if_changed(
        &self,
        tenant: &str,
        id: &EncounterId,
        known: Option<i64>,
    ) -> Option<Result<Option<Fresh>, DbError>> {
        let mut conn = self.readers.try_get()?;
        Some(if_changed(&mut conn, tenant, id, known))
    }

    /// [`Store::get`] if a reader is free right now (`None` if all are busy), so a caller that
    /// must not block can fall back to a thread that may. A WAL reader never waits for the
    /// writer, so the read itself does not block.
    pub fn try_get(
        &self,
        tenant: &str,
        id: &EncounterId,
    ) -> Option<Result<Option<StoredEncounter>, DbError>> {
        let mut conn = self.readers.try_get()?;
        Some(conn.transaction(|conn| load(conn, tenant, id)))
    }

    /// The tenant's encounter and its whole log, oldest first, read in one snapshot (for an
    /// export: the log ends at the encounter's version). `None` if there is no such encounter;
    /// [`WithLog::TooLong`] if its log holds more than `max_events` events.
    pub fn encounter_with_log(
        &self,
        tenant: &str,
        id: &EncounterId,
        max_events: i64,
    ) -> Result<Option<WithLog>, DbError> {
        self.read()?.transaction(|conn| {
            let Some(encounter) = load(conn, tenant, id)? else { return Ok(None) };
            let logged = events::table.filter(events::encounter_id.eq(id.as_str()));
            let held: i64 = logged.count().get_result(conn)?;
            if held > max_events {
                return Ok(Some(WithLog::TooLong(held)));
            }
            let rows: Vec<EventRow> = logged.order(events::seq).select(EventRow::as_select()).load(conn)?;
            let events = rows.into_iter().map(stored_event).collect::<Result<Vec<_>, _>>()?;
            Ok(Some(WithLog::Read(Box::new(encounter), events)))
        })
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
        self.read()?.transaction(|conn| {
            let query =
                encounters::table.filter(encounters::id.eq(id.as_str()).and(encounters::tenant.eq(tenant)));
            if !diesel::select(diesel::dsl::exists(query)).get_result::<bool>(conn)? {
                return Ok(None);
            }
            // No `LIMIT ?`: a bound limit makes SQLite re-prepare the statement on every call.
            // The rows are stepped through lazily and the statement is reset after `limit`.
            let rows = events::table
                .filter(events::encounter_id.eq(id.as_str()).and(events::seq.gt(after)))
                .order(events::seq)
                .select(EventRow::as_select())
                .load_iter::<EventRow, DefaultLoadingMode>(conn)?;
            let wanted = usize::try_from(limit).unwrap_or(0);
            rows.take(wanted).map(|row| stored_event(row?)).collect::<Result<Vec<_>, _>>().map(Some)
        })
    }
}

/// An encounter with its whole log, as read by [`Store::encounter_with_log`].
#[derive(Debug)]
pub enum WithLog {
    Read(Box<StoredEncounter>, Vec<StoredEvent>),
    /// The log holds this many events, more than asked for.
    TooLong(i64),
}

/// An encounter as read by [`Store::get_if_changed`].
#[derive(Debug)]
pub enum Fresh {
    /// Still at the version the caller knows.
    Unchanged(i64),
    Changed(Box<StoredEncounter>),
}

fn if_changed(
    conn: &mut DbConnection,
    tenant: &str,
    id: &EncounterId,
    known: Option<i64>,
) -> Result<Option<Fresh>, DbError> {
    if let Some(known) = known {
        let version: Option<i64> = encounters::table
            .filter(encounters::id.eq(id.as_str()).and(encounters::tenant.eq(tenant)))
            .select(encounters::version)
            .get_result(conn)
            .optional()?;
        match version {
            None => return Ok(None),
            Some(version) if version == known => return Ok(Some(Fresh::Unchanged(version))),
            Some(_) => {}
        }
    }
    let stored = conn.transaction(|conn| load(conn, tenant, id))?;
    Ok(stored.map(|stored| Fresh::Changed(Box::new(stored))))
}

/// Rows grouped by encounter, each group in the order it came.
pub(super) fn grouped<R>(rows: Vec<R>, key: impl Fn(&R) -> String) -> HashMap<String, Vec<R>> {
    let mut groups: HashMap<String, Vec<R>> = HashMap::new();
    for row in rows {
        groups.entry(key(&row)).or_default().push(row);
    }
    groups
}

/// The tenant's encounter on `conn` (three statements; the caller holds the transaction).
pub(super) fn load(
    conn: &mut DbConnection,
    tenant: &str,
    id: &EncounterId,
) -> Result<Option<StoredEncounter>, DbError> {
    // `get_result`, not `first`: a bound `LIMIT ?` makes SQLite re-prepare the statement on every
    // call, and a primary-key lookup finds one row at most anyway.
    let Some(row) = encounters::table
        .filter(encounters::id.eq(id.as_str()).and(encounters::tenant.eq(tenant)))
        .select(EncounterRow::as_select())
        .get_result(conn)
        .optional()?
    else {
        return Ok(None);
    };
    load_children(conn, row).map(Some)
}

/// The encounter of `row` with its combatants and effects, read on `conn` (two statements).
pub(super) fn load_children(conn: &mut DbConnection, row: EncounterRow) -> Result<StoredEncounter, DbError> {
    let combatant_rows: Vec<CombatantRow> = combatants::table
        .filter(combatants::encounter_id.eq(row.id.as_str()))
        .order(combatants::position)
        .select(CombatantRow::as_select())
        .load(conn)?;
    let effect_rows: Vec<EffectRow> = effects::table
        .filter(effects::encounter_id.eq(row.id.as_str()))
        .order(effects::position)
        .select(EffectRow::as_select())
        .load(conn)?;
    stored(row, combatant_rows, effect_rows)
}

pub(super) fn stored(
    row: EncounterRow,
    combatants: Vec<CombatantRow>,
    effects: Vec<EffectRow>,
) -> Result<StoredEncounter, DbError> {
    let (created_at, updated_at) = (row.created_at.clone(), row.updated_at.clone());
    let encounter = encounter_from_rows(row, combatants, effects)?;
    Ok(StoredEncounter { encounter, created_at, updated_at })
}

pub(super) fn stored_event(row: EventRow) -> Result<StoredEvent, DbError> {
    let data =
        serde_json::from_str(&row.data).map_err(|e| DbError::Corrupt(format!("event {}: {e}", row.seq)))?;
    Ok(StoredEvent { seq: row.seq, kind: row.kind, data, created_at: row.created_at })
}
