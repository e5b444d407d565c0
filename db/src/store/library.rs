//! Finding and keeping encounters (issue 29 item 4): the filtered list, newest first, paged by a
//! position that inserts cannot shift; archiving ended encounters; and deleting ended ones past
//! a retention time.

use super::Store;
use super::clock::utc_now;
use super::committed::DELETED;
use super::postgres::Notice;
use super::reads::{grouped, stored};
use super::types::StoredEncounter;
use crate::backend::DbConnection;
use crate::error::DbError;
use crate::rows::{CombatantRow, EffectRow, EncounterRow};
use crate::schema::{combatants, effects, encounters, idempotency_records};
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use skirmish_domain::encounter::EncounterId;

diesel::define_sql_function!(fn lower(text: Text) -> Text);

type Db = <DbConnection as diesel::Connection>::Backend;

/// Most ended encounters one retention sweep deletes in one transaction (it goes on until none
/// is left).
pub const RETENTION_BATCH: i64 = 200;

/// Which of a tenant's encounters a list shows, and where its page starts.
#[derive(Debug, Clone, Default)]
pub struct EncounterFilter {
    /// `setup`, `active` or `ended`.
    pub status: Option<&'static str>,
    /// A ruleset id as stored.
    pub ruleset: Option<String>,
    /// Part of the name, matched without regard to (ASCII) case.
    pub name: Option<String>,
    /// Archived encounters instead of the others.
    pub archived: bool,
}

/// Where a page starts: after a position a previous page handed out (its `next`), or after
/// skipping `offset` encounters.
#[derive(Debug, Clone, Copy)]
pub enum PageStart {
    After(i64),
    Offset(i64),
}

pub struct EncounterPage {
    pub encounters: Vec<StoredEncounter>,
    /// Encounters the filter matches in all.
    pub total: i64,
    /// The position to start the next page after, when there is one.
    pub next: Option<i64>,
}

/// What archiving or unarchiving found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Archived {
    /// Done (or already so): when it was archived, `None` once unarchived.
    Done(Option<String>),
    /// Only an ended encounter is archived; it has this status.
    NotEnded(String),
}

impl Store {
    /// The tenant's encounters matching `filter`, newest first (in insertion order: timestamps
    /// have only millisecond precision), at most `limit` from `start`, read in one snapshot. A
    /// position is the encounter's insertion number, so encounters created meanwhile never shift
    /// a later page: they come before the first.
    pub fn list(
        &self,
        tenant: &str,
        filter: &EncounterFilter,
        start: PageStart,
        limit: i64,
    ) -> Result<EncounterPage, DbError> {
        self.read()?.transaction(|conn| {
            let total = matching(tenant, filter).count().get_result(conn)?;
            let mut page = matching(tenant, filter).order(sql::<BigInt>("rowid").desc()).limit(limit + 1);
            page = match start {
                PageStart::After(position) => page.filter(sql::<BigInt>("rowid").lt(position)),
                PageStart::Offset(offset) => page.offset(offset),
            };
            let mut rows: Vec<(EncounterRow, i64)> =
                page.select((EncounterRow::as_select(), sql::<BigInt>("rowid"))).load(conn)?;
            let more = rows.len() as i64 > limit;
            rows.truncate(usize::try_from(limit).unwrap_or(0));
            let next = if more { rows.last().map(|(_, position)| *position) } else { None };
            let ids: Vec<&str> = rows.iter().map(|(row, _)| row.id.as_str()).collect();
            let mut combatants = grouped(
                combatants::table
                    .filter(combatants::encounter_id.eq_any(&ids))
                    .order((combatants::encounter_id, combatants::position))
                    .select(CombatantRow::as_select())
                    .load(conn)?,
                |row: &CombatantRow| row.encounter_id.clone(),
            );
            let mut effects = grouped(
                effects::table
                    .filter(effects::encounter_id.eq_any(&ids))
                    .order((effects::encounter_id, effects::position))
                    .select(EffectRow::as_select())
                    .load(conn)?,
                |row: &EffectRow| row.encounter_id.clone(),
            );
            let encounters = rows
                .into_iter()
                .map(|(row, _)| {
                    let children = combatants.remove(&row.id).unwrap_or_default();
                    let effects = effects.remove(&row.id).unwrap_or_default();
                    stored(row, children, effects)
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(EncounterPage { encounters, total, next })
        })
    }

    /// Archives (`archive`) or unarchives the tenant's encounter; `None` if there is none. Only
    /// an ended encounter is archived; archiving one already archived keeps its first time. Not a
    /// change of the fight: its version, state and log stay as they are.
    pub fn set_archived(
        &self,
        tenant: &str,
        id: &EncounterId,
        archive: bool,
    ) -> Result<Option<Archived>, DbError> {
        self.write(|conn| {
            let target =
                encounters::table.filter(encounters::id.eq(id.as_str()).and(encounters::tenant.eq(tenant)));
            let found: Option<(String, Option<String>)> =
                target.select((encounters::status, encounters::archived_at)).get_result(conn).optional()?;
            let Some((status, archived_at)) = found else { return Ok(None) };
            if status != "ended" {
                return Ok(Some(Archived::NotEnded(status)));
            }
            let wanted = match (archive, archived_at) {
                (true, Some(since)) => return Ok(Some(Archived::Done(Some(since)))),
                (false, None) => return Ok(Some(Archived::Done(None))),
                (true, None) => Some(utc_now()),
                (false, Some(_)) => None,
            };
            diesel::update(target).set(encounters::archived_at.eq(&wanted)).execute(conn)?;
            Ok(Some(Archived::Done(wanted)))
        })
    }

    /// Whether the tenant's encounter is archived, on the writer's connection (`conn`).
    pub(super) fn is_archived(conn: &mut DbConnection, id: &EncounterId) -> Result<bool, DbError> {
        let archived: Option<Option<String>> = encounters::table
            .filter(encounters::id.eq(id.as_str()))
            .select(encounters::archived_at)
            .get_result(conn)
            .optional()?;
        Ok(matches!(archived, Some(Some(_))))
    }

    /// Deletes every tenant's ended, unarchived encounters whose last change (the end, for an
    /// ended encounter cannot change) is older than `older_than` (RFC 3339 as the store writes
    /// it), with everything that belongs to them, as [`Store::delete`] does; the number deleted.
    /// In transactions of at most [`RETENTION_BATCH`]. Replicas sweeping at once on PostgreSQL
    /// take disjoint rows (`FOR UPDATE SKIP LOCKED`), and skip an encounter a change holds.
    pub fn delete_ended_before(&self, older_than: &str) -> Result<usize, DbError> {
        let mut deleted = 0;
        loop {
            let (batch, ids) = self.write(|conn| self.delete_ended_batch(conn, older_than))?;
            for id in &ids {
                self.published.deleted(id);
            }
            deleted += batch;
            if (ids.len() as i64) < RETENTION_BATCH {
                return Ok(deleted);
            }
        }
    }

    /// One transaction of [`Store::delete_ended_before`]: the number deleted and the ids taken.
    fn delete_ended_batch(
        &self,
        conn: &mut DbConnection,
        older_than: &str,
    ) -> Result<(usize, Vec<String>), DbError> {
        let due = encounters::table
            .filter(encounters::status.eq("ended"))
            .filter(encounters::archived_at.is_null())
            .filter(encounters::updated_at.lt(older_than))
            .order(encounters::updated_at)
            .limit(RETENTION_BATCH)
            .select(encounters::id);
        let ids: Vec<String> = match conn {
            DbConnection::Pg(pg) => due.for_update().skip_locked().load(pg)?,
            DbConnection::Sqlite(sqlite) => due.load(sqlite)?,
        };
        if ids.is_empty() {
            return Ok((0, ids));
        }
        let deleted = diesel::delete(encounters::table.filter(encounters::id.eq_any(&ids))).execute(conn)?;
        diesel::delete(idempotency_records::table.filter(idempotency_records::encounter_id.eq_any(&ids)))
            .execute(conn)?;
        for id in &ids {
            self.hot.forget(id);
            self.tell(conn, &Notice::Deleted { encounter: id.clone() })?;
            self.writer.note_changed(id, DELETED);
        }
        Ok((deleted, ids))
    }
}

/// The tenant's encounters that `filter` matches.
fn matching<'a>(tenant: &'a str, filter: &'a EncounterFilter) -> encounters::BoxedQuery<'a, Db> {
    let mut query = encounters::table.filter(encounters::tenant.eq(tenant)).into_boxed();
    query = if filter.archived {
        query.filter(encounters::archived_at.is_not_null())
    } else {
        query.filter(encounters::archived_at.is_null())
    };
    if let Some(status) = filter.status {
        query = query.filter(encounters::status.eq(status));
    }
    if let Some(ruleset) = &filter.ruleset {
        query = query.filter(encounters::ruleset.eq(ruleset));
    }
    if let Some(name) = &filter.name {
        query = query.filter(lower(encounters::name).like(like_pattern(name)).escape('\\'));
    }
    query
}

/// `%part%` of the lower-cased `part` (see [`like_literal`]).
fn like_pattern(part: &str) -> String {
    format!("%{}%", like_literal(part))
}

/// The lower-cased `text` as a LIKE pattern matching itself: its `%`, `_` and `\` escaped with
/// `\` (give the query `.escape('\\')`).
pub(super) fn like_literal(text: &str) -> String {
    let mut literal = String::with_capacity(text.len());
    for c in text.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            literal.push('\\');
        }
        literal.push(c);
    }
    literal
}
