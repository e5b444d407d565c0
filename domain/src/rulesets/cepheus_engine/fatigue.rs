//! Fatigue and the DMs a character's condition puts on every check (cepheus-engine.txt,
//! "Fatigue" and "Unconsciousness").
//!
//! Decisions:
//! - Fatigue is a flag on the stat block (`fatigued`). Becoming fatigued while already fatigued
//!   sets `knocked_out`, which makes the status Unconscious; the character stays fatigued.
//!   Fatigue on a knocked-out character keeps them knocked out.
//! - Resting needs 3 − Endurance DM hours, using the current (damaged) Endurance, and never less
//!   than 0. Resting clears `fatigued` only; waking up (an Endurance check each minute, rolled
//!   elsewhere) clears `knocked_out` only.
//! - Fatigue is the only condition in the text that puts a DM on all checks; seriously wounded
//!   costs actions, not DMs (`status_effects.rs`).

use super::Stats;
use super::character::Physical;
use super::modifier::Modifier;
use serde::{Deserialize, Serialize};

/// The DM on all checks while fatigued (cepheus-engine.txt, "Fatigue").
pub const FATIGUE_DM: i32 = -2;

/// Hours of rest before the Endurance DM is taken off (cepheus-engine.txt, "Fatigue").
pub const BASE_REST_HOURS: i32 = 3;

/// What one bout of fatigue did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineFatigueOutcome))]
#[serde(rename_all = "snake_case")]
pub enum FatigueOutcome {
    /// The character is now fatigued (−2 to all checks).
    Fatigued,
    /// Already fatigued: the character falls unconscious.
    KnockedOut,
}

/// Fatigues a character: the first time a −2 DM on all checks, and fatigue on top of fatigue
/// knocks them unconscious (cepheus-engine.txt, "Fatigue").
pub fn apply_fatigue(stats: &mut Stats) -> FatigueOutcome {
    if stats.fatigued {
        stats.knocked_out = true;
        FatigueOutcome::KnockedOut
    } else {
        stats.fatigued = true;
        FatigueOutcome::Fatigued
    }
}

/// Hours of rest that end fatigue: 3 less the Endurance DM, at least 0 (cepheus-engine.txt,
/// "Fatigue").
pub fn rest_hours_needed(stats: &Stats) -> i32 {
    (BASE_REST_HOURS - stats.current_dm(Physical::End)).max(0)
}

/// The character has rested long enough: no longer fatigued (cepheus-engine.txt, "Fatigue").
pub fn finish_rest(stats: &mut Stats) {
    stats.fatigued = false;
}

/// The character passed the Endurance check to come round (cepheus-engine.txt,
/// "Unconsciousness"). Unconsciousness from damage lasts until the damage heals.
pub fn regain_consciousness(stats: &mut Stats) {
    stats.knocked_out = false;
}

impl Stats {
    /// Every DM the character's own condition puts on any check: −2 while fatigued
    /// (cepheus-engine.txt, "Fatigue").
    pub fn check_dm_penalties(&self) -> Vec<Modifier> {
        let mut penalties = Vec::new();
        if self.fatigued {
            penalties.push(Modifier::new("fatigued", FATIGUE_DM));
        }
        penalties
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::cepheus_engine::Characteristic;
    use crate::rulesets::cepheus_engine::damage::Status;
    use crate::score::Score;

    fn with_end(end: i64) -> Stats {
        let c = |value| Characteristic::new(value).unwrap();
        Stats::with_characteristics(c(7), c(7), c(end), c(7), c(7), c(7))
    }

    #[test]
    fn fatigue_gives_minus_two_to_every_check() {
        let mut stats = with_end(7);
        assert!(stats.check_dm_penalties().is_empty());
        assert_eq!(apply_fatigue(&mut stats), FatigueOutcome::Fatigued);
        assert!(stats.fatigued && !stats.knocked_out);
        assert_eq!(stats.check_dm_penalties(), vec![Modifier::new("fatigued", -2)]);
        assert_eq!(stats.status(), Status::Uninjured);
    }

    #[test]
    fn fatigue_while_fatigued_knocks_out() {
        let mut stats = with_end(7);
        apply_fatigue(&mut stats);
        assert_eq!(apply_fatigue(&mut stats), FatigueOutcome::KnockedOut);
        assert!(stats.fatigued && stats.knocked_out);
        assert_eq!(stats.status(), Status::Unconscious);
        // Again while out: still out.
        assert_eq!(apply_fatigue(&mut stats), FatigueOutcome::KnockedOut);
    }

    #[test]
    fn waking_and_resting_clear_their_own_flags() {
        let mut stats = with_end(7);
        apply_fatigue(&mut stats);
        apply_fatigue(&mut stats);
        regain_consciousness(&mut stats);
        // Awake but still fatigued: status back to uninjured, −2 still applies.
        assert_eq!(stats.status(), Status::Uninjured);
        assert_eq!(stats.check_dm_penalties().len(), 1);
        finish_rest(&mut stats);
        assert!(stats.check_dm_penalties().is_empty());
    }

    #[test]
    fn rest_needed_is_three_less_the_endurance_dm() {
        // END 7 → DM 0 → 3 h; END 2 → DM −2 → 5 h; END 12 → DM +2 → 1 h; END 15 → +3 → 0 h.
        assert_eq!(rest_hours_needed(&with_end(7)), 3);
        assert_eq!(rest_hours_needed(&with_end(2)), 5);
        assert_eq!(rest_hours_needed(&with_end(12)), 1);
        assert_eq!(rest_hours_needed(&with_end(15)), 0);
        // Damage counts: END 12 − 10 = 2 → DM −2 → 5 h.
        let mut hurt = with_end(12);
        hurt.damage.end = Score::new(10).unwrap();
        assert_eq!(rest_hours_needed(&hurt), 5);
    }
}
