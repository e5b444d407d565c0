//! A change's reverse diff: what undo needs to take the encounter from the version a change made
//! back to the version before it, and nothing more. It holds the encounter row's fields as they
//! were (name, ruleset and options only when the change altered them) and the earlier image of
//! exactly the combatant and effect rows the change wrote (as `save_changes` reports them): a
//! deleted row comes back whole, a replaced combatant gets back the columns the change altered
//! (see `combatant_columns.rs`), a replaced effect its row, and an inserted row goes. Applied to
//! an encounter's [`Rows`] it gives the rows as they were stored before the change, so a chain
//! of them, newest first, reaches any kept version exactly.
//!
//! Stored as CBOR (a length-prefixed binary encoding): the rows' JSON columns (stats, state,
//! effect data) sit in it as plain strings, not escaped a second time.

use super::children::{ChildrenWritten, Written};
use super::combatant_columns::{Was, columns_before, restore};
use crate::error::DbError;
use crate::rows::{
    CombatantRow, EffectRow, EncounterChanges, EncounterRow, combatant_row, effect_row, encounter_from_rows,
};
use serde::{Deserialize, Serialize};
use skirmish_domain::encounter::{Encounter, EncounterId};

/// An encounter's state as its rows are stored (its id and version aside). Undo works on these:
/// a row is what the database held, so putting rows back is exact. This is also the format of
/// the whole-state JSON snapshots the history kept before diffs (see `history.rs`).
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Rows {
    ruleset: String,
    name: String,
    status: String,
    round: i32,
    current_combatant: Option<String>,
    options: String,
    combatants: Vec<CombatantRow>,
    effects: Vec<EffectRow>,
}

impl Rows {
    /// The rows that store `encounter`.
    pub(super) fn of(encounter: &Encounter) -> Result<Self, DbError> {
        let row = EncounterChanges::from_domain(encounter)?;
        let combatants = (0..encounter.combatants.len()).map(|p| combatant_row(encounter, p));
        let effects = (0..encounter.effects.len()).map(|p| effect_row(encounter, p));
        Ok(Self {
            ruleset: row.ruleset.to_owned(),
            name: row.name.to_owned(),
            status: row.status.to_owned(),
            round: row.round,
            current_combatant: row.current_combatant.map(str::to_owned),
            options: row.options,
            combatants: combatants.collect::<Result<_, _>>()?,
            effects: effects.collect::<Result<_, _>>()?,
        })
    }

    /// The encounter these rows store, as `version` (children in position order).
    pub(super) fn into_encounter(mut self, id: &EncounterId, version: i64) -> Result<Encounter, DbError> {
        self.combatants.sort_by_key(|c| c.position);
        self.effects.sort_by_key(|e| e.position);
        let row = EncounterRow {
            id: id.0.clone(),
            ruleset: self.ruleset,
            name: self.name,
            status: self.status,
            round: self.round,
            current_combatant: self.current_combatant,
            version,
            created_at: String::new(),
            updated_at: String::new(),
            options: self.options,
        };
        encounter_from_rows(row, self.combatants, self.effects)
    }
}

/// How to undo one write to a child row.
#[derive(Debug, Serialize, Deserialize)]
enum RowUndo<R> {
    /// The change inserted the row with this id: it goes.
    Remove(String),
    /// The change replaced or deleted this row: it comes back.
    Restore(R),
}

/// How to undo one write to a combatant row.
#[derive(Debug, Serialize, Deserialize)]
#[expect(
    clippy::large_enum_variant,
    reason = "short-lived, a few per change; a Box would add an allocation to each for no gain"
)]
enum CombatantUndo {
    /// The change inserted or deleted the row (see [`RowUndo`]).
    Row(RowUndo<CombatantRow>),
    /// The change altered these columns of the combatant with this id; they get back their
    /// values (see `combatant_columns.rs`).
    Revert(String, Vec<Was>),
}

/// The earlier image of one change's writes (see the module's documentation).
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct ReverseDiff {
    status: String,
    round: i32,
    current_combatant: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ruleset: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    options: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    combatants: Vec<CombatantUndo>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    effects: Vec<RowUndo<EffectRow>>,
}

impl ReverseDiff {
    /// What undoes the change from `before` to `after`, which wrote the rows in `written`.
    pub(super) fn of(
        before: &Encounter,
        after: &Encounter,
        written: &ChildrenWritten,
    ) -> Result<Self, DbError> {
        let options = (before.options != after.options)
            .then(|| serde_json::to_string(&before.options))
            .transpose()
            .map_err(|e| DbError::Corrupt(format!("options: {e}")))?;
        Ok(Self {
            status: before.status.as_str().to_owned(),
            round: i32::try_from(before.round).map_err(|_| DbError::Corrupt("round too large".into()))?,
            current_combatant: before.current.as_ref().map(|c| c.0.clone()),
            name: (before.name != after.name).then(|| before.name.clone()),
            ruleset: (before.ruleset != after.ruleset).then(|| before.ruleset.as_str().to_owned()),
            options,
            combatants: undo_combatant_writes(before, after, &written.combatants)?,
            effects: undo_writes(
                &written.effects,
                |p| after.effects[p].id.0.clone(),
                |p| effect_row(before, p),
            )?,
        })
    }

    /// Takes `rows` (the state the change made) back to the state before it.
    pub(super) fn undo(self, rows: &mut Rows) -> Result<(), DbError> {
        rows.status = self.status;
        rows.round = self.round;
        rows.current_combatant = self.current_combatant;
        if let Some(name) = self.name {
            rows.name = name;
        }
        if let Some(ruleset) = self.ruleset {
            rows.ruleset = ruleset;
        }
        if let Some(options) = self.options {
            rows.options = options;
        }
        for write in self.combatants {
            match write {
                CombatantUndo::Row(write) => undo_write(&mut rows.combatants, write, |c| &c.id),
                CombatantUndo::Revert(id, columns) => {
                    let row = rows.combatants.iter_mut().find(|c| c.id == id);
                    let row = row.ok_or_else(|| DbError::Corrupt(format!("undo diff: no combatant {id}")))?;
                    columns.into_iter().for_each(|column| restore(row, column));
                }
            }
        }
        for write in self.effects {
            undo_write(&mut rows.effects, write, |e| &e.id);
        }
        Ok(())
    }

    /// The diff as stored.
    pub(super) fn encoded(&self) -> Result<Vec<u8>, DbError> {
        let mut bytes = Vec::with_capacity(256);
        ciborium::into_writer(self, &mut bytes).map_err(|e| DbError::Corrupt(format!("undo diff: {e}")))?;
        Ok(bytes)
    }

    /// A diff as [`ReverseDiff::encoded`] stored it.
    pub(super) fn decoded(bytes: &[u8]) -> Result<Self, DbError> {
        ciborium::from_reader(bytes).map_err(|e| DbError::Corrupt(format!("undo diff: {e}")))
    }
}

/// The undo of each write in `written`: an inserted row (its id after the change from
/// `id_after`) is removed, a replaced or deleted one restored to its row before the change
/// (`row_before` of its earlier position).
fn undo_writes<R>(
    written: &Written,
    id_after: impl Fn(usize) -> String,
    row_before: impl Fn(usize) -> Result<R, DbError>,
) -> Result<Vec<RowUndo<R>>, DbError> {
    let replaced = written.replaced.iter().map(|&(now, was)| match was {
        Some(was) => row_before(was).map(RowUndo::Restore),
        None => Ok(RowUndo::Remove(id_after(now))),
    });
    let deleted = written.deleted.iter().map(|&was| row_before(was).map(RowUndo::Restore));
    replaced.chain(deleted).collect()
}

/// The undo of each combatant write in `written`: an inserted combatant is removed, a deleted one
/// restored, and a replaced one gets back the columns the change altered.
fn undo_combatant_writes(
    before: &Encounter,
    after: &Encounter,
    written: &Written,
) -> Result<Vec<CombatantUndo>, DbError> {
    let replaced = written.replaced.iter().map(|&(now, was)| {
        let combatant = &after.combatants[now];
        match was {
            Some(was) => columns_before(before, was, combatant, now)
                .map(|columns| CombatantUndo::Revert(combatant.id.0.clone(), columns)),
            None => Ok(CombatantUndo::Row(RowUndo::Remove(combatant.id.0.clone()))),
        }
    });
    let deleted = written
        .deleted
        .iter()
        .map(|&was| combatant_row(before, was).map(|row| CombatantUndo::Row(RowUndo::Restore(row))));
    replaced.chain(deleted).collect()
}

/// Applies one row's undo to `rows` (rows keyed by `id`).
fn undo_write<R>(rows: &mut Vec<R>, write: RowUndo<R>, id: impl Fn(&R) -> &str) {
    match write {
        RowUndo::Remove(gone) => rows.retain(|r| id(r) != gone),
        RowUndo::Restore(row) => {
            rows.retain(|r| id(r) != id(&row));
            rows.push(row);
        }
    }
}
