//! What a stored attack takes from the encounter's record rather than from the caller's flags
//! (issue 28, "derived, not declared"): a flag that contradicts the record is refused with 422
//! naming it.
//!
//! Decisions:
//! - Firing into Combat (cepheus-engine.txt: "a target that is at Personal range to another
//!   combatant"): a grapple is fought at Personal range ("Grappling": "The attacker must move to
//!   Personal range"), so a ranged attack (throws included) on a target recorded as grappling
//!   someone is firing into combat: the −2 applies without the flag, and
//!   `firing_into_combat: false` is refused. The other grappler is at Personal range to the
//!   target, so it stands as the nearest other combatant for a stray shot when the request names
//!   none (`nearest_other_id` still names another, for the table that places someone nearer).
//!   Melee blows are not "firing" and take nothing from this.
//! - Extreme Range Firing ("characters must be stationary"; "Vehicles must be stationary"): the
//!   firer must not have taken a `move` this round, and the driver named in
//!   `attacker_vehicle_driver_id` must not have taken a `drive` this round (driving is the
//!   vehicle moving); otherwise `extreme_range` is refused. Being braced on a rest stays the
//!   caller's `braced`: the engine has no map of tripods and tree limbs.

use super::attack::EncounterAttack;
use super::super::modifier::Reason;
use super::{combatant, parts};
use crate::encounter::{Encounter, EncounterError};

/// The request with the recorded facts filled in, and a note for each.
pub(super) fn with_recorded_facts(
    encounter: &Encounter,
    mut request: EncounterAttack,
) -> Result<(EncounterAttack, Vec<Reason>), EncounterError> {
    let mut notes = Vec::new();
    check_stationary(encounter, &request)?;
    let target = combatant(encounter, &request.target_id, "target_id")?;
    let (_, target_state) = parts(target, "target_id")?;
    let grappled = target_state.grappling_with.clone().filter(|_| !request.weapon.weapon_type.is_melee());
    if let Some(partner) = grappled {
        let partner_name = encounter.name_of(&partner);
        if request.firing_into_combat == Some(false) {
            let message = format!(
                "{} is grappling {partner_name}, at Personal range to another combatant: this is firing into combat",
                target.name
            );
            return Err(EncounterError::invalid("firing_into_combat", message));
        }
        request.firing_into_combat = Some(true);
        notes.push(format!("firing into combat: {} is grappling {partner_name} (recorded)", target.name).into());
        if request.nearest_other_id.is_none() && partner != request.attacker_id {
            request.nearest_other_id = Some(partner);
        }
    }
    Ok((request, notes))
}

/// Extreme range needs a stationary firer and vehicle (see the decisions).
fn check_stationary(encounter: &Encounter, request: &EncounterAttack) -> Result<(), EncounterError> {
    if !request.extreme_range {
        return Ok(());
    }
    let round = encounter.round;
    let attacker = combatant(encounter, &request.attacker_id, "attacker_id")?;
    if parts(attacker, "attacker_id")?.1.moved_round == Some(round) {
        let message = format!(
            "{} moved this round; extreme-range fire needs a stationary firer (cepheus-engine.txt, \"Extreme Range Firing\")",
            attacker.name
        );
        return Err(EncounterError::invalid("extreme_range", message));
    }
    if let Some(driver_id) = &request.attacker_vehicle_driver_id {
        let driver = combatant(encounter, driver_id, "attacker_vehicle_driver_id")?;
        if parts(driver, "attacker_vehicle_driver_id")?.1.moved_round == Some(round) {
            let message = format!(
                "the vehicle {} drives moved this round; extreme-range fire needs a stationary vehicle",
                driver.name
            );
            return Err(EncounterError::invalid("extreme_range", message));
        }
    }
    Ok(())
}
