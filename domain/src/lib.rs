//! Skirmish's combat rules as pure functions: dice, encounters and the five rulesets.
//! Nothing here does I/O; every die comes through [`dice::Dice`].

pub mod bare_or_tagged;
pub mod dice;
pub mod dice_text;
pub mod encounter;
pub mod number_text;
pub mod rulesets;
pub mod score;
