//! One modifier shape for every Spycraft 2.0 report: a machine code, the value and the reason.

use crate::encounter::EncounterError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// Longest reason a caller may give for a modifier or a declared action.
pub const MAX_REASON_LEN: usize = 100;
/// Most caller modifiers on one check.
pub const MAX_MODIFIERS: usize = 20;

/// What a modifier is, as a stable machine code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2ModifierCode))]
#[serde(rename_all = "snake_case")]
pub enum ModifierCode {
    /// The attacker's attack bonus (stat block).
    AttackBonus,
    /// The target's Defense (stat block).
    Defense,
    /// A flat-footed target is vulnerable: it loses its Dexterity and dodge bonuses to Defense.
    FlatFooted,
    /// A saving throw bonus (stat block).
    SaveBonus,
    /// A skill's total bonus (sent with the skill check).
    SkillBonus,
    /// The weapon's damage bonus.
    DamageBonus,
    /// Armour damage reduction.
    DamageReduction,
    /// Sent by the caller with its own reason (cover, range, feats, …).
    Caller,
}

/// A modifier with its reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Modifier))]
pub struct Modifier {
    pub code: ModifierCode,
    pub value: i32,
    pub reason: String,
}

impl Modifier {
    pub fn new(code: ModifierCode, value: i32, reason: impl Into<String>) -> Self {
        Self { code, value, reason: reason.into() }
    }
}

/// A modifier the caller adds to a check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2CallerModifier))]
#[serde(deny_unknown_fields)]
pub struct CallerModifier {
    pub value: Score<-50, 50>,
    /// Why it applies, 1 to 100 characters.
    pub reason: String,
}

/// Checks a caller's reason text: 1 to [`MAX_REASON_LEN`] characters, not blank.
pub fn check_text(field: &str, text: &str) -> Result<(), EncounterError> {
    let length = text.chars().count();
    if text.trim().is_empty() || length > MAX_REASON_LEN {
        let message = format!("must be 1 to {MAX_REASON_LEN} characters and not blank (got {length})");
        return Err(EncounterError::invalid(field, message));
    }
    Ok(())
}

/// Checks and converts the caller's modifiers (`field` names the list).
pub fn caller_modifiers(field: &str, modifiers: &[CallerModifier]) -> Result<Vec<Modifier>, EncounterError> {
    if modifiers.len() > MAX_MODIFIERS {
        let message = format!("at most {MAX_MODIFIERS} modifiers, got {}", modifiers.len());
        return Err(EncounterError::invalid(field, message));
    }
    modifiers
        .iter()
        .enumerate()
        .map(|(index, modifier)| {
            check_text(&format!("{field}[{index}].reason"), &modifier.reason)?;
            Ok(Modifier::new(ModifierCode::Caller, modifier.value.get(), modifier.reason.clone()))
        })
        .collect()
}

/// The sum of a list of modifiers (each bounded, at most a few dozen: no overflow).
pub fn total(modifiers: &[Modifier]) -> i32 {
    modifiers.iter().map(|m| m.value).sum()
}
