//! Movement and melee manoeuvres on a stored encounter (adeva-d100.txt, "Movement", "Altitude",
//! "Action List": Knock Down, Disarm, Feint).
//!
//! Decisions:
//! - `move`: Half Move is a half action, Full Move and Run full actions (all subtype Movement).
//!   A Charge is an attack action whose move is part of it, so `charge` here is refused: the
//!   attack command's Charge spends it. Distance is `movement_bands` of the effective Agility with
//!   the stat block's `size` as a modifier. A flier's `altitude_to` is checked by
//!   `change_altitude` (one band on a Half Move, two otherwise) and stored on the stat block.
//! - Knock Down, Disarm and Feint are taken on the actor's turn against a stored target, spend
//!   their Action List cost on the actor's budget, and roll their opposed tests here (the actor is
//!   side A; decays apply). Knock Down sets `prone` on whoever falls; its "may deal Unarmed damage
//!   and a level of Fatigue" is reported, not applied (it is the actor's choice: use the damage
//!   and fatigue commands). Disarm notes the named `object` (default "held object") in the
//!   target's `dropped`. A won Feint sets the target's `feinted_by` to the actor, for the attack
//!   path to read; a lost one clears nothing.
//! - `stand` (half action) clears `prone`; Boarding is rolled by `boarding` (see their docs).
//!   `spend` refuses a Movement action of a pinned combatant (`super::ensure_may_move`).

use super::super::actions::declared::DeclaredAction;
use crate::rulesets::adeva_d100::bounds::Unsigned;
use super::super::actions::manoeuvres::{
    Disarm, DisarmOutcome, KnockDown, KnockDownOutcome, TakeDown, TakeDownResult, disarm_outcome,
    knock_down_outcome, resolve_take_down,
};
use super::super::actions::starship::{Boarding, Ram, ram_damage};
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
use super::actions::ActionOutcome;
use super::core::effective;
use super::damage::apply;
use super::{ensure_turn, parts_mut, snapshot};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};
use serde::{Deserialize, Serialize};

pub(super) type Ran = (CombatantId, String, ActionOutcome, Vec<String>);

/// Spends `spec` on the actor's budget after checking it is the actor's turn.
pub(super) fn spend(
    draft: &mut Encounter,
    actor: &CombatantId,
    spec: &ActionSpec,
) -> Result<(), EncounterError> {
    ensure_turn(draft, actor, "actor_id")?;
    snapshot(draft, actor, "actor_id")?;
    super::ensure_may_move(draft, actor, spec)?;
    let (_, state, _) = parts_mut(draft, actor, "actor_id")?;
    state.budget.spend(spec)?;
    if super::super::actions::overwatch::ends_overwatch(spec) {
        state.overwatch = None;
    }
    Ok(())
}

pub(super) fn movement(
    draft: &mut Encounter,
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
    let (stats, _, _) = snapshot(draft, &actor, "actor_id")?;
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
    spend(draft, &actor, &spec)?;
    let mut notes = vec![bands.working.clone()];
    if let Some(change) = change {
        let (stats, _, _) = parts_mut(draft, &actor, "actor_id")?;
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
    draft: &mut Encounter,
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
    let (actor_stats, _, _) = snapshot(draft, actor, "actor_id")?;
    let (target_stats, _, _) = snapshot(draft, target, "target_id")?;
    let side_a = Contestant { characteristic: effective(&actor_stats, a)?, modifiers: actor_modifiers };
    let side_b = Contestant { characteristic: effective(&target_stats, b)?, modifiers: Vec::new() };
    Ok(opposed_labelled(&side_a, &side_b, labels, dice)?)
}

fn declared_spec(declared: &DeclaredAction) -> Result<ActionSpec, EncounterError> {
    // The manoeuvre's fields sit at the top of the action, so its refusals name them bare.
    Ok(action_spec(declared)?)
}

pub(super) fn knock_down(
    draft: &mut Encounter,
    actor: CombatantId,
    target: CombatantId,
    after_half_move: bool,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let spec = declared_spec(&DeclaredAction::KnockDown(KnockDown { after_half_move }))?;
    snapshot(draft, &target, "target_id")?;
    spend(draft, &actor, &spec)?;
    let modifiers = spec.tests.first().map(|t| t.modifiers.clone()).unwrap_or_default();
    let result = contest(
        draft,
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
            parts_mut(draft, &target, "target_id")?.1.prone = true;
            notes.push(format!("{} is knocked prone", draft.name_of(&target)));
            if outcome == KnockDownOutcome::TargetProneMayHurt {
                notes.push(
                    "won by 2+ DoS: the actor may deal Unarmed damage and a level of Fatigue (damage and fatigue commands)"
                        .into(),
                );
            }
        }
        KnockDownOutcome::ActorProne => {
            parts_mut(draft, &actor, "actor_id")?.1.prone = true;
            notes.push(format!("{} is knocked prone instead", draft.name_of(&actor)));
        }
        KnockDownOutcome::TargetStands => notes.push("the target keeps its footing".into()),
    }
    let outcome = ActionOutcome::KnockDown { target_id: target, contest: Box::new(result), outcome };
    Ok((actor, "knock down".into(), outcome, notes))
}

pub(super) fn disarm(
    draft: &mut Encounter,
    actor: CombatantId,
    target: CombatantId,
    input: Disarm,
    object: Option<String>,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let spec = declared_spec(&DeclaredAction::Disarm(input))?;
    let test = spec.tests.first().cloned();
    let modifiers = test.as_ref().map(|t| t.modifiers.clone()).unwrap_or_default();
    snapshot(draft, &target, "target_id")?;
    spend(draft, &actor, &spec)?;
    let result = contest(
        draft,
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
        parts_mut(draft, &target, "target_id")?.1.dropped.push(object.clone());
        notes.push(format!("{} drops {object}", draft.name_of(&target)));
        if outcome == DisarmOutcome::MayTake {
            notes.push("3+ DoS: the actor may take it instead".into());
        }
    }
    let outcome = ActionOutcome::Disarm { target_id: target, contest: Box::new(result), outcome, object };
    Ok((actor, "disarm".into(), outcome, notes))
}

pub(super) fn feint(
    draft: &mut Encounter,
    actor: CombatantId,
    target: CombatantId,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let spec = declared_spec(&DeclaredAction::Feint {})?;
    snapshot(draft, &target, "target_id")?;
    spend(draft, &actor, &spec)?;
    let result = contest(
        draft,
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
        parts_mut(draft, &target, "target_id")?.1.feinted_by = Some(actor.clone());
        notes.push(format!(
            "{} may not dodge or parry {}'s next melee Standard Attack or Called Shot, if it is the next action",
            draft.name_of(&target),
            draft.name_of(&actor)
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
    draft: &mut Encounter,
    request: TakeDownRequest,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let TakeDownRequest { actor, target, input, damage, penetration, dodge, mut modifiers } = request;
    if actor == target {
        return Err(EncounterError::invalid("target_id", "the target must be another combatant"));
    }
    let spec = declared_spec(&DeclaredAction::TakeDown(input))?;
    check_damage_dice(&damage).map_err(|e| within("damage", e))?;
    let (target_stats, target_state, surprised) = snapshot(draft, &target, "target_id")?;
    let mut target_budget = target_state.budget.clone();
    if dodge {
        spend_dodge(&mut target_budget, surprised)?;
    }
    spend(draft, &actor, &spec)?;
    if surprised {
        modifiers.push(Modifier::coded(ModifierCode::Surprise, "target surprised", 30));
    }
    modifiers.extend(target_state.attacks_against.clone());
    let (actor_stats, _, _) = snapshot(draft, &actor, "actor_id")?;
    let ws = effective(&actor_stats, CharacteristicName::Ws)?;
    let test =
        modified_test(ws, &modifiers, dice, "take down: WS test").map_err(|e| within("modifiers", e))?;
    let mut notes = Vec::new();
    let mut dodge_test = None;
    if test.test.passed && dodge {
        let ag = effective(&target_stats, CharacteristicName::Ag)?;
        dodge_test = Some(modified_test(ag, &[], dice, "take down: dodge (Agility)")?);
        parts_mut(draft, &target, "target_id")?.1.budget = target_budget;
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
            let round = draft.round;
            parts_mut(draft, &target, "target_id")?.1.stunned_until_round = Some(round + 1);
            notes.push(format!("{} is stunned for one round", draft.name_of(&target)));
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

/// Applies `amount` of damage (soaked, with `penetration`) to a stored combatant; returns a note.
fn impact(
    draft: &mut Encounter,
    id: &CombatantId,
    field: &str,
    amount: u32,
    penetration: u32,
) -> Result<(u32, Vec<String>), EncounterError> {
    let name = draft.name_of(id);
    let (stats, _, flags) = parts_mut(draft, id, field)?;
    let (_, wounds, mut notes) = apply(stats, amount, true, penetration, field)?;
    stats.set_wounds_left(wounds.after);
    flags.defeated |= wounds.dead;
    notes.insert(0, format!("{name}: {amount} impact, wounds {} → {}", wounds.before, wounds.after));
    Ok((wounds.after, notes))
}

/// Ram (adeva-d100.txt, "Ram"). Decisions: a full action on the actor's turn; WS +20 (plus the
/// caller's `modifiers`), one hit; the target may `dodge` as a free action (Agility, no Reaction
/// spent). A hit deals 1d10 + SB + 2 × Size (Pen 2 × Size) to the target, then 1d10 + the
/// target's SB + Size (Pen its Size) back to the rammer, each soaked by TB + AP − Pen and applied
/// to the stored wounds. The ships' SB and Size are the caller's (`rammer`, `target`); the DoS do
/// not replace an impact die (the text gives the impact as its own roll).
pub(super) fn ram(
    draft: &mut Encounter,
    actor: CombatantId,
    target: CombatantId,
    input: Ram,
    dodge: bool,
    mut modifiers: Vec<Modifier>,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    if actor == target {
        return Err(EncounterError::invalid("target_id", "the target must be another combatant"));
    }
    let spec = declared_spec(&DeclaredAction::Ram(input.clone()))?;
    let damage = ram_damage(&input)?;
    let (target_stats, _, _) = snapshot(draft, &target, "target_id")?;
    spend(draft, &actor, &spec)?;
    let (actor_stats, _, _) = snapshot(draft, &actor, "actor_id")?;
    modifiers.insert(0, Modifier::coded(ModifierCode::Ram, "ram", 20));
    let ws = effective(&actor_stats, CharacteristicName::Ws)?;
    let test = modified_test(ws, &modifiers, dice, "ram: WS test").map_err(|e| within("modifiers", e))?;
    let mut dodge_test = None;
    if test.test.passed && dodge {
        let ag = effective(&target_stats, CharacteristicName::Ag)?;
        dodge_test = Some(modified_test(ag, &[], dice, "ram: dodge (Agility, free)")?);
    }
    let hit = test.test.passed && !dodge_test.as_ref().is_some_and(|t| t.test.passed);
    let mut notes = Vec::new();
    let mut impacts = Vec::new();
    if hit {
        let die = dice.roll(10, "ram: impact on the target")?;
        let amount = die + damage.to_target.bonus;
        let (_, more) = impact(draft, &target, "target_id", amount, damage.to_target.penetration)?;
        notes.extend(more);
        impacts.push(amount);
        let die = dice.roll(10, "ram: impact back on the rammer")?;
        let amount = die + damage.to_rammer.bonus;
        let (_, more) = impact(draft, &actor, "actor_id", amount, damage.to_rammer.penetration)?;
        notes.extend(more);
        impacts.push(amount);
    }
    let outcome = ActionOutcome::Ram {
        target_id: target,
        test: Box::new(test),
        dodge: dodge_test.map(Box::new),
        damage,
        impacts,
    };
    Ok((actor, "ram".into(), outcome, notes))
}

/// Stand up from prone: a half action on the actor's turn that clears `prone` (the text gives
/// prone no modifier and no way up; see `dynamic.rs`). Refused (field `actor_id`) when the actor
/// is not prone. Standing is not a move, so a pinned combatant may stand.
pub(super) fn stand(draft: &mut Encounter, actor: CombatantId) -> Result<Ran, EncounterError> {
    let (_, state, _) = snapshot(draft, &actor, "actor_id")?;
    if !state.prone {
        return Err(EncounterError::invalid("actor_id", "only a prone combatant can stand up"));
    }
    let spec = ActionSpec::new(ActionKind::Other("stand".into()), ActionType::Half, Vec::new());
    spend(draft, &actor, &spec)?;
    parts_mut(draft, &actor, "actor_id")?.1.prone = false;
    let notes = vec![format!("{} stands up", draft.name_of(&actor))];
    Ok((actor, "stand".into(), ActionOutcome::Stood {}, notes))
}

/// How the target ship evades a Boarding ("dodging, deflecting or by using the 'Repel Boarders'
/// action").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100BoardingEvasionKind))]
#[serde(rename_all = "snake_case")]
pub enum BoardingEvasionKind {
    Dodge,
    Deflect,
    RepelBoarders,
}

/// The target's evasion against a Boarding and the threshold it tests (its Agility for a dodge,
/// its Deflector's strength, its Repel Boarders test: the text gives none, the caller's word).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100BoardingEvasion))]
#[serde(deny_unknown_fields)]
pub struct BoardingEvasion {
    pub kind: BoardingEvasionKind,
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::threshold")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 300))]
    pub threshold: u32,
}

pub(super) struct BoardingRequest {
    pub actor: CombatantId,
    pub target: CombatantId,
    pub input: Boarding,
    pub damage: DamageDice,
    pub evasion: Option<BoardingEvasion>,
    pub evasion_modifiers: Vec<Modifier>,
}

/// Boarding (adeva-d100.txt, "Boarding"). Decisions: a half action on the actor's turn against
/// another stored starship (`target_is_starship`); the WS test (decays applied) takes the
/// `marines` modifiers; one hit. The target's `evasion` is tested against its given threshold:
/// a dodge or Repel Boarders spends its Reaction ("Combat Structure", Step Four: dodging needs a
/// Reaction; Repel Boarders is taken as one), a Deflector test is free. If it fails to evade, the
/// Marines' `damage` dice are rolled (no DoS substitution, no SB: the profile is the Marines')
/// and taken from the target's wounds (its Hull) with no soak ("ignoring AP and TB"). The Subdual
/// quality is noted, not applied (the engine has no Subdual rule).
pub(super) fn boarding(
    draft: &mut Encounter,
    request: BoardingRequest,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let BoardingRequest { actor, target, input, damage, evasion, evasion_modifiers } = request;
    if actor == target {
        return Err(EncounterError::invalid("target_id", "the target must be another combatant"));
    }
    let spec = declared_spec(&DeclaredAction::Boarding(input.clone()))?;
    check_damage_dice(&damage).map_err(|e| within("damage", e))?;
    let (_, target_state, _) = snapshot(draft, &target, "target_id")?;
    let mut target_budget = target_state.budget.clone();
    if let Some(evasion) = evasion {
        if evasion.threshold > 200 {
            return Err(EncounterError::invalid("evasion.threshold", "at most 200"));
        }
        if evasion.kind != BoardingEvasionKind::Deflect {
            let reaction =
                ActionSpec::new(ActionKind::Other("evasion".into()), ActionType::Reaction, Vec::new());
            target_budget.spend(&reaction).map_err(|e| match EncounterError::from(e) {
                EncounterError::Invalid { message, .. } => EncounterError::invalid("evasion", message),
                other => other,
            })?;
        }
    }
    spend(draft, &actor, &spec)?;
    let (actor_stats, _, _) = snapshot(draft, &actor, "actor_id")?;
    let ws = effective(&actor_stats, CharacteristicName::Ws)?;
    let test = modified_test(ws, &super::super::test_modifiers::caller(&input.marines), dice, "boarding: WS test (Marines)")
        .map_err(|e| within("marines", e))?;
    let mut evasion_test = None;
    if let (true, Some(evasion)) = (test.test.passed, evasion) {
        let threshold = i32::try_from(evasion.threshold).unwrap_or(200);
        let label = format!("boarding: {:?} evasion", evasion.kind);
        evasion_test = Some(
            super::super::test_roll::threshold_test(threshold, &evasion_modifiers, dice, &label)
                .map_err(|e| within("evasion_modifiers", e))?,
        );
        parts_mut(draft, &target, "target_id")?.1.budget = target_budget;
    }
    let hit = test.test.passed && !evasion_test.as_ref().is_some_and(|t| t.test.passed);
    let mut notes = Vec::new();
    let mut hull_damage = None;
    if hit {
        let mut amount: i64 = i64::from(damage.bonus);
        for _ in 0..damage.count {
            amount += i64::from(dice.roll(damage.sides, "boarding: Marines' damage")?);
        }
        let amount = u32::try_from(amount.max(0)).unwrap_or(0);
        let name = draft.name_of(&target);
        let (stats, _, flags) = parts_mut(draft, &target, "target_id")?;
        let (_, wounds, more) = apply(stats, amount, false, 0, "target_id")?;
        stats.set_wounds_left(wounds.after);
        flags.defeated |= wounds.dead;
        notes.push(format!(
            "{name}'s Hull: {amount} damage ignoring AP and TB, {} → {}",
            wounds.before, wounds.after
        ));
        notes.extend(more);
        notes.push("Subdual quality: apply its effect at the table".into());
        hull_damage = Some(amount);
    }
    let outcome = ActionOutcome::Boarding {
        target_id: target,
        test: Box::new(test),
        evasion: evasion_test.map(Box::new),
        hit,
        hull_damage,
    };
    Ok((actor, "boarding".into(), outcome, notes))
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
