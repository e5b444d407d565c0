//! Adeva d100 combat rules (shared/rules/adeva-d100.txt).

pub mod actions;
pub mod altitude;
pub mod attack_sequence;
pub mod critical;
pub mod damage;
pub mod decay;
pub mod evasion;
pub mod hits;
pub mod modifier;
pub mod movement;
pub mod opposed;
pub mod test_modifiers;
pub mod test_roll;
pub mod unarmed;
pub mod wounds;

use super::{InitiativeRoll, RuleError, TiePolicy};
use crate::dice::Dice;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// A characteristic on the percentile scale.
pub type Characteristic = Score<0, 100>;

/// The nine characteristics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    pub ws: Characteristic,
    pub bs: Characteristic,
    pub s: Characteristic,
    pub t: Characteristic,
    pub ag: Characteristic,
    pub int: Characteristic,
    pub per: Characteristic,
    pub wp: Characteristic,
    pub fel: Characteristic,
}

/// Still tied after Agility → each rolls 1d10, higher placed higher (adeva-d100.txt, "Combat
/// Structure", Step Three). The text does not say what a second tie does; we re-roll it.
pub const TIE_POLICY: TiePolicy = TiePolicy::RollOff { sides: 10 };

/// A characteristic's bonus is its tens digit (Agility 34 → Agility Bonus 3).
pub fn bonus(value: Characteristic) -> i32 {
    value.get() / 10
}

/// Initiative = 1d10 + Agility Bonus (adeva-d100.txt, "Combat Structure", Step Three).
pub fn roll_initiative(stats: &Stats, dice: &mut Dice, purpose: &str) -> Result<InitiativeRoll, RuleError> {
    let agility_bonus = bonus(stats.ag);
    let die = dice.roll(10, purpose)?;
    let score = die as i32 + agility_bonus;
    Ok(InitiativeRoll { score, explanation: format!("1d10 ({die}) + AB {agility_bonus} = {score}") })
}

/// Ties go to the higher Agility (adeva-d100.txt, "Combat Structure", Step Three).
pub fn tie_keys(stats: &Stats) -> Vec<i32> {
    vec![stats.ag.get()]
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn stats_with_agility(ag: i64) -> Stats {
        let c = |v| Characteristic::new(v).unwrap();
        Stats {
            ws: c(30),
            bs: c(30),
            s: c(30),
            t: c(30),
            ag: c(ag),
            int: c(30),
            per: c(30),
            wp: c(30),
            fel: c(30),
        }
    }

    #[test]
    fn initiative_is_1d10_plus_agility_bonus() {
        // Ag 34 → AB 3; die 7 → 10.
        let mut dice = Dice::scripted(vec![7], 0).unwrap();
        let roll = roll_initiative(&stats_with_agility(34), &mut dice, "initiative").unwrap();
        assert_eq!(roll.score, 10);
        assert_eq!(roll.explanation, "1d10 (7) + AB 3 = 10");
    }
}
