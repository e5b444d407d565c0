//! The manoeuvres and firing actions of the actions command, unpacked for `manoeuvres.rs`,
//! `starship.rs`, `fire.rs` and `overwatch.rs` (adeva-d100.txt, "Action List").

use super::action_outcome::Ran;
use super::actions::Action;
use super::fire;
use super::overwatch::{self, ReadiedAttack, Trigger};
use super::{manoeuvres, starship};
use super::super::actions::manoeuvres::{Disarm, TakeDown};
use super::super::actions::overwatch::Overwatch;
use super::super::actions::suppressive::SuppressiveFire;
use super::super::test_modifiers::caller;
use crate::dice::Dice;
use crate::encounter::{Encounter, EncounterError};

/// A manoeuvre (`manoeuvres.rs`, `starship.rs`): standing, boarding, moving, Knock Down, Disarm, Feint, Take
/// Down or Ram; any other action is refused on `action`.
pub(super) fn manoeuvre(encounter: &mut Encounter, action: Action, dice: &mut Dice) -> Result<Ran, EncounterError> {
    match action {
        Action::Stand { actor_id } => manoeuvres::stand(encounter, actor_id),
        Action::Boarding { actor_id, target_id, boarding, damage, evasion, evasion_modifiers } => {
            let request = starship::BoardingRequest {
                actor: actor_id,
                target: target_id,
                input: boarding,
                damage,
                evasion,
                evasion_modifiers: caller(&evasion_modifiers),
            };
            starship::boarding(encounter, request, dice)
        }
        Action::Move { actor_id, kind, altitude_to } => {
            manoeuvres::movement(encounter, actor_id, kind, altitude_to)
        }
        Action::KnockDown { actor_id, target_id, after_half_move, hurt } => {
            manoeuvres::knock_down(encounter, actor_id, target_id, after_half_move, hurt, dice)
        }
        Action::Disarm { actor_id, target_id, has_talent, advanced_disarm, object } => {
            let input = Disarm { has_talent, advanced_disarm };
            manoeuvres::disarm(encounter, actor_id, target_id, input, object, dice)
        }
        Action::Feint { actor_id, target_id } => manoeuvres::feint(encounter, actor_id, target_id, dice),
        Action::TakeDown {
            actor_id,
            target_id,
            weapon,
            has_talent,
            damage,
            penetration,
            dodge,
            modifiers,
        } => {
            let request = manoeuvres::TakeDownRequest {
                actor: actor_id,
                target: target_id,
                input: TakeDown { weapon, has_talent },
                damage,
                penetration,
                dodge,
                modifiers: caller(&modifiers),
            };
            manoeuvres::take_down(encounter, request, dice)
        }
        Action::Ram { actor_id, target_id, ram, dodge, modifiers } => {
            starship::ram(encounter, actor_id, target_id, ram, dodge, caller(&modifiers), dice)
        }
        _ => Err(EncounterError::invalid("action", "not a manoeuvre")),
    }
}

/// A firing action (`fire.rs`, `overwatch.rs`): Multiple Attack, Suppressive Fire, setting or triggering an
/// Overwatch; any other action is refused on `action`.
pub(super) fn fire_action(encounter: &mut Encounter, action: Action, dice: &mut Dice) -> Result<Ran, EncounterError> {
    match action {
        Action::MultipleAttack { actor_id, target_id, equipped_weapons, weapons, modifiers } => {
            fire::multiple_attack(encounter, actor_id, target_id, equipped_weapons, weapons, modifiers, dice)
        }
        Action::SuppressiveFire { actor_id, weapon, mode, victims, penalties, damage, penetration } => {
            let volley = fire::Volley { victims, penalties: caller(&penalties), damage, penetration };
            fire::suppressive_fire(encounter, actor_id, SuppressiveFire { weapon, mode }, volley, dice)
        }
        Action::OverwatchSet { actor_id, weapon, kill_zone_radius_squares, attack, triggers } => {
            let input = Overwatch { weapon, kill_zone_radius_squares, attack, triggers };
            overwatch::overwatch_set(encounter, actor_id, input)
        }
        Action::OverwatchTrigger {
            actor_id,
            target_id,
            observed,
            simultaneous,
            ally_yields,
            gm_fires,
            damage,
            penetration,
            evasion,
            modifiers,
        } => {
            let attack = ReadiedAttack { damage, penetration, evasion, modifiers };
            let input = Trigger {
                actor: actor_id,
                target: target_id,
                observed,
                simultaneous,
                ally_yields,
                gm_fires,
                attack,
            };
            overwatch::overwatch_trigger(encounter, input, dice)
        }
        _ => Err(EncounterError::invalid("action", "not a firing action")),
    }
}
