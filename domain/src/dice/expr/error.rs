//! Everything that can go wrong with a dice expression, worded for the person who typed it.
//! Positions are character offsets from 0.

use super::{
    MAX_DECIMALS, MAX_DICE_PER_GROUP, MAX_DICE_TOTAL, MAX_EXPRESSION_LEN, MAX_NUMBER, MAX_PAREN_DEPTH,
    MAX_SET_SIZE,
};
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
    #[error("'{op}' at position {pos} would never stop on a d{sides}: there is always a die it selects")]
    NeverEnds { op: String, pos: usize, sides: u32 },
    #[error("'{op}' at position {pos} takes a plain number, like {op}2 (not h, l, < or >)")]
    NeedsNumber { op: &'static str, pos: usize },
    #[error("'{op}' at position {pos} works on dice only; sets and parentheses take k and p")]
    NotOnSets { op: String, pos: usize },
    #[error("the set at position {pos} has more than {MAX_SET_SIZE} elements")]
    SetTooLarge { pos: usize },
    #[error("the number at position {pos} has more than {MAX_DECIMALS} decimal places")]
    TooPrecise { pos: usize },
    #[error("the annotation '[' at position {pos} is never closed with ']'")]
    UnclosedAnnotation { pos: usize },
    #[error("the roll was stopped after {MAX_DICE_TOTAL} dice: explosions and rerolls kept going")]
    DiceLimitReached,
    #[error("division by zero: the right side of the '{op}' at position {pos} is 0")]
    DivisionByZero { op: &'static str, pos: usize },
    #[error("the result is too large or too precise (arithmetic overflow at position {pos})")]
    Overflow { pos: usize },
    #[error(transparent)]
    Dice(#[from] DiceError),
}
