//! What the modifier rules hand back: each DM or damage change with the rule that caused it.

use super::burst::ExtraDamage;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// A reason's text: borrowed when the rule's wording is fixed ("target dodges"), owned when it
/// carries numbers ("DEX 10 (DM +1)"), so a fixed reason costs no allocation. It serialises as a
/// plain string either way.
pub type Reason = Cow<'static, str>;


/// What kind of rule a DM comes from: a stable machine name beside the free-text reason, so a
/// client finds the range or cover DM without matching words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineModifierCode))]
#[serde(rename_all = "snake_case")]
pub enum ModifierCode {
    /// The skill level (or −3 unskilled) of the check.
    Skill,
    /// A characteristic's DM.
    CharacteristicDm,
    /// The weapon's difficulty at this range band.
    Range,
    /// Firing beyond Distant.
    ExtremeRange,
    /// Aiming (one per minor action spent).
    Aim,
    /// Aiming for the kill (damage, one point per minor action spent).
    AimForKill,
    LaserSight,
    IntelligentWeapon,
    /// A sprayed burst.
    Burst,
    PanicFire,
    ShotgunSpread,
    SuppressionFire,
    /// A recoiling weapon in zero gravity.
    ZeroGRecoil,
    FiringIntoCombat,
    Cover,
    /// A prone target's stance.
    TargetStance,
    Dodge,
    Parry,
    /// How far the target moved.
    TargetMovement,
    /// A vehicle target is easier to hit.
    TargetVehicle,
    Darkness,
    Smoke,
    Weather,
    /// The actor's own one-round penalties (reactions, hastening, suppression).
    OwnPenalties,
    /// Acting hastily (when the circumstance is sent directly).
    Hasty,
    /// Reactions already made this round (when the circumstance is sent directly).
    Reactions,
    Fatigue,
    /// Suppressed (when the circumstance is sent directly).
    Suppressed,
    /// A driver's evasive action.
    EvasiveAction,
    /// Damage taken during an extended action.
    DamageTaken,
    /// Consciousness checks failed before.
    FailedChecks,
    /// Treating oneself.
    SelfTreatment,
    /// A vehicle stunt's or ram's difficulty, as the referee set it.
    Difficulty,
    /// The weaving number a pursuer must match.
    WeavingNumber,
    /// A DM the client sent (`extra_modifiers`).
    Caller,
}

/// One DM to a check, the rule it comes from and why it applies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineModifier))]
pub struct Modifier {
    pub code: ModifierCode,
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub reason: Reason,
    #[serde(rename = "value", alias = "dm")]
    pub dm: i32,
}

impl Modifier {
    pub fn new(code: ModifierCode, reason: impl Into<Reason>, dm: i32) -> Self {
        Self { code, reason: reason.into(), dm }
    }
}

/// A DM a client adds to an attack: a reason and −20 to +20 (`code` is always `caller`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineExtraModifier))]
#[serde(deny_unknown_fields)]
pub struct ExtraModifier {
    pub reason: String,
    #[serde(rename = "value", alias = "dm")]
    pub dm: crate::score::Score<-20, 20>,
}

impl From<&ExtraModifier> for Modifier {
    fn from(extra: &ExtraModifier) -> Self {
        Modifier::new(ModifierCode::Caller, extra.reason.clone(), extra.dm.get())
    }
}

/// The sum of a list of modifiers, saturating (every DM is small; this only guards the sum).
pub fn total_dm(modifiers: &[Modifier]) -> i32 {
    modifiers.iter().fold(0i32, |sum, modifier| sum.saturating_add(modifier.dm))
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
    pub code: ModifierCode,
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub reason: Reason,
    pub change: DamageChange,
}

impl DamageModifier {
    pub fn new(code: ModifierCode, reason: impl Into<Reason>, change: DamageChange) -> Self {
        Self { code, reason: reason.into(), change }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_adds_every_dm() {
        // +3 − 2 + 0 = +1.
        let modifiers = [Modifier::new(ModifierCode::Caller, "a", 3), Modifier::new(ModifierCode::Caller, "b", -2), Modifier::new(ModifierCode::Caller, "c", 0)];
        assert_eq!(total_dm(&modifiers), 1);
    }

    #[test]
    fn burst_extra_damage_maps_to_points_or_dice() {
        assert_eq!(DamageChange::from(ExtraDamage::Flat(1)), DamageChange::PlusPoints(1));
        assert_eq!(DamageChange::from(ExtraDamage::Dice(3)), DamageChange::PlusDice(3));
    }
}
