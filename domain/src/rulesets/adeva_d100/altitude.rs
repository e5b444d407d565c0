//! The three altitude bands: who can attack whom, climbing and diving, and falling
//! (adeva-d100.txt, "Altitude").
//!
//! Decisions:
//! - Same band: no restriction and no penalty (the text says so for Low; we read High the same).
//! - Ground attacking Low: no melee; every other attack −20, as the text says.
//! - Low attacking Ground: the text is silent. Melee is impossible (Low is some 60 squares up);
//!   other attacks take no altitude penalty, since the −20 is given only to the Ground attacker.
//! - High and any lower band: neither side can attack the other. A specially long-ranged weapon
//!   with the GM's approval (`long_range_weapon`) lifts this for non-melee attacks only; a Ground
//!   attacker so equipped still takes the −20 it takes against every flier.
//! - Climbing or diving: one band as part of a Half Move, two as part of a Full Move, Charge or
//!   Run. Whether the character can fly at all is the caller's to know.
//! - Falling: one band at each end of round; the move from Low to Ground is the crash. The text's
//!   "200 (or 60) squares equivalent of damage" names a distance, and the text has no falling
//!   rule to turn it into damage. We use 1d10 plus 1 per square fallen (a die keeps some spread,
//!   the squares dominate), so a fall begun High deals 1d10 + 200 and one begun Low 1d10 + 60:
//!   deadly, as the distances suggest. It is reported before soak;
//!   the caller applies soak (`soak.rs`) with no penetration, as for any other damage.

use super::movement::MoveKind;
use super::test_modifiers::Modifier;
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// The altitude −20 on attacks from the Ground at fliers.
pub const GROUND_TO_AIR_PENALTY: i32 = -20;
/// Squares of falling a crash from High is worth.
pub const HIGH_FALL_SQUARES: u32 = 200;
/// Squares of falling a crash from Low is worth.
pub const LOW_FALL_SQUARES: u32 = 60;

/// The altitude bands, lowest first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100AltitudeBand))]
#[serde(rename_all = "snake_case")]
pub enum AltitudeBand {
    /// Walking, or hovering a metre or two up.
    #[default]
    Ground,
    /// About 60 squares up.
    Low,
    /// Far above: 400 to 600 squares and more.
    High,
}

impl AltitudeBand {
    fn index(self) -> u32 {
        match self {
            AltitudeBand::Ground => 0,
            AltitudeBand::Low => 1,
            AltitudeBand::High => 2,
        }
    }

    fn name(self) -> &'static str {
        match self {
            AltitudeBand::Ground => "Ground",
            AltitudeBand::Low => "Low",
            AltitudeBand::High => "High",
        }
    }
}

/// Whether an attack reaches by hand or from afar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Reach))]
#[serde(rename_all = "snake_case")]
pub enum Reach {
    Melee,
    Ranged,
}

/// Whether an attack across altitude bands is possible, and its penalty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100AltitudeAccess))]
pub struct AltitudeAccess {
    pub attacker: AltitudeBand,
    pub target: AltitudeBand,
    pub allowed: bool,
    /// The −20 from the Ground at a flier, when it applies.
    pub modifier: Option<Modifier>,
    pub reason: String,
}

/// Who can attack whom across the bands (adeva-d100.txt, "Altitude"; the silent cases follow the
/// module doc).
pub fn altitude_access(
    attacker: AltitudeBand,
    target: AltitudeBand,
    reach: Reach,
    long_range_weapon: bool,
) -> AltitudeAccess {
    use AltitudeBand::{Ground, High, Low};
    let penalty = || Some(Modifier::new("attacking a flier from the Ground", GROUND_TO_AIR_PENALTY));
    let (allowed, modifier, reason) = match (attacker, target, reach) {
        (a, t, _) if a == t => (true, None, "same altitude band: no penalty".to_string()),
        (_, _, Reach::Melee) => (
            false,
            None,
            format!("no melee between the {} and {} bands", attacker.name(), target.name()),
        ),
        (Ground, Low, Reach::Ranged) => (true, penalty(), "Ground attacker against a Low flier: −20".to_string()),
        (Low, Ground, Reach::Ranged) => (true, None, "Low flier attacking the Ground: no penalty".to_string()),
        (a, t, Reach::Ranged) if (a == High || t == High) && !long_range_weapon => (
            false,
            None,
            "High is out of reach of lower bands, and they of it, without a long-ranged weapon the GM approves"
                .to_string(),
        ),
        (Ground, High, Reach::Ranged) => {
            (true, penalty(), "GM-approved long-ranged weapon from the Ground at High: −20".to_string())
        }
        (_, _, Reach::Ranged) => (true, None, "GM-approved long-ranged weapon across the High band".to_string()),
    };
    AltitudeAccess { attacker, target, allowed, modifier, reason }
}

/// How many bands a flier may climb or dive in one move (adeva-d100.txt, "Altitude").
pub fn band_change_limit(kind: MoveKind) -> u32 {
    match kind {
        MoveKind::HalfMove => 1,
        MoveKind::FullMove | MoveKind::Charge | MoveKind::Run => 2,
    }
}

/// A permitted climb or dive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100AltitudeChange))]
pub struct AltitudeChange {
    pub from: AltitudeBand,
    pub to: AltitudeBand,
    pub bands: u32,
    pub move_kind: MoveKind,
}

/// Checks a flier's climb or dive against its move: one band with a Half Move, two with a Full
/// Move, Charge or Run (adeva-d100.txt, "Altitude").
pub fn change_altitude(
    from: AltitudeBand,
    to: AltitudeBand,
    kind: MoveKind,
) -> Result<AltitudeChange, RuleError> {
    let bands = from.index().abs_diff(to.index());
    let limit = band_change_limit(kind);
    if bands > limit {
        return Err(RuleError::invalid(
            "to",
            format!(
                "moving from {} to {} crosses {bands} bands; this move allows {limit}",
                from.name(),
                to.name()
            ),
        ));
    }
    Ok(AltitudeChange { from, to, bands, move_kind: kind })
}

/// The damage of a crash, before soak.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100CrashDamage))]
pub struct CrashDamage {
    pub started_at: AltitudeBand,
    /// The distance the text says the crash is worth.
    pub squares: u32,
    pub die: u32,
    pub damage: u32,
    /// e.g. "1d10 (4) + 60 squares = 64".
    pub working: String,
}

/// One end-of-round step of a fall.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100FallStep))]
pub struct FallStep {
    pub from: AltitudeBand,
    pub to: AltitudeBand,
    /// Reached the Ground this round.
    pub crashed: bool,
    pub crash: Option<CrashDamage>,
}

/// The distance a crash is worth, by the band the fall began in (adeva-d100.txt, "Altitude").
pub fn crash_squares(started_at: AltitudeBand) -> u32 {
    match started_at {
        AltitudeBand::High => HIGH_FALL_SQUARES,
        AltitudeBand::Low => LOW_FALL_SQUARES,
        AltitudeBand::Ground => 0,
    }
}

/// A falling character drops one band at the end of the round; reaching the Ground it crashes for
/// damage set by where the fall began (adeva-d100.txt, "Altitude"; the damage formula is a
/// decision, see the module doc).
pub fn fall_one_band(
    current: AltitudeBand,
    started_at: AltitudeBand,
    dice: &mut Dice,
) -> Result<FallStep, RuleError> {
    let to = match current {
        AltitudeBand::Ground => {
            return Err(RuleError::invalid("current", "a character on the Ground cannot fall"));
        }
        AltitudeBand::Low => AltitudeBand::Ground,
        AltitudeBand::High => AltitudeBand::Low,
    };
    if started_at < current {
        return Err(RuleError::invalid(
            "started_at",
            "a fall cannot have begun below where the character is now",
        ));
    }
    if to != AltitudeBand::Ground {
        return Ok(FallStep { from: current, to, crashed: false, crash: None });
    }
    let squares = crash_squares(started_at);
    let die = dice.roll(10, format!("falling damage: crash after a fall from {}", started_at.name()))?;
    let damage = die + squares;
    let working = format!("1d10 ({die}) + {squares} squares = {damage}");
    let crash = CrashDamage { started_at, squares, die, damage, working };
    Ok(FallStep { from: current, to, crashed: true, crash: Some(crash) })
}

#[cfg(test)]
mod tests {
    use super::AltitudeBand::{Ground, High, Low};
    use super::*;

    #[test]
    fn the_same_band_has_no_restriction() {
        for band in [Ground, Low, High] {
            let access = altitude_access(band, band, Reach::Melee, false);
            assert!(access.allowed && access.modifier.is_none(), "{band:?}");
        }
    }

    #[test]
    fn ground_cannot_melee_low_and_shoots_at_minus_twenty() {
        assert!(!altitude_access(Ground, Low, Reach::Melee, false).allowed);
        let ranged = altitude_access(Ground, Low, Reach::Ranged, false);
        assert!(ranged.allowed);
        assert_eq!(ranged.modifier.map(|m| m.value), Some(-20));
    }

    #[test]
    fn low_shoots_down_without_penalty_but_cannot_melee() {
        let ranged = altitude_access(Low, Ground, Reach::Ranged, false);
        assert!(ranged.allowed && ranged.modifier.is_none());
        assert!(!altitude_access(Low, Ground, Reach::Melee, false).allowed);
    }

    #[test]
    fn high_is_out_of_reach_without_an_approved_long_ranged_weapon() {
        for (a, t) in [(Ground, High), (Low, High), (High, Low), (High, Ground)] {
            assert!(!altitude_access(a, t, Reach::Ranged, false).allowed, "{a:?} → {t:?}");
            assert!(!altitude_access(a, t, Reach::Melee, true).allowed, "{a:?} → {t:?} melee");
            assert!(altitude_access(a, t, Reach::Ranged, true).allowed, "{a:?} → {t:?} approved");
        }
        let from_ground = altitude_access(Ground, High, Reach::Ranged, true);
        assert_eq!(from_ground.modifier.map(|m| m.value), Some(-20));
        assert!(altitude_access(Low, High, Reach::Ranged, true).modifier.is_none());
    }

    #[test]
    fn a_half_move_changes_one_band_and_longer_moves_two() {
        assert_eq!(change_altitude(Ground, Low, MoveKind::HalfMove).unwrap().bands, 1);
        let err = change_altitude(Ground, High, MoveKind::HalfMove).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "to"));
        for kind in [MoveKind::FullMove, MoveKind::Charge, MoveKind::Run] {
            assert_eq!(change_altitude(High, Ground, kind).unwrap().bands, 2);
        }
    }

    #[test]
    fn a_fall_from_high_drops_a_band_then_crashes_for_two_hundred_squares() {
        // End of round 1: High → Low, no dice. End of round 2: Low → Ground, 1d10 7 + 200 = 207.
        let mut dice = Dice::scripted(vec![7], 0).unwrap();
        let first = fall_one_band(High, High, &mut dice).unwrap();
        assert_eq!((first.to, first.crashed, first.crash.clone()), (Low, false, None));
        assert!(dice.rolls().is_empty());
        let second = fall_one_band(Low, High, &mut dice).unwrap();
        let crash = second.crash.unwrap();
        assert!(second.crashed);
        assert_eq!((crash.squares, crash.die, crash.damage), (200, 7, 207));
        assert_eq!(crash.working, "1d10 (7) + 200 squares = 207");
        assert_eq!(dice.rolls()[0].purpose, "falling damage: crash after a fall from High");
    }

    #[test]
    fn a_fall_from_low_crashes_for_sixty_squares() {
        // 1d10 3 + 60 = 63.
        let mut dice = Dice::scripted(vec![3], 0).unwrap();
        let step = fall_one_band(Low, Low, &mut dice).unwrap();
        assert_eq!(step.crash.map(|c| c.damage), Some(63));
    }

    #[test]
    fn impossible_falls_are_refused() {
        let mut dice = Dice::scripted(vec![], 0).unwrap();
        let err = fall_one_band(Ground, Low, &mut dice).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "current"));
        let err = fall_one_band(High, Low, &mut dice).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "started_at"));
    }
}
