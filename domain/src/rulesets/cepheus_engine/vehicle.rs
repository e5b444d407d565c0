//! Vehicle damage: how many hits a damage total causes (cepheus-engine.txt, "Vehicle Damage",
//! table "Vehicle Damage").
//!
//! Decisions:
//! - The table goes up in steps of three points, and the first point of a step already counts
//!   (1–3 is a Single Hit). Beyond 33 the steps carry on the same way: 34–36 is one more step,
//!   37–39 two, and so on.
//! - "+1 Single Hit per extra three points" and "+1 Double Hit per extra six points" are read
//!   together, not added up: every two extra steps make one Double Hit, and an odd step left over
//!   makes one Single Hit. So 36 → Two Triple Hits + Single; 39 → Two Triple Hits + Double (not also
//!   two Singles); 42 → Two Triple Hits + Double + Single; 45 → Two Triple Hits + two Doubles. This
//!   matches the table itself, where two steps' worth of Singles becomes a Double (4–6 is two
//!   Singles, 7–9 a Double; 10–12 three Singles, 13–15 two Singles and a Double).
//! - Hits are listed as the table prints them, and any extra Doubles and Single come after the two
//!   Triples.
//! - Damage above 1,000 is refused (field `damage`): far beyond any personal-scale weapon, and it
//!   keeps the list of hits small.

use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Most damage one attack may bring to this table.
pub const MAX_VEHICLE_DAMAGE: i32 = 1000;

/// One entry of the Vehicle Damage table; a Double or Triple is that many hits on one location.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineHit))]
#[serde(rename_all = "snake_case")]
pub enum Hit {
    Single,
    Double,
    Triple,
}

use Hit::{Double as D, Single as S, Triple as T};

/// The printed rows, one per three-point step: row 0 is 1–3 damage, row 10 is 31–33.
const TABLE: [&[Hit]; 11] =
    [&[S], &[S, S], &[D], &[S, S, S], &[S, S, D], &[D, D], &[T], &[T, S], &[T, D], &[T, D, S], &[T, T]];

/// The hits a vehicle suffers from damage that already got past its armour (cepheus-engine.txt,
/// "Vehicle Damage"); 0 or less is no damage. Extra steps beyond 33 follow this module's decisions.
pub fn vehicle_hits(damage: i32) -> Result<Vec<Hit>, RuleError> {
    if damage > MAX_VEHICLE_DAMAGE {
        return Err(RuleError::invalid("damage", "vehicle damage above 1000 is beyond this table"));
    }
    if damage <= 0 {
        return Ok(Vec::new());
    }
    let step = ((damage - 1) / 3) as usize;
    let Some(extra_steps) = step.checked_sub(TABLE.len() - 1) else {
        return Ok(TABLE[step].to_vec());
    };
    let mut hits = TABLE[TABLE.len() - 1].to_vec();
    hits.extend(std::iter::repeat_n(Hit::Double, extra_steps / 2));
    if extra_steps % 2 == 1 {
        hits.push(Hit::Single);
    }
    Ok(hits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(damage: i32) -> Vec<Hit> {
        vehicle_hits(damage).unwrap()
    }

    #[test]
    fn no_damage_no_hits() {
        assert_eq!(hits(0), vec![]);
        assert_eq!(hits(-5), vec![]);
    }

    #[test]
    fn printed_rows() {
        assert_eq!(hits(1), vec![S]);
        assert_eq!(hits(3), vec![S]);
        assert_eq!(hits(4), vec![S, S]);
        assert_eq!(hits(9), vec![D]);
        assert_eq!(hits(12), vec![S, S, S]);
        assert_eq!(hits(13), vec![S, S, D]);
        assert_eq!(hits(18), vec![D, D]);
        assert_eq!(hits(19), vec![T]);
        assert_eq!(hits(24), vec![T, S]);
        assert_eq!(hits(25), vec![T, D]);
        assert_eq!(hits(30), vec![T, D, S]);
        assert_eq!(hits(31), vec![T, T]);
        assert_eq!(hits(33), vec![T, T]);
    }

    #[test]
    fn beyond_33_each_three_points_is_a_step_and_two_steps_a_double() {
        // 34 and 36: (34 − 1) / 3 = 11 and (36 − 1) / 3 = 11 → one step past row 10 → + Single.
        assert_eq!(hits(34), vec![T, T, S]);
        assert_eq!(hits(36), vec![T, T, S]);
        // 39: (39 − 1) / 3 = 12 → two steps → + Double.
        assert_eq!(hits(39), vec![T, T, D]);
        // 42: 41 / 3 = 13 → three steps → + Double + Single.
        assert_eq!(hits(42), vec![T, T, D, S]);
        // 45: 44 / 3 = 14 → four steps → + two Doubles.
        assert_eq!(hits(45), vec![T, T, D, D]);
    }

    #[test]
    fn the_cap_is_enforced() {
        // 1000: 999 / 3 = 333 → 323 extra steps → 161 Doubles + 1 Single, after the two Triples.
        let most = hits(MAX_VEHICLE_DAMAGE);
        assert_eq!(most.len(), 2 + 161 + 1);
        let err = vehicle_hits(MAX_VEHICLE_DAMAGE + 1).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "damage"));
    }
}
