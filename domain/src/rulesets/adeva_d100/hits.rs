//! How many hits an attack test scores (adeva-d100.txt, "Attacking", Step Three; "Action List":
//! Burst and Flurry).
//!
//! Decisions:
//! - A failed test scores nothing.
//! - A single-hit action (`max_hits: None`) scores one hit on a pass, however many DoS it has.
//! - A multi-hit action scores one hit per Degree of Success, up to the hits the attacker declared
//!   (at most the weapon's Hit rating: the caller sends that limit as `max_hits`, 1 to 50).
//! - Suppressive Fire's "one extra hit per two DoS" is not handled here: its hits go to random
//!   victims, which the Action List resolves.

use super::test_roll::TestResult;
use crate::rulesets::RuleError;

/// Largest Hit rating accepted.
pub const MAX_HITS: u32 = 50;

/// Hits from one attack test: 0 on a failure; on a pass 1, or for a multi-hit action one per DoS up
/// to `max_hits` (adeva-d100.txt, "Attacking", Step Three).
pub fn hits_scored(test: &TestResult, max_hits: Option<u32>) -> u32 {
    match (test.passed, max_hits) {
        (false, _) => 0,
        (true, None) => 1,
        (true, Some(limit)) => test.degrees.min(limit),
    }
}

/// Refuses a hit limit outside 1..=50; `field` is its JSON path.
pub fn check_max_hits(field: &str, max_hits: Option<u32>) -> Result<(), RuleError> {
    match max_hits {
        Some(limit) if !(1..=MAX_HITS).contains(&limit) => Err(RuleError::invalid(
            field,
            "a multi-hit action declares 1 to 50 hits (up to the weapon's Hit rating)",
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::adeva_d100::test_roll::judge;

    #[test]
    fn a_failure_scores_no_hits() {
        // 60 > 40.
        assert_eq!(hits_scored(&judge(40, 60), Some(4)), 0);
        assert_eq!(hits_scored(&judge(40, 60), None), 0);
    }

    #[test]
    fn a_single_hit_action_scores_one_hit_whatever_the_degrees() {
        // 50 − 5 = 45 → 5 DoS, still one hit.
        assert_eq!(hits_scored(&judge(50, 5), None), 1);
    }

    #[test]
    fn a_multi_hit_action_scores_one_hit_per_degree_up_to_its_limit() {
        // 50 − 28 = 22 → 3 DoS: 3 hits of 4 declared; 5 DoS capped at 4.
        assert_eq!(hits_scored(&judge(50, 28), Some(4)), 3);
        assert_eq!(hits_scored(&judge(50, 5), Some(4)), 4);
    }

    #[test]
    fn a_hit_limit_outside_one_to_fifty_is_refused() {
        assert!(check_max_hits("max_hits", Some(0)).is_err());
        assert!(check_max_hits("max_hits", Some(51)).is_err());
        assert!(check_max_hits("max_hits", Some(50)).is_ok());
        assert!(check_max_hits("max_hits", None).is_ok());
    }
}
