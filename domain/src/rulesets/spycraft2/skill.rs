//! Skill checks taken as actions, rolled when they resolve (spycraft2.txt, "Step 5: Combat
//! Round": a full-action skill check may be divided into 2 half actions over two rounds, and
//! "all skill check and associated rolls are made when the check is resolved").
//!
//! Decisions (docs/rulesets/spycraft2.md, "Skill checks"):
//! - The check is 1d20 plus the skill's total bonus (the caller's: skills are not in the stat
//!   block) plus the caller's modifiers, against the DC when one is given (success when the total
//!   meets or beats it, as for saves); without a DC (an opposed check) the total is reported for
//!   the GC.
//! - A check that is not split resolves when it is taken. A split check resolves with its second
//!   half (`finish_skill_check`), the first action of the following round: the bonus, DC and
//!   modifiers given when it began are kept in the combat state and the die is rolled then.
//! - No threat or error is reported (as for saves): activating either is an Action Dice matter
//!   the GC declares (`critical_failure`).

use super::modifier::{Modifier, ModifierCode, total};
use crate::dice::Dice;
use crate::encounter::EncounterError;
use serde::{Deserialize, Serialize};

/// A skill check waiting to be rolled: given when it began, rolled when it resolves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2PendingCheck))]
pub struct PendingCheck {
    pub name: String,
    /// The skill's total bonus, −50..=50.
    #[cfg_attr(feature = "schema", schema(minimum = -50, maximum = 50))]
    pub bonus: i32,
    /// The DC, 1..=100; none for an opposed check.
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 100))]
    pub dc: Option<i32>,
    /// The caller's modifiers (at most 20).
    pub modifiers: Vec<Modifier>,
}

/// A resolved skill check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2SkillCheckResult))]
pub struct SkillCheckResult {
    pub name: String,
    /// The natural d20.
    pub die: u32,
    /// The skill bonus (`skill_bonus`) and the caller's modifiers (`caller`).
    pub modifiers: Vec<Modifier>,
    pub total: i32,
    pub dc: Option<i32>,
    /// `None` without a DC (an opposed check: the GC compares the totals).
    pub success: Option<bool>,
}

/// Rolls the check now: 1d20 + bonus + modifiers, against the DC if any.
pub fn resolve(who: &str, check: &PendingCheck, dice: &mut Dice) -> Result<SkillCheckResult, EncounterError> {
    let die = dice.roll(20, format!("skill check ({}): {who}", check.name))?;
    let mut modifiers = vec![Modifier::new(ModifierCode::SkillBonus, check.bonus, format!("{} bonus", check.name))];
    modifiers.extend(check.modifiers.iter().cloned());
    let total = die as i32 + total(&modifiers);
    Ok(SkillCheckResult {
        name: check.name.clone(),
        die,
        modifiers,
        total,
        dc: check.dc,
        success: check.dc.map(|dc| total >= dc),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(dc: Option<i32>) -> PendingCheck {
        let modifiers = vec![Modifier::new(ModifierCode::Caller, -2, "darkness")];
        PendingCheck { name: "Computers".into(), bonus: 7, dc, modifiers }
    }

    #[test]
    fn the_check_is_a_d20_plus_the_bonus_and_modifiers_against_the_dc() {
        // 1d20 (9) + Computers 7 − 2 darkness = 14 against DC 15: failed; a 10 makes 15: success.
        let mut dice = Dice::scripted(vec![9, 10], 0).expect("dice");
        let failed = resolve("Ana", &check(Some(15)), &mut dice).expect("check");
        assert_eq!((failed.die, failed.total, failed.success), (9, 14, Some(false)));
        let met = resolve("Ana", &check(Some(15)), &mut dice).expect("check");
        assert_eq!((met.total, met.success), (15, Some(true)));
        assert_eq!(dice.rolls()[0].purpose, "skill check (Computers): Ana");
    }

    #[test]
    fn an_opposed_check_reports_its_total_only() {
        let mut dice = Dice::scripted(vec![20], 0).expect("dice");
        let opposed = resolve("Ana", &check(None), &mut dice).expect("check");
        assert_eq!((opposed.total, opposed.dc, opposed.success), (25, None, None));
    }
}
