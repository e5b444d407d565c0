//! A Charge ending in a Grapple or a Knock Down on a stored encounter (adeva-d100.txt, "Charge":
//! "You may make a Grapple or Knockdown action in place of an attack as part of a Charge action").
//!
//! Decisions:
//! - The Charge is spent as one full action (Attack, Melee, Movement; refused for a pinned
//!   combatant); its reach comes from the stat block (`core::with_movement`).
//! - A Grapple in its place is rolled as Grapple (Initiate) with the Charge's +20 (WS test, the
//!   target's optional `dodge`, no parry); a hit not dodged starts the grapple, the charger in
//!   control (`grapple::attempt`).
//! - A Knock Down in its place is rolled as the Knock Down action: opposed Strength, with neither
//!   the +20 (it is no attack test) nor Knock Down's +10 (a Charge is not a Half Move); `hurt`
//!   asks for the 2+ DoS damage (`manoeuvres::knock_down_roll`).
//! - A Charge ending in an attack goes through the attack command (refused here, field `strike`).

use super::super::actions::charge::{Charge, ChargeStrike};
use super::super::actions::declared::DeclaredAction;
use super::super::actions::action_spec;
use super::action_outcome::Ran;
use super::manoeuvres::{knock_down_roll, spend};
use super::{ensure_turn, peek};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};

/// How a Charge ending in a Grapple or Knock Down is sent.
pub(super) struct ChargeRequest {
    pub actor: CombatantId,
    pub target: CombatantId,
    pub charge: Charge,
    pub dodge: bool,
    pub hurt: bool,
}

/// Spends the Charge and rolls the Grapple or Knock Down it ends in (see the decisions).
pub(super) fn charge(encounter: &mut Encounter, request: ChargeRequest, dice: &mut Dice) -> Result<Ran, EncounterError> {
    let ChargeRequest { actor, target, charge, dodge, hurt } = request;
    if actor == target {
        return Err(EncounterError::invalid("target_id", "the target must be another combatant"));
    }
    ensure_turn(encounter, &actor, "combatant_id")?;
    let (stats, _, _) = peek(encounter, &actor, "combatant_id")?;
    let declared = super::core::with_movement(&DeclaredAction::Charge(charge), &stats)?;
    let spec = action_spec(&declared)?;
    let DeclaredAction::Charge(charge) = declared else {
        return Err(EncounterError::invalid("action", "not a charge"));
    };
    match charge.strike {
        ChargeStrike::Attack { .. } => Err(EncounterError::invalid(
            "strike",
            "a Charge ending in an attack is taken with the attack command",
        )),
        ChargeStrike::Grapple { .. } => {
            let (outcome, notes) =
                super::grapple::attempt(encounter, &actor, &target, &spec, dodge, "charge: grapple attempt", dice)?;
            Ok((actor, "charge".into(), outcome, notes))
        }
        ChargeStrike::KnockDown {} => {
            if dodge {
                return Err(EncounterError::invalid("dodge", "a Knock Down is an opposed test: nothing to dodge"));
            }
            peek(encounter, &target, "target_id")?;
            spend(encounter, &actor, &spec)?;
            let (outcome, notes) = knock_down_roll(encounter, &actor, &target, &spec, hurt, dice)?;
            Ok((actor, "charge".into(), outcome, notes))
        }
    }
}
