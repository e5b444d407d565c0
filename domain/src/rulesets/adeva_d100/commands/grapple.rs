//! Grapples on a stored encounter (adeva-d100.txt, "Grapple (Initiate)" and the actions under it).
//!
//! Decisions:
//! - `grapple` is the Grapple (Initiate) full action: an unmodified WS test, one hit; the target
//!   may `dodge` (an Agility test with its Reaction, decays applied) but not parry. A hit that is
//!   not dodged starts the grapple: both combat states store `grappled_with` (the other) and
//!   `grapple_role` (controller / restrained). A combatant already in a grapple cannot start one.
//! - `grapple_action` takes one of the grapple moves of `actions/grapple.rs`; the role is read
//!   from the actor's state (refused outside a grapple) and the move's cost is spent. Outcomes
//!   applied: Release ends the grapple for both; Break Free (Strength, or Agility for
//!   Acrobatics, against the controller's Strength) ends it on a win; Take Control swaps the roles
//!   on a win. After 'Grapple' (or a won Take Control) the follow-up: Damage (opposed Strength)
//!   rolls Unarmed damage 1d5 − 3 + SB (not below 0), soaked by TB + AP, and adds a level of
//!   Fatigue; Push (opposed Strength) reports 1 + DoS squares up to the Half Move sent, and ends
//!   the grapple unless `move_with_target`; Knock Down as the Knock Down action (prone flags);
//!   Stand clears the controller's `prone` and, with `drag_opponent`, rolls the opposed Strength
//!   test that clears the opponent's on a win. Push's Half Move and Stand's `both_on_ground` are
//!   derived (`derive_follow_up`). The Either Standard Attack (as the restrained's move or the controller's
//!   `then`) is rolled through the attack path, already paid for (`grapple_strike`). Take Down and
//!   Activate Power are spent and reported with their tests for the table.
//! - Allies' assistance is not modelled (send it as a modifier outside this engine).

use super::super::actions::action_spec;
use super::super::actions::declared::DeclaredAction;
use super::grapple_rolls::{check_strike, grapple_strike, unarmed_and_fatigue};
use super::super::actions::grapple::{
    BreakFreeWith, GrappleAction, GrappleFollowUp, GrappleInitiate, GrappleMove, GrappleRole, push_distance,
};
use super::super::actions::manoeuvres::{KnockDownOutcome, knock_down_outcome};
use super::super::decay::CharacteristicName;
use super::super::opposed::{OpposedResult, Side};
use super::super::test_roll::{ModifiedTest, modified_test};
use super::action_outcome::ActionOutcome;
use super::core::effective;
use super::manoeuvres::spend_dodge;
use super::action_outcome::Ran;
use super::manoeuvres::{contest, spend};
use super::{refreshed_mut, peek};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};

fn set_grapple(
    encounter: &mut Encounter,
    controller: &CombatantId,
    restrained: &CombatantId,
) -> Result<(), EncounterError> {
    let state = refreshed_mut(encounter, controller, "combatant_id")?.1;
    state.grappled_with = Some(restrained.clone());
    state.grapple_role = Some(GrappleRole::Controller);
    // Begun or taken over this turn: it holds through the turn's end (`round::end_of_turn`).
    state.budget.grapple_kept = true;
    let state = refreshed_mut(encounter, restrained, "target_id")?.1;
    state.grappled_with = Some(controller.clone());
    state.grapple_role = Some(GrappleRole::Restrained);
    Ok(())
}

fn end_grapple(encounter: &mut Encounter, a: &CombatantId, b: &CombatantId) -> Result<(), EncounterError> {
    for id in [a, b] {
        let state = refreshed_mut(encounter, id, "combatant_id")?.1;
        state.grappled_with = None;
        state.grapple_role = None;
    }
    Ok(())
}

pub(super) fn initiate(
    encounter: &mut Encounter,
    actor: CombatantId,
    target: CombatantId,
    hand_free: bool,
    dodge: bool,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    if actor == target {
        return Err(EncounterError::invalid("target_id", "the target must be another combatant"));
    }
    let spec = action_spec(&DeclaredAction::Grapple(GrappleInitiate { hand_free }))?;
    let (outcome, notes) = attempt(encounter, &actor, &target, &spec, dodge, "grapple attempt", dice)?;
    Ok((actor, "grapple".into(), outcome, notes))
}

/// Spends `spec` and rolls its grapple attempt: a WS test with the spec's modifiers (a Charge's
/// +20), the target's optional dodge (Agility, its Reaction), and on a hit not dodged the grapple
/// with the actor in control (adeva-d100.txt, "Grapple (Initiate)"; "Charge": a Grapple in place
/// of the attack).
pub(super) fn attempt(
    encounter: &mut Encounter,
    actor: &CombatantId,
    target: &CombatantId,
    spec: &super::super::actions::ActionSpec,
    dodge: bool,
    label: &str,
    dice: &mut Dice,
) -> Result<(ActionOutcome, Vec<String>), EncounterError> {
    let (actor, target) = (actor.clone(), target.clone());
    let (_, actor_state, _) = peek(encounter, &actor, "combatant_id")?;
    let (target_stats, target_state, surprised) = peek(encounter, &target, "target_id")?;
    if actor_state.grappled_with.is_some() || target_state.grappled_with.is_some() {
        return Err(EncounterError::invalid("target_id", "one of the two is already in a grapple"));
    }
    let mut target_budget = target_state.budget.clone();
    if dodge {
        spend_dodge(&mut target_budget, surprised)?;
    }
    spend(encounter, &actor, spec)?;
    let (actor_stats, _, _) = peek(encounter, &actor, "combatant_id")?;
    let ws = effective(&actor_stats, CharacteristicName::Ws)?;
    let modifiers = spec.tests.first().map(|t| t.modifiers.clone()).unwrap_or_default();
    let test = modified_test(ws, &modifiers, dice, &format!("{label}: WS test"))?;
    let mut notes = Vec::new();
    let mut dodge_test: Option<ModifiedTest> = None;
    if test.test.passed && dodge {
        let ag = effective(&target_stats, CharacteristicName::Ag)?;
        let evaded = modified_test(ag, &[], dice, &format!("{label}: dodge (Agility)"))?;
        // The dodge is the target's action: its own Feint opening lapses ("Feint").
        super::lapse_openings(encounter, &target);
        refreshed_mut(encounter, &target, "target_id")?.1.budget = target_budget;
        dodge_test = Some(evaded);
    }
    let dodged = dodge_test.as_ref().is_some_and(|t| t.test.passed);
    let started = test.test.passed && !dodged;
    if started {
        set_grapple(encounter, &actor, &target)?;
        notes.push(format!("{} grapples {}, in control", encounter.name_of(&actor), encounter.name_of(&target)));
    } else if dodged {
        notes.push("the grapple is dodged".into());
    }
    let outcome = ActionOutcome::Grapple {
        target_id: target,
        test: Box::new(test),
        dodge: dodge_test.map(Box::new),
        started,
    };
    Ok((outcome, notes))
}

/// Opposed Strength (or `a` against Strength) between the two, the actor as side A.
fn strength(
    encounter: &mut Encounter,
    actor: &CombatantId,
    other: &CombatantId,
    a: CharacteristicName,
    what: &str,
    dice: &mut Dice,
) -> Result<OpposedResult, EncounterError> {
    let labels = [format!("{what}: actor"), format!("{what}: opponent")];
    contest(encounter, actor, other, [a, CharacteristicName::S], Vec::new(), [&labels[0], &labels[1]], dice)
}

pub(super) fn grapple_action(
    encounter: &mut Encounter,
    actor: CombatantId,
    grapple_move: GrappleMove,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let (_, state, _) = peek(encounter, &actor, "combatant_id")?;
    let (Some(other), Some(role)) = (state.grappled_with.clone(), state.grapple_role) else {
        return Err(EncounterError::invalid("combatant_id", "this combatant is not in a grapple"));
    };
    let mut grapple_move = grapple_move;
    if let GrappleMove::Grapple { then } | GrappleMove::TakeControl { then } = &mut grapple_move {
        derive_follow_up(encounter, &actor, &other, then)?;
    }
    let spec = action_spec(&DeclaredAction::GrappleAction(GrappleAction {
        role,
        grapple_move: grapple_move.clone(),
    }))?;
    match &grapple_move {
        GrappleMove::Grapple { then: GrappleFollowUp::StandardAttack { weapon, strike } } => {
            check_strike(*weapon, strike, "move.then")?
        }
        GrappleMove::StandardAttack { weapon, strike } => check_strike(*weapon, strike, "move")?,
        _ => {}
    }
    spend(encounter, &actor, &spec)?;
    let mut notes = spec.notes.clone();
    let mut contests = Vec::new();
    let mut attack = None;
    match grapple_move {
        GrappleMove::Release {} => {
            end_grapple(encounter, &actor, &other)?;
            notes.push("the grapple ends".into());
        }
        GrappleMove::BreakFree { with } => {
            let own = match with {
                BreakFreeWith::Strength => CharacteristicName::S,
                BreakFreeWith::Acrobatics => CharacteristicName::Ag,
            };
            let result = strength(encounter, &actor, &other, own, "break free", dice)?;
            if result.winner == Some(Side::A) {
                end_grapple(encounter, &actor, &other)?;
                notes.push("broke free: the grapple ends".into());
            }
            contests.push(result);
        }
        GrappleMove::TakeControl { then } => {
            let result = strength(encounter, &actor, &other, CharacteristicName::S, "take control", dice)?;
            let won = result.winner == Some(Side::A);
            contests.push(result);
            if won {
                set_grapple(encounter, &actor, &other)?;
                notes.push("took control of the grapple".into());
                follow_up(encounter, &actor, &other, then, dice, &mut contests, &mut notes)?;
            }
        }
        GrappleMove::Grapple { then } => {
            if let GrappleFollowUp::StandardAttack { weapon, strike } = then {
                attack = Some(Box::new(grapple_strike(encounter, &actor, &other, weapon, strike, "move.then", dice)?));
            } else {
                follow_up(encounter, &actor, &other, then, dice, &mut contests, &mut notes)?;
            }
            // The 'Grapple' Full Action taken: the grapple holds this turn ("Grapple (Initiate)"),
            // recorded once the follow-up can no longer be refused.
            refreshed_mut(encounter, &actor, "combatant_id")?.1.budget.grapple_kept = true;
        }
        GrappleMove::ActivatePower { .. } => {
            notes.push("resolved by the table (the action's cost is spent)".into());
        }
        GrappleMove::StandardAttack { weapon, strike } => {
            attack = Some(Box::new(grapple_strike(encounter, &actor, &other, weapon, strike, "move", dice)?));
        }
    }
    let outcome = ActionOutcome::GrappleAction { other_id: other, spec: Box::new(spec), contests, attack };
    Ok((actor, "grapple action".into(), outcome, notes))
}

/// Fills in what the encounter records for a Controller action, refusing a caller's word that
/// says otherwise (issue 28, "derived, not declared"): Push's Half Move comes from the
/// controller's stat block (AB and size, adeva-d100.txt, "Movement"; "Controller: Push": no
/// further than your Half Move), Stand's "both participants are on the ground" from the recorded
/// prone state of both ("Controller: Stand"; decision: on the ground = prone).
fn derive_follow_up(
    encounter: &mut Encounter,
    actor: &CombatantId,
    other: &CombatantId,
    then: &mut GrappleFollowUp,
) -> Result<(), EncounterError> {
    match then {
        GrappleFollowUp::Push { half_move_squares, .. } => {
            let (stats, _, _) = peek(encounter, actor, "combatant_id")?;
            let half_move = super::core::movement_of(&stats)?.half_move;
            if half_move_squares.is_some_and(|sent| sent != half_move) {
                return Err(EncounterError::invalid(
                    "move.then.half_move_squares",
                    format!("{}'s Half Move is {half_move} squares (from its stat block)", encounter.name_of(actor)),
                ));
            }
            *half_move_squares = Some(half_move);
        }
        GrappleFollowUp::Stand { both_on_ground, .. } => {
            let (_, own, _) = peek(encounter, actor, "combatant_id")?;
            let (_, theirs, _) = peek(encounter, other, "target_id")?;
            let derived = own.prone && theirs.prone;
            if derived && *both_on_ground == Some(false) {
                return Err(EncounterError::invalid(
                    "move.then.both_on_ground",
                    "both participants are recorded prone: they are on the ground",
                ));
            }
            if !derived {
                let who = |prone: bool, id| format!("{} is {}", encounter.name_of(id), if prone { "prone" } else { "not prone" });
                return Err(EncounterError::invalid(
                    "move.then.both_on_ground",
                    format!(
                        "Stand needs both participants on the ground: {}, {}",
                        who(own.prone, actor),
                        who(theirs.prone, other)
                    ),
                ));
            }
            *both_on_ground = Some(true);
        }
        _ => {}
    }
    Ok(())
}

fn follow_up(
    encounter: &mut Encounter,
    actor: &CombatantId,
    other: &CombatantId,
    then: GrappleFollowUp,
    dice: &mut Dice,
    contests: &mut Vec<OpposedResult>,
    notes: &mut Vec<String>,
) -> Result<(), EncounterError> {
    match then {
        GrappleFollowUp::Damage {} => {
            let result = strength(encounter, actor, other, CharacteristicName::S, "grapple: damage", dice)?;
            let won = result.winner == Some(Side::A);
            contests.push(result);
            if won {
                unarmed_and_fatigue(encounter, actor, other, "grapple", dice, notes)?;
            }
        }
        GrappleFollowUp::Push { half_move_squares, move_with_target } => {
            let result = strength(encounter, actor, other, CharacteristicName::S, "grapple: push", dice)?;
            if result.winner == Some(Side::A) {
                let dos = result.rounds.last().map_or(0, |round| round.a.test.degrees_of_success());
                let squares = push_distance(dos, half_move_squares.unwrap_or(0));
                notes.push(format!("pushed {squares} squares"));
                if !move_with_target {
                    end_grapple(encounter, actor, other)?;
                    notes.push("the controller stays behind: the grapple ends".into());
                }
            }
            contests.push(result);
        }
        GrappleFollowUp::KnockDown {} => {
            let result = strength(encounter, actor, other, CharacteristicName::S, "grapple: knock down", dice)?;
            match knock_down_outcome(&result) {
                KnockDownOutcome::TargetProne | KnockDownOutcome::TargetProneMayHurt => {
                    refreshed_mut(encounter, other, "target_id")?.1.prone = true;
                    notes.push(format!("{} is knocked prone", encounter.name_of(other)));
                }
                KnockDownOutcome::ActorProne => {
                    refreshed_mut(encounter, actor, "combatant_id")?.1.prone = true;
                    notes.push(format!("{} is knocked prone instead", encounter.name_of(actor)));
                }
                KnockDownOutcome::TargetStands => {}
            }
            contests.push(result);
        }
        GrappleFollowUp::Stand { drag_opponent, .. } => {
            // "Controller: Stand": the controller regains its feet; dragging the opponent up is an
            // opposed Strength test, won by the controller.
            refreshed_mut(encounter, actor, "combatant_id")?.1.prone = false;
            notes.push(format!("{} regains its feet", encounter.name_of(actor)));
            if drag_opponent {
                let result = strength(encounter, actor, other, CharacteristicName::S, "grapple: drag the opponent up", dice)?;
                if result.winner == Some(Side::A) {
                    refreshed_mut(encounter, other, "target_id")?.1.prone = false;
                    notes.push(format!("{} is pulled up too", encounter.name_of(other)));
                } else {
                    notes.push(format!("{} stays on the ground", encounter.name_of(other)));
                }
                contests.push(result);
            }
        }
        GrappleFollowUp::TakeDown { .. }
        | GrappleFollowUp::ActivatePower { .. }
        | GrappleFollowUp::StandardAttack { .. } => {
            notes.push("the follow-up is resolved by the table".into());
        }
    }
    Ok(())
}
