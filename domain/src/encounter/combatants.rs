//! Adding, changing and removing combatants.

use super::effects::expire_involving;
use super::error::EncounterError;
use super::events::Event;
use super::model::{
    Combatant, CombatantId, Encounter, EncounterStatus, Flags, MAX_COMBATANTS, validate_name,
};
use crate::rulesets::{RulesetState, StatBlock};

#[derive(Debug, Clone, PartialEq)]
pub struct NewCombatant {
    pub id: CombatantId,
    pub name: String,
    pub side: String,
    pub stats: StatBlock,
    pub flags: Flags,
}

/// A partial update: `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CombatantPatch {
    pub name: Option<String>,
    pub side: Option<String>,
    pub stats: Option<StatBlock>,
    pub surprised: Option<bool>,
    pub defeated: Option<bool>,
    pub hidden: Option<bool>,
    pub public: Option<bool>,
    /// `Some(None)` leaves its group; `Some(Some(name))` joins (or moves to) one.
    pub group: Option<Option<String>>,
}

pub fn add_combatant(encounter: &mut Encounter, new: NewCombatant) -> Result<Vec<Event>, EncounterError> {
    ensure_not_ended(encounter)?;
    if encounter.combatants.len() >= MAX_COMBATANTS {
        let message = format!("an encounter holds at most {MAX_COMBATANTS} combatants");
        return Err(EncounterError::invalid("combatants", message));
    }
    validate_name("name", &new.name)?;
    validate_name("side", &new.side)?;
    ensure_ruleset(encounter, &new.stats)?;
    let event = Event::CombatantAdded {
        combatant_id: new.id.clone(),
        name: new.name.clone(),
        side: new.side.clone(),
        creature_id: None,
    };
    encounter.combatants.push(Combatant {
        id: new.id,
        name: new.name,
        side: new.side,
        stats: new.stats,
        initiative: None,
        flags: new.flags,
        acted_this_round: false,
        delaying: false,
        state: RulesetState::for_ruleset(encounter.ruleset),
        creature_id: None,
        group: None,
    });
    Ok(vec![event])
}

pub fn update_combatant(
    encounter: &mut Encounter,
    id: &CombatantId,
    patch: CombatantPatch,
) -> Result<Vec<Event>, EncounterError> {
    ensure_not_ended(encounter)?;
    if let Some(name) = &patch.name {
        validate_name("name", name)?;
    }
    if let Some(side) = &patch.side {
        validate_name("side", side)?;
    }
    if let Some(stats) = &patch.stats {
        ensure_ruleset(encounter, stats)?;
    }
    if let Some(Some(group)) = &patch.group {
        validate_name("group", group)?;
    }
    let combatant =
        encounter.combatant_mut(id).ok_or_else(|| EncounterError::UnknownCombatant(id.clone()))?;
    let changed = apply_patch(combatant, patch);
    Ok(vec![Event::CombatantUpdated { combatant_id: id.clone(), name: combatant.name.clone(), changed }])
}

/// Applies the patch and names the fields it set.
fn apply_patch(combatant: &mut Combatant, patch: CombatantPatch) -> Vec<String> {
    let mut changed = Vec::new();
    let mut set = |field: &str, applied: bool| {
        if applied {
            changed.push(field.to_owned());
        }
    };
    set("name", patch.name.map(|v| combatant.name = v).is_some());
    set("side", patch.side.map(|v| combatant.side = v).is_some());
    set("stats", patch.stats.map(|v| combatant.stats = v).is_some());
    set("surprised", patch.surprised.map(|v| combatant.flags.surprised = v).is_some());
    set("defeated", patch.defeated.map(|v| combatant.flags.defeated = v).is_some());
    set("hidden", patch.hidden.map(|v| combatant.flags.hidden = v).is_some());
    set("public", patch.public.map(|v| combatant.flags.public = v).is_some());
    set("group", patch.group.map(|v| combatant.group = v).is_some());
    changed
}

/// What a combatant brings beyond its own fields: the library creature it came from and the
/// group it shares initiative with.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Origin {
    pub creature_id: Option<String>,
    pub group: Option<String>,
}

/// Adds a combatant (checked as [`add_combatant`] checks it) with its origin: its
/// `combatant_added` event names the creature; a group breaking the name bounds is refused
/// naming `group`.
pub fn add_combatant_from(
    encounter: &mut Encounter,
    new: NewCombatant,
    origin: Origin,
) -> Result<Vec<Event>, EncounterError> {
    let id = new.id.clone();
    let mut events = add_combatant(encounter, new)?;
    if let Some(group) = &origin.group {
        validate_name("group", group)?;
    }
    for event in &mut events {
        if let Event::CombatantAdded { creature_id, .. } = event {
            creature_id.clone_from(&origin.creature_id);
        }
    }
    if let Some(added) = encounter.combatant_mut(&id) {
        added.creature_id = origin.creature_id;
        added.group = origin.group;
    }
    Ok(events)
}

/// Removes a combatant and ends the effects that name it. Removing the combatant whose turn it
/// is leaves no current turn; the next advance starts the next one.
pub fn remove_combatant(encounter: &mut Encounter, id: &CombatantId) -> Result<Vec<Event>, EncounterError> {
    ensure_not_ended(encounter)?;
    let index = encounter
        .combatants
        .iter()
        .position(|c| &c.id == id)
        .ok_or_else(|| EncounterError::UnknownCombatant(id.clone()))?;
    let removed = encounter.combatants.remove(index);
    if encounter.current.as_ref() == Some(id) {
        encounter.current = None;
    }
    let mut events = vec![Event::CombatantRemoved { combatant_id: removed.id, name: removed.name }];
    expire_involving(encounter, id, &mut events);
    Ok(events)
}

fn ensure_not_ended(encounter: &Encounter) -> Result<(), EncounterError> {
    if encounter.status == EncounterStatus::Ended {
        return Err(EncounterError::Conflict("the encounter has ended".into()));
    }
    Ok(())
}

fn ensure_ruleset(encounter: &Encounter, stats: &StatBlock) -> Result<(), EncounterError> {
    if stats.ruleset() != encounter.ruleset {
        let message = format!("a {} stat block in a {} encounter", stats.ruleset(), encounter.ruleset);
        return Err(EncounterError::invalid("stats", message));
    }
    Ok(())
}
