//! A combatant row's columns as they were before a change, only those the change altered: most
//! changes flip a flag or two (an advance marks one combatant as having acted), and those cost
//! a byte or so each to keep, where the whole row would carry its stat block and state as JSON.

use crate::error::DbError;
use crate::rows::{CombatantRow, combatant_row};
use serde::{Deserialize, Serialize};
use skirmish_domain::encounter::{Combatant, Encounter};

/// One column (or group of columns written together) of a combatant row, as it was.
#[derive(Debug, Serialize, Deserialize)]
pub(super) enum Was {
    Position(i32),
    Name(String),
    Side(String),
    Stats(String),
    Initiative {
        score: Option<i32>,
        roll_off: String,
        explanation: Option<String>,
    },
    Flags {
        surprised: bool,
        defeated: bool,
        hidden: bool,
        /// Kept since viewer links (a diff written before reads as not public).
        #[serde(default)]
        public: bool,
    },
    Acted(bool),
    Delaying(bool),
    State(String),
    /// Kept since groups (appended last: earlier diffs keep their variant numbers).
    Group(Option<String>),
}

/// The columns of the combatant at `was` in `before` that differ in `after` (the same
/// combatant, now at `now`), as they were. JSON columns are serialised only if they differ.
pub(super) fn columns_before(
    before: &Encounter,
    was: usize,
    after: &Combatant,
    now: usize,
) -> Result<Vec<Was>, DbError> {
    let old = &before.combatants[was];
    let mut columns = Vec::new();
    if was != now {
        let position = i32::try_from(was).map_err(|_| DbError::Corrupt("position too large".into()))?;
        columns.push(Was::Position(position));
    }
    if old.name != after.name {
        columns.push(Was::Name(old.name.clone()));
    }
    if old.side != after.side {
        columns.push(Was::Side(old.side.clone()));
    }
    let (stats, initiative, state) =
        (old.stats != after.stats, old.initiative != after.initiative, old.state != after.state);
    if stats || initiative || state {
        let row = combatant_row(before, was)?;
        if stats {
            columns.push(Was::Stats(row.stats));
        }
        if initiative {
            let (score, explanation) = (row.initiative, row.initiative_explanation);
            columns.push(Was::Initiative { score, roll_off: row.initiative_roll_off, explanation });
        }
        if state {
            columns.push(Was::State(row.state));
        }
    }
    if old.flags != after.flags {
        let flags = &old.flags;
        columns.push(Was::Flags {
            surprised: flags.surprised,
            defeated: flags.defeated,
            hidden: flags.hidden,
            public: flags.public,
        });
    }
    if old.acted_this_round != after.acted_this_round {
        columns.push(Was::Acted(old.acted_this_round));
    }
    if old.delaying != after.delaying {
        columns.push(Was::Delaying(old.delaying));
    }
    if old.group != after.group {
        columns.push(Was::Group(old.group.clone()));
    }
    Ok(columns)
}

/// Puts `column` back into `row`.
pub(super) fn restore(row: &mut CombatantRow, column: Was) {
    match column {
        Was::Position(position) => row.position = position,
        Was::Name(name) => row.name = name,
        Was::Side(side) => row.side = side,
        Was::Stats(stats) => row.stats = stats,
        Was::Initiative { score, roll_off, explanation } => {
            row.initiative = score;
            row.initiative_roll_off = roll_off;
            row.initiative_explanation = explanation;
        }
        Was::Flags { surprised, defeated, hidden, public } => {
            row.surprised = surprised;
            row.defeated = defeated;
            row.hidden = hidden;
            row.public = public;
        }
        Was::Acted(acted) => row.acted_this_round = acted,
        Was::Delaying(delaying) => row.delaying = delaying,
        Was::State(state) => row.state = state,
        Was::Group(group) => row.group_name = group,
    }
}
