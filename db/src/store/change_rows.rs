//! The rows a change to an existing encounter writes once its command ran: the encounter row
//! (only if still at the version it was read at), its combatants' turn columns, its undo entry,
//! its events, and on PostgreSQL the notice to the other replicas (see `postgres/mod.rs`).
//!
//! SQLite runs a kept statement for each (a statement there is a call into the library, not a
//! round trip). PostgreSQL writes them all with one statement, one round trip: the parts are
//! data-modifying `WITH` queries, which diesel's query DSL cannot express, so the statement's
//! text is written here (every value bound, none spliced in). Its text depends only on how many
//! turn rows and events it writes, so diesel keeps one prepared statement per such shape.

use super::children::{combatant_turn, write_turns};
use super::postgres::{CHANNEL, Notice};
use super::statements::{
    CombatantTurn, HistoryEntry, InsertEvent, ReplaceCombatant, ReplaceHistory, UpdateEncounter,
};
use crate::backend::DbConnection;
use crate::error::DbError;
use crate::rows::{EventRow, combatant_row};
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::sql_types::{BigInt, Bool, Integer, Text};
use skirmish_domain::encounter::Encounter;

/// What one change writes after its command ran.
pub(super) struct ChangeRows<'a> {
    pub tenant: &'a str,
    /// The encounter row, conditional on its version.
    pub encounter: UpdateEncounter<'a>,
    /// The encounter as the change leaves it.
    pub after: &'a Encounter,
    /// The positions in `after` of the combatants whose turn columns alone changed.
    pub turns: &'a [usize],
    pub history: HistoryEntry<'a>,
    pub events: &'a [EventRow],
    /// What to tell the other replicas (PostgreSQL), and as whom.
    pub notice: Option<Notice>,
    pub origin: &'a str,
}

/// Writes `rows`; answers whether the tenant has webhook subscriptions when it read that on
/// the way (PostgreSQL: read in the same statement, after the encounter's row lock), else
/// `None`. An encounter row that is no longer at the version read is an error: it cannot
/// happen while the row is locked (see `Store::hot_or_load`), and it is never written over.
pub(super) fn write_change(conn: &mut DbConnection, rows: &ChangeRows<'_>) -> Result<Option<bool>, DbError> {
    let at_once = match conn {
        DbConnection::Pg(pg) => Some(write_at_once(pg, rows)?),
        DbConnection::Sqlite(_) => None,
    };
    if let Some((turned, hooks)) = at_once {
        // A turn row that should be there and is not (never expected) is written whole.
        if turned != rows.turns.len() {
            for &position in rows.turns {
                ReplaceCombatant(&combatant_row(rows.after, position)?).execute(conn)?;
            }
        }
        return Ok(Some(hooks));
    }
    if rows.encounter.execute(conn)? != 1 {
        return Err(changed_under_its_writer(rows.after));
    }
    write_turns(conn, rows.after, rows.turns)?;
    ReplaceHistory(&rows.history).execute(conn)?;
    insert_events(conn, rows.events)?;
    Ok(None)
}

/// Appends event rows one kept statement each: diesel runs a multi-row insert on SQLite in a
/// transaction of its own, which cannot nest in the writer's savepoint.
pub(super) fn insert_events(conn: &mut DbConnection, events: &[EventRow]) -> Result<(), DbError> {
    for row in events {
        InsertEvent(row).execute(conn)?;
    }
    Ok(())
}

fn changed_under_its_writer(encounter: &Encounter) -> DbError {
    DbError::Corrupt(format!("encounter {} changed under its writer", encounter.id.as_str()))
}

/// The PostgreSQL way, one statement: the turn rows it updated, and whether the tenant has
/// webhook subscriptions.
fn write_at_once(pg: &mut PgConnection, rows: &ChangeRows<'_>) -> Result<(usize, bool), DbError> {
    let turns =
        rows.turns.iter().map(|&position| combatant_turn(rows.after, position)).collect::<Result<_, _>>()?;
    let payload = rows.notice.as_ref().map(|notice| notice.payload(rows.origin));
    let statement = WriteChange { rows, history: ReplaceHistory(&rows.history), turns, payload };
    let (encounters, turned, hooks): (i64, i64, bool) = statement.get_result(pg)?;
    if encounters != 1 {
        return Err(changed_under_its_writer(rows.after));
    }
    let turned = usize::try_from(turned).map_err(|_| DbError::Corrupt("a negative count".into()))?;
    Ok((turned, hooks))
}

/// The one statement of a change on PostgreSQL. It answers the encounter rows it updated (1, or
/// 0 if the version moved), the combatant rows whose turn columns it updated, and whether the
/// tenant has webhook subscriptions; the notice, if any, is sent by `pg_notify` in it.
struct WriteChange<'a> {
    rows: &'a ChangeRows<'a>,
    history: ReplaceHistory<'a>,
    turns: Vec<CombatantTurn<'a>>,
    payload: Option<String>,
}

impl QueryId for WriteChange<'_> {
    type QueryId = ();
    // Keyed by its text instead (one prepared statement per shape: see the module's doc).
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl Query for WriteChange<'_> {
    type SqlType = (BigInt, BigInt, Bool);
}

impl RunQueryDsl<PgConnection> for WriteChange<'_> {}

impl QueryFragment<Pg> for WriteChange<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("WITH written AS (");
        QueryFragment::<Pg>::walk_ast(&self.rows.encounter, out.reborrow())?;
        out.push_sql(" RETURNING 1), history AS (");
        QueryFragment::<Pg>::walk_ast(&self.history, out.reborrow())?;
        out.push_sql(")");
        if !self.turns.is_empty() {
            out.push_sql(", turned AS (");
            walk_turns(&self.turns, out.reborrow())?;
            out.push_sql(")");
        }
        if !self.rows.events.is_empty() {
            out.push_sql(", appended AS (");
            walk_events(self.rows.events, out.reborrow())?;
            out.push_sql(")");
        }
        out.push_sql(" SELECT (SELECT count(*) FROM written), ");
        out.push_sql(if self.turns.is_empty() { "0::int8" } else { "(SELECT count(*) FROM turned)" });
        out.push_sql(", EXISTS (SELECT 1 FROM webhooks WHERE tenant = ");
        out.push_bind_param::<Text, _>(self.rows.tenant)?;
        out.push_sql(")");
        if let Some(payload) = &self.payload {
            // A function scan is run to be counted (a bare `pg_notify` in a column list could be
            // planned away); the count itself is not needed.
            out.push_sql(" WHERE (SELECT count(*) FROM pg_notify(");
            out.push_bind_param::<Text, _>(CHANNEL)?;
            out.push_sql(", ");
            out.push_bind_param::<Text, _>(payload)?;
            out.push_sql(")) = 1");
        }
        Ok(())
    }
}

/// `UPDATE combatants … FROM (VALUES …)`: the turn columns of several rows in one statement.
fn walk_turns<'b>(turns: &'b [CombatantTurn<'_>], mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
    out.push_sql(
        "UPDATE combatants AS c SET position = v.position, surprised = v.surprised, \
         defeated = v.defeated, hidden = v.hidden, public = v.public, \
         acted_this_round = v.acted_this_round, delaying = v.delaying FROM (VALUES ",
    );
    for (n, turn) in turns.iter().enumerate() {
        out.push_sql(if n == 0 { "(" } else { ", (" });
        out.push_bind_param::<Text, _>(turn.encounter_id)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(turn.id)?;
        out.push_sql(", ");
        out.push_bind_param::<Integer, _>(&turn.position)?;
        for flag in [&turn.surprised, &turn.defeated, &turn.hidden, &turn.public] {
            out.push_sql(", ");
            out.push_bind_param::<Bool, _>(flag)?;
        }
        out.push_sql(", ");
        out.push_bind_param::<Bool, _>(&turn.acted_this_round)?;
        out.push_sql(", ");
        out.push_bind_param::<Bool, _>(&turn.delaying)?;
        out.push_sql(")");
    }
    out.push_sql(
        ") AS v (encounter_id, id, position, surprised, defeated, hidden, public, acted_this_round, \
         delaying) WHERE c.encounter_id = v.encounter_id AND c.id = v.id RETURNING 1",
    );
    Ok(())
}

/// `INSERT INTO events … VALUES (…), (…)`: every event of the change in one statement.
fn walk_events<'b>(events: &'b [EventRow], mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
    out.push_sql("INSERT INTO events (encounter_id, seq, kind, data, created_at) VALUES ");
    for (n, row) in events.iter().enumerate() {
        out.push_sql(if n == 0 { "(" } else { ", (" });
        out.push_bind_param::<Text, _>(&row.encounter_id)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(&row.seq)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&row.kind)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&row.data)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&row.created_at)?;
        out.push_sql(")");
    }
    Ok(())
}
