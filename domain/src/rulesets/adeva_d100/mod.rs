//! Adeva d100 combat rules (shared/rules/adeva-d100.txt).

pub mod actions;
pub mod altitude;
pub mod attack_sequence;
pub mod bounds;
pub mod critical;
pub mod damage;
pub mod decay;
pub mod state;
pub mod stats;
pub mod status;
pub mod evasion;
pub mod hits;
pub mod modifier;
pub mod movement;
pub mod commands;
pub mod options;
pub mod outcome;
mod plugin;
pub mod opposed;
pub mod round;
pub mod test_modifiers;
pub mod test_roll;
pub mod unarmed;
pub mod wounds;

pub use outcome::Report;
pub use plugin::{AdevaD100, TIE_POLICY, roll_initiative, tie_keys};
pub use stats::{Characteristic, Stats, bonus};

