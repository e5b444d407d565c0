//! Spycraft 2.0 combat (shared/rules/spycraft2.txt): the seven steps of combat, fluid
//! initiative, and the attack, damage and saving-throw model its table reacts to.
//!
//! Layout: `stats.rs` (stat block), `state.rs` (what the engine tracks per combatant),
//! `distance.rs` (Step 2), `surprise.rs` (Step 4), `economy.rs` (Steps 4–5, actions per round),
//! `fluid.rs` (Step 6), `attack.rs` / `damage.rs` / `saves.rs` (the events of Step 6's table),
//! `round.rs` (the end-of-round hook: Steps 6–7), `commands/` (one operation per file),
//! `outcome.rs` (the report union) and `plugin.rs` (the `Ruleset` and `Command` impls).

pub mod attack;
pub mod commands;
pub mod damage;
pub mod distance;
pub mod economy;
pub mod fluid;
pub mod modifier;
pub mod outcome;
mod plugin;
pub mod round;
pub mod saves;
pub mod state;
pub mod stats;
pub mod surprise;

pub use outcome::Report;
pub use plugin::{Actions, Attacks, Damage, Distance, Enter, GroupInitiative, Saves, Spycraft2, Surprise};
pub use state::CombatState;
pub use stats::Stats;

use super::{InitiativeRoll, RuleError, Summary, TiePolicy};
use crate::dice::Dice;

/// Still tied after the Initiative bonus → each rolls 1d20, highest first, re-rolling ties
/// (spycraft2.txt, "Step 5: Combat Round").
pub const TIE_POLICY: TiePolicy = TiePolicy::RollOff { sides: 20 };

/// Initiative Count = 1d20 + Initiative bonus; no threats or errors on this check
/// (spycraft2.txt, "Step 3: Initiative Checks").
pub fn roll_initiative(stats: &Stats, dice: &mut Dice, purpose: &str) -> Result<InitiativeRoll, RuleError> {
    let bonus = stats.initiative_bonus.get();
    let die = dice.roll(20, purpose)?;
    let score = die as i32 + bonus;
    Ok(InitiativeRoll { score, explanation: format!("1d20 ({die}) + Initiative bonus {bonus:+} = {score}") })
}

/// Ties go to the higher Initiative bonus (spycraft2.txt, "Step 5: Combat Round").
pub fn tie_keys(stats: &Stats) -> Vec<i32> {
    vec![stats.initiative_bonus.get()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Score;

    #[test]
    fn initiative_count_is_1d20_plus_bonus() {
        // bonus +4, die 13 → 17.
        let stats = Stats::with_initiative_bonus(Score::new(4).unwrap());
        let mut dice = Dice::scripted(vec![13], 0).unwrap();
        assert_eq!(roll_initiative(&stats, &mut dice, "i").unwrap().score, 17);
    }

    #[test]
    fn a_natural_20_or_1_is_just_its_value() {
        // No threat or error on an Initiative check: 20 + 2 = 22, 1 + 2 = 3.
        let stats = Stats::with_initiative_bonus(Score::new(2).unwrap());
        let mut dice = Dice::scripted(vec![20, 1], 0).unwrap();
        assert_eq!(roll_initiative(&stats, &mut dice, "i").unwrap().score, 22);
        assert_eq!(roll_initiative(&stats, &mut dice, "i").unwrap().score, 3);
    }

    #[test]
    fn old_stat_blocks_still_read() {
        let stats: Stats = serde_json::from_str(r#"{"initiative_bonus": 4}"#).unwrap();
        assert_eq!(stats, Stats::with_initiative_bonus(Score::new(4).unwrap()));
        assert!(serde_json::from_str::<Stats>(r#"{"initiative_bonus": 4, "defence": 3}"#).is_err());
    }
}
