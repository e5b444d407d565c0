//! The attack actions (adeva-d100.txt, "Action List", "Attack Actions": Standard Attack, Burst,
//! Flurry, Called Shot, Charge, Heavy Attack, Multiple Attack, Attack of Opportunity and
//! Counter-Attack), and how a Burst's or Flurry's hits may be spread over several targets.
//!
//! Decisions:
//! - Burst and Flurry: the −5 is charged for every declared hit, the first included, as the rows
//!   say ("for every hit you intend to make"). Declaring 3 hits is therefore +10 − 15.
//! - "To a net max of −30" is read as a cap on the summed −5s: from six declared hits on, the
//!   penalty stays −30, and the action's +10 (or Multiple Attack's −20) is listed beside it.
//! - A Burst or Flurry scores one hit per Degree of Success, at most the number of hits declared
//!   (which is itself at most the weapon's Hit rating): the declaration is what the penalty paid
//!   for.
//! - Spreading hits: the first hit always lands on the declared target; the others may go to
//!   other targets. "Not harder to hit" compares the attack test's total modifier against each
//!   target (the caller sends it): another target's must be at least the declared target's.
//!   Burst: within 10 squares of the declared target. Flurry: within the attacker's reach.
//! - "Burst attacks jam on a 94 or higher" (written under Suppressive Fire) is read as a rule for
//!   all ranged burst fire: the Burst action, bursts in a Multiple Attack or an Overwatch, and
//!   Suppressive Fire. A melee Flurry never jams.
//! - Called Shot counts as a Standard Attack, so it lists the Standard +10 and then its −20
//!   (net −10). It needs a named location.
//! - Charge: the target must be within the Charge Move (Half Move × 3, "Movement"), and the last
//!   stretch must be a straight line of at least 4 squares, no longer than the whole charge. A
//!   Grapple made in place of the attack is a WS test and keeps the +20; a Knock Down in its place
//!   is an opposed Strength test, not an attack test, and gets neither the +20 nor Knock Down's
//!   +10 (a Charge is not a Half Move).
//! - Multiple Attack needs at least two equipped weapons and attacks with two or more of them, no
//!   more than are equipped. Its subtypes are Attack plus Melee and/or Ranged by the weapons used.
//! - Attack of Opportunity is a Standard Attack (+10) and so a single hit. Counter-Attack is not a
//!   Standard Attack: it lists only its −20.

use super::{
    ActionKind, ActionSpec, ActionSubtype, ActionType, Evasion, HitRule, LingeringEffect, TestSpec, Until,
    Weapon, WeaponClass,
};
use crate::rulesets::RuleError;
use crate::rulesets::adeva_d100::movement::MoveKind;
use crate::rulesets::adeva_d100::test_modifiers::Modifier;
use serde::{Deserialize, Serialize};

/// The bonus of a Standard Attack, Burst and Flurry (adeva-d100.txt, "Standard Attack").
pub const STANDARD_BONUS: i32 = 10;
/// The penalty per declared hit of a Burst or Flurry, and its cap.
pub const PER_HIT_PENALTY: i32 = -5;
pub const MAX_HIT_PENALTY: i32 = -30;
/// Rolls of this or more jam a burst (adeva-d100.txt, "Suppressive Fire").
pub const JAM_ROLL: u32 = 94;
/// How far from the declared target a Burst's other hits may land (adeva-d100.txt, "Burst").
pub const BURST_SPREAD_SQUARES: u32 = 10;
/// Least straight run at the end of a Charge (adeva-d100.txt, "Charge").
pub const CHARGE_STRAIGHT_SQUARES: u32 = 4;

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

/// What a Charge ends with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ChargeStrike))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ChargeStrike {
    /// The usual single melee attack.
    Attack { weapon: Weapon },
    /// A Grapple in place of the attack.
    Grapple { hand_free: bool },
    /// A Knock Down in place of the attack.
    KnockDown {},
}

/// A Charge: how far, the charger's Half Move, the straight run at the end, and the strike.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Charge))]
#[serde(deny_unknown_fields)]
pub struct Charge {
    pub distance_squares: u32,
    pub half_move_squares: u32,
    pub straight_line_squares: u32,
    pub strike: ChargeStrike,
}

/// One weapon's part in a Multiple Attack; `declared_hits` fires it on Burst (ranged) or Flurry
/// (melee).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100MultipleAttackWeapon))]
#[serde(deny_unknown_fields)]
pub struct MultipleAttackWeapon {
    pub weapon: Weapon,
    #[serde(default)]
    pub declared_hits: Option<u32>,
}

/// A Multiple Attack: how many weapons are equipped and the ones attacking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100MultipleAttack))]
#[serde(deny_unknown_fields)]
pub struct MultipleAttack {
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
    let modifiers = vec![Modifier::new(reason, STANDARD_BONUS)];
    TestSpec::attack(attack_label(weapon), weapon.characteristic(), modifiers, HitRule::Single)
}

fn attack_label(weapon: &Weapon) -> String {
    format!("attack with {}", weapon.name)
}

/// The summed −5 per declared hit of a Burst or Flurry, held to −30 (adeva-d100.txt, "Burst",
/// "Flurry"; see the decisions).
pub fn declared_hits_penalty(declared_hits: u32) -> Modifier {
    let raw = PER_HIT_PENALTY.saturating_mul(declared_hits.min(1000) as i32);
    let value = raw.max(MAX_HIT_PENALTY);
    let held = if value != raw { format!(", held to {MAX_HIT_PENALTY}") } else { String::new() };
    Modifier::new(format!("{declared_hits} hits declared ({PER_HIT_PENALTY} each{held})"), value)
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
    let modifiers = vec![base, declared_hits_penalty(declared_hits)];
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
    let test = multi_hit_test(&input.weapon, input.declared_hits, Modifier::new("burst", STANDARD_BONUS));
    Ok(ActionSpec::new(ActionKind::Burst, ActionType::Half, vec![ActionSubtype::Attack, ActionSubtype::Ranged])
        .with_test(test)
        .with_note(format!("hits beyond the first may go to targets within {BURST_SPREAD_SQUARES} squares of the target that are no harder to hit")))
}

/// Flurry: as Burst, with a melee weapon and WS (adeva-d100.txt, "Flurry").
pub fn flurry(input: &MultiHitAttack) -> Result<ActionSpec, RuleError> {
    input.weapon.validate("weapon")?;
    input.weapon.require_melee("weapon", "a Flurry")?;
    check_declared_hits("weapon", "declared_hits", &input.weapon, input.declared_hits, "a Flurry")?;
    let test = multi_hit_test(&input.weapon, input.declared_hits, Modifier::new("flurry", STANDARD_BONUS));
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
    test.modifiers.push(Modifier::new(format!("called shot at the {}", input.location.trim()), -20));
    Ok(ActionSpec::new(
        ActionKind::CalledShot,
        ActionType::Half,
        vec![ActionSubtype::Attack, input.weapon.subtype()],
    )
    .with_test(test))
}

/// Charge: a full action; the target within the Charge Move, a straight run of 4 squares at the
/// end, then one melee attack at WS +20 for one hit, or a Grapple or Knock Down in its place
/// (adeva-d100.txt, "Charge"; "Movement" for the Charge Move).
pub fn charge(input: &Charge) -> Result<ActionSpec, RuleError> {
    let reach = input.half_move_squares.saturating_mul(MoveKind::Charge.multiple());
    if input.distance_squares > reach {
        return Err(RuleError::invalid(
            "distance_squares",
            format!(
                "the target is beyond the Charge Move ({} × 3 = {reach} squares)",
                input.half_move_squares
            ),
        ));
    }
    if input.straight_line_squares < CHARGE_STRAIGHT_SQUARES {
        return Err(RuleError::invalid(
            "straight_line_squares",
            format!("a charge ends with a straight run of at least {CHARGE_STRAIGHT_SQUARES} squares"),
        ));
    }
    if input.straight_line_squares > input.distance_squares {
        return Err(RuleError::invalid(
            "straight_line_squares",
            "the straight run cannot be longer than the charge",
        ));
    }
    let charge_bonus = || Modifier::new("charge", 20);
    let spec = ActionSpec::new(
        ActionKind::Charge,
        ActionType::Full,
        vec![ActionSubtype::Attack, ActionSubtype::Melee, ActionSubtype::Movement],
    );
    let spec = match &input.strike {
        ChargeStrike::Attack { weapon } => {
            weapon.validate("strike.weapon")?;
            weapon.require_melee("strike.weapon", "a Charge")?;
            let test = TestSpec::attack(
                attack_label(weapon),
                weapon.characteristic(),
                vec![charge_bonus()],
                HitRule::Single,
            );
            spec.with_test(test)
        }
        ChargeStrike::Grapple { hand_free } => {
            let mut test = super::grapple::initiate_test(*hand_free, "strike.hand_free")?;
            test.modifiers.insert(0, charge_bonus());
            spec.with_test(test).with_effect(LingeringEffect::ControlsGrapple)
        }
        ChargeStrike::KnockDown {} => spec.with_test(super::manoeuvres::knock_down_test(false)),
    };
    Ok(spec)
}

/// Heavy Attack: a full action, one melee attack at +30; hit or miss, the attacker's Evasion tests
/// take −30 until the start of its next turn (adeva-d100.txt, "Heavy Attack").
pub fn heavy_attack(input: &SingleAttack) -> Result<ActionSpec, RuleError> {
    input.weapon.validate("weapon")?;
    input.weapon.require_melee("weapon", "a Heavy Attack")?;
    let weapon = &input.weapon;
    let test = TestSpec::attack(
        attack_label(weapon),
        weapon.characteristic(),
        vec![Modifier::new("heavy attack", 30)],
        HitRule::Single,
    );
    Ok(ActionSpec::new(
        ActionKind::HeavyAttack,
        ActionType::Full,
        vec![ActionSubtype::Attack, ActionSubtype::Melee],
    )
    .with_test(test)
    .with_effect(LingeringEffect::OwnEvasion {
        modifier: Modifier::new("made a heavy attack", -30),
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
        let base = Modifier::new("multiple attack", -20);
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
        vec![Modifier::new("counter-attack", -20)],
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

/// Whether a Burst or a Flurry is being spread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Spread))]
#[serde(rename_all = "snake_case")]
pub enum Spread {
    Burst,
    Flurry,
}

/// Another target that should take some of the hits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100OtherTarget))]
#[serde(deny_unknown_fields)]
pub struct OtherTarget {
    pub name: String,
    pub hits: u32,
    /// The attack test's total modifier were this the target.
    pub attack_modifier: i32,
    /// Burst: squares between this target and the declared one.
    #[serde(default)]
    pub squares_from_target: Option<u32>,
    /// Flurry: this target is within the attacker's reach.
    #[serde(default)]
    pub within_reach: Option<bool>,
}

/// How the caller wants to spread the hits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100HitSpread))]
#[serde(deny_unknown_fields)]
pub struct HitSpread {
    pub target: String,
    /// The attack test's total modifier against the declared target.
    pub target_attack_modifier: i32,
    #[serde(default)]
    pub others: Vec<OtherTarget>,
}

/// Hits landing on one target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100TargetHits))]
pub struct TargetHits {
    pub target: String,
    pub hits: u32,
}

/// Spreads a Burst's or Flurry's hits: the declared target keeps the first and whatever is not
/// sent elsewhere; others must be near enough and no harder to hit (adeva-d100.txt, "Burst",
/// "Flurry"; see the decisions).
pub fn spread_hits(
    spread: Spread,
    hits_scored: u32,
    request: &HitSpread,
) -> Result<Vec<TargetHits>, RuleError> {
    let mut sent: u32 = 0;
    let mut others = Vec::new();
    for (index, other) in request.others.iter().enumerate() {
        let field = format!("others[{index}]");
        if other.name.trim().is_empty() {
            return Err(RuleError::invalid(format!("{field}.name"), "each other target needs a name"));
        }
        if other.hits == 0 {
            return Err(RuleError::invalid(
                format!("{field}.hits"),
                "send at least one hit or leave the target out",
            ));
        }
        if other.attack_modifier < request.target_attack_modifier {
            return Err(RuleError::invalid(
                format!("{field}.attack_modifier"),
                format!(
                    "{} is harder to hit ({:+}) than the declared target ({:+})",
                    other.name, other.attack_modifier, request.target_attack_modifier
                ),
            ));
        }
        match spread {
            Spread::Burst => match other.squares_from_target {
                None => {
                    return Err(RuleError::invalid(
                        format!("{field}.squares_from_target"),
                        "a Burst needs the distance",
                    ));
                }
                Some(squares) if squares > BURST_SPREAD_SQUARES => {
                    return Err(RuleError::invalid(
                        format!("{field}.squares_from_target"),
                        format!(
                            "a Burst's hits land within {BURST_SPREAD_SQUARES} squares of the declared target"
                        ),
                    ));
                }
                Some(_) => {}
            },
            Spread::Flurry => {
                if other.within_reach != Some(true) {
                    return Err(RuleError::invalid(
                        format!("{field}.within_reach"),
                        "a Flurry's hits land only within reach",
                    ));
                }
            }
        }
        sent = sent.saturating_add(other.hits);
        others.push(TargetHits { target: other.name.clone(), hits: other.hits });
    }
    if hits_scored == 0 {
        if request.others.is_empty() {
            return Ok(Vec::new());
        }
        return Err(RuleError::invalid("others", "no hits were scored"));
    }
    if sent > hits_scored - 1 {
        return Err(RuleError::invalid(
            "others",
            format!(
                "{sent} hits sent elsewhere, but only {} of {hits_scored} may leave the declared target",
                hits_scored - 1
            ),
        ));
    }
    let mut allocation = vec![TargetHits { target: request.target.clone(), hits: hits_scored - sent }];
    allocation.extend(others);
    Ok(allocation)
}

/// The evasions a Grapple, Ram or Feint leaves open, as a list without `removed`.
pub(crate) fn evasions_without(removed: &[Evasion]) -> Vec<Evasion> {
    super::USUAL_EVASIONS.iter().copied().filter(|evasion| !removed.contains(evasion)).collect()
}

#[cfg(test)]
#[path = "attack_actions_tests.rs"]
mod tests;
