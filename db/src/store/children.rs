//! Writing an encounter's combatants and effects: only the rows that changed.

use super::statements::{
    CombatantTurn, ReplaceCombatant, ReplaceEffect, UpdateCombatant, UpdateCombatantTurn, UpdateEffect,
};
use crate::backend::DbConnection;
use crate::error::DbError;
use crate::rows::{combatant_row, effect_row};
use crate::schema::{combatants, effects};
use diesel::prelude::*;
use skirmish_domain::encounter::{Combatant, Encounter};
use std::collections::{HashMap, HashSet};

/// Which rows of one table a change wrote, by position: each row replaced or inserted (its
/// position after the change, and its position before if it existed then), and each row deleted
/// (its position before). Rows not named here were left alone.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Written {
    pub replaced: Vec<(usize, Option<usize>)>,
    pub deleted: Vec<usize>,
}

/// What [`save_changes`] wrote: the combatant rows and the effect rows.
#[derive(Debug, Default)]
pub(super) struct ChildrenWritten {
    pub combatants: Written,
    pub effects: Written,
    /// The positions of the combatants of `combatants.replaced` whose turn columns alone
    /// changed: left for the caller to write with the rest of the change (see
    /// `change_rows.rs`), so that on PostgreSQL they go in the change's one statement.
    pub turns: Vec<usize>,
}

/// Stores every combatant and effect of a new encounter.
pub(super) fn insert_all(conn: &mut DbConnection, encounter: &Encounter) -> Result<(), DbError> {
    // Nothing was there before, so no row has only its turn columns to move.
    save_changes(conn, None, encounter).map(drop)
}

/// Writes the combatants and effects that differ between `before` (as loaded; `None` for a new
/// encounter) and `after`: a changed or moved one is replaced, a new one inserted, a gone one
/// deleted, and one that is the same at the same position is left alone; one whose turn columns
/// alone changed is left for the caller to write (`turns`). Returns which rows it wrote or left
/// (undo's history keeps their earlier images: see `history.rs`).
pub(super) fn save_changes(
    conn: &mut DbConnection,
    before: Option<&Encounter>,
    after: &Encounter,
) -> Result<ChildrenWritten, DbError> {
    let id = after.id.as_str();
    let old = before.map(|b| &b.combatants[..]).unwrap_or_default();
    let combatants = diff(old, &after.combatants, |c| c.id.as_str());
    let mut turns = Vec::new();
    for &(position, was) in &combatants.replaced {
        // A row that was there is rewritten in place (only its turn columns if nothing else
        // changed: left to the caller); should it be missing after all, it is written whole.
        let updated = match was {
            Some(was) if only_turn_moved(&old[was], &after.combatants[position]) => {
                turns.push(position);
                true
            }
            Some(_) => UpdateCombatant(&combatant_row(after, position)?).execute(conn)? > 0,
            None => false,
        };
        if !updated {
            ReplaceCombatant(&combatant_row(after, position)?).execute(conn)?;
        }
    }
    for &gone in &combatants.deleted {
        diesel::delete(combatants::table.find((id, old[gone].id.as_str()))).execute(conn)?;
    }
    let old = before.map(|b| &b.effects[..]).unwrap_or_default();
    let effects = diff(old, &after.effects, |e| e.id.0.as_str());
    for &(position, was) in &effects.replaced {
        let row = effect_row(after, position)?;
        if was.is_none() || UpdateEffect(&row).execute(conn)? == 0 {
            ReplaceEffect(&row).execute(conn)?;
        }
    }
    for &gone in &effects.deleted {
        diesel::delete(effects::table.find((id, old[gone].id.0.as_str()))).execute(conn)?;
    }
    Ok(ChildrenWritten { combatants, effects, turns })
}

/// Writes the turn columns of the combatants at `positions` of `after`, one statement each (the
/// SQLite way; PostgreSQL writes them in the change's one statement: see `change_rows.rs`);
/// a row that should be there and is not is written whole.
pub(super) fn write_turns(
    conn: &mut DbConnection,
    after: &Encounter,
    positions: &[usize],
) -> Result<(), DbError> {
    for &position in positions {
        if UpdateCombatantTurn(&combatant_turn(after, position)?).execute(conn)? == 0 {
            ReplaceCombatant(&combatant_row(after, position)?).execute(conn)?;
        }
    }
    Ok(())
}

/// The same combatant with the same name, side, stat block, initiative and state: only the
/// columns of [`CombatantTurn`] may differ.
fn only_turn_moved(old: &Combatant, new: &Combatant) -> bool {
    old.name == new.name
        && old.side == new.side
        && old.initiative == new.initiative
        && old.stats == new.stats
        && old.state == new.state
        && old.group == new.group
        && old.creature_id == new.creature_id
}

/// The turn columns of the combatant at `position` in `encounter`.
pub(super) fn combatant_turn(encounter: &Encounter, position: usize) -> Result<CombatantTurn<'_>, DbError> {
    let combatant = &encounter.combatants[position];
    let flags = &combatant.flags;
    Ok(CombatantTurn {
        encounter_id: encounter.id.as_str(),
        id: combatant.id.as_str(),
        position: i32::try_from(position).map_err(|_| DbError::Corrupt("position too large".into()))?,
        surprised: flags.surprised,
        defeated: flags.defeated,
        hidden: flags.hidden,
        public: flags.public,
        acted_this_round: combatant.acted_this_round,
        delaying: combatant.delaying,
    })
}

/// The positions in `new` whose item is not the same item at the same position in `old` (with
/// the item's position in `old`, if it was there), and the positions in `old` of the items that
/// are not in `new`.
fn diff<'a, T: PartialEq>(old: &'a [T], new: &'a [T], id: impl Fn(&'a T) -> &'a str) -> Written {
    let unchanged = |position: usize, item: &T| old.get(position).is_some_and(|o| o == item);
    if old.len() == new.len() && old.iter().zip(new).all(|(o, n)| id(o) == id(n)) {
        let changed = new.iter().enumerate().filter(|&(p, n)| !unchanged(p, n)).map(|(p, _)| (p, Some(p)));
        return Written { replaced: changed.collect(), deleted: Vec::new() };
    }
    let was: HashMap<&str, usize> = old.iter().enumerate().map(|(p, o)| (id(o), p)).collect();
    let replaced = new
        .iter()
        .enumerate()
        .map(|(p, n)| (p, n, was.get(id(n)).copied()))
        .filter(|&(p, n, was)| was != Some(p) || !unchanged(p, n))
        .map(|(p, _, was)| (p, was))
        .collect();
    let kept: HashSet<&str> = new.iter().map(&id).collect();
    let deleted = old.iter().enumerate().filter(|&(_, o)| !kept.contains(id(o))).map(|(p, _)| p).collect();
    Written { replaced, deleted }
}

#[cfg(test)]
mod tests {
    use super::{Written, diff};

    #[test]
    fn only_changed_moved_and_new_items_are_written_and_missing_ones_deleted() {
        let old = [("a", 1), ("b", 1), ("c", 1)];
        let same = diff(&old, &old, |i| i.0);
        let edited = [("a", 1), ("b", 2), ("c", 1)];
        let one = diff(&old, &edited, |i| i.0);
        let removed = [("a", 1), ("c", 1), ("d", 1)];
        let moved = diff(&old, &removed, |i| i.0);

        assert_eq!(same, Written::default());
        assert_eq!(one, Written { replaced: vec![(1, Some(1))], deleted: vec![] });
        assert_eq!(
            moved,
            Written { replaced: vec![(1, Some(2)), (2, None)], deleted: vec![1] },
            "c moved from 2 to 1, d is new at 2, b (at 1) is gone"
        );
    }
}

#[cfg(test)]
mod stored_rows {
    use crate::store::{Mutation, Store, StoredResponse};
    use skirmish_domain::encounter::{
        CombatantId, Encounter, EncounterError, EncounterId, Event, Flags, NewCombatant, add_combatant,
    };
    use skirmish_domain::rulesets::{RulesetId, StatBlock, lur_asko};

    const TENANT: &str = "guild";

    fn version_body<T>(mutation: Mutation<T>) -> Result<StoredResponse, EncounterError> {
        let body = mutation.encounter.encounter.version.to_string();
        Ok(StoredResponse { status: 200, body, headers: vec![] })
    }

    /// Applies `change` to the stored encounter and returns the encounter it made.
    fn change(store: &Store, id: &EncounterId, change: impl FnOnce(&mut Encounter)) -> Encounter {
        let mut made = None;
        let command = |encounter: &mut Encounter| {
            change(encounter);
            made = Some(encounter.clone());
            Ok((Vec::<Event>::new(), ()))
        };
        store.mutate(TENANT, id, None, None, command, version_body).unwrap();
        let mut made = made.unwrap();
        made.version += 1;
        made
    }

    #[test]
    fn a_turn_only_change_and_a_full_one_both_store_exactly_the_encounter_they_made() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("rows.db").display().to_string()).unwrap();
        let mut encounter = Encounter::new(EncounterId("e1".into()), RulesetId::LurAsko, "Bridge".into());
        for n in 0..2 {
            let new = NewCombatant {
                id: CombatantId(format!("gob{n}")),
                name: format!("Goblin {n}"),
                side: "monsters".into(),
                stats: StatBlock::LurAsko(lur_asko::Stats::default()),
                flags: Flags::default(),
            };
            add_combatant(&mut encounter, new).unwrap();
        }
        store.create(TENANT, &encounter, &[], None, version_body).unwrap();

        let turned = change(&store, &encounter.id, |e| {
            e.combatants[1].acted_this_round = true;
            e.combatants[1].delaying = true;
            e.combatants[0].flags.hidden = true;
        });
        let after_turn = store.get(TENANT, &encounter.id).unwrap().unwrap().encounter;
        let renamed = change(&store, &encounter.id, |e| {
            e.combatants[0].name = "Boss".into();
            e.combatants[1].acted_this_round = false;
        });
        let after_rename = store.get(TENANT, &encounter.id).unwrap().unwrap().encounter;

        assert!(turned.combatants[1].acted_this_round && turned.combatants[0].flags.hidden);
        assert_eq!(after_turn, turned);
        assert_eq!(after_rename, renamed);
        assert_eq!(after_rename.combatants[0].name, "Boss");
    }
}
