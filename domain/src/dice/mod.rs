//! Dice: the one injectable dice source every rule rolls through, the record of every die, and
//! the dice-expression language (`4d6kh3+2`, `2d20kl1`, `1d6!`, `1d20rr<2`, …).

mod source;

pub use source::{Dice, DiceError, DiceSource, DieRoll, DieStatus, MAX_SCRIPTED_ROLLS, ScriptedDice, SeededDice};
