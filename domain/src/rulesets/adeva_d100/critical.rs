//! Confirming a Critical Hit and what it does (adeva-d100.txt, "Attacking", Step Five-A).
//!
//! Decisions:
//! - Every hit whose damage dice show a natural maximum gets its own confirmation test: each hit
//!   rolls its own damage and meets soak on its own.
//! - The confirmation tests the attack's characteristic without the attack's modifiers. Effects
//!   aimed at confirmation tests themselves (Guard Mode's −20, "Action List") are the only
//!   modifiers it takes, sent separately by the caller.
//! - Confirmed with damage past soak: 1d5 on the Lethal Damage chart. The chart is not in the text
//!   (given by the lead): the roll is reported, and a caller-supplied list of exactly five effect
//!   names, when sent, names the effect. This does not count as taking Lethal Damage.
//! - Confirmed with no damage past soak: the hit deals exactly 1 wound instead of 0.
//! - A failed confirmation changes nothing.

use super::Characteristic;
use super::test_modifiers::Modifier;
use super::test_roll::{ModifiedTest, modified_test};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Entries on the Lethal Damage chart (rolled on 1d5).
pub const LETHAL_TABLE_LEN: usize = 5;

/// Refuses a chart that is not five non-blank names; `field` is its JSON path.
pub fn check_lethal_table(field: &str, table: &[String]) -> Result<(), RuleError> {
    if table.len() != LETHAL_TABLE_LEN {
        return Err(RuleError::invalid(
            field,
            "the Lethal Damage chart has exactly 5 entries (rolled on 1d5)",
        ));
    }
    if let Some(index) = table.iter().position(|name| name.trim().is_empty()) {
        return Err(RuleError::invalid(format!("{field}[{index}]"), "every chart entry needs a name"));
    }
    Ok(())
}

/// A 1d5 roll on the Lethal Damage chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100LethalDamageRoll))]
pub struct LethalDamageRoll {
    pub roll: u32,
    /// The chart's entry for the roll, when a chart was sent.
    pub effect: Option<String>,
}

/// Rolls 1d5 and names the effect from `table` if given (adeva-d100.txt, "Attacking", Step
/// Five-A; the chart's contents are the caller's).
pub fn roll_lethal_damage(
    table: Option<&[String]>,
    dice: &mut Dice,
    purpose: &str,
) -> Result<LethalDamageRoll, RuleError> {
    if let Some(table) = table {
        check_lethal_table("lethal_damage_table", table)?;
    }
    let roll = dice.roll(5, purpose)?;
    let effect = table.and_then(|table| table.get(roll as usize - 1).cloned());
    Ok(LethalDamageRoll { roll, effect })
}

/// A Critical Hit's confirmation and its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Critical))]
pub struct Critical {
    pub confirm: ModifiedTest,
    pub confirmed: bool,
    /// Confirmed with damage past soak: the chart roll.
    pub lethal_damage_roll: Option<LethalDamageRoll>,
    /// Confirmed with nothing past soak: the hit deals 1 wound.
    pub one_point_of_damage: bool,
    pub explanation: String,
}

/// What a Critical Hit needs to know about its hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CriticalInput<'a> {
    /// The score the attack test used, before its modifiers.
    pub characteristic: Characteristic,
    /// Modifiers aimed at confirmation tests (e.g. Guard Mode).
    pub confirm_modifiers: &'a [Modifier],
    pub damage_past_soak: u32,
    pub lethal_damage_table: Option<&'a [String]>,
    /// Names the hit in the dice purposes, e.g. "hit 2".
    pub label: &'a str,
}

/// Tests to confirm the Critical Hit, then rolls the Lethal Damage chart or grants the single point
/// of damage (adeva-d100.txt, "Attacking", Step Five-A).
pub fn confirm_critical(input: &CriticalInput, dice: &mut Dice) -> Result<Critical, RuleError> {
    let purpose = format!("critical confirmation: {}", input.label);
    let confirm = modified_test(input.characteristic, input.confirm_modifiers, dice, &purpose)?;
    let confirmed = confirm.test.passed;
    let (lethal_damage_roll, one_point_of_damage, explanation) = match (confirmed, input.damage_past_soak) {
        (false, _) => (None, false, "not confirmed: no effect".to_string()),
        (true, 0) => (None, true, "confirmed, nothing past soak: the hit deals 1 wound".to_string()),
        (true, _) => {
            let purpose = format!("lethal damage chart: {}", input.label);
            let roll = roll_lethal_damage(input.lethal_damage_table, dice, &purpose)?;
            let named = roll.effect.as_deref().map_or(String::new(), |name| format!(" ({name})"));
            let explanation =
                format!("confirmed with damage past soak: Lethal Damage chart 1d5 = {}{named}", roll.roll);
            (Some(roll), false, explanation)
        }
    };
    Ok(Critical { confirm, confirmed, lethal_damage_roll, one_point_of_damage, explanation })
}

/// The wounds a hit takes: its damage past soak, or 1 when a confirmed Critical Hit got nothing
/// past soak (adeva-d100.txt, "Attacking", Steps Five-A and Seven).
pub fn wounds_dealt(damage_past_soak: u32, critical: Option<&Critical>) -> u32 {
    match critical {
        Some(critical) if critical.one_point_of_damage => 1,
        _ => damage_past_soak,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Vec<String> {
        ["Stunned", "Bleeding", "Knocked Down", "Maimed", "Crippled"].iter().map(|s| s.to_string()).collect()
    }

    fn input<'a>(past: u32, table: Option<&'a [String]>, modifiers: &'a [Modifier]) -> CriticalInput<'a> {
        CriticalInput {
            characteristic: Characteristic::new(45).unwrap(),
            confirm_modifiers: modifiers,
            damage_past_soak: past,
            lethal_damage_table: table,
            label: "hit 1",
        }
    }

    #[test]
    fn confirmed_with_damage_past_soak_rolls_the_chart() {
        // Confirm 30 ≤ 45; chart 1d5 = 3 → "Knocked Down".
        let chart = table();
        let mut dice = Dice::scripted(vec![30, 3], 0).unwrap();
        let critical = confirm_critical(&input(4, Some(&chart), &[]), &mut dice).unwrap();
        assert!(critical.confirmed && !critical.one_point_of_damage);
        assert_eq!(
            critical.lethal_damage_roll,
            Some(LethalDamageRoll { roll: 3, effect: Some("Knocked Down".into()) })
        );
        assert_eq!(
            critical.explanation,
            "confirmed with damage past soak: Lethal Damage chart 1d5 = 3 (Knocked Down)"
        );
        let purposes: Vec<_> = dice.rolls().iter().map(|die| &*die.purpose).collect();
        assert_eq!(purposes, ["critical confirmation: hit 1", "lethal damage chart: hit 1"]);
        assert_eq!(wounds_dealt(4, Some(&critical)), 4);
    }

    #[test]
    fn without_a_chart_only_the_roll_is_reported() {
        let mut dice = Dice::scripted(vec![10, 5], 0).unwrap();
        let critical = confirm_critical(&input(2, None, &[]), &mut dice).unwrap();
        assert_eq!(critical.lethal_damage_roll, Some(LethalDamageRoll { roll: 5, effect: None }));
    }

    #[test]
    fn confirmed_with_nothing_past_soak_deals_one_wound() {
        // Confirm 20 ≤ 45; nothing past soak → 1 wound, no chart roll.
        let mut dice = Dice::scripted(vec![20], 0).unwrap();
        let critical = confirm_critical(&input(0, None, &[]), &mut dice).unwrap();
        assert!(critical.one_point_of_damage && critical.lethal_damage_roll.is_none());
        assert_eq!(wounds_dealt(0, Some(&critical)), 1);
        assert_eq!(dice.rolls().len(), 1);
    }

    #[test]
    fn confirmation_uses_only_confirmation_modifiers() {
        // 45 − 20 (Guard Mode) = 25; roll 30 fails → nothing, still 0 wounds.
        let guard = [Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::GuardMode, "target in Guard Mode", -20)];
        let mut dice = Dice::scripted(vec![30], 0).unwrap();
        let critical = confirm_critical(&input(0, None, &guard), &mut dice).unwrap();
        assert_eq!((critical.confirm.test.target, critical.confirmed), (25, false));
        assert_eq!(wounds_dealt(0, Some(&critical)), 0);
    }

    #[test]
    fn a_chart_must_have_five_named_entries() {
        let short = vec!["a".to_string(); 4];
        let err = check_lethal_table("lethal_damage_table", &short).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "lethal_damage_table"));
        let mut blank = table();
        blank[2] = " ".into();
        let err = check_lethal_table("lethal_damage_table", &blank).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "lethal_damage_table[2]"));
    }
}
