//! How far a character moves in each speed band (adeva-d100.txt, "Movement").
//!
//! Decisions:
//! - Distances are in squares, the unit the rest of the text uses ("a 4 square long straight
//!   line", "within 10 squares"). What a square measures on the table is left to the group.
//! - A Half Move is the Agility Bonus plus its modifiers (size, special traits), never below 0:
//!   an Agility under 10 with no bonuses leaves a character unable to move, as the text's formula
//!   gives. Full Move, Charge and Run are that Half Move times 2, 3 and 4.
//! - Each movement modifier is a whole number of squares between −20 and +20, with a reason.

use super::test_modifiers::{MAX_MODIFIERS, Modifier};
use super::{Characteristic, bonus};
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Largest single movement modifier, in squares, either way.
pub const MAX_MOVE_MODIFIER: i32 = 20;

/// The four speed bands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100MoveKind))]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    HalfMove,
    FullMove,
    Charge,
    Run,
}

impl MoveKind {
    /// How many Half Moves the band covers (adeva-d100.txt, "Movement").
    pub fn multiple(self) -> u32 {
        match self {
            MoveKind::HalfMove => 1,
            MoveKind::FullMove => 2,
            MoveKind::Charge => 3,
            MoveKind::Run => 4,
        }
    }
}

/// A character's four distances, in squares, and how the Half Move was reached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100MovementBands))]
pub struct MovementBands {
    pub agility_bonus: i32,
    pub modifiers: Vec<Modifier>,
    pub half_move: u32,
    pub full_move: u32,
    pub charge: u32,
    pub run: u32,
    /// e.g. "AB 3 +1 (size) = 4 squares".
    pub working: String,
}

impl MovementBands {
    /// The distance of one band.
    pub fn distance(&self, kind: MoveKind) -> u32 {
        self.half_move * kind.multiple()
    }
}

/// Half Move = Agility Bonus + modifiers; Full Move, Charge and Run are 2, 3 and 4 times it
/// (adeva-d100.txt, "Movement"; squares and the floor at 0 are decisions).
pub fn movement_bands(agility: Characteristic, modifiers: &[Modifier]) -> Result<MovementBands, RuleError> {
    check_move_modifiers(modifiers)?;
    let agility_bonus = bonus(agility);
    let mut working = format!("AB {agility_bonus}");
    for modifier in modifiers {
        working.push_str(&format!(" {:+} ({})", modifier.value, modifier.reason));
    }
    let sum = agility_bonus + modifiers.iter().map(|modifier| modifier.value).sum::<i32>();
    let half_move = sum.max(0) as u32;
    working.push_str(&format!(" = {half_move} squares"));
    if sum < 0 {
        working.push_str(" (not below 0)");
    }
    Ok(MovementBands {
        agility_bonus,
        modifiers: modifiers.to_vec(),
        half_move,
        full_move: half_move * 2,
        charge: half_move * 3,
        run: half_move * 4,
        working,
    })
}

fn check_move_modifiers(modifiers: &[Modifier]) -> Result<(), RuleError> {
    if modifiers.len() > MAX_MODIFIERS {
        return Err(RuleError::invalid(
            "modifiers",
            format!("at most {MAX_MODIFIERS} modifiers may be sent"),
        ));
    }
    for (index, modifier) in modifiers.iter().enumerate() {
        if modifier.reason.trim().is_empty() {
            return Err(RuleError::invalid(
                format!("modifiers[{index}].reason"),
                "every modifier needs a reason",
            ));
        }
        if modifier.value.abs() > MAX_MOVE_MODIFIER {
            return Err(RuleError::invalid(
                format!("modifiers[{index}].value"),
                "a movement modifier must lie between −20 and +20 squares",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(value: i64) -> Characteristic {
        Characteristic::new(value).unwrap()
    }

    #[test]
    fn the_bands_are_one_two_three_and_four_half_moves() {
        // Ag 34 → AB 3; +1 for size → Half 4, Full 8, Charge 12, Run 16.
        let bands = movement_bands(c(34), &[Modifier::new("size (hulking)", 1)]).unwrap();
        assert_eq!(
            (bands.agility_bonus, bands.half_move, bands.full_move, bands.charge, bands.run),
            (3, 4, 8, 12, 16)
        );
        assert_eq!(bands.working, "AB 3 +1 (size (hulking)) = 4 squares");
        assert_eq!(bands.distance(MoveKind::Charge), 12);
    }

    #[test]
    fn a_half_move_never_goes_below_zero() {
        // Ag 25 → AB 2; −3 → −1 → 0 squares in every band.
        let bands = movement_bands(c(25), &[Modifier::new("crippled leg", -3)]).unwrap();
        assert_eq!((bands.half_move, bands.run), (0, 0));
        assert!(bands.working.ends_with("= 0 squares (not below 0)"));
    }

    #[test]
    fn a_huge_movement_modifier_is_refused() {
        let err = movement_bands(c(30), &[Modifier::new("wings", 21)]).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "modifiers[0].value"));
    }
}
