//! The refusals of a stored attack, checked before it changes anything (cepheus-engine.txt,
//! "Attack", "Reactions", "Dodging", "Parrying", "Coup de Grace", "Firing into Combat",
//! "Suppression Fire", "Damage"): who attacks whom, the target's reaction, and what the rolled
//! outcome would do (`attack.rs` has the decisions).

use super::super::allocation::{AllocationChoice, allocate_damage};
use super::super::attack::AttackOutcome;
use super::super::attack_damage::{DamageBreakdown, DamageInput, roll_damage};
use super::super::attack_modifiers::damage_modifiers;
use super::super::attack_request::{AttackKind, AttackRequest};
use super::super::dynamic::check_react;
use super::super::explosion::ExplosionResponse;
use super::super::stance::Stance;
use super::super::suppression;
use super::attack::EncounterAttack;
use super::attack_build::client_field;
use super::request::Reaction;
use super::{combatant, ensure_can_act, ensure_turn, parts};
use crate::dice::Dice;
use crate::encounter::{Encounter, EncounterError};

fn invalid(field: &str, message: String) -> EncounterError {
    EncounterError::invalid(field, message)
}

/// The checks on who attacks whom (see the decisions).
pub(super) fn check_sides(encounter: &Encounter, request: &EncounterAttack) -> Result<(), EncounterError> {
    let attacker = combatant(encounter, &request.attacker_id, "attacker_id")?;
    let (_, attacker_state) = parts(attacker, "attacker_id")?;
    let target = combatant(encounter, &request.target_id, "target_id")?;
    parts(target, "target_id")?;
    if request.attacker_id == request.target_id {
        return Err(invalid("target_id", "a combatant cannot attack itself".into()));
    }
    ensure_turn(encounter, &request.attacker_id, "attacker_id")?;
    ensure_can_act(attacker, "attacker_id")?;
    if attacker_state.grappling_with.is_some() {
        return Err(invalid(
            "action",
            format!("{} is locked in a grapple and can only make grapple checks", attacker.name),
        ));
    }
    if let Some(other) = &request.nearest_other_id {
        let found = combatant(encounter, other, "nearest_other_id")?;
        parts(found, "nearest_other_id")?;
        if other == &request.target_id {
            return Err(invalid(
                "nearest_other_id",
                "the stray shot hits someone other than the target".into(),
            ));
        }
    }
    Ok(())
}

/// The target's reaction is possible (see the decisions).
pub(super) fn check_reaction(
    encounter: &Encounter,
    request: &EncounterAttack,
    kind: AttackKind,
    helpless: bool,
) -> Result<(), EncounterError> {
    let reacting = request.reaction != Reaction::None || request.blast_response != ExplosionResponse::None;
    if !reacting {
        return Ok(());
    }
    let field = if request.reaction != Reaction::None { "reaction" } else { "blast_response" };
    let target = combatant(encounter, &request.target_id, "target_id")?;
    let (stats, state) = parts(target, "target_id")?;
    let name = &target.name;
    if request.coup_de_grace || helpless {
        return Err(invalid(field, format!("{name} is helpless and cannot react")));
    }
    if !stats.status().can_act() {
        return Err(invalid(field, format!("{name} cannot react in its state")));
    }
    if state.extended.is_some() {
        return Err(invalid(field, format!("{name} is busy with an extended action and cannot react")));
    }
    let dodging = matches!(request.reaction, Reaction::Dodge | Reaction::DodgeBehindObstruction)
        || request.blast_response != ExplosionResponse::None;
    if dodging && state.stance == Stance::Prone {
        return Err(invalid(field, format!("{name} is prone and cannot dodge")));
    }
    if request.reaction == Reaction::Parry && kind != AttackKind::Melee {
        return Err(invalid("reaction", "only melee attacks can be parried".into()));
    }
    Ok(())
}

/// The target's reaction, if it makes one, is one [`check_react`] allows (cepheus-engine.txt,
/// "Reactions").
pub(super) fn check_target_reacts(encounter: &Encounter, request: &EncounterAttack) -> Result<(), EncounterError> {
    if request.reaction != Reaction::None || request.blast_response != ExplosionResponse::None {
        check_react(encounter, &request.target_id)?;
    }
    Ok(())
}

/// [`apply_outcome`]'s refusals before anything changes: the split of the target's damage is
/// checked against its stat block, a suppression needs the target's initiative, and a stray
/// shot's damage is rolled here (it is returned for `apply_outcome`; no die is rolled between).
pub(super) fn check_outcome(
    encounter: &Encounter,
    request: &EncounterAttack,
    attack: &AttackRequest,
    outcome: &AttackOutcome,
    dice: &mut Dice,
) -> Result<Option<DamageBreakdown>, EncounterError> {
    let target_id = &request.target_id;
    if outcome.coup_de_grace {
        return Ok(None);
    }
    let recorded = parts(combatant(encounter, target_id, "target_id")?, "target_id")?.0.vehicle.as_ref();
    if recorded.is_some_and(|vehicle| vehicle.damage.destroyed) {
        return Err(EncounterError::Refused {
            field: "target_id".into(),
            message: "the vehicle is destroyed (Structure 0, cepheus-engine.txt \"Structure\"): scrap takes no more hits".into(),
        });
    }
    if outcome.hit && recorded.is_some() {
        return Ok(None);
    }
    if outcome.hit {
        if let Some(suppressed) = outcome.suppression {
            suppression::check(encounter, target_id, suppressed.initiative_penalty, request.suppression_immune)?;
        } else if let Some(damage) = &outcome.damage
            && !(request.target_is_vehicle || request.hit_location_table.is_some())
            && outcome.blind_fire_target.is_none_or(|pick| pick == 1)
        {
            let choice =
                AllocationChoice { overflow_to: request.overflow_to, allocation: request.allocation.map(Into::into) };
            let (stats, _) = parts(combatant(encounter, target_id, "target_id")?, "target_id")?;
            allocate_damage(stats, damage.after_armour, &choice).map_err(EncounterError::from)?;
        }
        return Ok(None);
    }
    let stray = outcome.firing_into_combat.filter(|stray| stray.hits_nearest_other);
    let (Some(_), Some(other)) = (stray, &request.nearest_other_id) else { return Ok(None) };
    let armour = {
        let found = combatant(encounter, other, "nearest_other_id")?;
        u32::try_from(parts(found, "nearest_other_id")?.0.armour.get()).unwrap_or(0)
    };
    let changes = damage_modifiers(&attack.circumstances)
        .map_err(|error| EncounterError::from(client_field(error, "range_band", true)))?;
    let input = DamageInput {
        weapon: &attack.weapon,
        changes: &changes,
        effect: 0,
        armour,
        blast_response: ExplosionResponse::None,
    };
    Ok(Some(roll_damage(&input, dice)?))
}
