//! Lur-Asko's operations: `attacks`, `damage` (both with stateless twins) and `actions`.

pub mod actions;
pub mod attacks;
pub mod report;
pub mod request;
pub mod stored;

#[cfg(test)]
mod stored_tests;

use super::outcome::Report;
pub use actions::{ActionReport, ActionRequest};
pub use report::AttackReport;
pub use request::{EncounterAttack, EncounterDamage, InlineAttack, InlineDamage};
