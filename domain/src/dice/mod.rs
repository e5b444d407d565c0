//! Dice: the one injectable dice source every rule rolls through, the record of every die, and
//! the dice-expression language (`4d6kh3+2`, `2d20kl1`, `1d6!`, `1d20rr<2`, …).

mod expr;
mod source;

pub use expr::{
    DiceExpr, DiceExprError, ExprOutcome, MAX_DECIMALS, MAX_DICE_PER_GROUP, MAX_DICE_TOTAL,
    MAX_EXPRESSION_LEN, MAX_NUMBER, MAX_PAREN_DEPTH, MAX_SET_SIZE, Ratio, Term,
};
pub use source::{
    Dice, DiceError, DiceSource, DieRoll, DieSource, DieStatus, MAX_SCRIPTED_ROLLS, MAX_SIDES, ScriptedDice,
    SeededDice,
};
