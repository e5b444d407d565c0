//! Encounters: create, change, read, list, delete, and their event logs.

use super::Store;
use super::change_reply::{Applied, Loaded, Stored, answer};
use super::change_rows::{ChangeRows, insert_events, write_change};
use super::children::{insert_all, save_changes};
use super::clock::utc_now;
use super::committed::DELETED;
use super::history::history_entry;
use super::hot::Kept;
use super::idempotency::{IdempotencyKey, Reply, StoredResponse, replay};
use super::postgres::Notice;
use super::reads::{load, load_children};
use super::statements::UpdateEncounter;
use super::types::{Mutation, StoredEncounter, StoredEvent};
use super::writer::Written;
use crate::backend::DbConnection;
use crate::error::{DbError, MutateError};
use crate::rows::{EncounterChanges, EncounterRow, EventRow, NewEncounterRow, event_row};
use crate::schema::{encounters, events, idempotency_records};
use diesel::prelude::*;
use skirmish_domain::encounter::{Encounter, EncounterId, Event};
use std::future::Future;
use std::sync::Arc;

impl Store {
    /// Stores a new encounter for `tenant` with its first events; `render` turns the result into
    /// the response, which an idempotency key keeps for replays (then rendered in the change's
    /// savepoint: if it fails, nothing is stored; without a key it runs after the commit, outside
    /// the writer). Returns once the change is durable (see [`Store::mutate`]).
    pub fn create<E>(
        &self,
        tenant: &str,
        encounter: &Encounter,
        new_events: &[Event],
        key: Option<&IdempotencyKey>,
        render: impl FnOnce(Mutation<()>) -> Result<StoredResponse, E>,
    ) -> Result<Reply, MutateError<E>> {
        let written = self.write(|conn| self.apply_create(conn, tenant, encounter, new_events, key, render));
        self.after_commit(written).and_then(Applied::reply)
    }

    /// [`Store::create`] for an async caller (see [`Store::mutate_async`]).
    pub fn create_async<R, E>(
        &self,
        tenant: String,
        encounter: Encounter,
        new_events: Vec<Event>,
        key: Option<IdempotencyKey>,
        render: R,
    ) -> impl Future<Output = Written<Result<Reply, MutateError<E>>>> + Send + use<R, E>
    where
        R: FnOnce(Mutation<()>) -> Result<StoredResponse, E> + Send + 'static,
        E: Send + 'static,
    {
        self.apply_async(move |store, conn| {
            store.apply_create(conn, &tenant, &encounter, &new_events, key.as_ref(), render)
        })
    }

    /// The savepoint of a new encounter (see [`Store::create`]).
    fn apply_create<E, R>(
        &self,
        conn: &mut DbConnection,
        tenant: &str,
        encounter: &Encounter,
        new_events: &[Event],
        key: Option<&IdempotencyKey>,
        render: R,
    ) -> Result<Applied<(), R>, MutateError<E>>
    where
        R: FnOnce(Mutation<()>) -> Result<StoredResponse, E>,
    {
        let id = &encounter.id;
        if let Some(reply) = key.map(|key| replay(conn, tenant, key)).transpose()?.flatten() {
            return Ok(Applied::replied(id, reply));
        }
        let now = utc_now();
        let state = EncounterChanges::from_domain(encounter)?;
        let stamps = (encounters::created_at.eq(&now), encounters::updated_at.eq(&now));
        let row = (NewEncounterRow { state, tenant }, stamps);
        diesel::insert_into(encounters::table).values(row).execute(conn)?;
        insert_all(conn, encounter)?;
        let (rows, data) = event_rows(id, 0, &now, new_events)?;
        insert_events(conn, &rows)?;
        if let Some(notice) = appended(id, &rows) {
            self.tell(conn, &notice)?;
        }
        let events = stored_events(rows, data);
        let enqueued = self.enqueue_deliveries(conn, tenant, id.as_str(), &events, None)?;
        let told = self.worth_telling(id, &events);
        let stored =
            StoredEncounter { encounter: encounter.clone(), created_at: now.clone(), updated_at: now };
        let stored = Stored { encounter: Arc::new(stored), events, output: () };
        let done = answer(conn, tenant, key, id, stored, render)?;
        self.writer.note_changed(id.as_str(), encounter.version);
        Ok(Applied { id: id.clone(), done, told, enqueued, retired: None })
    }

    /// Loads the tenant's encounter, applies `command`, checks `expected_version`, stores what
    /// changed (version + 1) with the events it returned and renders the response from what was
    /// written — all in one savepoint on the single writer, so concurrent changes to one encounter
    /// apply one after another and an idempotency key's retry replays instead of applying again.
    /// If the command fails, the savepoint rolls back and nothing is stored. `render` runs in the
    /// savepoint only when an idempotency key keeps its response (and if it fails, nothing is
    /// stored); without a key nothing in the transaction needs the response, so it runs after
    /// the commit, outside the writer (and if it fails, the change stays stored). Returns only
    /// once the transaction holding the change is durably committed (group commit: see
    /// `writer.rs`).
    pub fn mutate<T, E>(
        &self,
        tenant: &str,
        id: &EncounterId,
        expected_version: Option<i64>,
        key: Option<&IdempotencyKey>,
        command: impl FnOnce(&mut Encounter) -> Result<(Vec<Event>, T), E>,
        render: impl FnOnce(Mutation<T>) -> Result<StoredResponse, E>,
    ) -> Result<Reply, MutateError<E>> {
        let command =
            |_: &mut DbConnection, encounter: &mut Encounter| command(encounter).map_err(MutateError::Domain);
        self.change(tenant, id, expected_version, key, command, render)
    }

    /// [`Store::mutate`] with a command that may also read the writer's connection (in the
    /// change's savepoint), as undo does to fetch an earlier state. Every change to an existing
    /// encounter goes through here: it keeps the state before the change for undo (see
    /// `history.rs`) and the writer's hot copy (see `hot.rs`) up to date.
    pub(super) fn change<T, E>(
        &self,
        tenant: &str,
        id: &EncounterId,
        expected_version: Option<i64>,
        key: Option<&IdempotencyKey>,
        command: impl FnOnce(&mut DbConnection, &mut Encounter) -> Result<(Vec<Event>, T), MutateError<E>>,
        render: impl FnOnce(Mutation<T>) -> Result<StoredResponse, E>,
    ) -> Result<Reply, MutateError<E>> {
        let written =
            self.write(|conn| self.apply_change(conn, tenant, id, expected_version, key, command, render));
        self.after_commit(written).and_then(Applied::reply)
    }

    /// [`Store::mutate`] for an async caller: the change runs on the writer thread and the
    /// caller awaits it holding no thread; without an idempotency key the response is rendered
    /// by the awaiting caller, after the commit. Answers with the write's timing.
    pub fn mutate_async<C, R, T, E>(
        &self,
        tenant: String,
        id: EncounterId,
        expected_version: Option<i64>,
        key: Option<IdempotencyKey>,
        command: C,
        render: R,
    ) -> impl Future<Output = Written<Result<Reply, MutateError<E>>>> + Send + use<C, R, T, E>
    where
        C: FnOnce(&mut Encounter) -> Result<(Vec<Event>, T), E> + Send + 'static,
        R: FnOnce(Mutation<T>) -> Result<StoredResponse, E> + Send + 'static,
        T: Send + 'static,
        E: Send + 'static,
    {
        let command =
            |_: &mut DbConnection, encounter: &mut Encounter| command(encounter).map_err(MutateError::Domain);
        self.change_async(tenant, id, expected_version, key, command, render)
    }

    /// [`Store::change`] for an async caller (see [`Store::mutate_async`]).
    pub(super) fn change_async<C, R, T, E>(
        &self,
        tenant: String,
        id: EncounterId,
        expected_version: Option<i64>,
        key: Option<IdempotencyKey>,
        command: C,
        render: R,
    ) -> impl Future<Output = Written<Result<Reply, MutateError<E>>>> + Send + use<C, R, T, E>
    where
        C: FnOnce(&mut DbConnection, &mut Encounter) -> Result<(Vec<Event>, T), MutateError<E>>
            + Send
            + 'static,
        R: FnOnce(Mutation<T>) -> Result<StoredResponse, E> + Send + 'static,
        T: Send + 'static,
        E: Send + 'static,
    {
        self.apply_async(move |store, conn| {
            store.apply_change(conn, &tenant, &id, expected_version, key.as_ref(), command, render)
        })
    }

    /// Runs `apply` (a change's savepoint) on the writer thread; once committed, tells its
    /// listeners and the deliverer there, and renders the reply on the awaiting side.
    fn apply_async<A, T, R, E>(
        &self,
        apply: A,
    ) -> impl Future<Output = Written<Result<Reply, MutateError<E>>>> + Send + use<A, T, R, E>
    where
        A: FnOnce(&Store, &mut DbConnection) -> Result<Applied<T, R>, MutateError<E>> + Send + 'static,
        T: Send + 'static,
        R: FnOnce(Mutation<T>) -> Result<StoredResponse, E> + Send + 'static,
        E: Send + 'static,
    {
        let (store, after) = (self.clone(), self.clone());
        let work = move |conn: &mut DbConnection| apply(&store, conn);
        let written = self.writer.write_async(work, move |written| after.after_commit(written));
        async move {
            let Written { result, timing } = written.await;
            let result = result.map_err(MutateError::Db).and_then(|applied| applied?.reply());
            Written { result, timing }
        }
    }

    /// The savepoint of a change to an existing encounter (see [`Store::change`]).
    #[allow(clippy::too_many_arguments)]
    fn apply_change<T, E, R>(
        &self,
        conn: &mut DbConnection,
        tenant: &str,
        id: &EncounterId,
        expected_version: Option<i64>,
        key: Option<&IdempotencyKey>,
        command: impl FnOnce(&mut DbConnection, &mut Encounter) -> Result<(Vec<Event>, T), MutateError<E>>,
        render: R,
    ) -> Result<Applied<T, R>, MutateError<E>>
    where
        R: FnOnce(Mutation<T>) -> Result<StoredResponse, E>,
    {
        if let Some(reply) = key.map(|key| replay(conn, tenant, key)).transpose()?.flatten() {
            return Ok(Applied::replied(id, reply));
        }
        let (loaded, last_seq) = self.hot_or_load(conn, tenant, id)?.ok_or(MutateError::NotFound)?;
        let mut encounter = loaded.encounter.clone();
        let current = encounter.version;
        // A request that would fail anyway gets that failure, not 412 (RFC 9110, 13.2.1):
        // the command runs first, and the savepoint discards it on a stale version.
        let (new_events, output) = command(conn, &mut encounter)?;
        if let Some(expected) = expected_version.filter(|v| *v != current) {
            return Err(MutateError::VersionMismatch { expected, current });
        }
        encounter.version += 1;
        let last_seq = match last_seq {
            Some(seq) => seq,
            None => last_seq_of(conn, id)?,
        };
        let now = utc_now();
        let changes = EncounterChanges::from_domain(&encounter)?;
        let written = save_changes(conn, Some(&loaded.encounter), &encounter)?;
        let (rows, data) = event_rows(id, last_seq, &now, &new_events)?;
        let hooks = write_change(
            conn,
            &ChangeRows {
                tenant,
                encounter: UpdateEncounter { changes: &changes, updated_at: &now, previous_version: current },
                after: &encounter,
                turns: &written.turns,
                history: history_entry(&loaded.encounter, &encounter, &written)?,
                events: &rows,
                notice: appended(id, &rows),
                origin: &self.origin,
            },
        )?;
        let events = stored_events(rows, data);
        let last_seq = events.last().map_or(last_seq, |event| event.seq);
        let enqueued = self.enqueue_deliveries(conn, tenant, id.as_str(), &events, hooks)?;
        let told = self.worth_telling(id, &events);
        let created_at = loaded.created_at.clone();
        let stored = Arc::new(StoredEncounter { encounter, created_at, updated_at: now });
        let kept = stored.clone();
        let done = answer(conn, tenant, key, id, Stored { encounter: stored, events, output }, render)?;
        self.writer.note_changed(id.as_str(), kept.encounter.version);
        self.hot.keep(kept, last_seq);
        Ok(Applied { id: id.clone(), done, told, enqueued, retired: Some((loaded, new_events)) })
    }

    /// Once the transaction holding a change is durably committed (`written` is `Ok` only
    /// then): tells its listeners and the webhook deliverer.
    fn after_commit<T, R, E>(
        &self,
        written: Result<Applied<T, R>, MutateError<E>>,
    ) -> Result<Applied<T, R>, MutateError<E>> {
        let mut applied = written?;
        self.published.committed(applied.id.as_str(), &std::mem::take(&mut applied.told));
        if applied.enqueued {
            self.subscriptions.wake();
        }
        Ok(applied)
    }

    /// A copy of `events` if anybody listens to the encounter, else nothing.
    fn worth_telling(&self, id: &EncounterId, events: &[StoredEvent]) -> Vec<StoredEvent> {
        if self.published.wanted(id.as_str()) { events.to_vec() } else { Vec::new() }
    }

    /// The tenant's encounter as the writer last wrote it, with its last event's `seq`, when the
    /// database still holds that version (one statement), else read in full (its last `seq`
    /// then unknown).
    fn hot_or_load(
        &self,
        conn: &mut DbConnection,
        tenant: &str,
        id: &EncounterId,
    ) -> Result<Option<Loaded>, DbError> {
        let query =
            encounters::table.filter(encounters::id.eq(id.as_str()).and(encounters::tenant.eq(tenant)));
        // On PostgreSQL the row is locked until the change commits: another replica's change to
        // the same encounter waits here, then reads the version this one wrote (so changes to one
        // encounter apply one after another on any number of replicas, and its log stays
        // contiguous). The locking statement reads the whole row (the one round trip a stale hot
        // copy needs for it), and nothing else: it would be read as of before the wait. SQLite's
        // single writer already serialises changes.
        let row = match conn {
            DbConnection::Pg(pg) => {
                let locked =
                    query.select(EncounterRow::as_select()).for_update().get_result(pg).optional()?;
                let Some(row) = locked else { return Ok(None) };
                if let Some(kept) = self.hot.take(id.as_str(), row.version) {
                    return Ok(Some((kept.encounter, Some(kept.last_seq))));
                }
                row
            }
            DbConnection::Sqlite(sqlite) => {
                let Some(version) = query.select(encounters::version).get_result(sqlite).optional()? else {
                    return Ok(None);
                };
                match self.hot.take(id.as_str(), version) {
                    Some(Kept { encounter, last_seq }) => return Ok(Some((encounter, Some(last_seq)))),
                    None => return Ok(load(conn, tenant, id)?.map(|loaded| (Arc::new(loaded), None))),
                }
            }
        };
        Ok(Some((Arc::new(load_children(conn, row)?), None)))
    }

    /// Deletes the tenant's encounter with its combatants, effects, events and idempotency
    /// records. False if there is no such encounter for this tenant.
    pub fn delete(&self, tenant: &str, id: &EncounterId) -> Result<bool, DbError> {
        let target =
            encounters::table.filter(encounters::id.eq(id.as_str()).and(encounters::tenant.eq(tenant)));
        let records = idempotency_records::table.filter(idempotency_records::encounter_id.eq(id.as_str()));
        let deleted = self.write(|conn| {
            self.hot.forget(id.as_str());
            let deleted = diesel::delete(target).execute(conn)?;
            if deleted > 0 {
                diesel::delete(records).execute(conn)?;
                self.tell(conn, &Notice::Deleted { encounter: id.as_str().to_owned() })?;
                self.writer.note_changed(id.as_str(), DELETED);
            }
            Ok::<_, DbError>(deleted > 0)
        })?;
        if deleted {
            self.published.deleted(id.as_str());
        }
        Ok(deleted)
    }
}

/// The encounter's last event number (0 before its first), for a change that did not find it
/// with the hot copy.
fn last_seq_of(conn: &mut DbConnection, id: &EncounterId) -> Result<i64, DbError> {
    let last: Option<i64> = events::table
        .filter(events::encounter_id.eq(id.as_str()))
        .select(diesel::dsl::max(events::seq))
        .get_result(conn)?;
    Ok(last.unwrap_or(0))
}

/// The rows of the events after `last_seq`, stamped `now`, with each event as JSON: each event
/// is serialised once.
fn event_rows(
    id: &EncounterId,
    last_seq: i64,
    now: &str,
    new: &[Event],
) -> Result<(Vec<EventRow>, Vec<serde_json::Value>), DbError> {
    Ok(new
        .iter()
        .zip(last_seq + 1..)
        .map(|(event, seq)| event_row(id, seq, now, event))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .unzip())
}

/// The events as stored, from their rows once written: nothing is read back.
fn stored_events(rows: Vec<EventRow>, data: Vec<serde_json::Value>) -> Vec<StoredEvent> {
    rows.into_iter()
        .zip(data)
        .map(|(row, data)| StoredEvent { seq: row.seq, kind: row.kind, data, created_at: row.created_at })
        .collect()
}

/// The notice telling the other replicas (PostgreSQL) that the events of `rows` were appended
/// to `id`'s log; none when there are none.
fn appended(id: &EncounterId, rows: &[EventRow]) -> Option<Notice> {
    match (rows.first(), rows.last()) {
        (Some(first), Some(last)) => {
            Some(Notice::Appended { encounter: id.as_str().to_owned(), first: first.seq, last: last.seq })
        }
        _ => None,
    }
}
