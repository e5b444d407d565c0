//! Damage types, Damage Resistance and Damage Vulnerability (arrgs.txt, "Damage", "Damage
//! Resistance", "Damage Vulnerability").
//!
//! Decisions:
//! - The damage types are the eleven the text lists; its "etc." is not open-ended here.
//! - Vulnerability multiplies by 1.5 and fractional results round down (issue 9's decision):
//!   `floor(n × 3 / 2)`.
//! - A stat block lists at most one resistance per type and each vulnerability once.

use crate::score::Score;
use serde::{Deserialize, Serialize};

/// A damage type (arrgs.txt, "Damage").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsDamageType))]
#[serde(rename_all = "snake_case")]
pub enum DamageType {
    Acid,
    Bludgeoning,
    Cold,
    Electricity,
    Fire,
    Force,
    Negative,
    Piercing,
    Positive,
    Slashing,
    Sonic,
}

impl DamageType {
    pub fn name(self) -> &'static str {
        match self {
            Self::Acid => "Acid",
            Self::Bludgeoning => "Bludgeoning",
            Self::Cold => "Cold",
            Self::Electricity => "Electricity",
            Self::Fire => "Fire",
            Self::Force => "Force",
            Self::Negative => "Negative",
            Self::Piercing => "Piercing",
            Self::Positive => "Positive",
            Self::Slashing => "Slashing",
            Self::Sonic => "Sonic",
        }
    }
}

/// Most damage types one attack may carry (there are eleven).
pub const MAX_TYPES: usize = 11;

/// DR n/type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsResistance))]
#[serde(deny_unknown_fields)]
pub struct Resistance {
    #[serde(rename = "type")]
    pub damage_type: DamageType,
    pub value: Score<0, 1000>,
}

/// Refuses duplicate resistances or vulnerabilities.
pub(super) fn check_lists(resistances: &[Resistance], vulnerabilities: &[DamageType]) -> Result<(), String> {
    let mut seen = Vec::new();
    for resistance in resistances {
        if seen.contains(&resistance.damage_type) {
            return Err(format!("resistances: {} is listed twice", resistance.damage_type.name()));
        }
        seen.push(resistance.damage_type);
    }
    check_types("vulnerabilities", vulnerabilities)
}

/// Refuses a repeated type in a list of damage types.
pub fn check_types(field: &str, types: &[DamageType]) -> Result<(), String> {
    for (index, damage_type) in types.iter().enumerate() {
        if types[..index].contains(damage_type) {
            return Err(format!("{field}: {} is listed twice", damage_type.name()));
        }
    }
    Ok(())
}

/// How resistance and vulnerability changed one Success Value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsDamageSteps))]
pub struct DamageSteps {
    /// The Success Value reaching the target.
    pub success_value: i32,
    pub types: Vec<DamageType>,
    /// The one resistance applied: the highest among the attack's types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resistance: Option<Resistance>,
    pub after_resistance: i32,
    /// The type the target is vulnerable to (applied once).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vulnerability: Option<DamageType>,
    /// Vitality lost.
    pub damage: i32,
}

/// The highest applicable resistance, then ×1.5 (rounded down) once for any vulnerable type
/// (arrgs.txt, "Damage Resistance": only the highest applies; resistance first, then
/// vulnerability; "Damage Vulnerability": 150%, applied once).
pub fn apply_resistance(
    success_value: i32,
    types: &[DamageType],
    resistances: &[Resistance],
    vulnerabilities: &[DamageType],
) -> DamageSteps {
    let resistance = resistances
        .iter()
        .filter(|r| types.contains(&r.damage_type))
        .max_by_key(|r| r.value.get())
        .cloned();
    let after_resistance =
        success_value.saturating_sub(resistance.as_ref().map_or(0, |r| r.value.get())).max(0);
    let vulnerability = types.iter().copied().find(|t| vulnerabilities.contains(t));
    let damage = match vulnerability {
        Some(_) => after_resistance.saturating_mul(3) / 2,
        None => after_resistance,
    };
    DamageSteps {
        success_value,
        types: types.to_vec(),
        resistance,
        after_resistance,
        vulnerability,
        damage,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dr(damage_type: DamageType, value: i64) -> Resistance {
        Resistance { damage_type, value: Score::new(value).unwrap() }
    }

    #[test]
    fn only_the_highest_applicable_resistance_applies() {
        // "Damage Resistance": DR 10/Slashing and DR 4/Fire against a Slashing+Fire hit of 13:
        // only the 10 applies → 3.
        let steps = apply_resistance(
            13,
            &[DamageType::Slashing, DamageType::Fire],
            &[dr(DamageType::Fire, 4), dr(DamageType::Slashing, 10), dr(DamageType::Cold, 20)],
            &[],
        );
        assert_eq!(steps.resistance, Some(dr(DamageType::Slashing, 10)));
        assert_eq!((steps.after_resistance, steps.damage), (3, 3));
    }

    #[test]
    fn vulnerability_follows_resistance_once_rounding_down() {
        // "Damage Vulnerability": 9 Fire+Cold, DR 2/Fire, vulnerable to both: (9 − 2) × 1.5 = 10.5 → 10.
        let steps = apply_resistance(
            9,
            &[DamageType::Fire, DamageType::Cold],
            &[dr(DamageType::Fire, 2)],
            &[DamageType::Cold, DamageType::Fire],
        );
        assert_eq!((steps.after_resistance, steps.damage), (7, 10));
        assert_eq!(steps.vulnerability, Some(DamageType::Fire));
    }

    #[test]
    fn resistance_never_takes_damage_below_zero_and_unmatched_types_do_nothing() {
        let steps = apply_resistance(3, &[DamageType::Piercing], &[dr(DamageType::Piercing, 5)], &[]);
        assert_eq!(steps.damage, 0);
        let plain = apply_resistance(7, &[DamageType::Sonic], &[dr(DamageType::Fire, 5)], &[DamageType::Acid]);
        assert_eq!((plain.resistance, plain.vulnerability, plain.damage), (None, None, 7));
    }
}
