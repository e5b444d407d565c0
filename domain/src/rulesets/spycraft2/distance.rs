//! Step 2: base encounter distance (spycraft2.txt, "Step 2: Base Encounter Distance" and
//! "Table: Base Encounter Distance").

use super::stats::Feet;
use crate::dice::Dice;
use crate::encounter::EncounterError;
use serde::{Deserialize, Serialize};

/// The locations of Table: Base Encounter Distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Terrain))]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Line of sight.
    Indoors,
    /// Aquatic, plains or desert: 6d6 × 20 ft.
    Aquatic,
    Plains,
    Desert,
    /// Arctic, forest or outdoor urban: 4d6 × 10 ft.
    Arctic,
    Forest,
    OutdoorUrban,
    /// Jungle or swamp: 2d6 × 10 ft.
    Jungle,
    Swamp,
    /// Mountains or underwater: 6d6 × 5 ft.
    Mountains,
    Underwater,
}

impl Terrain {
    /// The table's dice (number of d6) and feet per point; `None` indoors (line of sight).
    pub fn dice(self) -> Option<(u32, i32)> {
        match self {
            Self::Indoors => None,
            Self::Aquatic | Self::Plains | Self::Desert => Some((6, 20)),
            Self::Arctic | Self::Forest | Self::OutdoorUrban => Some((4, 10)),
            Self::Jungle | Self::Swamp => Some((2, 10)),
            Self::Mountains | Self::Underwater => Some((6, 5)),
        }
    }
}

/// How the base distance was reached before the cap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2BaseDistance))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BaseDistance {
    /// Indoors: the distance is the line of sight, in feet when the caller gave it.
    LineOfSight { line_of_sight_ft: Option<i32> },
    /// Outdoors: `count`d6 (the dice, their sum) × `feet_per_point`.
    Rolled { count: u32, dice: Vec<u32>, sum: i32, feet_per_point: i32, rolled_ft: i32 },
}

/// The base encounter distance and its cap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2DistanceReport))]
pub struct DistanceReport {
    pub terrain: Terrain,
    pub base: BaseDistance,
    /// The highest visual or hearing range of anyone present; `None` when no range is known.
    pub cap_ft: Option<i32>,
    /// The base distance exceeded the cap and was reduced to it.
    pub capped: bool,
    /// The distance between the groups; `None` indoors without a line-of-sight figure.
    pub distance_ft: Option<i32>,
}

impl crate::rulesets::Summary for DistanceReport {
    fn summary(&self) -> String {
        let distance = self.distance_ft.map_or_else(|| "line of sight".to_owned(), |ft| format!("{ft} ft."));
        let how = match &self.base {
            BaseDistance::LineOfSight { .. } => "indoors".to_owned(),
            BaseDistance::Rolled { count, sum, feet_per_point, rolled_ft, .. } => {
                format!("{count}d6 ({sum}) × {feet_per_point} = {rolled_ft} ft.")
            }
        };
        match (self.capped, self.cap_ft) {
            (true, Some(cap)) => {
                format!("Base encounter distance {distance}: {how}, capped at the farthest sense ({cap} ft.)")
            }
            _ => format!("Base encounter distance {distance}: {how}"),
        }
    }
}

/// Rolls (or reads) the base encounter distance, then caps it at the farthest visual or hearing
/// range present (the table's footnote). `cap_ft` is that range, if any is known.
pub fn base_distance(
    terrain: Terrain,
    line_of_sight_ft: Option<Feet>,
    cap_ft: Option<i32>,
    dice: &mut Dice,
) -> Result<DistanceReport, EncounterError> {
    let (base, uncapped) = match terrain.dice() {
        None => {
            let line = line_of_sight_ft.map(|feet| feet.get());
            (BaseDistance::LineOfSight { line_of_sight_ft: line }, line)
        }
        Some((count, feet_per_point)) => {
            if line_of_sight_ft.is_some() {
                return Err(EncounterError::invalid(
                    "line_of_sight_ft",
                    "only indoor distances are the line of sight; outdoor ones are rolled",
                ));
            }
            let mut rolled = Vec::new();
            for _ in 0..count {
                rolled.push(dice.roll(6, "base encounter distance")?);
            }
            let sum: i32 = rolled.iter().map(|&die| die as i32).sum();
            let rolled_ft = sum * feet_per_point;
            (BaseDistance::Rolled { count, dice: rolled, sum, feet_per_point, rolled_ft }, Some(rolled_ft))
        }
    };
    let capped = matches!((uncapped, cap_ft), (Some(distance), Some(cap)) if distance > cap);
    let distance_ft = if capped { cap_ft } else { uncapped };
    Ok(DistanceReport { terrain, base, cap_ft, capped, distance_ft })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Score;

    #[test]
    fn plains_roll_6d6_times_20_under_the_cap() {
        // Plains: 6d6 × 20 ft. Dice 1,2,3,4,5,6 = 21 → 420 ft; farthest sense 500 ft → not capped.
        let mut dice = Dice::scripted(vec![1, 2, 3, 4, 5, 6], 0).unwrap();
        let report = base_distance(Terrain::Plains, None, Some(500), &mut dice).unwrap();
        assert_eq!(report.distance_ft, Some(420));
        assert!(!report.capped);
        assert_eq!(dice.rolls().len(), 6);
    }

    #[test]
    fn a_distance_beyond_every_sense_is_reduced_to_the_farthest() {
        // Forest: 4d6 × 10 ft. 6,6,6,5 = 23 → 230 ft; the farthest sense is 150 ft → 150 ft.
        let mut dice = Dice::scripted(vec![6, 6, 6, 5], 0).unwrap();
        let report = base_distance(Terrain::Forest, None, Some(150), &mut dice).unwrap();
        assert_eq!(
            report.base,
            BaseDistance::Rolled {
                count: 4,
                dice: vec![6, 6, 6, 5],
                sum: 23,
                feet_per_point: 10,
                rolled_ft: 230
            }
        );
        assert_eq!((report.capped, report.distance_ft), (true, Some(150)));
    }

    #[test]
    fn every_row_of_the_table() {
        // Jungle 2d6 × 10: 3+4 = 7 → 70. Mountains 6d6 × 5: six 2s = 12 → 60. Desert 6d6 × 20:
        // six 1s = 6 → 120. Outdoor urban 4d6 × 10: four 3s = 12 → 120. Without a known
        // sense there is no cap.
        let cases = [
            (Terrain::Jungle, vec![3, 4], 70),
            (Terrain::Swamp, vec![1, 1], 20),
            (Terrain::Mountains, vec![2; 6], 60),
            (Terrain::Underwater, vec![6; 6], 180),
            (Terrain::Desert, vec![1; 6], 120),
            (Terrain::Aquatic, vec![6; 6], 720),
            (Terrain::OutdoorUrban, vec![3; 4], 120),
            (Terrain::Arctic, vec![1; 4], 40),
        ];
        for (terrain, rolls, feet) in cases {
            let mut dice = Dice::scripted(rolls, 0).unwrap();
            let report = base_distance(terrain, None, None, &mut dice).unwrap();
            assert_eq!(report.distance_ft, Some(feet), "{terrain:?}");
        }
    }

    #[test]
    fn indoors_is_line_of_sight_without_dice() {
        // Indoors, a 90-ft. hall with a 60-ft. farthest sense → 60 ft.; no die rolled.
        let mut dice = Dice::scripted(vec![], 0).unwrap();
        let report =
            base_distance(Terrain::Indoors, Some(Score::new(90).unwrap()), Some(60), &mut dice).unwrap();
        assert_eq!((report.capped, report.distance_ft), (true, Some(60)));
        let open = base_distance(Terrain::Indoors, None, Some(60), &mut dice).unwrap();
        assert_eq!(open.distance_ft, None);
        assert!(dice.rolls().is_empty());
    }
}
