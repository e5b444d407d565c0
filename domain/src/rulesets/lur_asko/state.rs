//! What the engine tracks per Lur-Asko combatant during a fight: damage taken and injuries,
//! fatigue, war-fever rolls owed, the energy shields it provides and the damage auras it holds
//! (lur-asko.txt, "Damage, Drive, & Armor Ranges", "Energy Damage", "Energy Shielding",
//! "Damage Auras").

use super::stats::{DriveValue, EnergyType};
use crate::encounter::CombatantId;
use serde::{Deserialize, Serialize};

/// Largest shielding-point pool and largest stored aura damage.
pub const MAX_POOL: u32 = 100_000;

/// The precision of a source of energy shielding (Energy Shielding).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoPrecision))]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    Low,
    Medium,
    High,
}

impl Precision {
    pub fn name(self) -> &'static str {
        match self {
            Self::Low => "low",
            Self::Medium => "medium",
            Self::High => "high",
        }
    }
}

/// A source of energy shielding provided by its owner, with its pool of points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoShield))]
pub struct Shield {
    pub name: String,
    pub precision: Precision,
    pub points: u32,
    /// A device-based techshield: doubly effective against blast.
    pub techshield: bool,
    /// The combatants it protects.
    #[cfg_attr(feature = "schema", schema(value_type = Vec<String>))]
    pub protects: Vec<CombatantId>,
}

/// What a damage aura stores (all of one type, Damage Auras).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoAuraKind))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AuraKind {
    /// Energy damage: its drive equals the damage discharged.
    Energy { energy: EnergyType },
    /// Normal damage with the drive the source specifies.
    Normal { drive: DriveValue },
}

/// A damage aura and the damage stored in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoAura))]
pub struct Aura {
    pub name: String,
    pub kind: AuraKind,
    pub stored: u32,
    /// Created by a purely mental action (kept up even when only mental actions are possible).
    pub mental: bool,
}

/// Degrees of injury of one type taken in one hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoInjuryRecord))]
pub struct InjuryRecord {
    pub injury_type: String,
    pub degrees: u32,
}

/// A roll against Alacrian war fever owed at the end of the combat (Energy Damage, Particle).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoWarFeverRoll))]
pub struct WarFeverRoll {
    /// Degrees of injury from particle damage in the attack: at most one per point of damage
    /// taken, so within `injury::MAX_DAMAGE_TAKEN`.
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 1_000_000))]
    pub degrees: u32,
    /// Hindrance on the CON roll: 1 per 2 degrees beyond the first.
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 499_999))]
    pub hindrance: u32,
}

/// The most war-fever rolls one combatant's record holds, stored or sent inline: 100 rolls owed
/// by one character in one combat is far past any table's fight, and a record that grew with
/// every particle hit had no bound at all (issue 30, item 7).
pub const MAX_WAR_FEVER_ROLLS: usize = 100;

/// The war-fever rolls a combatant owes, at most [`MAX_WAR_FEVER_ROLLS`]: a longer list is refused
/// when read, and a hit that would owe one more is refused by [`WarFeverRolls::owe`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct WarFeverRolls(Vec<WarFeverRoll>);

impl<'de> Deserialize<'de> for WarFeverRolls {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let rolls = Vec::<WarFeverRoll>::deserialize(deserializer)?;
        if rolls.len() > MAX_WAR_FEVER_ROLLS {
            let message = format!("at most {MAX_WAR_FEVER_ROLLS} war-fever rolls (got {})", rolls.len());
            return Err(serde::de::Error::custom(message));
        }
        // One degree per point of damage at most, and a Hindrance per 2 degrees beyond the first.
        let max_degrees = super::injury::MAX_DAMAGE_TAKEN;
        let max_hindrance = (max_degrees - 1) / 2;
        if let Some(roll) = rolls.iter().find(|roll| roll.degrees > max_degrees || roll.hindrance > max_hindrance) {
            let message = format!(
                "degrees at most {max_degrees} and hindrance at most {max_hindrance} (got {} and {})",
                roll.degrees, roll.hindrance
            );
            return Err(serde::de::Error::custom(message));
        }
        Ok(Self(rolls))
    }
}

impl WarFeverRolls {
    pub fn as_slice(&self) -> &[WarFeverRoll] {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `more` rolls still fit; else a refusal naming `field` and who owes them.
    pub fn ensure_room(&self, more: usize, field: &str, who: &str) -> Result<(), crate::rulesets::RuleError> {
        if self.0.len().saturating_add(more) <= MAX_WAR_FEVER_ROLLS {
            return Ok(());
        }
        Err(crate::rulesets::RuleError::invalid(
            field,
            format!(
                "{who} owes {} war-fever rolls; {more} more would pass the most a record holds ({MAX_WAR_FEVER_ROLLS})",
                self.0.len()
            ),
        ))
    }

    /// Owes one more roll, within the bound (see [`WarFeverRolls::ensure_room`]).
    pub fn owe(&mut self, roll: WarFeverRoll, field: &str, who: &str) -> Result<(), crate::rulesets::RuleError> {
        self.ensure_room(1, field, who)?;
        self.0.push(roll);
        Ok(())
    }
}

/// A combatant's fight so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoCombatState))]
pub struct CombatState {
    /// Damage taken in total; degrees of injury fall at each multiple of the injury factor.
    pub damage_taken: u32,
    pub injuries: Vec<InjuryRecord>,
    pub fatigue: u32,
    /// At most [`MAX_WAR_FEVER_ROLLS`] (100).
    #[cfg_attr(feature = "schema", schema(value_type = Vec<WarFeverRoll>, max_items = 100))]
    pub war_fever_rolls: WarFeverRolls,
    /// Energy shields this combatant provides (to itself or others).
    pub shields: Vec<Shield>,
    pub auras: Vec<Aura>,
}

impl CombatState {
    /// Total degrees of injury taken.
    pub fn degrees(&self) -> u32 {
        self.injuries.iter().map(|injury| injury.degrees).fold(0, u32::saturating_add)
    }
}
