//! Cepheus Engine, Personal Combat (shared/rules/cepheus-engine.txt).

pub mod allocation;
pub mod attack;
pub mod attack_damage;
pub mod attack_difficulty;
pub mod attack_miss;
pub mod attack_modifiers;
pub mod attack_request;
pub mod attack_roll;
pub mod blind_fire;
pub mod burst;
pub mod character;
pub mod circumstances;
pub mod collision;
pub mod conditions;
pub mod cover;
pub mod damage;
pub mod difficulty;
pub mod economy;
pub mod dynamic;
pub mod explosion;
pub mod fatigue;
pub mod grapple;
pub mod modifier;
pub mod commands;
pub mod opposed;
pub mod outcome;
pub mod range;
pub mod reactions;
pub mod round;
pub mod skill;
pub mod skills;
pub mod stance;
pub mod state;
pub mod stats;
pub mod status;
pub mod stats_input;

pub mod status_effects;
pub mod suppression;
pub mod vehicle;
pub mod vehicle_block;
pub mod vehicle_damage;
pub mod vehicle_location;
pub mod vehicle_track;
pub mod vehicle_track_report;
pub mod weapon;
mod plugin;

pub use outcome::Report;
pub use plugin::{CepheusEngine, TIE_POLICY, roll_initiative, tie_keys};
pub use state::CombatState;
pub use stats::{Characteristic, Stats, characteristic_dm};

#[cfg(test)]
mod dynamic_tests;
