//! An encounter's recent history, for undo. Every change stores, in its own savepoint, how to
//! undo it: a reverse diff (see `reverse_diff.rs`) from the version it made back to the version
//! before, in a ring of [`HISTORY_DEPTH`] slots, so the table stays bounded however long a fight
//! runs. Undo to version V applies the kept diffs from the current version back to V.
//!
//! Databases written before diffs hold whole-state JSON snapshots in the same ring (migration
//! `2026-11-25-000009_history_diffs` keeps them in the `state` column): such an entry is read as
//! the full state at its version, so an undo across the upgrade still works, and every change
//! since then overwrites one of them with a diff.

use super::children::ChildrenWritten;
use super::reverse_diff::{ReverseDiff, Rows};
use super::statements::HistoryEntry;
use crate::backend::DbConnection;
use crate::error::DbError;
use crate::schema::encounter_history;
use diesel::prelude::*;
use skirmish_domain::encounter::Encounter;

/// How many versions back an undo can reach: after a change to version V, the diffs back to
/// versions V - 50 to V - 1 are kept.
pub const HISTORY_DEPTH: i64 = 50;

/// How to undo the change from `before` (the encounter as it was, at its version) to `after`,
/// which wrote the child rows in `written`: the entry for its ring slot, which replaces the
/// entry [`HISTORY_DEPTH`] versions older, out of reach once the change is made (written with
/// the rest of the change: see `change_rows.rs`).
pub(super) fn history_entry<'a>(
    before: &'a Encounter,
    after: &Encounter,
    written: &ChildrenWritten,
) -> Result<HistoryEntry<'a>, DbError> {
    let diff = ReverseDiff::of(before, after, written)?.encoded()?;
    Ok(HistoryEntry {
        encounter_id: before.id.as_str(),
        slot: slot(before.version),
        version: before.version,
        diff,
    })
}

/// The ring slot of `version`.
fn slot(version: i64) -> i32 {
    // rem_euclid(50) is in 0..50, which fits.
    version.rem_euclid(HISTORY_DEPTH) as i32
}

/// One kept entry: a reverse diff, or (written before diffs) the whole state as JSON.
type Entry = (Option<Vec<u8>>, Option<String>);

/// The encounter as it was at `version` (before `current`'s version), if every step back to it
/// is still kept.
pub(super) fn state_at(
    conn: &mut DbConnection,
    current: &Encounter,
    version: i64,
) -> Result<Option<Encounter>, DbError> {
    let steps = current.version - version;
    if !(1..=HISTORY_DEPTH).contains(&steps) {
        return Ok(None);
    }
    let kept: Vec<Entry> = encounter_history::table
        .filter(encounter_history::encounter_id.eq(current.id.as_str()))
        .filter(encounter_history::version.between(version, current.version - 1))
        .order(encounter_history::version.desc())
        .select((encounter_history::diff, encounter_history::state))
        .load(conn)?;
    // The versions are distinct slots of the ring (at most HISTORY_DEPTH apart), so all are
    // there exactly when as many entries came back as there are steps.
    if i64::try_from(kept.len()) != Ok(steps) {
        return Ok(None);
    }
    let mut rows = Rows::of(current)?;
    for entry in kept {
        step_back(&mut rows, entry)?;
    }
    rows.into_encounter(&current.id, version).map(Some)
}

/// Takes `rows` one version back with `entry`, the entry kept for that version.
fn step_back(rows: &mut Rows, entry: Entry) -> Result<(), DbError> {
    match entry {
        (Some(diff), _) => ReverseDiff::decoded(&diff)?.undo(rows)?,
        (None, Some(snapshot)) => {
            *rows =
                serde_json::from_str(&snapshot).map_err(|e| DbError::Corrupt(format!("snapshot: {e}")))?;
        }
        (None, None) => return Err(DbError::Corrupt("an empty history entry".into())),
    }
    Ok(())
}

#[cfg(test)]
mod tests;
