//! Lur-Asko combat: the damage chapter "Back in Combat" (shared/rules/lur-asko.txt).
//!
//! Decisions:
//! - No initiative rule, so every value is caller-set (the whole text is silent on turn order);
//!   equal values keep join order.

pub mod aura;
pub mod commands;
pub mod injury;
pub mod options;
pub mod outcome;
mod plugin;
pub mod pipeline;
pub mod portions;
pub mod resistance;
pub mod round;
pub mod shielding;
pub mod state;
pub mod stats;
pub mod status;
pub mod weapon;

#[cfg(test)]
mod aura_tests;
#[cfg(test)]
mod energy_portions_tests;
#[cfg(test)]
mod pipeline_tests;
#[cfg(test)]
mod round_tests;

pub use options::Options;
pub use outcome::Report;
pub use plugin::{Actions, Attacks, Damage, LurAsko, TIE_POLICY, initiative};
pub use state::CombatState;
pub use stats::Stats;
