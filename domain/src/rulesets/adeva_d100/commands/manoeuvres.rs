//! Movement and melee manoeuvres on a stored encounter (adeva-d100.txt, "Movement", "Altitude",
//! "Action List": Knock Down, Disarm, Feint).
//!
//! Decisions:
//! - `move`: Half Move is a half action, Full Move and Run full actions (all subtype Movement).
//!   A Charge is an attack action whose move is part of it, so `charge` here is refused: the
//!   attack command's Charge spends it. Distance is `movement_bands` of the effective Agility with
//!   the stat block's `size` as a modifier. A flier's `altitude_to` is checked by
//!   `change_altitude` (one band on a Half Move, two otherwise) and stored on the stat block.
//! - Knock Down's +10 "after a Half Move action" is derived: a `move` of kind `half_move` earlier in
//!   the actor's turn (the caller's optional `after_half_move` must agree, or 422).
//! - Knock Down, Disarm and Feint are taken on the actor's turn against a stored target, spend
//!   their Action List cost on the actor's budget, and roll their opposed tests here (the actor is
//!   side A; decays apply). Knock Down sets `prone` on whoever falls; its "may deal Unarmed damage
//!   and a level of Fatigue" is the actor's choice, sent beforehand as `hurt: true` (the text
//!   leaves it to the winner): won by 2+ DoS, 1d5 − 3 + SB is rolled, soaked and applied with one
//!   level of Fatigue; otherwise `hurt` changes nothing. Disarm notes the named `object` (default "held object") in the
//!   target's `dropped`. A won Feint sets the target's `feinted_by` to the actor, for the attack
//!   path to read; a lost one clears nothing.
//! - `stand` (half action) clears `prone`; Ram and Boarding are in `starship.rs` (see their docs).
//!   `spend` refuses a Movement action of a pinned combatant (`super::ensure_may_move`).

use super::super::actions::declared::DeclaredAction;
use crate::rulesets::adeva_d100::bounds::Unsigned;
use super::super::actions::manoeuvres::{
    Disarm, DisarmOutcome, KnockDown, KnockDownOutcome, TakeDown, TakeDownResult, disarm_outcome,
    knock_down_outcome, resolve_take_down,
};
use super::super::actions::{ActionKind, ActionSpec, ActionSubtype, ActionType, action_spec};
use super::super::altitude::{AltitudeBand, AltitudeChange, change_altitude};
use super::super::bonus;
use super::super::damage::{DamageDice, check_damage_dice, roll_hit_damage};
use super::super::decay::CharacteristicName;
use super::super::movement::{MoveKind, MovementBands};
use super::super::opposed::{Contestant, OpposedResult, Side, opposed_labelled};
use super::super::test_modifiers::{Modifier, ModifierCode, within};
use super::super::test_roll::modified_test;
use super::super::wounds::soak;
use super::action_outcome::{ActionOutcome, Ran};
use super::core::effective;
use super::{ensure_turn, refreshed_mut, peek};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};
use super::super::state::CombatState;

/// Spends `spec` on the actor's budget after checking it is the actor's turn.
pub(super) fn spend(
    encounter: &mut Encounter,
    actor: &CombatantId,
    spec: &ActionSpec,
) -> Result<(), EncounterError> {
    let state = spent_state(encounter, actor, spec)?;
    *refreshed_mut(encounter, actor, "combatant_id")?.1 = state;
    Ok(())
}

/// The actor's refreshed state with `spec` spent (and an Overwatch it ends cleared), leaving the
/// encounter as it is: [`spend`] without the store, for an action that can still be refused
/// after it knows the spending is allowed.
pub(super) fn spent_state(
    encounter: &Encounter,
    actor: &CombatantId,
    spec: &ActionSpec,
) -> Result<CombatState, EncounterError> {
    ensure_turn(encounter, actor, "combatant_id")?;
    let (_, mut state, _) = peek(encounter, actor, "combatant_id")?;
    super::ensure_may_move(encounter, actor, &state, spec)?;
    state.budget.spend(spec)?;
    if super::super::actions::overwatch::ends_overwatch(spec) {
        state.overwatch = None;
    }
    Ok(state)
}

pub(super) fn movement(
    encounter: &mut Encounter,
    actor: CombatantId,
    kind: MoveKind,
    altitude_to: Option<AltitudeBand>,
) -> Result<Ran, EncounterError> {
    let action_type = match kind {
        MoveKind::HalfMove => ActionType::Half,
        MoveKind::FullMove | MoveKind::Run => ActionType::Full,
        MoveKind::Charge => {
            return Err(EncounterError::invalid(
                "kind",
                "a Charge is an attack action: take it through the attack command",
            ));
        }
    };
    let (stats, _, _) = peek(encounter, &actor, "combatant_id")?;
    let bands: MovementBands = super::core::movement_of(&stats)?;
    let change: Option<AltitudeChange> = match altitude_to {
        Some(to) => Some(change_altitude(stats.altitude, to, kind).map_err(|e| within("altitude_to", e))?),
        None => None,
    };
    let name = match kind {
        MoveKind::HalfMove => "half move",
        MoveKind::FullMove => "full move",
        _ => "run",
    };
    let spec = ActionSpec::new(ActionKind::Other(name.into()), action_type, vec![ActionSubtype::Movement]);
    spend(encounter, &actor, &spec)?;
    if kind == MoveKind::HalfMove {
        // Read by Knock Down's "after a Half Move action" (+10).
        refreshed_mut(encounter, &actor, "combatant_id")?.1.budget.half_moved = true;
    }
    let mut notes = vec![bands.working.clone()];
    if let Some(change) = change {
        let (stats, _, _) = refreshed_mut(encounter, &actor, "combatant_id")?;
        stats.altitude = change.to;
        notes.push(format!("altitude {:?} → {:?} ({} bands)", change.from, change.to, change.bands));
    }
    let squares = bands.distance(kind);
    Ok((
        actor,
        "move".into(),
        ActionOutcome::Moved { move_kind: kind, squares, bands, altitude: change },
        notes,
    ))
}

/// Rolls an opposed test between two stored combatants, the actor as side A.
pub(super) fn contest(
    encounter: &mut Encounter,
    actor: &CombatantId,
    target: &CombatantId,
    [a, b]: [CharacteristicName; 2],
    actor_modifiers: Vec<Modifier>,
    labels: [&str; 2],
    dice: &mut Dice,
) -> Result<OpposedResult, EncounterError> {
    if actor == target {
        return Err(EncounterError::invalid("target_id", "the target must be another combatant"));
    }
    let (actor_stats, _, _) = peek(encounter, actor, "combatant_id")?;
    let (target_stats, _, _) = peek(encounter, target, "target_id")?;
    let side_a = Contestant { characteristic: effective(&actor_stats, a)?, modifiers: actor_modifiers };
    let side_b = Contestant { characteristic: effective(&target_stats, b)?, modifiers: Vec::new() };
    Ok(opposed_labelled(&side_a, &side_b, labels, dice)?)
}

pub(super) fn declared_spec(declared: &DeclaredAction) -> Result<ActionSpec, EncounterError> {
    // The manoeuvre's fields sit at the top of the action, so its refusals name them bare.
    Ok(action_spec(declared)?)
}

pub(super) fn knock_down(
    encounter: &mut Encounter,
    actor: CombatantId,
    target: CombatantId,
    after_half_move: Option<bool>,
    hurt: bool,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let after_half_move = derived_half_move(encounter, &actor, after_half_move)?;
    let spec = declared_spec(&DeclaredAction::KnockDown(KnockDown { after_half_move }))?;
    peek(encounter, &target, "target_id")?;
    spend(encounter, &actor, &spec)?;
    let outcome = knock_down_roll(encounter, &actor, &target, &spec, hurt, dice)?;
    Ok((actor, "knock down".into(), outcome.0, outcome.1))
}

/// Rolls a Knock Down already spent as `spec` (its test's modifiers) and applies it: prone on
/// whoever falls, and, won by 2+ DoS with `hurt`, Unarmed damage and a level of Fatigue
/// (adeva-d100.txt, "Knock Down"). Also the strike of a Charge ending in a Knock Down.
pub(super) fn knock_down_roll(
    encounter: &mut Encounter,
    actor: &CombatantId,
    target: &CombatantId,
    spec: &ActionSpec,
    hurt: bool,
    dice: &mut Dice,
) -> Result<(ActionOutcome, Vec<String>), EncounterError> {
    let (actor, target) = (actor.clone(), target.clone());
    let modifiers = spec.tests.first().map(|t| t.modifiers.clone()).unwrap_or_default();
    let result = contest(
        encounter,
        &actor,
        &target,
        [CharacteristicName::S, CharacteristicName::S],
        modifiers,
        ["knock down: actor's Strength", "knock down: target's Strength"],
        dice,
    )?;
    let outcome = knock_down_outcome(&result);
    let mut notes = Vec::new();
    match outcome {
        KnockDownOutcome::TargetProne | KnockDownOutcome::TargetProneMayHurt => {
            refreshed_mut(encounter, &target, "target_id")?.1.prone = true;
            notes.push(format!("{} is knocked prone", encounter.name_of(&target)));
            if outcome == KnockDownOutcome::TargetProneMayHurt && hurt {
                super::grapple_rolls::unarmed_and_fatigue(encounter, &actor, &target, "knock down", dice, &mut notes)?;
            } else if outcome == KnockDownOutcome::TargetProneMayHurt {
                notes.push("won by 2+ DoS: the actor could have dealt Unarmed damage and a level of Fatigue (`hurt`)".into());
            } else if hurt {
                notes.push("not won by 2+ DoS: no Unarmed damage".into());
            }
        }
        KnockDownOutcome::ActorProne => {
            refreshed_mut(encounter, &actor, "combatant_id")?.1.prone = true;
            notes.push(format!("{} is knocked prone instead", encounter.name_of(&actor)));
        }
        KnockDownOutcome::TargetStands => notes.push("the target keeps its footing".into()),
    }
    Ok((ActionOutcome::KnockDown { target_id: target, contest: Box::new(result), outcome }, notes))
}

/// Knock Down's "if made after a Half Move action you gain a +10 bonus" (adeva-d100.txt, "Knock
/// Down"), derived from the actor's turn: a Half Move taken earlier this turn. A caller's
/// `after_half_move` that says otherwise is refused (field `after_half_move`).
fn derived_half_move(encounter: &Encounter, actor: &CombatantId, sent: Option<bool>) -> Result<bool, EncounterError> {
    let (_, state, _) = super::peek(encounter, actor, "combatant_id")?;
    let derived = state.budget.on_own_turn && state.budget.half_moved;
    match sent {
        Some(said) if said != derived => Err(EncounterError::invalid(
            "after_half_move",
            if derived {
                format!("{} took a Half Move this turn: the +10 applies", encounter.name_of(actor))
            } else {
                format!("{} has taken no Half Move this turn", encounter.name_of(actor))
            },
        )),
        _ => Ok(derived),
    }
}

pub(super) fn disarm(
    encounter: &mut Encounter,
    actor: CombatantId,
    target: CombatantId,
    input: Disarm,
    object: Option<String>,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let spec = declared_spec(&DeclaredAction::Disarm(input))?;
    let test = spec.tests.first().cloned();
    let modifiers = test.as_ref().map(|t| t.modifiers.clone()).unwrap_or_default();
    peek(encounter, &target, "target_id")?;
    spend(encounter, &actor, &spec)?;
    let result = contest(
        encounter,
        &actor,
        &target,
        [CharacteristicName::Ws, CharacteristicName::Ws],
        modifiers,
        ["disarm: actor's Weapon Skill", "disarm: target's Weapon Skill"],
        dice,
    )?;
    let outcome = disarm_outcome(&result);
    let object = object.unwrap_or_else(|| "held object".into());
    let mut notes = Vec::new();
    if outcome != DisarmOutcome::Failed {
        refreshed_mut(encounter, &target, "target_id")?.1.dropped.push(object.clone());
        notes.push(format!("{} drops {object}", encounter.name_of(&target)));
        if outcome == DisarmOutcome::MayTake {
            notes.push("3+ DoS: the actor may take it instead".into());
        }
    }
    let outcome = ActionOutcome::Disarm { target_id: target, contest: Box::new(result), outcome, object };
    Ok((actor, "disarm".into(), outcome, notes))
}

pub(super) fn feint(
    encounter: &mut Encounter,
    actor: CombatantId,
    target: CombatantId,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let spec = declared_spec(&DeclaredAction::Feint {})?;
    peek(encounter, &target, "target_id")?;
    spend(encounter, &actor, &spec)?;
    let result = contest(
        encounter,
        &actor,
        &target,
        [CharacteristicName::Ws, CharacteristicName::Ws],
        Vec::new(),
        ["feint: actor's Weapon Skill", "feint: target's Weapon Skill"],
        dice,
    )?;
    let won = result.winner == Some(Side::A);
    let mut notes = Vec::new();
    if won {
        refreshed_mut(encounter, &target, "target_id")?.1.feinted_by = Some(actor.clone());
        notes.push(format!(
            "{} may not dodge or parry {}'s next melee Standard Attack or Called Shot, if it is the next action",
            encounter.name_of(&target),
            encounter.name_of(&actor)
        ));
    }
    let outcome = ActionOutcome::Feint { target_id: target, contest: Box::new(result), won };
    Ok((actor, "feint".into(), outcome, notes))
}

/// A Take Down as the client sends it.
pub(super) struct TakeDownRequest {
    pub actor: CombatantId,
    pub target: CombatantId,
    pub input: TakeDown,
    pub damage: DamageDice,
    pub penetration: u32,
    pub dodge: bool,
    pub modifiers: Vec<Modifier>,
}

/// Take Down (adeva-d100.txt, "Take Down"). Decisions: a half action on the actor's turn; the WS
/// test takes the caller's `modifiers`, +30 against a surprised target and the target's Guard
/// Mode; the target may `dodge` (Agility, its Reaction). A hit rolls the weapon's damage (+SB, the
/// DoS may replace the lowest die) and `resolve_take_down` against TB + AP − Pen: the damage is
/// negated, and a failed Toughness test (decays applied) sets `stunned_until_round` to the next
/// round. No wounds are lost either way.
pub(super) fn take_down(
    encounter: &mut Encounter,
    request: TakeDownRequest,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let TakeDownRequest { actor, target, input, damage, penetration, dodge, mut modifiers } = request;
    if actor == target {
        return Err(EncounterError::invalid("target_id", "the target must be another combatant"));
    }
    let spec = declared_spec(&DeclaredAction::TakeDown(input))?;
    check_damage_dice(&damage).map_err(|e| within("damage", e))?;
    let (target_stats, target_state, surprised) = peek(encounter, &target, "target_id")?;
    let mut target_budget = target_state.budget.clone();
    if dodge {
        spend_dodge(&mut target_budget, surprised)?;
    }
    spend(encounter, &actor, &spec)?;
    if surprised {
        modifiers.push(Modifier::coded(ModifierCode::Surprise, "target surprised", 30));
    }
    modifiers.extend(target_state.attacks_against.clone());
    let (actor_stats, _, _) = peek(encounter, &actor, "combatant_id")?;
    let ws = effective(&actor_stats, CharacteristicName::Ws)?;
    let test =
        modified_test(ws, &modifiers, dice, "take down: WS test").map_err(|e| within("modifiers", e))?;
    let mut notes = Vec::new();
    let mut dodge_test = None;
    if test.test.passed && dodge {
        let ag = effective(&target_stats, CharacteristicName::Ag)?;
        dodge_test = Some(modified_test(ag, &[], dice, "take down: dodge (Agility)")?);
        refreshed_mut(encounter, &target, "target_id")?.1.budget = target_budget;
    }
    let hit = test.test.passed && !dodge_test.as_ref().is_some_and(|t| t.test.passed);
    let mut result = None;
    let mut rolled = None;
    if hit {
        let sb = bonus(effective(&actor_stats, CharacteristicName::S)?).max(0) as u32;
        let dos = test.test.degrees_of_success();
        let hit_damage = roll_hit_damage(&damage, Some(sb), Some(dos), dice, "take down: damage")?;
        let tb = bonus(effective(&target_stats, CharacteristicName::T)?).max(0) as u32;
        let soaked = soak(tb, target_stats.armour.n(), penetration);
        let toughness = effective(&target_stats, CharacteristicName::T)?;
        let resolved = resolve_take_down(hit_damage.damage, soaked.value, tb, toughness, dice)?;
        notes.push(format!("damage {} against soak {}", hit_damage.damage, soaked.working));
        if let TakeDownResult::Tested { stunned: true, .. } = resolved {
            let round = encounter.round;
            refreshed_mut(encounter, &target, "target_id")?.1.stunned_until_round = Some(round + 1);
            notes.push(format!("{} is stunned for one round", encounter.name_of(&target)));
        }
        rolled = Some(Box::new(hit_damage));
        result = Some(Box::new(resolved));
    } else if test.test.passed {
        notes.push("the take down is dodged".into());
    }
    let outcome = ActionOutcome::TakeDown {
        target_id: target,
        test: Box::new(test),
        dodge: dodge_test.map(Box::new),
        damage: rolled,
        result,
    };
    Ok((actor, "take down".into(), outcome, notes))
}

/// Stand up from prone: a half action on the actor's turn that clears `prone` (the text gives
/// prone no modifier and no way up; see `dynamic.rs`). Refused (field `combatant_id`) when the actor
/// is not prone. Standing is not a move, so a pinned combatant may stand.
pub(super) fn stand(encounter: &mut Encounter, actor: CombatantId) -> Result<Ran, EncounterError> {
    let (_, state, _) = peek(encounter, &actor, "combatant_id")?;
    if !state.prone {
        return Err(EncounterError::invalid("combatant_id", "only a prone combatant can stand up"));
    }
    let spec = ActionSpec::new(ActionKind::Other("stand".into()), ActionType::Half, Vec::new());
    spend(encounter, &actor, &spec)?;
    refreshed_mut(encounter, &actor, "combatant_id")?.1.prone = false;
    let notes = vec![format!("{} stands up", encounter.name_of(&actor))];
    Ok((actor, "stand".into(), ActionOutcome::Stood {}, notes))
}

/// The target's dodge against a manoeuvre spends its Reaction; a surprised character has none
/// (adeva-d100.txt, "Combat Structure", Step Two). Errors name the request's `dodge` field.
pub(super) fn spend_dodge(
    budget: &mut super::super::actions::economy::TurnBudget,
    surprised: bool,
) -> Result<(), EncounterError> {
    if surprised {
        return Err(EncounterError::invalid("dodge", "refused: a reaction by a surprised character"));
    }
    let reaction = ActionSpec::new(ActionKind::Other("dodge".into()), ActionType::Reaction, Vec::new());
    budget.spend(&reaction).map_err(|error| match EncounterError::from(error) {
        EncounterError::Invalid { message, .. } => EncounterError::invalid("dodge", message),
        other => other,
    })
}
