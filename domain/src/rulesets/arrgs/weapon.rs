//! What an attack is made with (arrgs.txt, "Attack", "Attack Manoeuvre", "Ranged Attacks",
//! "Critical Range", "Trip").

use super::damage_types::DamageType;
use super::bonuses::CheckKind;
use crate::rulesets::RuleError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// How long a spell lasts once cast (arrgs.txt, "Control Spell Manoeuvre": persistent effects
/// and Concentration). Absent on the weapon: Instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsSpellDuration))]
#[serde(rename_all = "snake_case")]
pub enum SpellDuration {
    /// Stays in effect until dismissed or countered.
    Lasting,
    /// Ends at an End of Round unless Control Spell was used on it that round.
    Concentration,
}

/// Melee, Ranged or Spell (arrgs.txt, "Attack").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAttackKind))]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    #[default]
    Melee,
    Ranged,
    Spell,
}

impl AttackKind {
    pub fn check(self) -> CheckKind {
        match self {
            Self::Melee => CheckKind::Melee,
            Self::Ranged => CheckKind::Ranged,
            Self::Spell => CheckKind::Spell,
        }
    }
}

/// A weapon, spell or natural attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsWeapon))]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// 1 to 100 characters.
    pub name: String,
    #[serde(default)]
    pub kind: AttackKind,
    /// Base damage: the Success Value of a hit before the margin (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<Score<0, 1000>>,
    /// Damage types, each once. None: untyped damage, which no Damage Resistance or Vulnerability
    /// changes (the report's `steps.types` is then `[]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<DamageType>,
    /// Lowest natural d20 that is a critical (default 20; 19 for a 19–20 weapon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical_range: Option<Score<2, 20>>,
    /// Range Increment in squares (ranged and spell attacks): needed when the attack names a
    /// `distance` (422 naming `weapon.range_increment` otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range_increment: Option<Score<1, 1000>>,
    /// Most Range Increments the weapon reaches (no limit when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_increments: Option<Score<1, 100>>,
    /// An unarmed melee attack (it provokes Opportunity Actions).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unarmed: bool,
    /// A spell's level: base difficulty 10 + level, Vitality cost = level (at least 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spell_level: Option<Score<0, 9>>,
    /// A spell that stays in effect once cast: `lasting` or `concentration` (default Instant).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<SpellDuration>,
    /// A Circumstance bonus the weapon grants to Trip.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trip_bonus: Option<Score<0, 10>>,
}

impl Weapon {
    pub fn damage(&self) -> i32 {
        self.damage.map_or(0, Score::get)
    }

    pub fn critical_from(&self) -> u32 {
        self.critical_range.map_or(20, |r| u32::try_from(r.get()).unwrap_or(20))
    }

    /// 10 + spell level, for spells (arrgs.txt, "Attack Manoeuvre").
    pub fn spell_difficulty(&self) -> Option<i32> {
        match self.kind {
            AttackKind::Spell => Some(10 + self.spell_level.map_or(0, Score::get)),
            _ => None,
        }
    }

    /// Vitality drained by one attack: 1, or 1 per spell level (arrgs.txt, "Repeated Attack
    /// Manoeuvre").
    pub fn vitality_cost(&self) -> i32 {
        match self.kind {
            AttackKind::Spell => self.spell_level.map_or(1, |level| level.get().max(1)),
            _ => 1,
        }
    }

    /// Ranged, spell and unarmed melee attacks provoke Opportunity Actions (arrgs.txt, "Attack
    /// Manoeuvre").
    pub fn provokes(&self) -> bool {
        self.kind != AttackKind::Melee || self.unarmed
    }

    /// Checks the name and the type list.
    pub fn validate(&self, field: &str) -> Result<(), RuleError> {
        let length = self.name.chars().count();
        if self.name.trim().is_empty() || length > 100 {
            return Err(RuleError::invalid(format!("{field}.name"), "must be 1 to 100 characters and not blank"));
        }
        super::damage_types::check_types(&format!("{field}.types"), &self.types)
            .map_err(|message| RuleError::invalid(format!("{field}.types"), message))?;
        if self.duration.is_some() && self.kind != AttackKind::Spell {
            return Err(RuleError::invalid(format!("{field}.duration"), "only spells last"));
        }
        if self.spell_level.is_some() && self.kind != AttackKind::Spell {
            return Err(RuleError::invalid(format!("{field}.spell_level"), "only spells have a level"));
        }
        Ok(())
    }
}
