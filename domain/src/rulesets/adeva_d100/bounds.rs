//! The bounds of every number a client sends to this ruleset (docs/rulesets/adeva-d100.md, §2 and
//! §4 "Bounds"), as [`Score`] types, and the few helpers that read and write them.

use crate::score::Score;

/// Wounds (maximum and taken) and a damage amount: at most 10,000.
pub type Wounds = Score<0, 10_000>;
/// Levels of fatigue held on a stat block: at most 1,000.
pub type FatigueLevels = Score<0, 1_000>;
/// Fate Points, Armour Points, Penetration, Size / SB of a ship, hits: 0–100.
pub type Points = Score<0, 100>;
/// A size modifier to movement, in squares: ±20 (as every movement modifier).
pub type SizeModifier = Score<-20, 20>;
/// A Deflector's strength: 0–200.
pub type DeflectorStrength = Score<0, 200>;
/// A distance in squares: 0–1,000.
pub type Squares = Score<0, 1_000>;
/// A flat damage bonus, a single modifier: ±100.
pub type Signed100 = Score<-100, 100>;

/// A non-negative score as an unsigned number (exact: its minimum is 0).
pub trait Unsigned {
    fn n(self) -> u32;
}

impl<const MAX: i32> Unsigned for Score<0, MAX> {
    fn n(self) -> u32 {
        self.get().unsigned_abs()
    }
}

/// The value nearest to `value` within `MIN..=MAX` (for numbers the engine writes back, e.g. the
/// wounds taken or the fatigue held at 1,000).
pub fn held<const MIN: i32, const MAX: i32>(value: i64) -> Score<MIN, MAX> {
    let value = value.clamp(i64::from(MIN), i64::from(MAX));
    Score::new(value).unwrap_or_else(|_| unreachable!("clamped into its own bounds"))
}

/// 0, for `#[serde(default = "bounds::zero")]`.
pub fn zero<const MAX: i32>() -> Score<0, MAX> {
    held(0)
}

/// A zero score (skip it when writing).
pub fn is_zero<const MIN: i32, const MAX: i32>(value: &Score<MIN, MAX>) -> bool {
    value.get() == 0
}

/// Readers for `#[serde(deserialize_with = …)]`: the number goes through a [`Score`] with the
/// field's bounds (out of range → refused, naming the field), then is held as a plain number.
/// Each field also publishes its bounds (`minimum`/`maximum`).
pub mod read {
    use crate::score::Score;
    use serde::{Deserialize, Deserializer};

    fn unsigned<'de, D: Deserializer<'de>, const MIN: i32, const MAX: i32>(d: D) -> Result<u32, D::Error> {
        Ok(Score::<MIN, MAX>::deserialize(d)?.get().unsigned_abs())
    }

    fn signed<'de, D: Deserializer<'de>, const MIN: i32, const MAX: i32>(d: D) -> Result<i32, D::Error> {
        Ok(Score::<MIN, MAX>::deserialize(d)?.get())
    }

    fn optional<'de, D: Deserializer<'de>, const MIN: i32, const MAX: i32>(
        d: D,
    ) -> Result<Option<u32>, D::Error> {
        Ok(Option::<Score<MIN, MAX>>::deserialize(d)?.map(|score| score.get().unsigned_abs()))
    }

    /// 0–100: penetration, Size / SB, hits, equipped weapons.
    pub fn points<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        unsigned::<D, 0, 100>(d)
    }
    /// 0–100, optional.
    pub fn points_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        optional::<D, 0, 100>(d)
    }
    /// 1–100: Hit ratings, auto capacities, fatigue levels per command, a decay's amount.
    pub fn rating<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        unsigned::<D, 1, 100>(d)
    }
    /// 1–100, optional.
    pub fn rating_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        optional::<D, 1, 100>(d)
    }
    /// 0–1,000 squares.
    pub fn squares<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        unsigned::<D, 0, 1_000>(d)
    }
    /// 0–1,000 squares, optional.
    pub fn squares_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        optional::<D, 0, 1_000>(d)
    }
    /// 0–10,000: a damage amount.
    pub fn amount<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        unsigned::<D, 0, 10_000>(d)
    }
    /// 1–1,000 turns, optional.
    pub fn turns_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        optional::<D, 1, 1_000>(d)
    }
    /// 0–20 damage dice.
    pub fn dice_count<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        unsigned::<D, 0, 20>(d)
    }
    /// 2–100 sides.
    pub fn sides<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        unsigned::<D, 2, 100>(d)
    }
    /// −100–+100: a flat bonus or a modifier.
    pub fn signed100<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
        signed::<D, -100, 100>(d)
    }
    /// 0–300: a bare test threshold.
    pub fn threshold<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        unsigned::<D, 0, 300>(d)
    }
}
