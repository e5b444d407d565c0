//! Soak and the loss of wounds (adeva-d100.txt, "Attacking", Steps Six and Seven).
//!
//! Decisions:
//! - Soak = Toughness Bonus + (Armour Points − Penetration, not below 0): penetration only cuts
//!   armour, never toughness.
//! - A hit whose damage equals the soak is not "negated" (the text negates only when soak is
//!   higher) but takes 0 wounds all the same.
//! - Wounds never go below 0. A character without Fate Points who reaches 0 is dead. One with Fate
//!   Points is not dead at 0; damage beyond 0 means Lethal Damage, whose rules are not in the text,
//!   so it is reported (`lethal_damage`, with the points beyond 0) for the caller to resolve.

use serde::{Deserialize, Serialize};

/// A target's soak against one attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Soak))]
pub struct Soak {
    pub toughness_bonus: u32,
    pub armour: u32,
    pub penetration: u32,
    pub armour_after_penetration: u32,
    pub value: u32,
    /// e.g. "TB 4 + AP (5 − Pen 2 = 3) = 7".
    pub working: String,
}

/// Soak = TB + AP reduced by the attack's Penetration (adeva-d100.txt, "Attacking", Step Six).
pub fn soak(toughness_bonus: u32, armour: u32, penetration: u32) -> Soak {
    let armour_after_penetration = armour.saturating_sub(penetration);
    let value = toughness_bonus.saturating_add(armour_after_penetration);
    let working = format!(
        "TB {toughness_bonus} + AP ({armour} − Pen {penetration} = {armour_after_penetration}) = {value}"
    );
    Soak { toughness_bonus, armour, penetration, armour_after_penetration, value, working }
}

/// Damage past soak: what is left once soak is taken off, not below 0 (adeva-d100.txt,
/// "Attacking", Step Six).
pub fn past_soak(damage: u32, soak: &Soak) -> u32 {
    damage.saturating_sub(soak.value)
}

/// Soak above the damage negates the hit (adeva-d100.txt, "Attacking", Step Six).
pub fn negated(damage: u32, soak: &Soak) -> bool {
    soak.value > damage
}

/// Wounds before and after one loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100WoundsLoss))]
pub struct WoundsLoss {
    pub before: u32,
    /// The wounds the damage takes away.
    pub lost: u32,
    pub after: u32,
    /// No Fate Points and at 0 wounds.
    pub dead: bool,
    /// Has Fate Points and took damage past 0.
    pub lethal_damage: bool,
    /// How far past 0 the damage went.
    pub past_zero: u32,
}

/// Takes `amount` wounds off; at 0 a character dies unless it has Fate Points, in which case damage
/// past 0 is Lethal Damage instead (adeva-d100.txt, "Attacking", Step Seven).
pub fn lose_wounds(wounds: u32, fate_points: u32, amount: u32) -> WoundsLoss {
    let after = wounds.saturating_sub(amount);
    let past_zero = amount.saturating_sub(wounds);
    let has_fate = fate_points > 0;
    WoundsLoss {
        before: wounds,
        lost: amount,
        after,
        dead: !has_fate && after == 0,
        lethal_damage: has_fate && past_zero > 0,
        past_zero,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soak_is_toughness_bonus_plus_armour_less_penetration() {
        // TB 4 + (AP 5 − Pen 2 = 3) = 7.
        let soaked = soak(4, 5, 2);
        assert_eq!((soaked.armour_after_penetration, soaked.value), (3, 7));
        assert_eq!(soaked.working, "TB 4 + AP (5 − Pen 2 = 3) = 7");
        // Pen 8 > AP 5: armour 0, toughness untouched → 4.
        assert_eq!(soak(4, 5, 8).value, 4);
    }

    #[test]
    fn damage_past_soak_is_never_negative() {
        // Soak 7: 12 → 5 past; 7 → 0 past, not negated; 6 → 0 past, negated.
        let soaked = soak(4, 3, 0);
        assert_eq!((past_soak(12, &soaked), negated(12, &soaked)), (5, false));
        assert_eq!((past_soak(7, &soaked), negated(7, &soaked)), (0, false));
        assert_eq!((past_soak(6, &soaked), negated(6, &soaked)), (0, true));
    }

    #[test]
    fn without_fate_points_zero_wounds_is_death() {
        // 10 − 4 = 6; 6 − 6 = 0 → dead; 3 − 5 → 0, dead, 2 past zero.
        assert_eq!(
            lose_wounds(10, 0, 4),
            WoundsLoss { before: 10, lost: 4, after: 6, dead: false, lethal_damage: false, past_zero: 0 }
        );
        assert!(lose_wounds(6, 0, 6).dead);
        let overkill = lose_wounds(3, 0, 5);
        assert_eq!(
            (overkill.after, overkill.dead, overkill.lethal_damage, overkill.past_zero),
            (0, true, false, 2)
        );
    }

    #[test]
    fn with_fate_points_damage_past_zero_is_lethal_damage() {
        // 6 − 6 = 0 with a Fate Point: alive, nothing past zero.
        let exact = lose_wounds(6, 1, 6);
        assert_eq!((exact.after, exact.dead, exact.lethal_damage), (0, false, false));
        // 3 − 5: 2 past zero → Lethal Damage, not dead.
        let past = lose_wounds(3, 2, 5);
        assert_eq!((past.after, past.dead, past.lethal_damage, past.past_zero), (0, false, true, 2));
    }
}
