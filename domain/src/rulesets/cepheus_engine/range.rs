//! Personal combat range bands (cepheus-engine.txt, "Range", table "Personal Combat Range Bands").
//!
//! Decisions:
//! - The metres column overlaps at 3 m and 12 m and leaves gaps between 50 and 51 m, 250 and
//!   251 m, and 500 and 501 m. Each band runs from just above the previous band's top figure up to
//!   and including its own top figure: Personal under 1.5 m; Close 1.5 m to 3 m; Short over 3 m to
//!   12 m; Medium over 12 m to 50 m; Long over 50 m to 250 m; Very Long over 250 m to 500 m;
//!   Distant over 500 m. The squares column agrees at the overlaps: 2 squares (3 m) is Close and
//!   8 squares (12 m) is Short.
//! - Squares follow the printed squares column rather than squares × 1.5 m, because a grid player
//!   reads that column. The two columns disagree only at 34 squares (51 m): Medium on the grid,
//!   Long in metres. The column prints 334 squares in both Very Long and Distant; 334 squares is
//!   501 m, which the metres column calls Distant, so Very Long is 167 to 333 squares.
//! - A distance must be a finite number of metres, 0 or more; NaN, infinities and negatives are
//!   refused.

use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Side of one grid square (cepheus-engine.txt, "Movement").
pub const METRES_PER_SQUARE: f64 = 1.5;

/// The seven personal combat range bands, nearest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineRangeBand))]
#[serde(rename_all = "snake_case")]
pub enum RangeBand {
    Personal,
    Close,
    Short,
    Medium,
    Long,
    VeryLong,
    Distant,
}

impl RangeBand {
    /// Every band, nearest first (the column order of the range tables).
    pub const ALL: [RangeBand; 7] = [
        RangeBand::Personal,
        RangeBand::Close,
        RangeBand::Short,
        RangeBand::Medium,
        RangeBand::Long,
        RangeBand::VeryLong,
        RangeBand::Distant,
    ];

    /// The band's name as the rules print it.
    pub fn label(self) -> &'static str {
        match self {
            RangeBand::Personal => "Personal",
            RangeBand::Close => "Close",
            RangeBand::Short => "Short",
            RangeBand::Medium => "Medium",
            RangeBand::Long => "Long",
            RangeBand::VeryLong => "Very Long",
            RangeBand::Distant => "Distant",
        }
    }
}

/// The range band for a distance in metres (cepheus-engine.txt, "Range"), using the boundaries
/// chosen in this module's decisions.
pub fn band_for_metres(distance_m: f64) -> Result<RangeBand, RuleError> {
    if !distance_m.is_finite() || distance_m < 0.0 {
        return Err(RuleError::invalid("distance_m", "must be a finite number of metres, 0 or more"));
    }
    let band = match distance_m {
        d if d < 1.5 => RangeBand::Personal,
        d if d <= 3.0 => RangeBand::Close,
        d if d <= 12.0 => RangeBand::Short,
        d if d <= 50.0 => RangeBand::Medium,
        d if d <= 250.0 => RangeBand::Long,
        d if d <= 500.0 => RangeBand::VeryLong,
        _ => RangeBand::Distant,
    };
    Ok(band)
}

/// The range band for a distance counted in grid squares (cepheus-engine.txt, "Range", squares
/// column), 0 meaning both combatants share a square.
pub fn band_for_squares(squares: u32) -> RangeBand {
    match squares {
        0 => RangeBand::Personal,
        1..=2 => RangeBand::Close,
        3..=8 => RangeBand::Short,
        9..=34 => RangeBand::Medium,
        35..=166 => RangeBand::Long,
        167..=333 => RangeBand::VeryLong,
        _ => RangeBand::Distant,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metres_follow_the_table_at_every_boundary() {
        let cases = [
            (0.0, RangeBand::Personal),
            (1.49, RangeBand::Personal),
            // "Close 1.5 to 3 meters": both ends are Close.
            (1.5, RangeBand::Close),
            (3.0, RangeBand::Close),
            // Short "3 to 12": 3 already went to Close, 12 is Short.
            (3.01, RangeBand::Short),
            (12.0, RangeBand::Short),
            (12.5, RangeBand::Medium),
            (50.0, RangeBand::Medium),
            // The 50–51 m gap goes to Long.
            (50.5, RangeBand::Long),
            (51.0, RangeBand::Long),
            (250.0, RangeBand::Long),
            (250.5, RangeBand::VeryLong),
            (500.0, RangeBand::VeryLong),
            (500.5, RangeBand::Distant),
            (10_000.0, RangeBand::Distant),
        ];
        for (metres, band) in cases {
            assert_eq!(band_for_metres(metres).unwrap(), band, "{metres} m");
        }
    }

    #[test]
    fn bad_distances_are_refused_on_distance_m() {
        for bad in [-0.1, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let err = band_for_metres(bad).unwrap_err();
            assert!(matches!(err, RuleError::Invalid { ref field, .. } if field == "distance_m"), "{bad}");
        }
    }

    #[test]
    fn squares_follow_the_squares_column() {
        let cases = [
            (0, RangeBand::Personal),
            (1, RangeBand::Close),
            (2, RangeBand::Close),
            (3, RangeBand::Short),
            (8, RangeBand::Short),
            (9, RangeBand::Medium),
            (34, RangeBand::Medium),
            (35, RangeBand::Long),
            (166, RangeBand::Long),
            (167, RangeBand::VeryLong),
            (333, RangeBand::VeryLong),
            // 334 is printed in two rows; 334 × 1.5 = 501 m, Distant in metres.
            (334, RangeBand::Distant),
            (u32::MAX, RangeBand::Distant),
        ];
        for (squares, band) in cases {
            assert_eq!(band_for_squares(squares), band, "{squares} squares");
        }
    }

    #[test]
    fn squares_and_metres_agree_except_at_34_squares() {
        // 34 squares × 1.5 = 51 m: Medium by the squares column, Long by the metres column.
        for squares in 0..400u32 {
            let metres = f64::from(squares) * METRES_PER_SQUARE;
            let by_metres = band_for_metres(metres).unwrap();
            if squares == 34 {
                assert_eq!((band_for_squares(squares), by_metres), (RangeBand::Medium, RangeBand::Long));
            } else {
                assert_eq!(band_for_squares(squares), by_metres, "{squares} squares");
            }
        }
    }
}
