//! One attack against one target, from the attack test to the wounds it costs (adeva-d100.txt,
//! "Attacking", Steps Two to Seven; "Combat Structure", Step Two for surprise; "Altitude";
//! "Deflectors"; "Unarmed Attacks").
//!
//! Decisions:
//! - Everything is checked before the first die is rolled; a refused attack rolls nothing.
//!   Fields are named by their JSON path (`target.evasion.characteristic`, `weapon.damage.sides`).
//! - The attack's modifiers come from the caller (the Action List helper works them out, each with
//!   its reason). Two are added here: +30 against a surprised target, and the altitude −20 from the
//!   Ground at a flier. All of them share the ±60 cap of `test_modifiers.rs`; at most 28 may be
//!   sent, leaving room for those two.
//! - `characteristic` is the value tested: WS for melee and unarmed, BS for ranged, or whatever
//!   characteristic replaces them for a special attack. The kind only labels the die.
//! - An attack the altitude bands forbid is refused (field `target.altitude`), as in `altitude.rs`;
//!   melee and unarmed attacks reach as melee.
//! - Dice are rolled in this order: the attack test; the evasion test (only when there are hits
//!   to evade); then, hit by hit, its damage dice, its critical confirmation (on a natural
//!   maximum) and its Lethal Damage chart roll (when confirmed with damage past soak).
//! - The attack's Degrees of Success may replace the lowest die of the first hit that gets past
//!   evasion (see `damage.rs`).
//! - Hits are applied in order. Every landed hit is resolved and reported even after the target
//!   has reached 0 wounds, so the record of dice does not depend on when death came.
//! - Unarmed attacks use the 1d5 − 3 profile with Penetration 0 unless the caller sends a weapon
//!   (the Unarmed Warrior and Master traits change it), always add the Strength Bonus (required),
//!   and report a level of fatigue per hit as `unarmed.rs` decides.
//! - Bounds: TB and SB 0..=30, AP and Penetration 0..=100, wounds 0..=10,000, Fate Points
//!   0..=100. A target with 0 wounds and no Fate Points is already dead and is refused.

use super::Characteristic;
use super::altitude::{AltitudeAccess, AltitudeBand, Reach, altitude_access};
use super::critical::{Critical, CriticalInput, check_lethal_table, confirm_critical, wounds_dealt};
use super::damage::{DamageDice, HitDamage, check_damage_dice, roll_hit_damage};
use super::evasion::{EvasionResult, EvasionSpec, check_evasion, roll_evasion};
use super::hits::{check_max_hits, hits_scored};
use super::test_modifiers::{MAX_MODIFIERS, Modifier, check_modifiers, within};
use super::test_roll::{ModifiedTest, modified_test};
use super::unarmed::{UNARMED_DAMAGE, UNARMED_PENETRATION, UNARMED_QUALITIES, unarmed_fatigue};
use super::wounds::{Soak, WoundsLoss, lose_wounds, negated, past_soak, soak};
use crate::dice::{Dice, DieRoll};
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// The bonus to attacks against a surprised target (adeva-d100.txt, "Combat Structure", Step Two).
pub const SURPRISE_BONUS: i32 = 30;
/// Most modifiers the caller may send (two places are kept for surprise and altitude).
pub const MAX_ATTACK_MODIFIERS: usize = MAX_MODIFIERS - 2;
/// Largest Toughness or Strength Bonus accepted.
pub const MAX_BONUS: u32 = 30;
/// Largest Armour Points or Penetration accepted.
pub const MAX_ARMOUR: u32 = 100;
/// Most wounds a target may have.
pub const MAX_WOUNDS: u32 = 10_000;
/// Most Fate Points a target may have.
pub const MAX_FATE_POINTS: u32 = 100;

/// Melee (WS, adds SB), ranged (BS) or unarmed (WS, 1d5 − 3 + SB).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100AttackKind))]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    Melee,
    Ranged,
    Unarmed,
}

impl AttackKind {
    /// How the attack reaches its target across altitude bands: melee and unarmed by hand
    /// (adeva-d100.txt, "Altitude"; "Unarmed Attacks").
    pub fn reach(self) -> Reach {
        match self {
            AttackKind::Ranged => Reach::Ranged,
            AttackKind::Melee | AttackKind::Unarmed => Reach::Melee,
        }
    }

    fn tested(self) -> &'static str {
        match self {
            AttackKind::Ranged => "BS",
            AttackKind::Melee | AttackKind::Unarmed => "WS",
        }
    }
}

/// A weapon's damage and penetration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100WeaponSpec))]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    pub damage: DamageDice,
    #[serde(default)]
    pub penetration: u32,
}

/// The target of the attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100TargetSpec))]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    pub toughness_bonus: u32,
    #[serde(default)]
    pub armour: u32,
    /// Wounds left now.
    pub wounds: u32,
    #[serde(default)]
    pub fate_points: u32,
    #[serde(default)]
    pub surprised: bool,
    #[serde(default)]
    pub altitude: AltitudeBand,
    /// The target's one evasion, if it tries one.
    #[serde(default)]
    pub evasion: Option<EvasionSpec>,
}

/// Everything one attack against one target needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100AttackSpec))]
#[serde(deny_unknown_fields)]
pub struct AttackSpec {
    pub kind: AttackKind,
    /// The value tested (WS, BS or its replacement), before modifiers.
    pub characteristic: Characteristic,
    /// Every modifier on the attack test, each with its reason.
    #[serde(default)]
    pub modifiers: Vec<Modifier>,
    /// A multi-hit action's declared hits (up to the weapon's Hit rating); absent for one hit.
    #[serde(default)]
    pub max_hits: Option<u32>,
    /// Required for melee and ranged attacks; an unarmed attack defaults to 1d5 − 3, Pen 0.
    #[serde(default)]
    pub weapon: Option<WeaponSpec>,
    /// Added to each hit's damage when sent; required for unarmed attacks.
    #[serde(default)]
    pub strength_bonus: Option<u32>,
    /// Modifiers aimed at critical confirmation tests (e.g. the target's Guard Mode).
    #[serde(default)]
    pub critical_confirm_modifiers: Vec<Modifier>,
    /// Five effect names for the Lethal Damage chart's 1d5.
    #[serde(default)]
    pub lethal_damage_table: Option<Vec<String>>,
    /// The attacker's altitude band.
    #[serde(default)]
    pub altitude: AltitudeBand,
    /// A specially long-ranged weapon the GM allows to reach across the High band.
    #[serde(default)]
    pub long_range_weapon: bool,
    pub target: TargetSpec,
}

/// One landed hit, worked through damage, critical, soak and wounds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100HitResult))]
pub struct HitResult {
    /// 1-based among the hits that got past evasion.
    pub hit: u32,
    pub damage: HitDamage,
    /// Soak above the damage.
    pub negated: bool,
    pub past_soak: u32,
    pub critical: Option<Critical>,
    /// Wounds this hit takes away.
    pub wounds_lost: u32,
    pub wounds: WoundsLoss,
    /// Unarmed: this hit costs the target a level of fatigue.
    pub fatigue: bool,
}

/// The full, self-explaining result of one attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100AttackResult))]
pub struct AttackResult {
    pub kind: AttackKind,
    pub altitude: AltitudeAccess,
    /// The attack test with every modifier and its reason.
    pub attack_test: ModifiedTest,
    pub hits_scored: u32,
    pub evasion: Option<EvasionResult>,
    pub hits_evaded: u32,
    pub hits_landed: u32,
    pub soak: Soak,
    pub hits: Vec<HitResult>,
    pub wounds_before: u32,
    /// Sum over the hits.
    pub wounds_lost: u32,
    pub wounds_after: u32,
    pub dead: bool,
    /// A character with Fate Points took damage past 0 wounds.
    pub lethal_damage: bool,
    /// Damage beyond 0 wounds, over all hits.
    pub damage_past_zero: u32,
    /// Unarmed: levels of fatigue inflicted.
    pub fatigue_levels: u32,
    /// The qualities the attack counts as having (Unarmed, Primitive for unarmed attacks).
    pub qualities: Vec<String>,
    /// What the caller must still resolve.
    pub notes: Vec<String>,
    /// Every die rolled for this attack, with its purpose.
    pub dice: Vec<DieRoll>,
}

/// Resolves one attack: test, hits, evasion, then each hit's damage, critical, soak and wounds
/// (adeva-d100.txt, "Attacking", Steps Two to Seven; the decisions are in the module doc).
pub fn resolve_attack(spec: &AttackSpec, dice: &mut Dice) -> Result<AttackResult, RuleError> {
    let access = validate(spec)?;
    let start = dice.rolls().len();
    let modifiers = attack_modifiers(spec, &access);
    let purpose = format!("attack test ({})", spec.kind.tested());
    let attack_test = modified_test(spec.characteristic, &modifiers, dice, &purpose)?;
    let scored = hits_scored(&attack_test.test, spec.max_hits);
    let target = &spec.target;
    let evasion = match &target.evasion {
        Some(choice) if scored > 0 => Some(roll_evasion(choice, target.surprised, scored, dice)?),
        _ => None,
    };
    let landed = evasion.as_ref().map_or(scored, |evasion| evasion.outcome.hits_left);
    let weapon = weapon_of(spec);
    let soaked = soak(target.toughness_bonus, target.armour, weapon.penetration);
    let mut result = AttackResult {
        kind: spec.kind,
        altitude: access,
        hits_scored: scored,
        hits_evaded: scored - landed,
        hits_landed: landed,
        evasion,
        soak: soaked,
        hits: Vec::new(),
        wounds_before: target.wounds,
        wounds_lost: 0,
        wounds_after: target.wounds,
        dead: false,
        lethal_damage: false,
        damage_past_zero: 0,
        fatigue_levels: 0,
        qualities: Vec::new(),
        notes: Vec::new(),
        dice: Vec::new(),
        attack_test,
    };
    for number in 1..=landed {
        let hit = resolve_hit(spec, &weapon, &result, number, dice)?;
        apply_hit(&mut result, hit);
    }
    finish(spec, &mut result);
    result.dice = dice.rolls()[start..].to_vec();
    Ok(result)
}

/// The caller's modifiers, then surprise and the altitude penalty.
fn attack_modifiers(spec: &AttackSpec, access: &AltitudeAccess) -> Vec<Modifier> {
    let mut modifiers = spec.modifiers.clone();
    if spec.target.surprised {
        modifiers.push(Modifier::new("target is surprised", SURPRISE_BONUS));
    }
    modifiers.extend(access.modifier.clone());
    modifiers
}

/// The weapon profile in use: the one sent, or the unarmed default.
fn weapon_of(spec: &AttackSpec) -> WeaponSpec {
    spec.weapon.unwrap_or(WeaponSpec { damage: UNARMED_DAMAGE, penetration: UNARMED_PENETRATION })
}

/// Damage, critical and wounds of the `number`th landed hit (adeva-d100.txt, "Attacking", Steps
/// Five to Seven; "Unarmed Attacks").
fn resolve_hit(
    spec: &AttackSpec,
    weapon: &WeaponSpec,
    so_far: &AttackResult,
    number: u32,
    dice: &mut Dice,
) -> Result<HitResult, RuleError> {
    let label = format!("hit {number}");
    let dos = (number == 1).then(|| so_far.attack_test.test.degrees_of_success());
    let damage =
        roll_hit_damage(&weapon.damage, spec.strength_bonus, dos, dice, &format!("damage: {label}"))?;
    let past = past_soak(damage.damage, &so_far.soak);
    let critical = if damage.natural_maximum {
        let input = CriticalInput {
            characteristic: spec.characteristic,
            confirm_modifiers: &spec.critical_confirm_modifiers,
            damage_past_soak: past,
            lethal_damage_table: spec.lethal_damage_table.as_deref(),
            label: &label,
        };
        Some(confirm_critical(&input, dice)?)
    } else {
        None
    };
    let wounds_lost = wounds_dealt(past, critical.as_ref());
    let fatigue =
        spec.kind == AttackKind::Unarmed && unarmed_fatigue(damage.damage, spec.target.toughness_bonus);
    Ok(HitResult {
        hit: number,
        negated: negated(damage.damage, &so_far.soak),
        past_soak: past,
        critical,
        wounds_lost,
        wounds: lose_wounds(so_far.wounds_after, spec.target.fate_points, wounds_lost),
        fatigue,
        damage,
    })
}

fn apply_hit(result: &mut AttackResult, hit: HitResult) {
    result.wounds_lost += hit.wounds_lost;
    result.wounds_after = hit.wounds.after;
    result.dead |= hit.wounds.dead;
    result.lethal_damage |= hit.wounds.lethal_damage;
    result.damage_past_zero += hit.wounds.past_zero;
    result.fatigue_levels += u32::from(hit.fatigue);
    result.hits.push(hit);
}

/// Qualities and the notes a reader needs.
fn finish(spec: &AttackSpec, result: &mut AttackResult) {
    if spec.kind == AttackKind::Unarmed {
        result.qualities = UNARMED_QUALITIES.iter().map(|quality| quality.to_string()).collect();
    }
    if spec.target.evasion.is_some() && result.hits_scored == 0 {
        result.notes.push("no hits scored, so no evasion test was rolled".to_string());
    }
    if result.lethal_damage {
        result.notes.push(format!(
            "the target has Fate Points and took {} damage past 0 wounds: resolve it as Lethal Damage",
            result.damage_past_zero
        ));
    }
    let chart_rolls =
        result.hits.iter().filter_map(|hit| hit.critical.as_ref()?.lethal_damage.as_ref()).count();
    if chart_rolls > 0 {
        result.notes.push(
            "a Critical Hit's Lethal Damage chart effect applies, but does not count as taking Lethal Damage"
                .to_string(),
        );
    }
}

fn invalid<T>(field: &str, message: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::invalid(field, message))
}

fn at_most(field: &str, value: u32, max: u32, what: &str) -> Result<(), RuleError> {
    if value > max {
        return invalid(field, format!("{what} must lie between 0 and {max}"));
    }
    Ok(())
}

/// Refuses an attack the rules or the bounds do not allow, before any die is rolled, and returns
/// what the altitude bands say about it (adeva-d100.txt, the sections in the module doc).
pub fn validate(spec: &AttackSpec) -> Result<AltitudeAccess, RuleError> {
    check_modifiers("modifiers", &spec.modifiers)?;
    if spec.modifiers.len() > MAX_ATTACK_MODIFIERS {
        return invalid("modifiers", "at most 28 modifiers may be sent (surprise and altitude may add two)");
    }
    check_max_hits("max_hits", spec.max_hits)?;
    check_weapon(spec)?;
    check_modifiers("critical_confirm_modifiers", &spec.critical_confirm_modifiers)?;
    if let Some(table) = &spec.lethal_damage_table {
        check_lethal_table("lethal_damage_table", table)?;
    }
    check_target(&spec.target)?;
    let access =
        altitude_access(spec.altitude, spec.target.altitude, spec.kind.reach(), spec.long_range_weapon);
    if !access.allowed {
        return invalid("target.altitude", access.reason);
    }
    Ok(access)
}

/// A weapon for melee and ranged attacks, the Strength Bonus for unarmed ones, and bounds.
fn check_weapon(spec: &AttackSpec) -> Result<(), RuleError> {
    match (&spec.weapon, spec.kind) {
        (None, AttackKind::Melee | AttackKind::Ranged) => {
            return invalid("weapon", "a melee or ranged attack needs its weapon's damage and penetration");
        }
        (Some(weapon), _) => {
            check_damage_dice(&weapon.damage).map_err(|error| within("weapon.damage", error))?;
            at_most("weapon.penetration", weapon.penetration, MAX_ARMOUR, "penetration")?;
        }
        (None, AttackKind::Unarmed) => {}
    }
    if spec.kind == AttackKind::Unarmed && spec.strength_bonus.is_none() {
        return invalid("strength_bonus", "an unarmed attack deals 1d5 − 3 + SB: send the Strength Bonus");
    }
    at_most("strength_bonus", spec.strength_bonus.unwrap_or(0), MAX_BONUS, "a Strength Bonus")
}

fn check_target(target: &TargetSpec) -> Result<(), RuleError> {
    at_most("target.toughness_bonus", target.toughness_bonus, MAX_BONUS, "a Toughness Bonus")?;
    at_most("target.armour", target.armour, MAX_ARMOUR, "armour")?;
    at_most("target.wounds", target.wounds, MAX_WOUNDS, "wounds")?;
    at_most("target.fate_points", target.fate_points, MAX_FATE_POINTS, "Fate Points")?;
    if target.wounds == 0 && target.fate_points == 0 {
        return invalid("target.wounds", "a target at 0 wounds without Fate Points is already dead");
    }
    if let Some(evasion) = &target.evasion {
        check_evasion(evasion, target.surprised).map_err(|error| within("target.evasion", error))?;
    }
    Ok(())
}

#[cfg(test)]
#[path = "attack_sequence_tests.rs"]
mod tests;
