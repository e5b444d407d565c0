//! An attack by a stored combatant on stored targets (see the decisions in `mod.rs`).

use super::super::actions::declared::DeclaredAction;
use super::super::Stats;
use super::super::state::CombatState;
use super::super::actions::{ActionKind, LingeringEffect, WeaponClass};
use super::super::damage::DamageDice;
use super::attack_store::store_outcomes;
use super::super::test_modifiers::{CallerModifier, Modifier, caller};
use super::core::{AttackInput, AttackerSide, EvasionChoice, TargetSide, resolve};
use super::super::AdevaD100;
use super::{ensure_turn, peek, refreshed_mut};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::{RulesetReport, plugin};
use serde::Deserialize;

/// `POST /v1/encounters/{id}/adeva-d100/attacks`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100EncounterAttack))]
#[serde(deny_unknown_fields)]
pub struct EncounterAttack {
    pub attacker_id: CombatantId,
    pub target_id: CombatantId,
    /// The attack action, e.g. `{"action": "burst", "weapon": {...}, "declared_hits": 3}`: one of
    /// the eight that make an attack test (the others are `…/adeva-d100/actions`).
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::actions::attack_action::read")]
    #[cfg_attr(feature = "schema", schema(value_type = crate::rulesets::adeva_d100::actions::attack_action::AttackAction))]
    pub action: DeclaredAction,
    /// The weapon's damage roll, e.g. `{"count": 1, "sides": 10, "bonus": 2}`.
    /// Left out for an unarmed attack.
    #[serde(default)]
    pub damage: Option<DamageDice>,
    /// The weapon's Penetration: taken off the target's Armour Points in soak (default 0).
    #[serde(default)]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub penetration: u32,
    /// The main target's evasion.
    #[serde(default)]
    pub evasion: EvasionChoice,
    /// Modifiers on the main target's evasion test, each with its reason.
    #[serde(default)]
    pub evasion_modifiers: Vec<CallerModifier>,
    /// Further modifiers on the attack test, each with its reason.
    #[serde(default)]
    pub modifiers: Vec<CallerModifier>,
    /// Burst / Flurry: other targets and the hits each wants.
    #[serde(default)]
    pub extra_targets: Vec<ExtraTarget>,
    /// The GM approves the weapon as long-ranged: it reaches a target at High altitude
    /// ("Altitude").
    #[serde(default)]
    pub long_range_weapon: bool,
    /// An unarmed attack: 1d5 − 3 + SB, no penetration (adeva-d100.txt, "Unarmed Attacks"); a
    /// weapon named "unarmed" counts too.
    #[serde(default)]
    pub unarmed: bool,
    /// Which landed hit takes the Degrees of Success in place of a damage die, counted in the order
    /// the hits are rolled (the main target's first, then each extra target's), from 1; left out,
    /// the first (adeva-d100.txt, "Attacking", Step Five: the attacker chooses).
    #[serde(default, deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points_opt")]
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 100))]
    pub dos_hit: Option<u32>,
    /// The engine's own modifiers when it builds the attack (Multiple Attack's −30), listed before
    /// the client's; never read from a request.
    #[serde(skip)]
    pub engine_modifiers: Vec<Modifier>,
}

/// Another target of a Burst or Flurry.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ExtraTarget))]
#[serde(deny_unknown_fields)]
pub struct ExtraTarget {
    pub target_id: CombatantId,
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub hits: u32,
    #[serde(default)]
    pub evasion: EvasionChoice,
    #[serde(default)]
    pub evasion_modifiers: Vec<CallerModifier>,
    /// Burst: squares from the declared target (at most 10); left out, the caller's word.
    #[serde(default)]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::squares_opt")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 1000))]
    pub squares_from_target: Option<u32>,
    /// Flurry: within the attacker's reach; left out, the caller's word.
    #[serde(default)]
    pub within_reach: Option<bool>,
    /// Circumstances the engine does not know (cover, fog…) making this target's attack modifier
    /// differ from the declared target's; it must not be harder to hit.
    #[serde(default)]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::signed100")]
    #[cfg_attr(feature = "schema", schema(minimum = -100, maximum = 100))]
    pub attack_modifier: i32,
}

pub use super::attack_report::{AttackReport, TargetReport};
pub(crate) use super::attack_report::apply_outcome;

/// Resolves and stores one attack. Every refusal comes before anything is stored, so a refusal
/// leaves the encounter unchanged.
pub fn attack(
    encounter: &mut Encounter,
    request: EncounterAttack,
    dice: &mut Dice,
) -> Result<(Vec<Event>, AttackReport), EncounterError> {
    plugin::ensure_active::<AdevaD100>(encounter)?;
    let start = dice.rolls().len();
    let report = run(encounter, &request, dice, Mode::OwnAction)?;
    let events = vec![Event::AttackResolved {
        attacker_id: request.attacker_id.clone(),
        target_id: request.target_id.clone(),
        report: RulesetReport::AdevaD100(crate::rulesets::adeva_d100::Report::Attack(Box::new(report.clone()))),
        dice: dice.rolls()[start..].to_vec(),
    }];
    Ok((events, report))
}

/// How an attack comes to be rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Through the attack command: on the attacker's turn unless it is an Attack of Opportunity
    /// or a Counter-Attack; it spends its action.
    OwnAction,
    /// Already paid for by the action that leads to it (the grapple's Either Standard Attack,
    /// "Grapple (Initiate)"): nothing is spent and no turn is checked.
    Paid,
    /// A standing Overwatch fires (adeva-d100.txt, "Overwatch": "This attack occurs the moment
    /// the conditions are met"): off the attacker's turn, already paid for by the Overwatch's
    /// full action, so nothing is spent.
    Overwatch,
}

/// Rolls an Overwatch's readied attack (see [`Mode::Overwatch`]).
pub(super) fn overwatch_attack(
    encounter: &mut Encounter,
    request: &EncounterAttack,
    dice: &mut Dice,
) -> Result<AttackReport, EncounterError> {
    run(encounter, request, dice, Mode::Overwatch)
}

/// Rolls an attack another action has paid for (see [`Mode::Paid`]).
pub(super) fn paid_attack(
    encounter: &mut Encounter,
    request: &EncounterAttack,
    dice: &mut Dice,
) -> Result<AttackReport, EncounterError> {
    run(encounter, request, dice, Mode::Paid)
}

/// One named target: its id, the field naming it and the field naming its evasion.
type NamedTarget = (CombatantId, String, String);

/// Checks, rolls and then stores: everything up to `resolve` reads the encounter only (the
/// combatants through [`peek`], the attacker's spending on a copy of its state), so any refusal
/// comes before the first write.
fn run(
    encounter: &mut Encounter,
    request: &EncounterAttack,
    dice: &mut Dice,
    mode: Mode,
) -> Result<AttackReport, EncounterError> {
    let free = mode != Mode::OwnAction
        || matches!(
            request.action,
            DeclaredAction::AttackOfOpportunity(_) | DeclaredAction::CounterAttack(_)
        );
    if !free {
        ensure_turn(encounter, &request.attacker_id, "attacker_id")?;
    }
    super::ensure_not_stunned(encounter, &request.attacker_id)?;
    let (attacker_stats, mut attacker_state, _) = peek(encounter, &request.attacker_id, "attacker_id")?;
    let action = super::core::with_movement(&request.action, &attacker_stats)?;
    let ids = named_targets(request);
    let snapshots = target_snapshots(encounter, request, &ids)?;
    let sides = target_sides(request, &ids, &snapshots);
    let lethal = crate::rulesets::plugin::options::<super::super::AdevaD100>(encounter).lethal_damage_table;
    let mut modifiers = request.engine_modifiers.clone();
    modifiers.extend(caller(&request.modifiers));
    let input = AttackInput {
        action: &action,
        damage: request.damage,
        penetration: request.penetration,
        modifiers: &modifiers,
        long_range_weapon: request.long_range_weapon,
        unarmed: request.unarmed || super::core::named_unarmed(&request.action),
        lethal_damage_table: lethal.as_deref(),
        dos_hit: request.dos_hit,
    };
    super::attack_checks::check_recorded_facts(encounter, request, &attacker_state, &snapshots[0].1)?;
    let aim = spend_attack(encounter, request, &action, &mut attacker_state, free, mode)?;
    // The attack is the attacker's action: its parry record is answered or passed by.
    attacker_state.parried = None;
    let attacker = AttackerSide { stats: &attacker_stats, aim };
    let mut resolved = resolve(&attacker, &sides, &input, dice)?;
    // Store: attacker budget and lingering effects.
    for effect in &resolved.spec.lingering {
        if let LingeringEffect::OwnEvasion { modifier, .. } = effect {
            attacker_state.own_evasion = Some(modifier.clone());
        }
    }
    {
        let (_, state, _) = refreshed_mut(encounter, &request.attacker_id, "attacker_id")?;
        *state = attacker_state.clone();
    }
    let melee = resolved.weapon.class == WeaponClass::Melee;
    let outcomes = std::mem::take(&mut resolved.targets);
    let targets = store_outcomes(encounter, request, &ids, &sides, outcomes, melee)?;
    // Any other action of the feinter than the opened attack ends its Feint ("Feint").
    super::lapse_openings(encounter, &request.attacker_id);
    if resolved.spec.action == ActionKind::HeavyAttack {
        resolved.notes.push(
            "Heavy Attack: −30 to the attacker's Evasion tests until the start of its next turn".into(),
        );
    }
    let attacker_name = encounter.name_of(&request.attacker_id);
    let stored = Some((request.attacker_id.clone(), attacker_state.budget));
    Ok(AttackReport::new(resolved, stored, attacker_name, targets))
}

/// The main target, then the extra targets in order.
fn named_targets(request: &EncounterAttack) -> Vec<NamedTarget> {
    let mut ids = vec![(request.target_id.clone(), "target_id".to_string(), "evasion".to_string())];
    for (index, extra) in request.extra_targets.iter().enumerate() {
        ids.push((
            extra.target_id.clone(),
            format!("extra_targets[{index}].target_id"),
            format!("extra_targets[{index}].evasion"),
        ));
    }
    ids
}

/// Each target's stats, state and surprise; a combatant named twice (the attacker included) is
/// refused.
fn target_snapshots(
    encounter: &Encounter,
    request: &EncounterAttack,
    ids: &[NamedTarget],
) -> Result<Vec<(Stats, CombatState, bool)>, EncounterError> {
    let mut seen = vec![request.attacker_id.clone()];
    let mut snapshots = Vec::new();
    for (id, field, _) in ids {
        if seen.contains(id) {
            return Err(EncounterError::invalid(field, "a combatant may be named only once in an attack"));
        }
        seen.push(id.clone());
        snapshots.push(peek(encounter, id, field)?);
    }
    Ok(snapshots)
}

/// The targets' sides of the attack, with their evasions and the attacker's feints.
fn target_sides<'a>(
    request: &EncounterAttack,
    ids: &[NamedTarget],
    snapshots: &'a [(Stats, CombatState, bool)],
) -> Vec<TargetSide<'a>> {
    // Feint: only a melee Standard Attack or Called Shot profits (adeva-d100.txt, "Feint").
    let feint_applies = match &request.action {
        DeclaredAction::StandardAttack(a) => a.weapon.class == WeaponClass::Melee,
        DeclaredAction::CalledShot(a) => a.weapon.class == WeaponClass::Melee,
        _ => false,
    };
    let mut sides = Vec::new();
    for (index, ((_, field, evasion_field), (stats, state, surprised))) in
        ids.iter().zip(snapshots).enumerate()
    {
        let (evasion, evasion_modifiers, wanted) = if index == 0 {
            (request.evasion, caller(&request.evasion_modifiers), None)
        } else {
            let extra = &request.extra_targets[index - 1];
            (extra.evasion, caller(&extra.evasion_modifiers), Some(extra.hits))
        };
        let extra = index.checked_sub(1).map(|i| &request.extra_targets[i]);
        sides.push(TargetSide {
            field: field.clone(),
            stats,
            surprised: *surprised,
            evasion,
            evasion_field: evasion_field.clone(),
            evasion_modifiers,
            own_evasion: state.own_evasion.clone(),
            attacks_against: state.attacks_against.clone(),
            hits_wanted: wanted,
            reaction_spent: state.budget.reaction_used,
            feinted: feint_applies && state.feinted_by.as_ref() == Some(&request.attacker_id),
            squares_from_target: extra.and_then(|e| e.squares_from_target),
            within_reach: extra.and_then(|e| e.within_reach),
            attack_modifier: extra.map_or(0, |e| e.attack_modifier),
        });
    }
    sides
}

/// Spends the attack from the attacker's state (a copy, so a refused action rolls nothing) and
/// returns its pending aim; a firing Overwatch spends nothing but is used up.
fn spend_attack(
    encounter: &Encounter,
    request: &EncounterAttack,
    action: &DeclaredAction,
    attacker_state: &mut CombatState,
    free: bool,
    mode: Mode,
) -> Result<Option<Modifier>, EncounterError> {
    let spec = super::super::actions::action_spec(action)
        .map_err(|error| super::super::test_modifiers::within("action", error))?;
    super::ensure_may_move(encounter, &request.attacker_id, attacker_state, &spec)?;
    if !free && attacker_state.budget.turn_lost {
        return Err(EncounterError::invalid(
            "action",
            "refused: surprised characters lose their first turn (Combat Structure, Step Two)",
        ));
    }
    let aim = attacker_state.budget.pending_aim().cloned();
    if mode == Mode::OwnAction {
        attacker_state.budget.spend(&spec)?;
        // "If you perform any actions, such as dodging, before Overwatch resolves, your Overwatch
        // immediately ends" (adeva-d100.txt, "Overwatch").
        if super::super::actions::overwatch::ends_overwatch(&spec) {
            attacker_state.overwatch = None;
        }
    } else if mode == Mode::Overwatch {
        // The Overwatch is used up once it fires.
        attacker_state.overwatch = None;
    }
    Ok(aim)
}

