//! The damage of one hit, step by step (adeva-d100.txt, "Attacking", Step Five).
//!
//! Decisions:
//! - A weapon's damage is `count` dice of `sides` sides plus a flat `bonus` (0 to 20 dice of 2 to
//!   100 sides, bonus −100..=+100). A melee attack adds the Strength Bonus when the caller sends
//!   one ("usually", says the text, so the choice stays with the weapon's profile).
//! - The Degrees of Success may replace one die of one hit per attack. We replace the lowest die of
//!   the first hit that gets through evasion (the earliest of equal lowest dice), and only when the
//!   DoS is higher than that die, since the text makes the swap optional. The DoS is not limited to
//!   the die's sides: the text sets no such limit.
//! - A "natural maximum" is judged on the dice as rolled, before any replacement.
//! - The running total may dip below 0 (a negative bonus before the Strength Bonus); only the final
//!   damage is held at 0, so the order of flat additions never matters.

use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

pub const MAX_DAMAGE_DICE: u32 = 20;
pub const MAX_DAMAGE_SIDES: u32 = 100;
pub const MAX_DAMAGE_BONUS: i32 = 100;

/// A weapon's damage roll, e.g. 1d10+3: `"1d10+3"` or `{count: 1, sides: 10, bonus: 3}`
/// (`crate::dice_text`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DamageDice {
    pub count: u32,
    pub sides: u32,
    pub bonus: i32,
}

impl<'de> Deserialize<'de> for DamageDice {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let DamageDiceFields { count, sides, bonus } = crate::dice_text::object_or_text(deserializer)?;
        Ok(Self { count, sides, bonus })
    }
}

#[cfg(feature = "schema")]
impl utoipa::PartialSchema for DamageDice {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::dice_text::schema::<DamageDiceFields>()
    }
}

#[cfg(feature = "schema")]
impl utoipa::ToSchema for DamageDice {
    fn name() -> std::borrow::Cow<'static, str> {
        "AdevaD100DamageDice".into()
    }
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
        crate::dice_text::schemas::<DamageDiceFields>(schemas);
    }
}

/// The object form of [`DamageDice`], with its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100DamageDiceFields))]
#[serde(deny_unknown_fields)]
struct DamageDiceFields {
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::dice_count")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 20))]
    pub count: u32,
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::sides")]
    #[cfg_attr(feature = "schema", schema(minimum = 2, maximum = 100))]
    pub sides: u32,
    #[serde(default)]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::signed100")]
    #[cfg_attr(feature = "schema", schema(minimum = -100, maximum = 100))]
    pub bonus: i32,
}

/// Refuses dice outside the bounds in the module doc; fields are relative to the dice object.
pub fn check_damage_dice(damage: &DamageDice) -> Result<(), RuleError> {
    if damage.count > MAX_DAMAGE_DICE {
        return Err(RuleError::invalid("count", "a weapon rolls at most 20 damage dice"));
    }
    if !(2..=MAX_DAMAGE_SIDES).contains(&damage.sides) {
        return Err(RuleError::invalid("sides", "a damage die has 2 to 100 sides"));
    }
    if damage.bonus.abs() > MAX_DAMAGE_BONUS {
        return Err(RuleError::invalid("bonus", "a flat damage bonus must lie between −100 and +100"));
    }
    Ok(())
}

/// One step of the working.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100DamageStep))]
pub struct DamageStep {
    pub code: DamageStepCode,
    /// What the step changed the running total by (was `change`, still read).
    #[serde(alias = "change")]
    pub value: i32,
    pub reason: String,
    /// Dice rolled for this step, if any.
    pub dice: Vec<u32>,
    /// The running total after this step.
    pub total: i32,
}

/// What rule a damage step comes from (adeva-d100.txt, "Attacking", Step Five): a stable machine
/// name beside the free-text reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100DamageStepCode))]
#[serde(rename_all = "snake_case")]
pub enum DamageStepCode {
    /// The weapon's damage dice.
    WeaponDice,
    /// The Degrees of Success replacing the lowest die.
    DegreesOfSuccess,
    /// The weapon's flat bonus.
    WeaponBonus,
    /// The attacker's Strength Bonus.
    StrengthBonus,
    /// The total raised to 0: damage cannot be negative.
    NotNegative,
}

/// A die swapped for the attack's Degrees of Success.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100DosReplacement))]
pub struct DosReplacement {
    /// Position of the die among the hit's dice, from 0.
    pub die_index: usize,
    pub rolled: u32,
    pub replaced_by: u32,
}

/// The damage of one hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100HitDamage))]
pub struct HitDamage {
    /// The dice as rolled.
    pub dice: Vec<u32>,
    pub sides: u32,
    /// A die rolled its highest face: a chance of a Critical Hit.
    pub natural_maximum: bool,
    pub dos_replacement: Option<DosReplacement>,
    pub steps: Vec<DamageStep>,
    /// The damage before soak, never below 0.
    pub damage: u32,
}

/// The lowest die, if the DoS beats it (adeva-d100.txt, "Attacking", Step Five; the choice of die
/// is a decision).
pub fn dos_replacement(rolled: &[u32], dos: u32) -> Option<DosReplacement> {
    let (die_index, lowest) =
        rolled.iter().copied().enumerate().min_by_key(|(index, value)| (*value, *index))?;
    (dos > lowest).then_some(DosReplacement { die_index, rolled: lowest, replaced_by: dos })
}

struct Running {
    steps: Vec<DamageStep>,
    total: i32,
}

impl Running {
    fn step(&mut self, code: DamageStepCode, reason: String, dice: Vec<u32>, change: i32) {
        self.total += change;
        self.steps.push(DamageStep { code, value: change, reason, dice, total: self.total });
    }
}

/// Rolls a hit's damage: the weapon's dice, the DoS swap when offered (`dos` is `Some` for the one
/// hit that may use it), the weapon's bonus, then the Strength Bonus (adeva-d100.txt,
/// "Attacking", Step Five).
pub fn roll_hit_damage(
    weapon: &DamageDice,
    strength_bonus: Option<u32>,
    dos: Option<u32>,
    dice: &mut Dice,
    purpose: &str,
) -> Result<HitDamage, RuleError> {
    check_damage_dice(weapon)?;
    let rolled =
        (0..weapon.count).map(|_| dice.roll(weapon.sides, purpose)).collect::<Result<Vec<_>, _>>()?;
    let mut running = Running { steps: Vec::new(), total: 0 };
    let sum = rolled.iter().sum::<u32>() as i32;
    running.step(DamageStepCode::WeaponDice, format!("weapon {}d{}", weapon.count, weapon.sides), rolled.clone(), sum);
    let replacement = dos.and_then(|dos| dos_replacement(&rolled, dos));
    if let Some(swap) = replacement {
        let reason =
            format!("Degrees of Success {} replace the lowest die ({})", swap.replaced_by, swap.rolled);
        running.step(DamageStepCode::DegreesOfSuccess, reason, Vec::new(), swap.replaced_by as i32 - swap.rolled as i32);
    }
    if weapon.bonus != 0 {
        running.step(DamageStepCode::WeaponBonus, format!("weapon bonus {:+}", weapon.bonus), Vec::new(), weapon.bonus);
    }
    if let Some(sb) = strength_bonus {
        running.step(DamageStepCode::StrengthBonus, format!("Strength Bonus +{sb}"), Vec::new(), sb as i32);
    }
    if running.total < 0 {
        let change = -running.total;
        running.step(DamageStepCode::NotNegative, "damage cannot be negative".to_string(), Vec::new(), change);
    }
    Ok(HitDamage {
        natural_maximum: rolled.contains(&weapon.sides),
        dice: rolled,
        sides: weapon.sides,
        dos_replacement: replacement,
        damage: running.total as u32,
        steps: running.steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(count: u32, sides: u32, bonus: i32) -> DamageDice {
        DamageDice { count, sides, bonus }
    }

    fn totals(hit: &HitDamage) -> Vec<i32> {
        hit.steps.iter().map(|step| step.total).collect()
    }

    #[test]
    fn weapon_dice_bonus_and_strength_bonus_add_up() {
        // 1d10+2 rolls 6; + 2 = 8; SB 4 → 12.
        let mut dice = Dice::scripted(vec![6], 0).unwrap();
        let hit = roll_hit_damage(&d(1, 10, 2), Some(4), None, &mut dice, "damage: hit 1").unwrap();
        assert_eq!((hit.damage, hit.natural_maximum, hit.dos_replacement), (12, false, None));
        assert_eq!(totals(&hit), vec![6, 8, 12]);
        let reasons: Vec<_> = hit.steps.iter().map(|step| step.reason.as_str()).collect();
        assert_eq!(reasons, ["weapon 1d10", "weapon bonus +2", "Strength Bonus +4"]);
        let coded: Vec<_> = hit.steps.iter().map(|step| (step.code, step.value)).collect();
        let codes = [DamageStepCode::WeaponDice, DamageStepCode::WeaponBonus, DamageStepCode::StrengthBonus];
        assert_eq!(coded, [(codes[0], 6), (codes[1], 2), (codes[2], 4)]);
        assert_eq!(dice.rolls()[0].purpose, "damage: hit 1");
    }

    #[test]
    fn the_degrees_of_success_replace_the_lowest_die_when_higher() {
        // 2d10 rolls 3 and 7 = 10; DoS 5 replaces the 3 (+2) → 12.
        let mut dice = Dice::scripted(vec![3, 7], 0).unwrap();
        let hit = roll_hit_damage(&d(2, 10, 0), None, Some(5), &mut dice, "d").unwrap();
        assert_eq!(hit.dos_replacement, Some(DosReplacement { die_index: 0, rolled: 3, replaced_by: 5 }));
        assert_eq!(hit.steps[1].reason, "Degrees of Success 5 replace the lowest die (3)");
        assert_eq!((hit.steps[1].code, hit.steps[1].value), (DamageStepCode::DegreesOfSuccess, 2));
        assert_eq!((totals(&hit), hit.damage), (vec![10, 12], 12));
    }

    #[test]
    fn the_degrees_of_success_are_kept_out_when_not_higher() {
        // Lowest die 4, DoS 4: no swap; 4 + 9 = 13.
        assert_eq!(dos_replacement(&[9, 4], 4), None);
        // Equal lowest dice: the earlier one is swapped.
        assert_eq!(dos_replacement(&[2, 5, 2], 6).map(|swap| swap.die_index), Some(0));
        // No dice, nothing to swap.
        assert_eq!(dos_replacement(&[], 6), None);
    }

    #[test]
    fn a_natural_maximum_is_judged_before_the_swap() {
        // 1d5 rolls 5 (natural maximum); DoS 7 > 5 replaces it → 7.
        let mut dice = Dice::scripted(vec![5], 0).unwrap();
        let hit = roll_hit_damage(&d(1, 5, 0), None, Some(7), &mut dice, "d").unwrap();
        assert!(hit.natural_maximum);
        assert_eq!(hit.damage, 7);
    }

    #[test]
    fn the_final_damage_is_never_negative_but_steps_may_dip() {
        // 1d5 rolls 1; − 3 = −2; SB 1 → −1; held to 0.
        let mut dice = Dice::scripted(vec![1], 0).unwrap();
        let hit = roll_hit_damage(&d(1, 5, -3), Some(1), None, &mut dice, "d").unwrap();
        assert_eq!((totals(&hit), hit.damage), (vec![1, -2, -1, 0], 0));
        assert_eq!((hit.steps[3].code, hit.steps[3].value), (DamageStepCode::NotNegative, 1));
        // 1d5 rolls 1; − 3 = −2; SB 4 → 2: no floor reached in between.
        let mut dice = Dice::scripted(vec![1], 0).unwrap();
        assert_eq!(roll_hit_damage(&d(1, 5, -3), Some(4), None, &mut dice, "d").unwrap().damage, 2);
    }

    #[test]
    fn dice_outside_the_bounds_are_refused() {
        for (weapon, field) in [(d(21, 10, 0), "count"), (d(1, 1, 0), "sides"), (d(1, 10, 101), "bonus")] {
            let err = check_damage_dice(&weapon).unwrap_err();
            assert!(matches!(err, RuleError::Invalid { field: f, .. } if f == field));
        }
    }
}
