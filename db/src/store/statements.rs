//! Statements the writer runs on every change, written so that diesel prepares each once per
//! connection and keeps it. diesel prepares afresh on every call anything it cannot name by type:
//! `batch_execute` (parse, prepare, run, finalize each time), every `UPDATE`, and any query with
//! a `sql` literal in it. Each of those costs a full SQL parse inside the writer lock; the types
//! here have a static query id and fixed SQL text, so the statement cache keeps them.

use super::NOW;
use crate::rows::{CombatantRow, EffectRow, EncounterChanges, EventRow};
use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::sql_types::{BigInt, Binary, Bool, Integer, Nullable, Text};
use diesel::sqlite::Sqlite;

/// A statement with no parameters and no result, kept prepared.
macro_rules! fixed_statement {
    ($(#[$doc:meta])* $name:ident = $sql:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, QueryId)]
        pub(crate) struct $name;

        impl QueryFragment<Sqlite> for $name {
            fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
                out.push_sql($sql);
                Ok(())
            }
        }

        impl RunQueryDsl<SqliteConnection> for $name {}
    };
}

fixed_statement!(
    /// Opens the writer's shared transaction.
    BeginImmediate = "BEGIN IMMEDIATE"
);
fixed_statement!(
    /// Opens one change's savepoint.
    SavepointChange = "SAVEPOINT change"
);
fixed_statement!(
    /// Keeps what the change's savepoint wrote.
    ReleaseChange = "RELEASE change"
);
fixed_statement!(
    /// Commits the shared transaction.
    Commit = "COMMIT"
);

/// SQLite's clock (see [`NOW`]) as one value.
#[derive(Debug, Clone, Copy, QueryId)]
pub(crate) struct Clock;

impl QueryFragment<Sqlite> for Clock {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        out.push_sql("SELECT ");
        out.push_sql(NOW);
        Ok(())
    }
}

impl Query for Clock {
    type SqlType = Text;
}

impl RunQueryDsl<SqliteConnection> for Clock {}

/// Writes an encounter row's state and its `updated_at` (the columns `EncounterChanges` sets).
#[derive(Debug)]
pub(crate) struct UpdateEncounter<'a> {
    pub changes: &'a EncounterChanges<'a>,
    pub updated_at: &'a str,
}

impl QueryId for UpdateEncounter<'_> {
    type QueryId = UpdateEncounter<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl QueryFragment<Sqlite> for UpdateEncounter<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        let changes = self.changes;
        out.push_sql("UPDATE encounters SET ruleset = ");
        out.push_bind_param::<Text, _>(changes.ruleset)?;
        out.push_sql(", name = ");
        out.push_bind_param::<Text, _>(changes.name)?;
        out.push_sql(", status = ");
        out.push_bind_param::<Text, _>(changes.status)?;
        out.push_sql(", round = ");
        out.push_bind_param::<Integer, _>(&changes.round)?;
        out.push_sql(", current_combatant = ");
        out.push_bind_param::<Nullable<Text>, _>(&changes.current_combatant)?;
        out.push_sql(", version = ");
        out.push_bind_param::<BigInt, _>(&changes.version)?;
        out.push_sql(", options = ");
        out.push_bind_param::<Text, _>(&changes.options)?;
        out.push_sql(", updated_at = ");
        out.push_bind_param::<Text, _>(self.updated_at)?;
        out.push_sql(" WHERE id = ");
        out.push_bind_param::<Text, _>(changes.id)?;
        Ok(())
    }
}

impl RunQueryDsl<SqliteConnection> for UpdateEncounter<'_> {}

/// A statement that writes one row from a struct, all columns bound in order.
macro_rules! row_statement {
    ($(#[$doc:meta])* $name:ident($row:ty) = $head:literal, [$($field:ident: $sql_type:ty),+ $(,)?]) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub(crate) struct $name<'a>(pub &'a $row);

        impl QueryId for $name<'_> {
            type QueryId = $name<'static>;
            const HAS_STATIC_QUERY_ID: bool = true;
        }

        impl QueryFragment<Sqlite> for $name<'_> {
            fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
                out.push_sql($head);
                let mut separator = " VALUES (";
                $(
                    out.push_sql(separator);
                    out.push_bind_param::<$sql_type, _>(&self.0.$field)?;
                    separator = ", ";
                )+
                let _ = separator;
                out.push_sql(")");
                Ok(())
            }
        }

        impl RunQueryDsl<SqliteConnection> for $name<'_> {}
    };
}

row_statement!(
    /// Writes (inserts or replaces) one combatant row.
    ReplaceCombatant(CombatantRow) = "REPLACE INTO combatants (encounter_id, id, position, name, side, \
        stats, initiative, initiative_roll_off, initiative_explanation, surprised, defeated, hidden, \
        acted_this_round, delaying, state, public)",
    [
        encounter_id: Text,
        id: Text,
        position: Integer,
        name: Text,
        side: Text,
        stats: Text,
        initiative: Nullable<Integer>,
        initiative_roll_off: Text,
        initiative_explanation: Nullable<Text>,
        surprised: Bool,
        defeated: Bool,
        hidden: Bool,
        acted_this_round: Bool,
        delaying: Bool,
        state: Text,
        public: Bool,
    ]
);

row_statement!(
    /// Writes (inserts or replaces) one effect row.
    ReplaceEffect(EffectRow) = "REPLACE INTO effects (encounter_id, id, position, data)",
    [encounter_id: Text, id: Text, position: Integer, data: Text]
);

row_statement!(
    /// Appends one event row.
    InsertEvent(EventRow) = "INSERT INTO events (encounter_id, seq, kind, data, created_at)",
    [encounter_id: Text, seq: BigInt, kind: Text, data: Text, created_at: Text]
);

/// One entry of an encounter's undo history (see `history.rs`).
#[derive(Debug)]
pub(crate) struct HistoryEntry<'a> {
    pub encounter_id: &'a str,
    pub slot: i32,
    pub version: i64,
    pub diff: Vec<u8>,
}

row_statement!(
    /// Writes one history ring slot, replacing what it held (its `state` goes back to NULL).
    ReplaceHistory(HistoryEntry<'a>) =
        "REPLACE INTO encounter_history (encounter_id, slot, version, diff)",
    [encounter_id: Text, slot: Integer, version: BigInt, diff: Nullable<Binary>]
);

/// Rewrites an existing combatant row in place (cheaper than a REPLACE, which deletes the row and
/// its index entry and inserts both again).
#[derive(Debug, Clone, Copy)]
pub(crate) struct UpdateCombatant<'a>(pub &'a CombatantRow);

impl QueryId for UpdateCombatant<'_> {
    type QueryId = UpdateCombatant<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl QueryFragment<Sqlite> for UpdateCombatant<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        let row = self.0;
        out.push_sql("UPDATE combatants SET position = ");
        out.push_bind_param::<Integer, _>(&row.position)?;
        out.push_sql(", name = ");
        out.push_bind_param::<Text, _>(&row.name)?;
        out.push_sql(", side = ");
        out.push_bind_param::<Text, _>(&row.side)?;
        out.push_sql(", stats = ");
        out.push_bind_param::<Text, _>(&row.stats)?;
        out.push_sql(", initiative = ");
        out.push_bind_param::<Nullable<Integer>, _>(&row.initiative)?;
        out.push_sql(", initiative_roll_off = ");
        out.push_bind_param::<Text, _>(&row.initiative_roll_off)?;
        out.push_sql(", initiative_explanation = ");
        out.push_bind_param::<Nullable<Text>, _>(&row.initiative_explanation)?;
        out.push_sql(", surprised = ");
        out.push_bind_param::<Bool, _>(&row.surprised)?;
        out.push_sql(", defeated = ");
        out.push_bind_param::<Bool, _>(&row.defeated)?;
        out.push_sql(", hidden = ");
        out.push_bind_param::<Bool, _>(&row.hidden)?;
        out.push_sql(", acted_this_round = ");
        out.push_bind_param::<Bool, _>(&row.acted_this_round)?;
        out.push_sql(", delaying = ");
        out.push_bind_param::<Bool, _>(&row.delaying)?;
        out.push_sql(", state = ");
        out.push_bind_param::<Text, _>(&row.state)?;
        out.push_sql(", public = ");
        out.push_bind_param::<Bool, _>(&row.public)?;
        out.push_sql(" WHERE encounter_id = ");
        out.push_bind_param::<Text, _>(&row.encounter_id)?;
        out.push_sql(" AND id = ");
        out.push_bind_param::<Text, _>(&row.id)?;
        Ok(())
    }
}

impl RunQueryDsl<SqliteConnection> for UpdateCombatant<'_> {}

/// The columns of a combatant row that a turn moves: its place, its flags and its turn marks.
#[derive(Debug)]
pub(crate) struct CombatantTurn<'a> {
    pub encounter_id: &'a str,
    pub id: &'a str,
    pub position: i32,
    pub surprised: bool,
    pub defeated: bool,
    pub hidden: bool,
    pub public: bool,
    pub acted_this_round: bool,
    pub delaying: bool,
}

/// Rewrites only the turn columns of an existing combatant row (see [`CombatantTurn`]): an advance
/// changes nothing else, so the stat block and state JSON are neither serialised nor bound.
#[derive(Debug, Clone, Copy)]
pub(crate) struct UpdateCombatantTurn<'a>(pub &'a CombatantTurn<'a>);

impl QueryId for UpdateCombatantTurn<'_> {
    type QueryId = UpdateCombatantTurn<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl QueryFragment<Sqlite> for UpdateCombatantTurn<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        let row = self.0;
        out.push_sql("UPDATE combatants SET position = ");
        out.push_bind_param::<Integer, _>(&row.position)?;
        out.push_sql(", surprised = ");
        out.push_bind_param::<Bool, _>(&row.surprised)?;
        out.push_sql(", defeated = ");
        out.push_bind_param::<Bool, _>(&row.defeated)?;
        out.push_sql(", hidden = ");
        out.push_bind_param::<Bool, _>(&row.hidden)?;
        out.push_sql(", acted_this_round = ");
        out.push_bind_param::<Bool, _>(&row.acted_this_round)?;
        out.push_sql(", delaying = ");
        out.push_bind_param::<Bool, _>(&row.delaying)?;
        out.push_sql(", public = ");
        out.push_bind_param::<Bool, _>(&row.public)?;
        out.push_sql(" WHERE encounter_id = ");
        out.push_bind_param::<Text, _>(row.encounter_id)?;
        out.push_sql(" AND id = ");
        out.push_bind_param::<Text, _>(row.id)?;
        Ok(())
    }
}

impl RunQueryDsl<SqliteConnection> for UpdateCombatantTurn<'_> {}

/// Rewrites an existing effect row in place.
#[derive(Debug, Clone, Copy)]
pub(crate) struct UpdateEffect<'a>(pub &'a EffectRow);

impl QueryId for UpdateEffect<'_> {
    type QueryId = UpdateEffect<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl QueryFragment<Sqlite> for UpdateEffect<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        let row = self.0;
        out.push_sql("UPDATE effects SET position = ");
        out.push_bind_param::<Integer, _>(&row.position)?;
        out.push_sql(", data = ");
        out.push_bind_param::<Text, _>(&row.data)?;
        out.push_sql(" WHERE encounter_id = ");
        out.push_bind_param::<Text, _>(&row.encounter_id)?;
        out.push_sql(" AND id = ");
        out.push_bind_param::<Text, _>(&row.id)?;
        Ok(())
    }
}

impl RunQueryDsl<SqliteConnection> for UpdateEffect<'_> {}
