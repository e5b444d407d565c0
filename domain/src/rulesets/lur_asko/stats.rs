//! The Lur-Asko stat block: what the damage chapter needs to know about a character
//! (lur-asko.txt, "Damage, Drive, & Armor Ranges", "Damage Resistances and Weaknesses",
//! "Energy Damage").
//!
//! Decisions:
//! - Every number is bounded: injury factor 1..=10 000, armour-range ends 0..=10 000, percentages
//!   0..=1 000 (1 000 % is a tenfold weakness).
//! - `organic` defaults to true: the text names non-organic characters as the exception (Blast).

use crate::rulesets::RuleError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// An injury factor: damage per degree of injury.
pub type InjuryFactor = Score<1, 10_000>;
/// A drive value or an armour-range end.
pub type DriveValue = Score<0, 10_000>;
/// A resistance or weakness, as the percentage of damage still taken (75 = resistant, 150 = weak).
pub type Percent = Score<0, 1_000>;

/// Longest name of a source, tag, weapon, aura or shield.
pub const MAX_LABEL_LEN: usize = 60;

/// The five kinds of energy damage (lur-asko.txt, "Energy Damage").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoEnergyType))]
#[serde(rename_all = "snake_case")]
pub enum EnergyType {
    Particle,
    Electric,
    Heat,
    Frost,
    Blast,
}

impl EnergyType {
    pub fn name(self) -> &'static str {
        match self {
            Self::Particle => "particle",
            Self::Electric => "electric",
            Self::Heat => "heat",
            Self::Frost => "frost",
            Self::Blast => "blast",
        }
    }
}

/// An armour range: drive from `low` to `high` (inclusive) is halved, below it is stopped, above
/// it passes in full (lur-asko.txt, "Damage, Drive, & Armor Ranges").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoArmour))]
#[serde(deny_unknown_fields)]
pub struct Armour {
    pub low: DriveValue,
    pub high: DriveValue,
    /// Steel, adamant and the like: electric damage inside the range is not halved (Energy Damage,
    /// Electric). False by default.
    #[serde(default)]
    pub metallic: bool,
}

/// What a resistance or weakness answers to (lur-asko.txt, "Damage Resistances and Weaknesses").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoResistanceAgainst))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Against {
    /// The energy portion of this type only.
    Energy(EnergyType),
    /// The base and STR damage of weapons carrying this tag (e.g. `quartz`, `adamant`).
    WeaponTag(String),
}

/// One source of resistance or weakness: damage is multiplied by `percent` %, rounding down.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoResistance))]
#[serde(deny_unknown_fields)]
pub struct Resistance {
    /// Where it comes from, e.g. "elf" or "Energy Affinity".
    pub source: String,
    pub against: Against,
    pub percent: Percent,
}

/// A combatant's Lur-Asko statistics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoStats))]
#[serde(deny_unknown_fields)]
pub struct Stats {
    /// Each multiple of this crossed by the damage taken is one degree of injury. A combatant
    /// without one takes part in turn order but cannot be damaged until it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub injury_factor: Option<InjuryFactor>,
    /// No armour by default: every drive passes in full.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armour: Option<Armour>,
    /// Organic characters can be deafened and stunned by blast; true by default.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub organic: bool,
    /// Applied one after another, in this order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resistances: Vec<Resistance>,
}

fn yes() -> bool {
    true
}

fn is_true(value: &bool) -> bool {
    *value
}

/// Longest list of resistances on one stat block.
pub const MAX_RESISTANCES: usize = 20;

impl Default for Stats {
    /// The empty stat block `{}`: no injury factor, no armour, organic, no resistances.
    fn default() -> Self {
        Self { injury_factor: None, armour: None, organic: true, resistances: Vec::new() }
    }
}

impl Stats {
    /// The injury factor, or a refusal naming `field` when the stat block has none.
    pub fn injury_factor(&self, field: &str) -> Result<u32, RuleError> {
        self.injury_factor
            .map(|factor| factor.get() as u32)
            .ok_or_else(|| RuleError::invalid(field, "the stat block has no injury_factor, so it cannot take damage"))
    }

    /// A stat block for examples and tests: injury factor 20, armour 16-28, no resistances.
    pub fn example() -> Self {
        Self {
            injury_factor: Some(Score::new(20).unwrap_or_else(|_| unreachable!("20 is in range"))),
            armour: Some(Armour {
                low: Score::new(16).unwrap_or_else(|_| unreachable!("16 is in range")),
                high: Score::new(28).unwrap_or_else(|_| unreachable!("28 is in range")),
                metallic: false,
            }),
            organic: true,
            resistances: Vec::new(),
        }
    }

    /// Checks what the types cannot: the armour range is in order, labels are short and present.
    /// `field` is the path of the stat block in the request (e.g. `stats`).
    pub fn check(&self, field: &str) -> Result<(), RuleError> {
        if let Some(armour) = self.armour
            && armour.low > armour.high
        {
            return Err(RuleError::invalid(format!("{field}.armour.low"), "must not exceed armour.high"));
        }
        if self.resistances.len() > MAX_RESISTANCES {
            return Err(RuleError::invalid(format!("{field}.resistances"), "at most 20 resistances"));
        }
        for (index, resistance) in self.resistances.iter().enumerate() {
            check_label(&format!("{field}.resistances[{index}].source"), &resistance.source)?;
            if let Against::WeaponTag(tag) = &resistance.against {
                check_label(&format!("{field}.resistances[{index}].against.weapon_tag"), tag)?;
            }
        }
        Ok(())
    }
}

/// Refuses a blank or over-long label.
pub fn check_label(field: &str, label: &str) -> Result<(), RuleError> {
    if label.trim().is_empty() || label.chars().count() > MAX_LABEL_LEN {
        return Err(RuleError::invalid(field, "must be 1 to 60 characters and not blank"));
    }
    Ok(())
}
