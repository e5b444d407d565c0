//! Action Dice spent on the Initiative check (spycraft2.txt, "Step 3: Initiative Checks",
//! Special Note: Action Dice may only boost the Initiative check itself; the Count may not be
//! boosted once combat begins).
//!
//! Decisions (docs/rulesets/spycraft2.md, "Action Dice on the Initiative check"):
//! - The chapter gives neither the die nor how many a character holds: the stat block records
//!   both (`action_dice`, `action_die`), and what is spent is kept in the combat state
//!   (`action_dice_spent`). A character whose stat block records none cannot spend any here.
//! - Each die spent is rolled and added to the check; the chapter says nothing of dice that
//!   explode, so none do. At most 10 per check.
//! - "Once combat begins": a character who already holds a Count in the running fight may not
//!   boost it (a re-roll in setup, before the fight begins, may be boosted again; dice spent
//!   before stay spent).

use super::state::CombatState;
use super::stats::Stats;
use crate::dice::Dice;
use crate::rulesets::{InitiativeRoll, RuleError};

/// The Action Dice the character still holds, if its stat block records them.
pub fn left(stats: &Stats, state: &CombatState) -> Option<u32> {
    stats.action_dice.map(|held| (held.get() as u32).saturating_sub(state.action_dice_spent))
}

/// Rolls `count` Action Dice for the Initiative check and counts them as spent; `score` is what
/// they add.
pub fn boost_initiative(
    stats: &Stats,
    state: &mut CombatState,
    count: u32,
    had_count: bool,
    dice: &mut Dice,
    purpose: &str,
) -> Result<InitiativeRoll, RuleError> {
    if had_count {
        let message = "the Initiative Count may not be boosted with Action Dice once combat begins (spycraft2.txt, Step 3, Special Note)";
        return Err(RuleError::invalid("combatant_id", message));
    }
    let Some(held) = left(stats, state) else {
        let message = "the stat block records no Action Dice (stats.action_dice): none can be spent";
        return Err(RuleError::invalid("dice", message));
    };
    if count > held {
        return Err(RuleError::invalid("dice", format!("only {held} Action Dice left")));
    }
    let sides = stats.action_die.sides();
    let mut faces = Vec::new();
    for _ in 0..count {
        faces.push(dice.roll(sides, purpose)?);
    }
    let added: u32 = faces.iter().sum();
    state.action_dice_spent += count;
    let faces: Vec<String> = faces.iter().map(u32::to_string).collect();
    let explanation = format!("+ {count} Action Dice (d{sides}: {}) {added:+}", faces.join(", "));
    Ok(InitiativeRoll { score: added as i32, explanation })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Score;

    fn agent(held: i64) -> Stats {
        let mut stats = Stats::with_initiative_bonus(Score::new(4).expect("bonus"));
        stats.action_dice = Some(Score::new(held).expect("dice"));
        stats.action_die = super::super::stats::ActionDie::D6;
        stats
    }

    #[test]
    fn each_die_spent_is_rolled_and_added_and_counted_as_spent() {
        // 3 Action Dice (d6); 2 spent: faces 4 and 2 add 6; 1 is left.
        let stats = agent(3);
        let mut state = CombatState::default();
        let mut dice = Dice::scripted(vec![4, 2], 0).expect("dice");
        let boost = boost_initiative(&stats, &mut state, 2, false, &mut dice, "boost").expect("boost");
        assert_eq!((boost.score, state.action_dice_spent, left(&stats, &state)), (6, 2, Some(1)));
        assert_eq!(boost.explanation, "+ 2 Action Dice (d6: 4, 2) +6");
        assert_eq!(dice.rolls().iter().map(|d| d.sides).collect::<Vec<_>>(), vec![6, 6]);
    }

    #[test]
    fn more_than_are_left_none_recorded_or_once_combat_began_are_refused() {
        let stats = agent(1);
        let mut state = CombatState::default();
        let mut dice = Dice::scripted(vec![3, 3], 0).expect("dice");
        let error = |result: Result<InitiativeRoll, RuleError>| match result {
            Err(RuleError::Invalid { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        assert_eq!(error(boost_initiative(&stats, &mut state, 2, false, &mut dice, "b")), "dice");
        assert_eq!(error(boost_initiative(&stats, &mut state, 1, true, &mut dice, "b")), "combatant_id");
        let untracked = Stats::with_initiative_bonus(Score::new(4).expect("bonus"));
        assert_eq!(error(boost_initiative(&untracked, &mut state, 1, false, &mut dice, "b")), "dice");
        assert_eq!((state.action_dice_spent, dice.rolls().len()), (0, 0));
    }
}
