//! Everything that can go wrong with a dice expression, worded for the person who typed it.
//! Positions are character offsets from 0.

use super::{MAX_DICE_PER_GROUP, MAX_DICE_TOTAL, MAX_EXPRESSION_LEN, MAX_NUMBER, MAX_PAREN_DEPTH};
use crate::dice::DiceError;
use crate::dice::source::MAX_SIDES;

/// Why a dice expression was refused (parse) or stopped (roll).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceExprError {
    #[error("the expression is empty")]
    Empty,
    #[error("the expression is {len} characters long (at most {MAX_EXPRESSION_LEN})")]
    TooLong { len: usize },
    #[error("unexpected '{found}' at position {pos}: expected {expected}")]
    Unexpected { found: char, pos: usize, expected: &'static str },
    #[error("the expression ends too early at position {pos}: expected {expected}")]
    UnexpectedEnd { pos: usize, expected: &'static str },
    #[error("the '(' at position {pos} is never closed")]
    UnclosedParen { pos: usize },
    #[error("parentheses are nested more than {MAX_PAREN_DEPTH} deep at position {pos}")]
    TooDeep { pos: usize },
    #[error("the number at position {pos} is larger than {MAX_NUMBER}")]
    NumberTooLarge { pos: usize },
    #[error("a d0 has no sides (at position {pos})")]
    NoSides { pos: usize },
    #[error("a die may have at most {MAX_SIDES} sides, not {sides} (at position {pos})")]
    TooManySides { sides: u32, pos: usize },
    #[error("too many dice: {count}d{sides} (at most {MAX_DICE_PER_GROUP} per group)")]
    TooManyDice { count: u32, sides: u32 },
    #[error(
        "too many dice: the expression rolls {count} dice before any explode or reroll (at most {MAX_DICE_TOTAL})"
    )]
    TooManyDiceInTotal { count: usize },
    #[error("'{op}' at position {pos} matches every face of a d{sides}, so it would never end")]
    NeverEnds { op: String, pos: usize, sides: u32 },
    #[error("'{op}' at position {pos} needs a value to compare with, like {op}1, {op}<3 or {op}>5")]
    NeedsComparison { op: &'static str, pos: usize },
    #[error("the roll was stopped after {MAX_DICE_TOTAL} dice: explosions and rerolls kept going")]
    DiceLimitReached,
    #[error("division by zero: the right side of the '/' at position {pos} is 0")]
    DivisionByZero { pos: usize },
    #[error("the result is too large (arithmetic overflow at position {pos})")]
    Overflow { pos: usize },
    #[error(transparent)]
    Dice(#[from] DiceError),
}
