//! ARRGS combat (shared/rules/arrgs.txt, "ARRGS – Combat"): Initiative slots counted down, Action
//! Points and Additional Action Points, Action checks (1d20) against Reaction Defences (10),
//! Success Values, criticals, typed damage through resistance and vulnerability, Vitality and its
//! conditions, every Standard manoeuvre and the End of Round.
//!
//! Decisions (where the text is silent; the full list is in docs/rulesets/arrgs.md):
//! - The Initiative score is read from the stat block or sent by the caller: the text gives no
//!   roll.
//! - Equal scores act by Agility, then a 1d20 roll-off.
//! - Round 1 is the surprise round whenever a combatant is Surprised when it begins; the
//!   Surprised condition ends at that round's End of Round.

pub mod area;
pub mod attack;
pub mod attack_resolution;
pub mod bonuses;
pub mod attacking;
pub mod check;
pub mod commands;
pub mod damage_types;
pub mod defence;
pub mod economy;
pub mod fighter;
pub mod items;
pub mod manoeuvre_resolution;
pub mod manoeuvres;
pub mod modifier;
pub mod opportunity;
pub mod outcome;
mod plugin;
pub mod round;
pub mod spells;
pub mod state;
pub mod stats;
pub mod status;
pub mod strike;
pub mod table;
#[cfg(test)]
pub(crate) mod test_support;
pub mod vitality;
pub mod weapon;

pub use fighter::Options;
pub use outcome::Report;
pub use plugin::{Arrgs, TIE_POLICY, initiative, tie_keys};
pub use state::CombatState;
pub use stats::Stats;
