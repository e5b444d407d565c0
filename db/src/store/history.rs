//! An encounter's recent states, for undo. Every change stores, in its own savepoint, the state
//! the encounter had before it (one JSON snapshot per version) in a ring of [`HISTORY_DEPTH`]
//! slots, so the table stays bounded however long a fight runs.

use crate::error::DbError;
use crate::rows::{
    CombatantRow, EffectRow, EncounterChanges, EncounterRow, combatant_row, effect_row, encounter_from_rows,
};
use crate::schema::encounter_history;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use skirmish_domain::encounter::{Encounter, EncounterId};

/// How many versions back an undo can reach: after a change to version V, the states of
/// versions V - 50 to V - 1 are kept.
pub const HISTORY_DEPTH: i64 = 50;

/// One version's state as its rows would be stored (the id and version are the table's key).
#[derive(Serialize, Deserialize)]
struct Snapshot {
    ruleset: String,
    name: String,
    status: String,
    round: i32,
    current_combatant: Option<String>,
    options: String,
    combatants: Vec<CombatantRow>,
    effects: Vec<EffectRow>,
}

impl Snapshot {
    fn of(encounter: &Encounter) -> Result<Self, DbError> {
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

    fn into_encounter(self, id: &EncounterId, version: i64) -> Result<Encounter, DbError> {
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

/// Stores `before` (the encounter as it was, at its version, before the change being written)
/// in its ring slot, replacing the version [`HISTORY_DEPTH`] older, which falls out of reach once
/// the change is made.
pub(super) fn remember_state(conn: &mut SqliteConnection, before: &Encounter) -> Result<(), DbError> {
    let state = serde_json::to_string(&Snapshot::of(before)?)
        .map_err(|e| DbError::Corrupt(format!("snapshot: {e}")))?;
    diesel::replace_into(encounter_history::table)
        .values((
            encounter_history::encounter_id.eq(before.id.as_str()),
            encounter_history::slot.eq(slot(before.version)),
            encounter_history::version.eq(before.version),
            encounter_history::state.eq(state),
        ))
        .execute(conn)?;
    Ok(())
}

/// The ring slot of `version`.
fn slot(version: i64) -> i32 {
    // rem_euclid(50) is in 0..50, which fits.
    version.rem_euclid(HISTORY_DEPTH) as i32
}

/// The encounter as it was at `version`, if that state is still kept.
pub(super) fn state_at(
    conn: &mut SqliteConnection,
    id: &EncounterId,
    version: i64,
) -> Result<Option<Encounter>, DbError> {
    let state: Option<String> = encounter_history::table
        .find((id.as_str(), slot(version)))
        .filter(encounter_history::version.eq(version))
        .select(encounter_history::state)
        .get_result(conn)
        .optional()?;
    let Some(state) = state else { return Ok(None) };
    let snapshot: Snapshot =
        serde_json::from_str(&state).map_err(|e| DbError::Corrupt(format!("snapshot: {e}")))?;
    snapshot.into_encounter(id, version).map(Some)
}
