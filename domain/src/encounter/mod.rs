//! The ruleset-agnostic encounter: combatants, initiative order, turns and rounds, effects with
//! durations, and the events every change produces.

mod advance;
mod combatants;
mod creatures;
mod effects;
mod error;
mod events;
mod initiative;
mod model;
mod order;
mod setup;

pub use advance::{Advance, advance, advance_with};
pub use combatants::{
    CombatantPatch, NewCombatant, Origin, add_combatant, add_combatant_from, remove_combatant,
    update_combatant,
};
pub use creatures::{MAX_CREATURE_COUNT, add_from_creature, numbered_names};
pub use effects::{Effect, Expiry, Moment, NewEffect, add_effect, remove_effect};
pub use error::EncounterError;
pub use events::Event;
pub use initiative::{InitiativeRequest, break_ties, roll_initiative};
pub use model::{
    Combatant, CombatantId, EffectId, Encounter, EncounterId, EncounterStatus, Flags, Initiative,
    MAX_COMBATANTS, MAX_EFFECTS, MAX_NAME_LEN, validate_name,
};
pub use order::{TurnSlot, turn_order};
pub use setup::{SetupCombatant, encounter_from_setup, setup_combatants};

#[cfg(test)]
pub(crate) mod test_support;
#[cfg(test)]
mod tests_groups;
#[cfg(test)]
mod tests_order;
#[cfg(test)]
mod tests_turns;
