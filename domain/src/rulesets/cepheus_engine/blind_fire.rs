//! Blind fire dice (cepheus-engine.txt, "Blind Firing").
//!
//! Decisions:
//! - The attack rolls three dice and removes the highest before anything is added. When several
//!   dice tie for highest, the first of them rolled is the one removed (the total is the same
//!   either way). The removed die stays in the dice record, marked dropped.
//! - After a hit, the random pick among the targets in the line of fire uses one die with as many
//!   sides as there are eligible targets, numbered in whatever order the table agrees on.
//! - The skill side of blind fire (always level 0) is in `skill.rs`.

use crate::dice::{Dice, DieStatus};
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// The dice of one blind-fire attack: two kept, one dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineBlindFireRoll))]
pub struct BlindFireRoll {
    /// The two dice that count, in the order rolled.
    pub kept: [u32; 2],
    /// The highest die, removed.
    pub dropped: u32,
}

impl BlindFireRoll {
    /// The 2D6 part of the attack total.
    pub fn total(&self) -> u32 {
        self.kept[0] + self.kept[1]
    }
}

/// Rolls the blind-fire attack dice: three D6, the highest removed and marked dropped in the record
/// (cepheus-engine.txt, "Blind Firing").
pub fn roll_blind_fire(dice: &mut Dice, purpose: &str) -> Result<BlindFireRoll, RuleError> {
    let rolled =
        [dice.roll_indexed(6, purpose)?, dice.roll_indexed(6, purpose)?, dice.roll_indexed(6, purpose)?];
    let highest = first_highest(rolled.map(|(_, value)| value));
    if let Some(record) = dice.record_mut(rolled[highest].0) {
        record.status = DieStatus::Dropped;
    }
    let values = rolled.map(|(_, value)| value);
    let kept = match highest {
        0 => [values[1], values[2]],
        1 => [values[0], values[2]],
        _ => [values[0], values[1]],
    };
    Ok(BlindFireRoll { kept, dropped: values[highest] })
}

/// Position of the highest value; the earliest one wins a tie.
fn first_highest(values: [u32; 3]) -> usize {
    (1..values.len()).fold(0, |best, position| if values[position] > values[best] { position } else { best })
}

/// Picks which eligible target in the line of fire a successful blind shot hits: one die with a
/// side per target, friend or foe alike (cepheus-engine.txt, "Blind Firing"). Returns 1-based.
pub fn roll_blind_fire_target(
    eligible_targets: u32,
    dice: &mut Dice,
    purpose: &str,
) -> Result<u32, RuleError> {
    if eligible_targets == 0 {
        return Err(RuleError::invalid(
            "eligible_targets",
            "a hit needs at least one target in the line of fire",
        ));
    }
    Ok(dice.roll(eligible_targets, purpose)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_highest_die_is_removed_and_recorded_as_dropped() {
        // Dice 2, 6, 4: the 6 goes, 2 + 4 = 6.
        let mut dice = Dice::scripted(vec![2, 6, 4], 0).unwrap();
        let roll = roll_blind_fire(&mut dice, "blind fire").unwrap();
        assert_eq!(roll, BlindFireRoll { kept: [2, 4], dropped: 6 });
        assert_eq!(roll.total(), 6);
        let statuses: Vec<_> = dice.rolls().iter().map(|die| die.status).collect();
        assert_eq!(statuses, vec![DieStatus::Kept, DieStatus::Dropped, DieStatus::Kept]);
    }

    #[test]
    fn a_tie_for_highest_drops_the_first_of_them() {
        // Dice 5, 3, 5: the first 5 goes, 3 + 5 = 8.
        let mut dice = Dice::scripted(vec![5, 3, 5], 0).unwrap();
        let roll = roll_blind_fire(&mut dice, "blind fire").unwrap();
        assert_eq!(roll, BlindFireRoll { kept: [3, 5], dropped: 5 });
        assert_eq!(roll.total(), 8);
        assert_eq!(dice.rolls()[0].status, DieStatus::Dropped);
        assert_eq!(dice.rolls()[2].status, DieStatus::Kept);
    }

    #[test]
    fn the_highest_may_be_the_last_die() {
        // Dice 1, 1, 2: the 2 goes, 1 + 1 = 2.
        let mut dice = Dice::scripted(vec![1, 1, 2], 0).unwrap();
        assert_eq!(roll_blind_fire(&mut dice, "b").unwrap().total(), 2);
        assert_eq!(dice.rolls()[2].status, DieStatus::Dropped);
    }

    #[test]
    fn the_target_die_has_a_side_per_eligible_target() {
        let mut dice = Dice::scripted(vec![3], 0).unwrap();
        assert_eq!(roll_blind_fire_target(4, &mut dice, "blind fire target").unwrap(), 3);
        assert_eq!(dice.rolls()[0].sides, 4);
    }

    #[test]
    fn no_eligible_target_is_refused() {
        let mut dice = Dice::scripted(vec![], 0).unwrap();
        let err = roll_blind_fire_target(0, &mut dice, "t").unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "eligible_targets"));
    }
}
