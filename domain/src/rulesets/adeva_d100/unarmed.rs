//! Fists, knees and shoulders (adeva-d100.txt, "Unarmed Attacks").
//!
//! Decisions:
//! - Unarmed damage is 1d5 − 3 + Strength Bonus, Impact, Penetration 0, never below 0 (a weak
//!   punch does nothing rather than heal).
//! - The fatigue check compares the damage rolled, before soak, with the target's Toughness Bonus.
//!   Soak already contains the TB, so comparing what gets past soak would make fatigue nearly
//!   impossible for a 1d5 − 3 + SB blow. A blow of 0 damage causes no fatigue, even against TB 0:
//!   no damage was dealt.
//! - The Unarmed and Primitive qualities and the Unarmed Warrior and Master traits are not defined
//!   in this text; the qualities are reported by name and the traits are left to the caller (send
//!   a modified damage profile to `attack_sequence`).
//! - The attack's Degrees of Success may replace the d5 as for any weapon (`damage.rs`).

use super::damage::{DamageDice, HitDamage, roll_hit_damage};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// 1d5 − 3 (the Strength Bonus is added on top).
pub const UNARMED_DAMAGE: DamageDice = DamageDice { count: 1, sides: 5, bonus: -3 };
/// Unarmed attacks have no penetration.
pub const UNARMED_PENETRATION: u32 = 0;
/// The qualities an unarmed attack counts as having.
pub const UNARMED_QUALITIES: [&str; 2] = ["Unarmed", "Primitive"];

/// A blow of at least the target's Toughness Bonus (and at least 1) costs it a level of fatigue
/// (adeva-d100.txt, "Unarmed Attacks").
pub fn unarmed_fatigue(damage: u32, toughness_bonus: u32) -> bool {
    damage >= 1 && damage >= toughness_bonus
}

/// One unarmed hit's damage and whether it fatigues.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100UnarmedHit))]
pub struct UnarmedHit {
    pub damage: HitDamage,
    pub fatigue: bool,
}

/// Rolls an unarmed hit: 1d5 − 3 + SB, then the fatigue check against the target's TB
/// (adeva-d100.txt, "Unarmed Attacks").
pub fn unarmed_damage(
    strength_bonus: u32,
    target_toughness_bonus: u32,
    dos: Option<u32>,
    dice: &mut Dice,
    purpose: &str,
) -> Result<UnarmedHit, RuleError> {
    let damage = roll_hit_damage(&UNARMED_DAMAGE, Some(strength_bonus), dos, dice, purpose)?;
    let fatigue = unarmed_fatigue(damage.damage, target_toughness_bonus);
    Ok(UnarmedHit { damage, fatigue })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_punch_is_1d5_minus_3_plus_strength_bonus() {
        // 1d5 = 4; 4 − 3 + SB 3 = 4 ≥ TB 3 → fatigue.
        let mut dice = Dice::scripted(vec![4], 0).unwrap();
        let hit = unarmed_damage(3, 3, None, &mut dice, "unarmed").unwrap();
        assert_eq!((hit.damage.damage, hit.fatigue), (4, true));
        // 1d5 = 2; 2 − 3 + 3 = 2 < TB 3 → no fatigue.
        let mut dice = Dice::scripted(vec![2], 0).unwrap();
        let hit = unarmed_damage(3, 3, None, &mut dice, "unarmed").unwrap();
        assert_eq!((hit.damage.damage, hit.fatigue), (2, false));
    }

    #[test]
    fn a_weak_punch_does_nothing() {
        // 1d5 = 1; 1 − 3 + SB 1 = −1 → 0; TB 0 but no damage → no fatigue.
        let mut dice = Dice::scripted(vec![1], 0).unwrap();
        let hit = unarmed_damage(1, 0, None, &mut dice, "unarmed").unwrap();
        assert_eq!((hit.damage.damage, hit.fatigue), (0, false));
    }

    #[test]
    fn the_degrees_of_success_can_replace_the_d5() {
        // 1d5 = 1, DoS 4 replaces it: 4 − 3 + SB 2 = 3 ≥ TB 3 → fatigue.
        let mut dice = Dice::scripted(vec![1], 0).unwrap();
        let hit = unarmed_damage(2, 3, Some(4), &mut dice, "unarmed").unwrap();
        assert_eq!((hit.damage.damage, hit.fatigue), (3, true));
    }
}
