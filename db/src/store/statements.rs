//! Statements the writer runs on every change, written so that diesel prepares each once per
//! connection and keeps it. diesel prepares afresh on every call anything it cannot name by type:
//! `batch_execute` (parse, prepare, run, finalize each time), every `UPDATE`, and any query with
//! a `sql` literal in it. Each of those costs a full SQL parse inside the writer lock; the types
//! here have a static query id and fixed SQL text, so the statement cache keeps them.

use crate::backend::{DbConnection, MultiBackend};
use crate::rows::{CombatantRow, EffectRow, EncounterChanges, EventRow};
use diesel::backend::Backend;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::sql_types::{BigInt, Binary, Bool, Integer, Nullable, Text};
use diesel::sqlite::Sqlite;

/// The same statement text for both backends: `$body` walks `$this` (the statement) into `$out`;
/// a `MultiBackend` pass goes to the connection's own backend.
macro_rules! on_both_backends {
    ($name:ident, |$this:ident, $out:ident| $body:block) => {
        on_both_backends!(@one $name, Sqlite, |$this, $out| $body);
        on_both_backends!(@one $name, Pg, |$this, $out| $body);

        impl QueryFragment<MultiBackend> for $name<'_> {
            fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, MultiBackend>) -> QueryResult<()> {
                MultiBackend::walk_variant_ast(self, pass)
            }
        }

        impl RunQueryDsl<DbConnection> for $name<'_> {}
    };
    (@one $name:ident, $db:ty, |$this:ident, $out:ident| $body:block) => {
        impl QueryFragment<$db> for $name<'_> {
            fn walk_ast<'b>(&'b self, mut $out: AstPass<'_, 'b, $db>) -> QueryResult<()> {
                let $this = self;
                $body
            }
        }
    };
}

/// A statement with no parameters and no result, kept prepared.
macro_rules! fixed_statement {
    ($(#[$doc:meta])* $name:ident = $sql:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, QueryId)]
        pub(crate) struct $name;

        impl<DB: Backend> QueryFragment<DB> for $name {
            fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
                out.push_sql($sql);
                Ok(())
            }
        }

        impl RunQueryDsl<DbConnection> for $name {}
    };
}

fixed_statement!(
    /// Opens the writer's shared transaction on SQLite (taking the write lock at once).
    BeginImmediate = "BEGIN IMMEDIATE"
);
fixed_statement!(
    /// Opens the writer's transaction on PostgreSQL.
    Begin = "BEGIN"
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

/// Writes an encounter row's state and its `updated_at` (the columns `EncounterChanges` sets),
/// only if the row is still at `previous_version`: the statement answers 0 rows when another
/// writer (another replica) changed the encounter first.
#[derive(Debug, Clone, Copy)]
pub(crate) struct UpdateEncounter<'a> {
    pub changes: &'a EncounterChanges<'a>,
    pub updated_at: &'a str,
    pub previous_version: i64,
}

impl QueryId for UpdateEncounter<'_> {
    type QueryId = UpdateEncounter<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

on_both_backends!(UpdateEncounter, |this, out| {
    let changes = this.changes;
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
    out.push_bind_param::<Text, _>(this.updated_at)?;
    out.push_sql(" WHERE id = ");
    out.push_bind_param::<Text, _>(changes.id)?;
    out.push_sql(" AND version = ");
    out.push_bind_param::<BigInt, _>(&this.previous_version)?;
    Ok(())
});

/// A statement that writes one row from a struct, all columns bound in order: `$sqlite` then
/// the values on SQLite, `$pg` then the values then `$pg_tail` on PostgreSQL (SQLite's
/// `REPLACE INTO` is PostgreSQL's `INSERT … ON CONFLICT … DO UPDATE`).
macro_rules! row_statement {
    ($(#[$doc:meta])* $name:ident($row:ty) = $sqlite:literal, $pg:literal, $pg_tail:literal,
        [$($field:ident: $sql_type:ty),+ $(,)?]) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub(crate) struct $name<'a>(pub &'a $row);

        impl QueryId for $name<'_> {
            type QueryId = $name<'static>;
            const HAS_STATIC_QUERY_ID: bool = true;
        }

        row_statement!(@walk $name, Sqlite, $sqlite, "", [$($field: $sql_type),+]);
        row_statement!(@walk $name, Pg, $pg, $pg_tail, [$($field: $sql_type),+]);

        impl QueryFragment<MultiBackend> for $name<'_> {
            fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, MultiBackend>) -> QueryResult<()> {
                MultiBackend::walk_variant_ast(self, pass)
            }
        }

        impl RunQueryDsl<DbConnection> for $name<'_> {}
    };
    (@walk $name:ident, $db:ty, $head:literal, $tail:literal, [$($field:ident: $sql_type:ty),+]) => {
        impl QueryFragment<$db> for $name<'_> {
            fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, $db>) -> QueryResult<()> {
                out.push_sql($head);
                let mut separator = " VALUES (";
                $(
                    out.push_sql(separator);
                    out.push_bind_param::<$sql_type, _>(&self.0.$field)?;
                    separator = ", ";
                )+
                let _ = separator;
                out.push_sql(")");
                out.push_sql($tail);
                Ok(())
            }
        }
    };
}

row_statement!(
    /// Writes (inserts or replaces) one combatant row.
    ReplaceCombatant(CombatantRow) = "REPLACE INTO combatants (encounter_id, id, position, name, side, \
        stats, initiative, initiative_roll_off, initiative_explanation, surprised, defeated, hidden, \
        acted_this_round, delaying, state, public, creature_id, group_name)",
        "INSERT INTO combatants (encounter_id, id, position, name, side, stats, initiative, \
        initiative_roll_off, initiative_explanation, surprised, defeated, hidden, acted_this_round, \
        delaying, state, public, creature_id, group_name)",
        " ON CONFLICT (encounter_id, id) DO UPDATE SET position = EXCLUDED.position, \
        name = EXCLUDED.name, side = EXCLUDED.side, stats = EXCLUDED.stats, \
        initiative = EXCLUDED.initiative, initiative_roll_off = EXCLUDED.initiative_roll_off, \
        initiative_explanation = EXCLUDED.initiative_explanation, surprised = EXCLUDED.surprised, \
        defeated = EXCLUDED.defeated, hidden = EXCLUDED.hidden, \
        acted_this_round = EXCLUDED.acted_this_round, delaying = EXCLUDED.delaying, \
        state = EXCLUDED.state, public = EXCLUDED.public, creature_id = EXCLUDED.creature_id, \
        group_name = EXCLUDED.group_name",
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
        creature_id: Nullable<Text>,
        group_name: Nullable<Text>,
    ]
);

row_statement!(
    /// Writes (inserts or replaces) one effect row.
    ReplaceEffect(EffectRow) = "REPLACE INTO effects (encounter_id, id, position, data)",
        "INSERT INTO effects (encounter_id, id, position, data)",
        " ON CONFLICT (encounter_id, id) DO UPDATE SET position = EXCLUDED.position, data = EXCLUDED.data",
    [encounter_id: Text, id: Text, position: Integer, data: Text]
);

row_statement!(
    /// Appends one event row.
    InsertEvent(EventRow) = "INSERT INTO events (encounter_id, seq, kind, data, created_at)",
        "INSERT INTO events (encounter_id, seq, kind, data, created_at)",
        "",
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
        "INSERT INTO encounter_history (encounter_id, slot, version, diff)",
        " ON CONFLICT (encounter_id, slot) DO UPDATE SET version = EXCLUDED.version, \
        diff = EXCLUDED.diff, state = NULL",
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

on_both_backends!(UpdateCombatant, |this, out| {
    let row = this.0;
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
    out.push_sql(", creature_id = ");
    out.push_bind_param::<Nullable<Text>, _>(&row.creature_id)?;
    out.push_sql(", group_name = ");
    out.push_bind_param::<Nullable<Text>, _>(&row.group_name)?;
    out.push_sql(" WHERE encounter_id = ");
    out.push_bind_param::<Text, _>(&row.encounter_id)?;
    out.push_sql(" AND id = ");
    out.push_bind_param::<Text, _>(&row.id)?;
    Ok(())
});

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

on_both_backends!(UpdateCombatantTurn, |this, out| {
    let row = this.0;
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
});

/// Rewrites an existing effect row in place.
#[derive(Debug, Clone, Copy)]
pub(crate) struct UpdateEffect<'a>(pub &'a EffectRow);

impl QueryId for UpdateEffect<'_> {
    type QueryId = UpdateEffect<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

on_both_backends!(UpdateEffect, |this, out| {
    let row = this.0;
    out.push_sql("UPDATE effects SET position = ");
    out.push_bind_param::<Integer, _>(&row.position)?;
    out.push_sql(", data = ");
    out.push_bind_param::<Text, _>(&row.data)?;
    out.push_sql(" WHERE encounter_id = ");
    out.push_bind_param::<Text, _>(&row.encounter_id)?;
    out.push_sql(" AND id = ");
    out.push_bind_param::<Text, _>(&row.id)?;
    Ok(())
});
