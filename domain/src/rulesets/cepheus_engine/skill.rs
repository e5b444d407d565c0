//! The skill level an attacker actually rolls with (cepheus-engine.txt, "Fighting in Zero
//! Gravity" and "Blind Firing"; the unskilled DM is the SRD's).
//!
//! Decisions:
//! - An attacker without the combat skill rolls at the SRD's unskilled DM of −3.
//! - In zero gravity the weapon skill is capped at the Zero-G skill. An attacker with no Zero-G
//!   skill at all counts as unskilled (−3), whatever their weapon skill. Zero-G 0 caps the weapon
//!   skill at 0.
//! - Blind fire always counts the weapon skill as level 0, even for an unskilled firer (the text
//!   says "always"). Pass `Some(BLIND_FIRE_SKILL_LEVEL)` as the skill level: the zero-G cap still
//!   applies after it, so blind fire in zero gravity without Zero-G skill is still −3.
//! - Skill levels cannot be negative; unskilled is `None`, not −3.

use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// The DM for attempting a skill check with no level in the skill (Cepheus Engine SRD).
pub const UNSKILLED_DM: i32 = -3;

/// The weapon skill level blind fire always uses (cepheus-engine.txt, "Blind Firing").
pub const BLIND_FIRE_SKILL_LEVEL: i32 = 0;

/// The attacker is fighting in zero gravity, with this Zero-G skill (`None` = no Zero-G skill).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineZeroG))]
#[serde(deny_unknown_fields)]
pub struct ZeroG {
    #[serde(default)]
    pub zero_g_skill: Option<i32>,
}

/// The skill DM an attack uses: the weapon skill level, −3 when unskilled, and in zero gravity no
/// more than the Zero-G skill, or −3 with no Zero-G skill (cepheus-engine.txt, "Fighting in Zero
/// Gravity"). `zero_g` is `None` in normal gravity.
pub fn effective_skill(skill_level: Option<i32>, zero_g: Option<ZeroG>) -> Result<i32, RuleError> {
    let weapon_skill = checked_level("skill_level", skill_level)?.unwrap_or(UNSKILLED_DM);
    let Some(zero_g) = zero_g else {
        return Ok(weapon_skill);
    };
    match checked_level("zero_g_skill", zero_g.zero_g_skill)? {
        None => Ok(UNSKILLED_DM),
        Some(zero_g_skill) => Ok(weapon_skill.min(zero_g_skill)),
    }
}

fn checked_level(field: &str, level: Option<i32>) -> Result<Option<i32>, RuleError> {
    match level {
        Some(value) if value < 0 => {
            Err(RuleError::invalid(field, "a skill level cannot be negative; leave it out when unskilled"))
        }
        _ => Ok(level),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zero_g(skill: Option<i32>) -> Option<ZeroG> {
        Some(ZeroG { zero_g_skill: skill })
    }

    #[test]
    fn normal_gravity_uses_the_skill_or_minus_three() {
        assert_eq!(effective_skill(Some(2), None).unwrap(), 2);
        assert_eq!(effective_skill(Some(0), None).unwrap(), 0);
        assert_eq!(effective_skill(None, None).unwrap(), -3);
    }

    #[test]
    fn zero_g_caps_skill_at_the_zero_g_level() {
        // The text's example: Laser Pistol-2 with Zero-G-1 shoots at min(2, 1) = 1.
        assert_eq!(effective_skill(Some(2), zero_g(Some(1))).unwrap(), 1);
        // A higher Zero-G skill does not raise the weapon skill: min(1, 3) = 1.
        assert_eq!(effective_skill(Some(1), zero_g(Some(3))).unwrap(), 1);
        // Zero-G 0 caps at 0: min(3, 0) = 0.
        assert_eq!(effective_skill(Some(3), zero_g(Some(0))).unwrap(), 0);
    }

    #[test]
    fn zero_g_without_zero_g_skill_is_unskilled() {
        assert_eq!(effective_skill(Some(4), zero_g(None)).unwrap(), -3);
        // No weapon skill: min(−3, 2) = −3.
        assert_eq!(effective_skill(None, zero_g(Some(2))).unwrap(), -3);
    }

    #[test]
    fn blind_fire_counts_as_level_zero_then_the_zero_g_cap_applies() {
        let blind = Some(BLIND_FIRE_SKILL_LEVEL);
        assert_eq!(effective_skill(blind, None).unwrap(), 0);
        assert_eq!(effective_skill(blind, zero_g(Some(2))).unwrap(), 0);
        assert_eq!(effective_skill(blind, zero_g(None)).unwrap(), -3);
    }

    #[test]
    fn negative_levels_are_refused_by_field() {
        let err = effective_skill(Some(-1), None).unwrap_err();
        assert_eq!(
            err,
            RuleError::invalid(
                "skill_level",
                "a skill level cannot be negative; leave it out when unskilled"
            )
        );
        let err = effective_skill(Some(1), zero_g(Some(-2))).unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "zero_g_skill"));
    }
}
