//! One modifier to a check or a Success Value, with a machine code and the rule behind it.

use serde::{Deserialize, Serialize};

/// Where a modifier comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsModifierCode))]
#[serde(rename_all = "snake_case")]
pub enum ModifierCode {
    /// The check's skill (arrgs.txt, "Skill Checks").
    Skill,
    /// The ability modifier.
    Ability,
    Inherent,
    Augmented,
    Assisted,
    Magic,
    Tech,
    /// Size modifier (Appendix, "Size Modifier").
    Size,
    Circumstance,
    /// Armour's Check Penalty (Appendix).
    CheckPenalty,
    /// −2 per point used above 3 this round ("A Turn", "Multiple Actions").
    MultipleActions,
    /// −2 per attack after the first, until the End of Round ("Repeated Attack Manoeuvre").
    RepeatedAttack,
    /// −2 per Movement Increment after the first, on the mover's checks ("Movement Increment").
    MovementIncrement,
    /// The same penalty on a check made against a moving target.
    TargetMovementIncrement,
    /// −2 per Range Increment beyond the first ("Range Increment").
    RangeIncrement,
    /// +2 to the Charge attack ("Charge Manoeuvre").
    Charge,
    /// −2 to Reflex Defence after charging, until the End of Round.
    ChargedThisRound,
    /// +1 Defence per leg above 2 against Trip ("Trip").
    ExtraLegs,
    /// Difficult Terrain [n] on a Movement check ("Difficult Terrain").
    DifficultTerrain,
    /// An Assisted modifier granted by Aid Another ("Aid Another Manoeuvre").
    AidAnother,
}

/// A modifier: its code, value and reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsModifier))]
pub struct Modifier {
    pub code: ModifierCode,
    #[cfg_attr(feature = "schema", schema(minimum = -100, maximum = 100))]
    pub value: i32,
    pub reason: String,
}

impl Modifier {
    pub fn new(code: ModifierCode, value: i32, reason: impl Into<String>) -> Self {
        Self { code, value, reason: reason.into() }
    }
}

/// The sum of a list of modifiers.
pub fn total(modifiers: &[Modifier]) -> i32 {
    modifiers.iter().fold(0i32, |sum, modifier| sum.saturating_add(modifier.value))
}
