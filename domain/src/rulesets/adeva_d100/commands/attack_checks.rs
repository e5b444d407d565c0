//! The checks an attack passes before anything is rolled: its test, damage dice, the client's
//! limits, and each target alive, reachable and with an allowed evasion (adeva-d100.txt,
//! "Attacking", Steps One and Three; "Altitude"; "Unarmed Attacks"; see the decisions in
//! `core.rs`).
use super::super::actions::{ActionSpec, Evasion, HitRule, TestSpec, Weapon, WeaponClass};
use super::super::altitude::{AltitudeAccess, altitude_access};
use super::super::attack_sequence::SURPRISE_BONUS;
use super::super::critical::check_lethal_table;
use super::super::damage::{DamageDice, check_damage_dice};
use super::super::decay;
use super::super::evasion::{EvasionKind, EvasionSpec, check_evasion};
use super::super::test_modifiers::{check_modifiers, within};
use super::super::unarmed::UNARMED_DAMAGE;
use super::core::{
    AttackInput, AttackerSide, MAX_CLIENT_MODIFIERS, MAX_LETHAL_NAME_CHARS, TargetSide, effective,
};
use crate::rulesets::RuleError;
use crate::rulesets::adeva_d100::bounds::Unsigned;

fn evasion_characteristic(kind: EvasionKind) -> Option<decay::CharacteristicName> {
    match kind {
        EvasionKind::Dodge => Some(decay::CharacteristicName::Ag),
        EvasionKind::Parry => Some(decay::CharacteristicName::Ws),
        EvasionKind::PointDefence => Some(decay::CharacteristicName::Bs),
        EvasionKind::Deflect => None,
    }
}

/// The evasion spec of a target, checked (errors name `evasion_field`).
fn evasion_spec(target: &TargetSide, allowed: &[Evasion]) -> Result<Option<EvasionSpec>, RuleError> {
    let field = target.evasion_field.as_str();
    let Some(kind) = target.evasion.kind() else { return Ok(None) };
    if kind.is_reaction() && target.surprised {
        return Err(RuleError::invalid(
            field,
            "refused: a reaction by a surprised character (only a Deflector, a free action, may evade)",
        ));
    }
    if kind.is_reaction() && target.reaction_spent {
        return Err(RuleError::invalid(
            field,
            "refused: the target has already used its Reaction this round",
        ));
    }
    if target.feinted && matches!(kind, EvasionKind::Dodge | EvasionKind::Parry) {
        return Err(RuleError::invalid(
            field,
            "refused: the attacker's Feint won, so this attack may not be parried or dodged (Feint)",
        ));
    }
    if target.evasion_modifiers.len() > MAX_CLIENT_MODIFIERS {
        return Err(RuleError::invalid(
            format!("{field}_modifiers"),
            format!("at most {MAX_CLIENT_MODIFIERS} modifiers may be sent"),
        ));
    }
    if !allowed.contains(&Evasion::from(kind)) {
        return Err(RuleError::invalid(field, "this evasion is not allowed against this attack"));
    }
    if kind == EvasionKind::Deflect && target.stats.deflectors.is_empty() {
        return Err(RuleError::invalid(field, "the target has no Deflectors in its stat block"));
    }
    let mut modifiers = target.evasion_modifiers.clone();
    modifiers.extend(target.own_evasion.clone());
    let characteristic =
        evasion_characteristic(kind).map(|name| effective(target.stats, name)).transpose()?;
    let spec = EvasionSpec {
        kind,
        characteristic,
        modifiers,
        deflector_strengths: if kind == EvasionKind::Deflect {
            target.stats.deflectors.iter().map(|d| d.n()).collect()
        } else {
            Vec::new()
        },
        deflector_weakening: 0,
    };
    check_evasion(&spec, target.surprised).map_err(|error| within(field, error))?;
    Ok(Some(spec))
}

/// The action's attack test, refused when it scores no hits or cannot spread them over
/// `target_count` targets.
pub(super) fn attack_test_spec(spec: &ActionSpec, target_count: usize) -> Result<&TestSpec, RuleError> {
    let Some(test) = spec.tests.first() else {
        return Err(RuleError::invalid("action", "this action makes no attack test"));
    };
    if test.hits == HitRule::NoHits {
        return Err(RuleError::invalid("action", "this action scores no hits"));
    }
    if target_count > 1 && test.hits.attack_max_hits().is_none() {
        return Err(RuleError::invalid(
            "extra_targets",
            "only a Burst or Flurry may allocate hits to other targets",
        ));
    }
    Ok(test)
}

/// The damage dice of the attack: 1d5 − 3 + SB unarmed ("Unarmed Attacks"), else the request's.
pub(super) fn checked_damage_dice(input: &AttackInput, weapon: &Weapon) -> Result<DamageDice, RuleError> {
    if !input.unarmed {
        let Some(damage) = input.damage else {
            return Err(RuleError::invalid("damage", "a weapon attack needs its damage dice"));
        };
        check_damage_dice(&damage).map_err(|error| within("damage", error))?;
        return Ok(damage);
    }
    if weapon.class != WeaponClass::Melee {
        return Err(RuleError::invalid("action.weapon.class", "an unarmed attack is a melee attack"));
    }
    if input.damage.is_some() || input.penetration != 0 {
        return Err(RuleError::invalid(
            "damage",
            "an unarmed attack deals 1d5 − 3 + SB with no penetration: leave damage and penetration out",
        ));
    }
    Ok(UNARMED_DAMAGE)
}

/// Penetration, the client's modifiers and the Lethal Damage chart, each within its limits.
pub(super) fn check_client_limits(input: &AttackInput) -> Result<(), RuleError> {
    if input.dos_hit == Some(0) {
        return Err(RuleError::invalid("dos_hit", "hits are counted from 1"));
    }
    if input.penetration > 100 {
        return Err(RuleError::invalid("penetration", "penetration must lie between 0 and 100"));
    }
    check_modifiers("modifiers", input.modifiers)?;
    if input.modifiers.len() > MAX_CLIENT_MODIFIERS {
        return Err(RuleError::invalid(
            "modifiers",
            format!("at most {MAX_CLIENT_MODIFIERS} modifiers may be sent"),
        ));
    }
    if let Some(table) = input.lethal_damage_table {
        check_lethal_table("lethal_damage_table", table)?;
        if let Some(index) = table.iter().position(|name| name.chars().count() > MAX_LETHAL_NAME_CHARS) {
            return Err(RuleError::invalid(
                format!("lethal_damage_table[{index}]"),
                format!("a chart entry name has at most {MAX_LETHAL_NAME_CHARS} characters"),
            ));
        }
    }
    Ok(())
}

/// What checking the targets found: the main target's altitude access, and per target its
/// evasion spec and the engine's modifier to attacks against it.
pub(super) struct CheckedTargets {
    pub(super) access: AltitudeAccess,
    pub(super) evasions: Vec<Option<EvasionSpec>>,
    pub(super) engine_modifiers: Vec<i32>,
}

/// Checks each target is alive and reachable (adeva-d100.txt, "Altitude") and its evasion.
pub(super) fn check_targets(
    attacker: &AttackerSide,
    targets: &[TargetSide],
    input: &AttackInput,
    weapon: &Weapon,
    test: &TestSpec,
) -> Result<CheckedTargets, RuleError> {
    let reach = if weapon.class == WeaponClass::Melee {
        super::super::altitude::Reach::Melee
    } else {
        super::super::altitude::Reach::Ranged
    };
    let mut access = None;
    let mut evasions = Vec::new();
    let mut engine_modifiers = Vec::new();
    for target in targets {
        check_target_alive(target)?;
        let reached =
            altitude_access(attacker.stats.altitude, target.stats.altitude, reach, input.long_range_weapon);
        if !reached.allowed {
            return Err(RuleError::invalid(&target.field, reached.reason));
        }
        let engine: i32 = target.attacks_against.iter().map(|m| m.value).sum::<i32>()
            + if target.surprised { SURPRISE_BONUS } else { 0 }
            + reached.modifier.iter().map(|m| m.value).sum::<i32>()
            + target.attack_modifier;
        engine_modifiers.push(engine);
        access.get_or_insert(reached);
        evasions.push(evasion_spec(target, &test.evasions)?);
    }
    let access = access.ok_or_else(|| RuleError::invalid("target_id", "an attack needs a target"))?;
    Ok(CheckedTargets { access, evasions, engine_modifiers })
}

/// Refuses a target without wounds, or dead (0 wounds and no Fate Points).
fn check_target_alive(target: &TargetSide) -> Result<(), RuleError> {
    match target.stats.wounds {
        None => Err(RuleError::invalid(&target.field, "the target's stat block has no wounds")),
        Some(_) if target.stats.current_wounds() == 0 && target.stats.fate_points.n() == 0 => Err(
            RuleError::invalid(&target.field, "the target is at 0 wounds without Fate Points: dead"),
        ),
        Some(_) => Ok(()),
    }
}

/// Refuses a caller flag of an Attack of Opportunity or a Counter-Attack that the encounter's
/// record contradicts (adeva-d100.txt, "Attack of Opportunity", "Counter-Attack"). Decisions:
/// - `enemy_moves_away: true` needs the target to have taken a Movement-subtype action in its turn
///   of this round (a Half Move, Full Move, Run, Charge or Ram); whether the move leaves the melee
///   is the map's, so the caller's word.
/// - `parried_melee_attack: true` needs the attacker's record of a successful parry of a melee
///   attack by this target, as the last attack on it, with no action of its own since; a dodge,
///   a failed parry or no evasion at all refuses it.
pub(super) fn check_recorded_facts(
    encounter: &crate::encounter::Encounter,
    request: &super::attack::EncounterAttack,
    attacker: &crate::rulesets::adeva_d100::state::CombatState,
    target: &crate::rulesets::adeva_d100::state::CombatState,
) -> Result<(), RuleError> {
    use super::super::actions::declared::DeclaredAction;
    match &request.action {
        DeclaredAction::AttackOfOpportunity(input) if input.enemy_moves_away => {
            let moved = target.turn_round == Some(encounter.round) && target.budget.movement_actions > 0;
            if !moved {
                return Err(RuleError::invalid(
                    "action.enemy_moves_away",
                    format!(
                        "{} has taken no Movement action this round, so it is not moving away",
                        encounter.name_of(&request.target_id)
                    ),
                ));
            }
        }
        DeclaredAction::CounterAttack(input)
            if input.parried_melee_attack && attacker.parried.as_ref() != Some(&request.target_id) =>
        {
            return Err(RuleError::invalid(
                "action.parried_melee_attack",
                format!(
                    "no successful parry by {} of a melee attack by {} is recorded as the last attack on it",
                    encounter.name_of(&request.attacker_id),
                    encounter.name_of(&request.target_id)
                ),
            ));
        }
        _ => {}
    }
    Ok(())
}
