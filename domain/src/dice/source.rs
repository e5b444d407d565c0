//! The dice source. Rules never touch an RNG directly: they call [`Dice::roll`], which takes the
//! next value from the source and records it (sides, value, purpose) for the event log.

use rand::{RngExt, SeedableRng, rngs::ChaCha8Rng};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::VecDeque;

/// Most scripted values a client may send with one request.
pub const MAX_SCRIPTED_ROLLS: usize = 1000;
/// Most sides a single die may have anywhere in Skirmish.
pub const MAX_SIDES: u32 = 1000;

/// Why a die could not be rolled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    #[error("rolls[{index}]: {value} is not a possible result of a d{sides} (expected 1..={sides})")]
    ScriptedOutOfRange { index: usize, value: u32, sides: u32 },
    #[error("a die must have between 1 and {MAX_SIDES} sides, not {sides}")]
    BadSides { sides: u32 },
    #[error("rolls: at most {MAX_SCRIPTED_ROLLS} scripted values may be sent, got {count}")]
    TooManyScripted { count: usize },
    #[error("rolls: the roll needed more dice than the {sent} sent (strict_rolls)")]
    ScriptedExhausted { sent: usize },
    #[error("rolls: {unused} of the {sent} sent rolls were not used (strict_rolls)")]
    ScriptedUnused { unused: usize, sent: usize },
}

/// Where a recorded die's value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub enum DieSource {
    /// A value the client sent (rolled at the table).
    Scripted,
    /// The seeded RNG.
    Rng,
}

/// Where die values come from. Implementations: [`SeededDice`] (reproducible RNG) and
/// [`ScriptedDice`] (values rolled at the table, then a seeded RNG).
pub trait DiceSource: Send {
    /// One die of `sides` sides (already checked to be in `1..=MAX_SIDES`).
    fn roll_die(&mut self, sides: u32) -> Result<u32, DiceError>;
    /// The seed of the RNG behind this source, reported so a roll can be replayed.
    fn seed(&self) -> u64;
    /// As [`DiceSource::roll_die`], also saying where the value came from. Sources that only
    /// use their RNG need not override it.
    fn roll_die_with_source(&mut self, sides: u32) -> Result<(u32, DieSource), DiceError> {
        self.roll_die(sides).map(|value| (value, DieSource::Rng))
    }
    /// Scripted values not used yet, in order (none for a pure RNG).
    fn unused(&self) -> Vec<u32> {
        Vec::new()
    }
    /// How many scripted values were sent (0 for a pure RNG).
    fn sent(&self) -> usize {
        0
    }
    /// Whether running out of scripted values is an error rather than a hand-over to the RNG.
    fn strict(&self) -> bool {
        false
    }
}

/// A reproducible RNG. ChaCha8's stream is fixed by its specification, so a seed gives the same
/// dice across rand versions and platforms (rand's `StdRng` makes no such promise).
pub struct SeededDice {
    seed: u64,
    rng: ChaCha8Rng,
}

impl SeededDice {
    pub fn new(seed: u64) -> Self {
        Self { seed, rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl DiceSource for SeededDice {
    fn roll_die(&mut self, sides: u32) -> Result<u32, DiceError> {
        Ok(self.rng.random_range(1..=sides))
    }

    fn seed(&self) -> u64 {
        self.seed
    }
}

/// Values the client rolled at the table, consumed in order; each is checked against the die it
/// is used for. When they run out, the seeded RNG takes over, or, in strict mode, the roll fails.
pub struct ScriptedDice {
    values: VecDeque<u32>,
    used: usize,
    strict: bool,
    fallback: SeededDice,
}

impl ScriptedDice {
    pub fn new(values: Vec<u32>, fallback_seed: u64) -> Result<Self, DiceError> {
        Self::with_mode(values, fallback_seed, false)
    }

    /// Strict: running out of values is [`DiceError::ScriptedExhausted`], never the RNG.
    pub fn strict(values: Vec<u32>, fallback_seed: u64) -> Result<Self, DiceError> {
        Self::with_mode(values, fallback_seed, true)
    }

    fn with_mode(values: Vec<u32>, fallback_seed: u64, strict: bool) -> Result<Self, DiceError> {
        if values.len() > MAX_SCRIPTED_ROLLS {
            return Err(DiceError::TooManyScripted { count: values.len() });
        }
        Ok(Self { values: values.into(), used: 0, strict, fallback: SeededDice::new(fallback_seed) })
    }

    /// How many scripted values have been used so far.
    pub fn used(&self) -> usize {
        self.used
    }
}

impl DiceSource for ScriptedDice {
    fn roll_die(&mut self, sides: u32) -> Result<u32, DiceError> {
        self.roll_die_with_source(sides).map(|(value, _)| value)
    }

    fn seed(&self) -> u64 {
        self.fallback.seed()
    }

    fn roll_die_with_source(&mut self, sides: u32) -> Result<(u32, DieSource), DiceError> {
        let Some(value) = self.values.pop_front() else {
            if self.strict {
                return Err(DiceError::ScriptedExhausted { sent: self.used });
            }
            return Ok((self.fallback.roll_die(sides)?, DieSource::Rng));
        };
        let index = self.used;
        self.used += 1;
        if value == 0 || value > sides {
            return Err(DiceError::ScriptedOutOfRange { index, value, sides });
        }
        Ok((value, DieSource::Scripted))
    }

    fn unused(&self) -> Vec<u32> {
        self.values.iter().copied().collect()
    }

    fn sent(&self) -> usize {
        self.used + self.values.len()
    }

    fn strict(&self) -> bool {
        self.strict
    }
}

/// What became of a die within its roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum DieStatus {
    /// Counts toward the result.
    Kept,
    /// Removed by keep/drop (`kh`, `dl`, …) or by a rule such as blind fire's "highest removed".
    Dropped,
    /// Replaced by a reroll (`rr`, `ro`); the reroll follows it in the record.
    Rerolled,
    /// Counts, and added a die by exploding (`!`, `e`, `ra`); the new die follows in the record.
    Exploded,
    /// Counts as a higher value (`mi`): see `counted_as`.
    Raised,
    /// Counts as a lower value (`ma`): see `counted_as`.
    Lowered,
}

impl DieStatus {
    /// Whether the die counts toward its result (kept, exploded, raised or lowered).
    pub fn counts(self) -> bool {
        !matches!(self, Self::Dropped | Self::Rerolled)
    }
}

/// One die as rolled: the record the event log and every response carry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct DieRoll {
    pub sides: u32,
    pub value: u32,
    /// What the die was rolled for, e.g. "initiative: Vasquez" or "dice: 4d6kh3".
    // Borrowed when the purpose is fixed text (see `Dice::roll_for`), so such a die allocates
    // nothing; it is a plain string in every answer and in the event log.
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub purpose: Cow<'static, str>,
    pub status: DieStatus,
    /// Whether the value was sent by the client or drawn from the seeded RNG.
    pub source: DieSource,
    /// True when this die was added by an exploding die before it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub explosion: bool,
    /// The value the die counts as when `mi`/`ma` changed it (`value` stays what it showed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counted_as: Option<u32>,
}

/// Dice most requests roll: an attack's 2D6 check and a few damage dice.
const USUAL_ROLLS: usize = 8;

/// The dice of one request: a source plus the record of everything rolled from it.
pub struct Dice {
    source: Box<dyn DiceSource>,
    rolls: Vec<DieRoll>,
}

impl Dice {
    /// The record starts with room for [`USUAL_ROLLS`] dice, so an attack's check and damage
    /// dice are recorded without growing it twice.
    pub fn new(source: Box<dyn DiceSource>) -> Self {
        Self { source, rolls: Vec::with_capacity(USUAL_ROLLS) }
    }

    /// Seeded RNG only.
    pub fn seeded(seed: u64) -> Self {
        Self::new(Box::new(SeededDice::new(seed)))
    }

    /// Scripted values first, then the RNG seeded with `fallback_seed`.
    pub fn scripted(values: Vec<u32>, fallback_seed: u64) -> Result<Self, DiceError> {
        Ok(Self::new(Box::new(ScriptedDice::new(values, fallback_seed)?)))
    }

    /// Scripted values only: needing more is [`DiceError::ScriptedExhausted`], and
    /// [`Dice::finish_strict`] reports any left unused. `fallback_seed` is only reported.
    pub fn scripted_strict(values: Vec<u32>, fallback_seed: u64) -> Result<Self, DiceError> {
        Ok(Self::new(Box::new(ScriptedDice::strict(values, fallback_seed)?)))
    }

    /// Whether the scripted values must be exactly the dice rolled (`strict_rolls`).
    pub fn is_strict(&self) -> bool {
        self.source.strict()
    }

    /// The scripted values not used so far, in order.
    pub fn unused_rolls(&self) -> Vec<u32> {
        self.source.unused()
    }

    /// In strict mode, an error when some scripted values were never used; otherwise `Ok`.
    /// Call it once the request has rolled everything it needs.
    pub fn finish_strict(&self) -> Result<(), DiceError> {
        let unused = self.source.unused().len();
        if self.source.strict() && unused > 0 {
            return Err(DiceError::ScriptedUnused { unused, sent: self.source.sent() });
        }
        Ok(())
    }

    /// Rolls one die and records it as kept. Returns its index in [`Dice::rolls`] and its value.
    pub fn roll(&mut self, sides: u32, purpose: impl Into<String>) -> Result<u32, DiceError> {
        self.roll_indexed(sides, purpose).map(|(_, value)| value)
    }

    /// As [`Dice::roll`] for a purpose that is fixed text or already owned: a `&'static str`
    /// is recorded without copying it.
    pub fn roll_for(&mut self, sides: u32, purpose: impl Into<Cow<'static, str>>) -> Result<u32, DiceError> {
        self.record(sides, purpose.into()).map(|(_, value)| value)
    }

    /// As [`Dice::roll`], also returning the index of the record so it can be re-marked.
    pub fn roll_indexed(
        &mut self,
        sides: u32,
        purpose: impl Into<String>,
    ) -> Result<(usize, u32), DiceError> {
        self.record(sides, Cow::Owned(purpose.into()))
    }

    fn record(&mut self, sides: u32, purpose: Cow<'static, str>) -> Result<(usize, u32), DiceError> {
        if sides == 0 || sides > MAX_SIDES {
            return Err(DiceError::BadSides { sides });
        }
        let (value, source) = self.source.roll_die_with_source(sides)?;
        self.rolls.push(DieRoll {
            sides,
            value,
            purpose,
            status: DieStatus::Kept,
            source,
            explosion: false,
            counted_as: None,
        });
        Ok((self.rolls.len() - 1, value))
    }

    /// Makes room in the record for `additional` more dice (a dice expression knows how many it
    /// writes), so recording them does not grow the record die by die.
    pub fn reserve(&mut self, additional: usize) {
        self.rolls.reserve(additional);
    }

    /// Re-marks an already recorded die (dropped, rerolled, or an explosion).
    pub fn record_mut(&mut self, index: usize) -> Option<&mut DieRoll> {
        self.rolls.get_mut(index)
    }

    pub fn rolls(&self) -> &[DieRoll] {
        &self.rolls
    }

    pub fn into_rolls(self) -> Vec<DieRoll> {
        self.rolls
    }

    pub fn seed(&self) -> u64 {
        self.source.seed()
    }
}

#[cfg(test)]
#[path = "source_tests.rs"]
mod tests;
