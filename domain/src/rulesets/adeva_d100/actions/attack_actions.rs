//! The attack actions (adeva-d100.txt, "Action List", "Attack Actions": Standard Attack, Burst,
//! Flurry, Called Shot, Heavy Attack, Multiple Attack, Attack of Opportunity and Counter-Attack).
//! Charge is in `charge.rs`; how a Burst's or Flurry's hits may be spread over several targets is
//! in `hit_spread.rs`.
//!
//! Decisions:
//! - Burst and Flurry: the −5 is charged for every declared hit, the first included, as the rows
//!   say ("for every hit you intend to make"). Declaring 3 hits is therefore +10 − 15.
//! - "To a net max of −30": *net* is the action's own modifier and the −5s together, so the −5s
//!   are held where that sum reaches −30 (with the +10: −40 at most, from eight declared hits on;
//!   with a Multiple Attack's −20 in place of the +10: −10 at most). Both are listed.
//! - A Burst or Flurry scores one hit per Degree of Success, at most the number of hits declared
//!   (which is itself at most the weapon's Hit rating): the declaration is what the penalty paid
//!   for.
//! - "Burst attacks jam on a 94 or higher" (written under Suppressive Fire) is read as a rule for
//!   all ranged burst fire: the Burst action, bursts in a Multiple Attack or an Overwatch, and
//!   Suppressive Fire. A melee Flurry never jams.
//! - Called Shot counts as a Standard Attack, so it lists the Standard +10 and then its −20
//!   (net −10). It needs a named location.
//! - Multiple Attack needs at least two equipped weapons and attacks with two or more of them, no
//!   more than are equipped. Its subtypes are Attack plus Melee and/or Ranged by the weapons used.
//! - Attack of Opportunity is a Standard Attack (+10) and so a single hit. Counter-Attack is not a
//!   Standard Attack: it lists only its −20.

use super::hit_spread::BURST_SPREAD_SQUARES;
use super::{
    ActionKind, ActionSpec, ActionSubtype, ActionType, Evasion, HitRule, LingeringEffect, TestSpec, Until,
    Weapon, WeaponClass,
};
use crate::rulesets::RuleError;
use crate::rulesets::adeva_d100::test_modifiers::{Modifier, ModifierCode};
use serde::{Deserialize, Serialize};

/// The bonus of a Standard Attack, Burst and Flurry (adeva-d100.txt, "Standard Attack").
pub const STANDARD_BONUS: i32 = 10;
/// The penalty per declared hit of a Burst or Flurry, and its cap.
pub const PER_HIT_PENALTY: i32 = -5;
pub const MAX_HIT_PENALTY: i32 = -30;
/// Rolls of this or more jam a burst (adeva-d100.txt, "Suppressive Fire").
pub const JAM_ROLL: u32 = 94;

/// A single attack with one weapon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100SingleAttack))]
#[serde(deny_unknown_fields)]
pub struct SingleAttack {
    pub weapon: Weapon,
}

/// A Burst or Flurry: the weapon and how many hits are declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100MultiHitAttack))]
#[serde(deny_unknown_fields)]
pub struct MultiHitAttack {
    pub weapon: Weapon,
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub declared_hits: u32,
}

/// A Called Shot: the weapon and the body part (or object) aimed at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100CalledShot))]
#[serde(deny_unknown_fields)]
pub struct CalledShot {
    pub weapon: Weapon,
    pub location: String,
}

/// One weapon's part in a Multiple Attack; `declared_hits` fires it on Burst (ranged) or Flurry
/// (melee).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100MultipleAttackWeapon))]
#[serde(deny_unknown_fields)]
pub struct MultipleAttackWeapon {
    pub weapon: Weapon,
    #[serde(default)]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points_opt")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub declared_hits: Option<u32>,
}

/// A Multiple Attack: how many weapons are equipped and the ones attacking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100MultipleAttack))]
#[serde(deny_unknown_fields)]
pub struct MultipleAttack {
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub equipped_weapons: u32,
    pub attacks: Vec<MultipleAttackWeapon>,
}

/// An Attack of Opportunity and the enemy's move that allows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100AttackOfOpportunity))]
#[serde(deny_unknown_fields)]
pub struct AttackOfOpportunity {
    pub weapon: Weapon,
    /// The enemy is engaged in melee with the attacker.
    pub enemy_engaged: bool,
    /// The enemy takes a Movement-subtype action to leave that melee.
    pub enemy_moves_away: bool,
    /// That action is the Disengage action.
    #[serde(default)]
    pub enemy_disengages: bool,
}

/// A Counter-Attack and what allows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100CounterAttack))]
#[serde(deny_unknown_fields)]
pub struct CounterAttack {
    pub weapon: Weapon,
    pub has_talent: bool,
    /// The attacker has just parried a melee attack successfully.
    pub parried_melee_attack: bool,
}

/// Standard Attack: a half action, one melee (WS) or single-shot ranged (BS) attack at +10, one
/// hit on a pass (adeva-d100.txt, "Standard Attack").
pub fn standard_attack(input: &SingleAttack) -> Result<ActionSpec, RuleError> {
    input.weapon.validate("weapon")?;
    let weapon = &input.weapon;
    Ok(ActionSpec::new(
        ActionKind::StandardAttack,
        ActionType::Half,
        vec![ActionSubtype::Attack, weapon.subtype()],
    )
    .with_test(standard_test(weapon, "standard attack")))
}

/// The test of a Standard Attack with this weapon: +10, one hit.
pub(crate) fn standard_test(weapon: &Weapon, reason: &str) -> TestSpec {
    let modifiers = vec![Modifier::coded(ModifierCode::AttackAction, reason, STANDARD_BONUS)];
    TestSpec::attack(attack_label(weapon), weapon.characteristic(), modifiers, HitRule::Single)
}

pub(crate) fn attack_label(weapon: &Weapon) -> String {
    format!("attack with {}", weapon.name)
}

/// The summed −5 per declared hit of a Burst or Flurry, held so that it and the action's own
/// modifier `base` never net below −30 (adeva-d100.txt, "Burst", "Flurry"; see the decisions).
pub fn declared_hits_penalty(declared_hits: u32, base: i32) -> Modifier {
    let raw = PER_HIT_PENALTY.saturating_mul(declared_hits.min(1000) as i32);
    let floor = MAX_HIT_PENALTY.saturating_sub(base).min(0);
    let value = raw.max(floor);
    let held = if value != raw { format!(", held to {floor} for a net {MAX_HIT_PENALTY}") } else { String::new() };
    Modifier::coded(ModifierCode::DeclaredHits, format!("{declared_hits} hits declared ({PER_HIT_PENALTY} each{held})"), value)
}

/// `prefix.leaf`, or just `leaf` at the top level.
pub(crate) fn path(prefix: &str, leaf: &str) -> String {
    if prefix.is_empty() { leaf.to_string() } else { format!("{prefix}.{leaf}") }
}

/// Refuses a Burst or Flurry that the weapon cannot make: Hit rating 1, or more hits declared than
/// the Hit rating, or none (adeva-d100.txt, "Burst", "Flurry"). `weapon_field` and `hits_field`
/// are the JSON paths of the weapon and of the declared hits.
pub(crate) fn check_declared_hits(
    weapon_field: &str,
    hits_field: &str,
    weapon: &Weapon,
    declared_hits: u32,
    action: &str,
) -> Result<(), RuleError> {
    if weapon.hit_rating < 2 {
        return Err(RuleError::invalid(
            format!("{weapon_field}.hit_rating"),
            format!("{action} needs a weapon with a Hit rating of 2 or more; {} has 1", weapon.name),
        ));
    }
    if declared_hits == 0 || declared_hits > weapon.hit_rating {
        return Err(RuleError::invalid(
            hits_field,
            format!("between 1 and the weapon's Hit rating ({}) hits may be declared", weapon.hit_rating),
        ));
    }
    Ok(())
}

/// The test of one Burst or Flurry: `base` (+10, or Multiple Attack's −20), the declared-hits
/// penalty, one hit per DoS up to the declaration, and the jam on 94+ for ranged bursts.
pub(crate) fn multi_hit_test(weapon: &Weapon, declared_hits: u32, base: Modifier) -> TestSpec {
    let penalty = declared_hits_penalty(declared_hits, base.value);
    let modifiers = vec![base, penalty];
    let hits = HitRule::PerDegree { max: declared_hits };
    let mut test = TestSpec::attack(attack_label(weapon), weapon.characteristic(), modifiers, hits);
    if weapon.class == WeaponClass::Ranged {
        test.jams_on = Some(JAM_ROLL);
    }
    test
}

/// Burst: a half action with a ranged weapon of Hit rating 2+, BS +10 and −5 per declared hit
/// (summed penalty at most −30); one hit per DoS up to the declaration (adeva-d100.txt, "Burst").
pub fn burst(input: &MultiHitAttack) -> Result<ActionSpec, RuleError> {
    input.weapon.validate("weapon")?;
    input.weapon.require_ranged("weapon", "a Burst")?;
    check_declared_hits("weapon", "declared_hits", &input.weapon, input.declared_hits, "a Burst")?;
    let test = multi_hit_test(&input.weapon, input.declared_hits, Modifier::coded(ModifierCode::AttackAction, "burst", STANDARD_BONUS));
    Ok(ActionSpec::new(ActionKind::Burst, ActionType::Half, vec![ActionSubtype::Attack, ActionSubtype::Ranged])
        .with_test(test)
        .with_note(format!("hits beyond the first may go to targets within {BURST_SPREAD_SQUARES} squares of the target that are no harder to hit")))
}

/// Flurry: as Burst, with a melee weapon and WS (adeva-d100.txt, "Flurry").
pub fn flurry(input: &MultiHitAttack) -> Result<ActionSpec, RuleError> {
    input.weapon.validate("weapon")?;
    input.weapon.require_melee("weapon", "a Flurry")?;
    check_declared_hits("weapon", "declared_hits", &input.weapon, input.declared_hits, "a Flurry")?;
    let test = multi_hit_test(&input.weapon, input.declared_hits, Modifier::coded(ModifierCode::AttackAction, "flurry", STANDARD_BONUS));
    Ok(ActionSpec::new(
        ActionKind::Flurry,
        ActionType::Half,
        vec![ActionSubtype::Attack, ActionSubtype::Melee],
    )
    .with_test(test)
    .with_note("hits beyond the first may go to other targets within reach that are no harder to hit"))
}

/// Called Shot: a Standard Attack (+10) against one location, at −20 (adeva-d100.txt, "Called
/// Shot").
pub fn called_shot(input: &CalledShot) -> Result<ActionSpec, RuleError> {
    input.weapon.validate("weapon")?;
    if input.location.trim().is_empty() {
        return Err(RuleError::invalid("location", "a Called Shot names the location it aims at"));
    }
    let mut test = standard_test(&input.weapon, "standard attack");
    test.modifiers.push(Modifier::coded(ModifierCode::CalledShot, format!("called shot at the {}", input.location.trim()), -20));
    Ok(ActionSpec::new(
        ActionKind::CalledShot,
        ActionType::Half,
        vec![ActionSubtype::Attack, input.weapon.subtype()],
    )
    .with_test(test))
}

/// take −30 until the start of its next turn (adeva-d100.txt, "Heavy Attack").
pub fn heavy_attack(input: &SingleAttack) -> Result<ActionSpec, RuleError> {
    input.weapon.validate("weapon")?;
    input.weapon.require_melee("weapon", "a Heavy Attack")?;
    let weapon = &input.weapon;
    let test = TestSpec::attack(
        attack_label(weapon),
        weapon.characteristic(),
        vec![Modifier::coded(ModifierCode::HeavyAttack, "heavy attack", 30)],
        HitRule::Single,
    );
    Ok(ActionSpec::new(
        ActionKind::HeavyAttack,
        ActionType::Full,
        vec![ActionSubtype::Attack, ActionSubtype::Melee],
    )
    .with_test(test)
    .with_effect(LingeringEffect::OwnEvasion {
        modifier: Modifier::coded(ModifierCode::HeavyAttackEvasion, "made a heavy attack", -30),
        until: Until::StartOfOwnNextTurn,
    }))
}

/// Multiple Attack: a full action with two or more equipped weapons; one test per weapon at −20
/// in place of the usual +10, a weapon on Burst or Flurry adding its declared-hits penalty
/// (adeva-d100.txt, "Multiple Attack").
pub fn multiple_attack(input: &MultipleAttack) -> Result<ActionSpec, RuleError> {
    if input.equipped_weapons < 2 {
        return Err(RuleError::invalid(
            "equipped_weapons",
            "a Multiple Attack needs more than one weapon equipped",
        ));
    }
    let used = input.attacks.len();
    if used < 2 || used > input.equipped_weapons as usize {
        return Err(RuleError::invalid(
            "attacks",
            format!("a Multiple Attack uses between 2 and the {} equipped weapons", input.equipped_weapons),
        ));
    }
    let mut subtypes = vec![ActionSubtype::Attack];
    let mut tests = Vec::new();
    for (index, entry) in input.attacks.iter().enumerate() {
        let field = format!("attacks[{index}]");
        let weapon = &entry.weapon;
        weapon.validate(&format!("{field}.weapon"))?;
        let base = Modifier::coded(ModifierCode::MultipleAttack, "multiple attack", -20);
        let test = match entry.declared_hits {
            None => {
                TestSpec::attack(attack_label(weapon), weapon.characteristic(), vec![base], HitRule::Single)
            }
            Some(declared) => {
                if weapon.class == WeaponClass::Thrown {
                    return Err(RuleError::invalid(
                        format!("{field}.declared_hits"),
                        "a thrown weapon can fire neither a Burst nor a Flurry",
                    ));
                }
                let mode = if weapon.class == WeaponClass::Ranged { "a Burst" } else { "a Flurry" };
                check_declared_hits(
                    &format!("{field}.weapon"),
                    &format!("{field}.declared_hits"),
                    weapon,
                    declared,
                    mode,
                )?;
                multi_hit_test(weapon, declared, base)
            }
        };
        if !subtypes.contains(&weapon.subtype()) {
            subtypes.push(weapon.subtype());
        }
        tests.push(test);
    }
    let mut spec = ActionSpec::new(ActionKind::MultipleAttack, ActionType::Full, subtypes);
    spec.tests = tests;
    Ok(spec)
}

/// Attack of Opportunity: a free action, a Standard Attack against an enemy engaged in melee that
/// takes a Movement action, other than Disengage, to leave (adeva-d100.txt, "Attack of
/// Opportunity").
pub fn attack_of_opportunity(input: &AttackOfOpportunity) -> Result<ActionSpec, RuleError> {
    input.weapon.validate("weapon")?;
    input.weapon.require_melee("weapon", "an Attack of Opportunity")?;
    if !input.enemy_engaged {
        return Err(RuleError::invalid(
            "enemy_engaged",
            "the enemy must be engaged in melee with the attacker",
        ));
    }
    if !input.enemy_moves_away {
        return Err(RuleError::invalid(
            "enemy_moves_away",
            "only a Movement action that leaves the melee allows it",
        ));
    }
    if input.enemy_disengages {
        return Err(RuleError::invalid(
            "enemy_disengages",
            "the Disengage action allows no Attack of Opportunity",
        ));
    }
    Ok(ActionSpec::new(
        ActionKind::AttackOfOpportunity,
        ActionType::Free,
        vec![ActionSubtype::Attack, ActionSubtype::Concentration, ActionSubtype::Melee],
    )
    .with_test(standard_test(&input.weapon, "standard attack (attack of opportunity)")))
}

/// Counter-Attack: with the talent, right after a successful parry of a melee attack, a free melee
/// attack on the attacker at −20; then none until the start of the next turn (adeva-d100.txt,
/// "Counter-Attack").
pub fn counter_attack(input: &CounterAttack) -> Result<ActionSpec, RuleError> {
    input.weapon.validate("weapon")?;
    input.weapon.require_melee("weapon", "a Counter-Attack")?;
    if !input.has_talent {
        return Err(RuleError::invalid("has_talent", "a Counter-Attack needs the Counter-Attack talent"));
    }
    if !input.parried_melee_attack {
        return Err(RuleError::invalid(
            "parried_melee_attack",
            "a Counter-Attack follows a successful parry of a melee attack",
        ));
    }
    let weapon = &input.weapon;
    let test = TestSpec::attack(
        attack_label(weapon),
        weapon.characteristic(),
        vec![Modifier::coded(ModifierCode::CounterAttack, "counter-attack", -20)],
        HitRule::Single,
    );
    Ok(ActionSpec::new(
        ActionKind::CounterAttack,
        ActionType::Free,
        vec![ActionSubtype::Attack, ActionSubtype::Melee],
    )
    .with_test(test)
    .with_effect(LingeringEffect::NoCounterAttack { until: Until::StartOfOwnNextTurn }))
}

/// Whether a roll jams a burst (adeva-d100.txt, "Suppressive Fire": 94 or higher).
pub fn jams(roll: u32) -> bool {
    roll >= JAM_ROLL
}

/// The evasions a Grapple, Ram or Feint leaves open, as a list without `removed`.
pub(crate) fn evasions_without(removed: &[Evasion]) -> Vec<Evasion> {
    super::USUAL_EVASIONS.iter().copied().filter(|evasion| !removed.contains(evasion)).collect()
}

#[cfg(test)]
#[path = "attack_actions_tests.rs"]
mod tests;
