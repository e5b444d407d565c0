//! Writing an encounter's combatants and effects: only the rows that changed.

use crate::error::DbError;
use crate::rows::{combatant_row, effect_row};
use crate::schema::{combatants, effects};
use diesel::prelude::*;
use skirmish_domain::encounter::Encounter;
use std::collections::{HashMap, HashSet};

/// Stores every combatant and effect of a new encounter.
pub(super) fn insert_all(conn: &mut SqliteConnection, encounter: &Encounter) -> Result<(), DbError> {
    save_changes(conn, None, encounter)
}

/// Writes the combatants and effects that differ between `before` (as loaded; `None` for a new
/// encounter) and `after`: a changed or moved one is replaced, a new one inserted, a gone one
/// deleted, and one that is the same at the same position is left alone.
pub(super) fn save_changes(
    conn: &mut SqliteConnection,
    before: Option<&Encounter>,
    after: &Encounter,
) -> Result<(), DbError> {
    let id = after.id.as_str();
    let old = before.map(|b| &b.combatants[..]).unwrap_or_default();
    let (changed, gone) = diff(old, &after.combatants, |c| c.id.as_str());
    for position in changed {
        let row = combatant_row(after, position)?;
        diesel::replace_into(combatants::table).values(&row).execute(conn)?;
    }
    for gone in gone {
        diesel::delete(combatants::table.find((id, gone))).execute(conn)?;
    }
    let old = before.map(|b| &b.effects[..]).unwrap_or_default();
    let (changed, gone) = diff(old, &after.effects, |e| e.id.0.as_str());
    for position in changed {
        let row = effect_row(after, position)?;
        diesel::replace_into(effects::table).values(&row).execute(conn)?;
    }
    for gone in gone {
        diesel::delete(effects::table.find((id, gone))).execute(conn)?;
    }
    Ok(())
}

/// The positions in `new` whose item is not the same item at the same position in `old`, and
/// the ids in `old` that are not in `new`.
fn diff<'a, T: PartialEq>(
    old: &'a [T],
    new: &'a [T],
    id: impl Fn(&'a T) -> &'a str,
) -> (Vec<usize>, Vec<&'a str>) {
    let unchanged = |position: usize, item: &T| old.get(position).is_some_and(|o| o == item);
    if old.len() == new.len() && old.iter().zip(new).all(|(o, n)| id(o) == id(n)) {
        let changed = new.iter().enumerate().filter(|&(p, n)| !unchanged(p, n)).map(|(p, _)| p);
        return (changed.collect(), Vec::new());
    }
    let was: HashMap<&str, usize> = old.iter().enumerate().map(|(p, o)| (id(o), p)).collect();
    let changed = new
        .iter()
        .enumerate()
        .filter(|&(p, n)| was.get(id(n)) != Some(&p) || !unchanged(p, n))
        .map(|(p, _)| p)
        .collect();
    let kept: HashSet<&str> = new.iter().map(&id).collect();
    let gone = old.iter().map(&id).filter(|o| !kept.contains(o)).collect();
    (changed, gone)
}

#[cfg(test)]
mod tests {
    use super::diff;

    #[test]
    fn only_changed_moved_and_new_items_are_written_and_missing_ones_deleted() {
        let old = [("a", 1), ("b", 1), ("c", 1)];
        let same = diff(&old, &old, |i| i.0);
        let edited = [("a", 1), ("b", 2), ("c", 1)];
        let one = diff(&old, &edited, |i| i.0);
        let removed = [("a", 1), ("c", 1), ("d", 1)];
        let moved = diff(&old, &removed, |i| i.0);

        assert_eq!(same, (vec![], vec![]));
        assert_eq!(one, (vec![1], vec![]));
        assert_eq!(moved, (vec![1, 2], vec!["b"]), "c moved to 1, d is new at 2, b is gone");
    }
}
