//! What a combatant carries: items held in the hands, carried or worn, or dropped; their damage
//! and condition (arrgs.txt, "Staggered [n]": 0 Action Points drops all items held; "Disarm
//! Manoeuvre"; "Sunder Manoeuvre"; "Miscellaneous Manoeuvre"; "Complementary Actions").
//!
//! Decisions:
//! - The stat block lists the items a combatant has on joining (`items`, held unless
//!   `"held": false`); the engine copies them into the combat state the first time the combatant
//!   is touched and tracks them from then on.
//! - Disarm moves the named item (or the only one held) out of the target's hands to the floor.
//! - Sunder continues from the damage the item has taken; a stored item keeps its Vitality (the
//!   text gives none: the stat block or the first Sunder names it). Broken at half, destroyed at
//!   all of it; a destroyed item cannot be sundered again.
//! - Drawing and dropping are Complementary actions or Miscellaneous manoeuvres (both lists name
//!   them); picking up and stowing are Miscellaneous manoeuvres only.
//! - Staggered to 0 Action Points drops everything held at once, when the condition is set.

use super::fighter::Fighter;
use super::state::{ItemState, MAX_ITEMS, Place, TrackedItem};
use crate::rulesets::RuleError;
use crate::score::Score;
use serde::{Deserialize, Serialize};


/// An item on the stat block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsItemSpec))]
#[serde(deny_unknown_fields)]
pub struct ItemSpec {
    /// 1 to 100 characters, unique on the sheet.
    pub name: String,
    /// In the hands (default true); false: carried or worn.
    #[serde(default = "yes")]
    pub held: bool,
    /// The item's Vitality, for Sunder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vitality: Option<Score<1, 10_000>>,
}

fn yes() -> bool {
    true
}

impl From<&ItemSpec> for TrackedItem {
    fn from(spec: &ItemSpec) -> Self {
        let place = if spec.held { Place::Held } else { Place::Carried };
        Self { name: spec.name.clone(), place, vitality: spec.vitality.map(Score::get), damage_taken: 0, condition: ItemState::Intact }
    }
}

/// The stat block's item list is sound: names 1–100 characters, unique, at most [`MAX_ITEMS`].
pub fn check_specs(specs: &[ItemSpec]) -> Result<(), String> {
    if specs.len() > MAX_ITEMS {
        return Err(format!("items: at most {MAX_ITEMS}"));
    }
    for (index, spec) in specs.iter().enumerate() {
        if spec.name.trim().is_empty() || spec.name.chars().count() > 100 {
            return Err(format!("items[{index}].name: must be 1 to 100 characters and not blank"));
        }
        if specs[..index].iter().any(|other| other.name == spec.name) {
            return Err(format!("items[{index}].name: listed twice"));
        }
    }
    Ok(())
}

/// Copies the stat block's items into the state the first time (nothing to copy: nothing kept).
pub fn adopt_sheet(fighter: &mut Fighter) {
    if fighter.state.items.is_none() && !fighter.stats.items.is_empty() {
        fighter.state.items = Some(fighter.stats.items.iter().map(TrackedItem::from).collect());
    }
}

impl Fighter {
    /// The items tracked now.
    pub fn items(&self) -> &[TrackedItem] {
        self.state.items.as_deref().unwrap_or_default()
    }

    fn items_mut(&mut self) -> &mut Vec<TrackedItem> {
        self.state.items.get_or_insert_with(Vec::new)
    }

    fn item_index(&self, name: &str) -> Option<usize> {
        self.items().iter().position(|item| item.name == name)
    }

    /// Names of the items in the hands.
    pub fn held(&self) -> Vec<String> {
        self.items().iter().filter(|item| item.place == Place::Held).map(|item| item.name.clone()).collect()
    }
}

/// Drops everything held (arrgs.txt, "Staggered [n]"). Returns what fell.
pub fn drop_all_held(fighter: &mut Fighter) -> Vec<String> {
    let dropped = fighter.held();
    for item in fighter.items_mut().iter_mut().filter(|item| item.place == Place::Held) {
        item.place = Place::Dropped;
    }
    dropped
}

/// The item a Disarm knocks away: the one named, or the only one held; none when the target's
/// items are not tracked. Refuses naming `field`.
pub fn disarm_target(target: &Fighter, named: Option<&str>, field: &str) -> Result<Option<String>, RuleError> {
    let held = target.held();
    match named {
        Some(name) if target.items().is_empty() => Ok(Some(name.to_owned())),
        Some(name) if held.iter().any(|h| h == name) => Ok(Some(name.to_owned())),
        Some(name) => Err(RuleError::invalid(field, format!("{} does not hold a {name}", target.name))),
        None if target.items().is_empty() => Ok(None),
        None => match held.as_slice() {
            [only] => Ok(Some(only.clone())),
            [] => Err(RuleError::invalid(field, format!("{} holds nothing to disarm", target.name))),
            _ => Err(RuleError::invalid(field, format!("{} holds {}: name the item", target.name, held.join(", ")))),
        },
    }
}

/// Moves the item out of the target's hands onto the floor (arrgs.txt, "Disarm Manoeuvre").
pub fn knock_away(target: &mut Fighter, name: &str) {
    if let Some(index) = target.item_index(name) {
        target.items_mut()[index].place = Place::Dropped;
    }
}

/// An item a Sunder is aimed at, as the request names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsItem))]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub name: String,
    /// The item's Vitality (its 100%); needed unless the encounter already knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vitality: Option<Score<1, 10_000>>,
    /// Damage it has taken before (default 0); refused for an item the encounter tracks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_taken: Option<Score<0, 10_000>>,
}

/// The item as a Sunder will find it: tracked (with its damage so far) or new. Refuses naming
/// `effect.item…`.
pub fn sunder_target(target: &Fighter, item: &Item) -> Result<TrackedItem, RuleError> {
    if item.name.trim().is_empty() || item.name.chars().count() > 100 {
        return Err(RuleError::invalid("effect.item.name", "must be 1 to 100 characters and not blank"));
    }
    let Some(index) = target.item_index(&item.name) else {
        let vitality = item.vitality.map(Score::get).ok_or_else(|| {
            RuleError::invalid("effect.item.vitality", format!("{} is not tracked: give its Vitality", item.name))
        })?;
        let damage_taken = item.damage_taken.map_or(0, Score::get);
        let condition = ItemState::of(damage_taken, vitality);
        return Ok(TrackedItem { name: item.name.clone(), place: Place::Carried, vitality: Some(vitality), damage_taken, condition });
    };
    if item.damage_taken.is_some() {
        let message = format!("the encounter tracks the {}'s damage: leave damage_taken out", item.name);
        return Err(RuleError::invalid("effect.item.damage_taken", message));
    }
    let mut tracked = target.items()[index].clone();
    if tracked.condition == ItemState::Destroyed {
        return Err(RuleError::invalid("effect.item.name", format!("the {} is already destroyed", item.name)));
    }
    match (tracked.vitality, item.vitality.map(Score::get)) {
        (Some(known), Some(sent)) if known != sent => {
            Err(RuleError::invalid("effect.item.vitality", format!("the {} has Vitality {known}", item.name)))
        }
        (None, None) => Err(RuleError::invalid("effect.item.vitality", format!("give the {}'s Vitality", item.name))),
        (known, sent) => {
            tracked.vitality = known.or(sent);
            Ok(tracked)
        }
    }
}

/// Deals `damage` to the item and stores it on the target. Returns the item afterwards.
pub fn sunder(target: &mut Fighter, mut item: TrackedItem, damage: i32) -> TrackedItem {
    item.damage_taken = item.damage_taken.saturating_add(damage).min(20_000);
    item.condition = ItemState::of(item.damage_taken, item.vitality.unwrap_or(1));
    match target.item_index(&item.name) {
        Some(index) => target.items_mut()[index] = item.clone(),
        None if target.items().len() < MAX_ITEMS => target.items_mut().push(item.clone()),
        None => {}
    }
    item
}

/// Picking up, drawing, stowing or dropping an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsItemAction))]
#[serde(rename_all = "snake_case")]
pub enum ItemAction {
    /// From the floor into the hands (Miscellaneous).
    PickUp,
    /// From the belt or back into the hands.
    Draw,
    /// From the hands to the belt or back (Miscellaneous).
    Stow,
    /// From the hands to the floor.
    Drop,
}

/// An item handled as part of a manoeuvre.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsItemHandling))]
#[serde(deny_unknown_fields)]
pub struct Handling {
    pub item: String,
    pub action: ItemAction,
}

/// Handles an item: `complementary` allows only drawing and dropping. Refuses naming `field`.
pub fn handle(fighter: &mut Fighter, handling: &Handling, complementary: bool, field: &str) -> Result<Place, RuleError> {
    use ItemAction::{Draw, Drop, PickUp, Stow};
    if complementary && matches!(handling.action, PickUp | Stow) {
        let message = "picking up and stowing are Miscellaneous manoeuvres, not Complementary actions";
        return Err(RuleError::invalid(format!("{field}.action"), message));
    }
    let index = fighter.item_index(&handling.item).ok_or_else(|| {
        RuleError::invalid(format!("{field}.item"), format!("{} has no {}", fighter.name, handling.item))
    })?;
    let place = fighter.items()[index].place;
    let (from, to) = match handling.action {
        PickUp => (Place::Dropped, Place::Held),
        Draw => (Place::Carried, Place::Held),
        Stow => (Place::Held, Place::Carried),
        Drop => (Place::Held, Place::Dropped),
    };
    if place != from {
        let message = format!("the {} is {}, not {}", handling.item, place.label(), from.label());
        return Err(RuleError::invalid(format!("{field}.action"), message));
    }
    fighter.items_mut()[index].place = to;
    Ok(to)
}

#[cfg(test)]
#[path = "items_tests.rs"]
mod tests;
