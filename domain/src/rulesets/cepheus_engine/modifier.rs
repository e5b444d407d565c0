//! What the modifier rules hand back: each DM or damage change with the rule that caused it.

use super::burst::ExtraDamage;
use serde::{Deserialize, Serialize};

/// One DM to an attack roll and why it applies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineModifier))]
pub struct Modifier {
    pub reason: String,
    pub dm: i32,
}

impl Modifier {
    pub fn new(reason: impl Into<String>, dm: i32) -> Self {
        Self { reason: reason.into(), dm }
    }
}

/// The sum of a list of modifiers.
pub fn total_dm(modifiers: &[Modifier]) -> i32 {
    modifiers.iter().map(|modifier| modifier.dm).sum()
}

/// How one rule changes an attack's damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDamageChange))]
#[serde(rename_all = "snake_case")]
pub enum DamageChange {
    /// Add this many points.
    PlusPoints(i32),
    /// Add this many D6.
    PlusDice(u32),
    /// The weapon's own damage dice are replaced by this many D6.
    DiceBecome(u32),
    /// Halve the damage, rounding up.
    HalvedRoundUp,
}

impl From<ExtraDamage> for DamageChange {
    fn from(extra: ExtraDamage) -> Self {
        match extra {
            ExtraDamage::Flat(points) => DamageChange::PlusPoints(points),
            ExtraDamage::Dice(dice) => DamageChange::PlusDice(dice),
        }
    }
}

/// One change to an attack's damage and why it applies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDamageModifier))]
pub struct DamageModifier {
    pub reason: String,
    pub change: DamageChange,
}

impl DamageModifier {
    pub fn new(reason: impl Into<String>, change: DamageChange) -> Self {
        Self { reason: reason.into(), change }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_adds_every_dm() {
        // +3 − 2 + 0 = +1.
        let modifiers = [Modifier::new("a", 3), Modifier::new("b", -2), Modifier::new("c", 0)];
        assert_eq!(total_dm(&modifiers), 1);
    }

    #[test]
    fn burst_extra_damage_maps_to_points_or_dice() {
        assert_eq!(DamageChange::from(ExtraDamage::Flat(1)), DamageChange::PlusPoints(1));
        assert_eq!(DamageChange::from(ExtraDamage::Dice(3)), DamageChange::PlusDice(3));
    }
}
