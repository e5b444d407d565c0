//! The vehicle and recovery actions of the actions command, unpacked for `vehicle_actions.rs`
//! and `recovery.rs` (cepheus-engine.txt, "Vehicle Combat", "Injury and Recovery").

use super::action_report::ActionReport;
use super::invalid;
use super::action_request::Action;
use super::healing::{self, HealRequest};
use super::recovery;
use super::vehicle_actions::{self, Occupants};
use super::super::economy::Cost;
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};
use crate::score::Score;

/// A vehicle action (`vehicle_actions.rs`); any other action is refused on `action`.
pub(super) fn vehicle_action(
    encounter: &mut Encounter,
    id: &CombatantId,
    action: &Action,
    new: impl Fn(Cost) -> ActionReport,
    dice: &mut Dice,
) -> Result<ActionReport, EncounterError> {
    match action {
        Action::Collision { speed_kph, target_ids, unsecured_ids, secured_ids, overflow_to, .. } => {
            let occupants = Occupants { targets: target_ids, unsecured: unsecured_ids, secured: secured_ids };
            vehicle_actions::collision(encounter, speed_kph.get(), &occupants, *overflow_to, new(Cost::Free), dice)
        }
        Action::EvasiveAction { skill, characteristic, .. } => vehicle_actions::evasive_action(
            encounter,
            id,
            skill,
            *characteristic,
            new(Cost::Significant),
            dice,
        ),
        Action::Ram {
            skill,
            target_id,
            speed_kph,
            characteristic,
            dm,
            target_solid,
            unsecured_ids,
            secured_ids,
            overflow_to,
            ..
        } => {
            let occupants = Occupants { targets: &[], unsecured: unsecured_ids, secured: secured_ids };
            vehicle_actions::ram(
                encounter,
                id,
                skill,
                *characteristic,
                target_id,
                speed_kph.get(),
                dm.get(),
                *target_solid,
                &occupants,
                *overflow_to,
                new(Cost::Significant),
                dice,
            )
        }
        Action::Stunt { skill, characteristic, dm, .. } => {
            vehicle_actions::stunt(encounter, id, skill, *characteristic, dm.get(), new(Cost::Significant), dice)
        }
        Action::Weave { skill, weaving_number, speed_kph, characteristic, .. } => vehicle_actions::weave(
            encounter,
            id,
            skill,
            *characteristic,
            weaving_number.get(),
            speed_kph.get(),
            new(Cost::Significant),
            dice,
        ),
        Action::Drive { demanding, .. } => vehicle_actions::drive(encounter, id, *demanding, new(Cost::Minor)),
        _ => Err(invalid("action", "not a vehicle action")),
    }
}

/// A recovery action (`recovery.rs`); any other action is refused on `action`.
pub(super) fn recovery_action(
    encounter: &mut Encounter,
    id: &CombatantId,
    action: &Action,
    new: impl Fn(Cost) -> ActionReport,
    dice: &mut Dice,
) -> Result<ActionReport, EncounterError> {
    match action {
        Action::RegainConsciousness { failed_checks, .. } => {
            let sent = failed_checks.map(|checks| checks.get().unsigned_abs());
            recovery::regain_consciousness(encounter, id, sent, new(Cost::Free), dice)
        }
        Action::Rest { .. } => recovery::rest(encounter, id, new(Cost::Free)),
        Action::Heal { method, days, medic_id, medic_skill, split, facility, .. } => {
            let request = HealRequest {
                method: *method,
                days: days.map(|days| days.get().unsigned_abs()),
                medic_id: medic_id.as_ref(),
                medic_skill: medic_skill.map(Score::get),
                split: split.map(Into::into),
                facility: *facility,
            };
            healing::heal(encounter, id, &request, new(Cost::Free), dice)
        }
        _ => Err(invalid("action", "not a recovery action")),
    }
}
