//! Lur-Asko's operations: `attacks`, `damage` (both with stateless twins) and `actions`.

pub mod actions;
pub mod attacks;
pub mod report;
pub mod request;
pub mod stored;

#[cfg(test)]
mod stored_tests;

use super::outcome::Report;
use crate::encounter::{Encounter, Event};
use crate::rulesets::RulesetReport;
pub use actions::{ActionReport, ActionRequest};
pub use report::AttackReport;
pub use request::{EncounterAttack, EncounterDamage, InlineAttack, InlineDamage};

/// Clears lapsed auras and says so in the log (Damage Auras).
pub fn lapse_events(encounter: &mut Encounter) -> Vec<Event> {
    stored::settle_auras(encounter)
        .into_iter()
        .map(|(combatant_id, combatant, auras)| Event::ActionTaken {
            combatant_id,
            action: "auras_lapsed".into(),
            report: RulesetReport::LurAsko(Report::Action(Box::new(ActionReport::AurasLapsed { combatant, auras }))),
            dice: Vec::new(),
        })
        .collect()
}
