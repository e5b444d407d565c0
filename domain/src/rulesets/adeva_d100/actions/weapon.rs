//! What an action needs to know about a weapon: how it attacks, its Hit rating and auto
//! capacities (adeva-d100.txt, "Attacking", Step Three; "Burst", "Flurry", "Suppressive Fire").

use super::ActionSubtype;
use crate::rulesets::RuleError;
use crate::rulesets::adeva_d100::decay::CharacteristicName;
use serde::{Deserialize, Serialize};

/// How a weapon attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100WeaponClass))]
#[serde(rename_all = "snake_case")]
pub enum WeaponClass {
    Melee,
    /// A melee weapon thrown at range: tested with WS (adeva-d100.txt, "Attacking", Step Three).
    Thrown,
    Ranged,
}

/// What an action needs to know about a weapon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Weapon))]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub name: String,
    pub class: WeaponClass,
    /// Most hits one Burst or Flurry can designate; 1 for a weapon that cannot burst or flurry.
    #[serde(default = "one")]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::rating")]
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 100))]
    pub hit_rating: u32,
    /// Semi-auto capacity, if the weapon has one.
    #[serde(default)]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::rating_opt")]
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 100))]
    pub semi_auto: Option<u32>,
    /// Full-auto capacity, if the weapon has one.
    #[serde(default)]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::rating_opt")]
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 100))]
    pub full_auto: Option<u32>,
}

fn one() -> u32 {
    1
}

/// Largest Hit rating or auto capacity accepted; keeps penalties and hit counts small.
pub const MAX_WEAPON_RATING: u32 = 100;

impl Weapon {
    pub fn new(name: impl Into<String>, class: WeaponClass, hit_rating: u32) -> Self {
        Self { name: name.into(), class, hit_rating, semi_auto: None, full_auto: None }
    }

    /// WS for melee and thrown melee weapons, BS for ranged ones (adeva-d100.txt, "Attacking",
    /// Step Three).
    pub fn characteristic(&self) -> CharacteristicName {
        match self.class {
            WeaponClass::Melee | WeaponClass::Thrown => CharacteristicName::Ws,
            WeaponClass::Ranged => CharacteristicName::Bs,
        }
    }

    /// The Melee or Ranged subtype an attack with this weapon has.
    pub fn subtype(&self) -> ActionSubtype {
        match self.class {
            WeaponClass::Melee => ActionSubtype::Melee,
            WeaponClass::Thrown | WeaponClass::Ranged => ActionSubtype::Ranged,
        }
    }

    /// Refuses a blank name and ratings of 0 or above [`MAX_WEAPON_RATING`]; `field` is the JSON
    /// path of the weapon, e.g. `"weapon"`.
    pub fn validate(&self, field: &str) -> Result<(), RuleError> {
        if self.name.trim().is_empty() {
            return Err(RuleError::invalid(format!("{field}.name"), "the weapon needs a name"));
        }
        check_rating(&format!("{field}.hit_rating"), self.hit_rating)?;
        if let Some(capacity) = self.semi_auto {
            check_rating(&format!("{field}.semi_auto"), capacity)?;
        }
        if let Some(capacity) = self.full_auto {
            check_rating(&format!("{field}.full_auto"), capacity)?;
        }
        Ok(())
    }

    /// Refuses anything but a melee weapon (`action` names the action in the message).
    pub fn require_melee(&self, field: &str, action: &str) -> Result<(), RuleError> {
        if self.class != WeaponClass::Melee {
            return Err(RuleError::invalid(
                format!("{field}.class"),
                format!("{action} needs a melee weapon"),
            ));
        }
        Ok(())
    }

    /// Refuses anything but a ranged weapon (`action` names the action in the message).
    pub fn require_ranged(&self, field: &str, action: &str) -> Result<(), RuleError> {
        if self.class != WeaponClass::Ranged {
            return Err(RuleError::invalid(
                format!("{field}.class"),
                format!("{action} needs a ranged weapon"),
            ));
        }
        Ok(())
    }
}

fn check_rating(field: &str, value: u32) -> Result<(), RuleError> {
    if value == 0 || value > MAX_WEAPON_RATING {
        return Err(RuleError::invalid(field, format!("must lie between 1 and {MAX_WEAPON_RATING}")));
    }
    Ok(())
}
