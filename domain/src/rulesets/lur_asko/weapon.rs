//! The weapons of one attack as the caller describes them, and the voluntary reductions the
//! attacker may choose (lur-asko.txt, "Damage, Drive, & Armor Ranges", "Combined Energy/Normal
//! Damage", "Voluntarily Reducing Damage").
//!
//! Decisions:
//! - The STR addition to a melee weapon's damage and drive comes from another chapter, so the
//!   caller sends it (`strength`) for the STR the attacker chooses to use; `strength_withheld`
//!   sets it to 0 (STR reduced "to a minimum of 0").
//! - The melee 50 % / 25 % reduction covers everything but the STR addition (the only part the
//!   text excludes), so an added energy portion is reduced too and its drive follows; the normal
//!   drive is untouched (the text reduces "damage" only). The ranged 50 % covers damage and drive
//!   of both portions. Halves and quarters round down, as every percentage here.

use super::stats::{DriveValue, EnergyType, check_label};
use crate::rulesets::RuleError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// A damage value as a weapon lists it.
pub type DamageValue = Score<0, 10_000>;
/// A bonus to drive from an Ability.
pub type DriveBonus = Score<0, 1_000>;

/// Most weapons (or shots) in one attack.
pub const MAX_WEAPONS: usize = 10;
/// Most tags on one weapon.
pub const MAX_TAGS: usize = 10;

/// How a weapon reaches its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoDelivery))]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    /// A melee, natural or unarmed weapon.
    Melee,
    /// A ranged weapon or projectile.
    Ranged,
    /// An explosive or grenade: its frag (normal) and blast elements keep their own drives.
    Explosive,
}

/// The STR addition to a melee weapon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoStrength))]
#[serde(deny_unknown_fields)]
pub struct Strength {
    pub damage: DamageValue,
    pub drive: DriveValue,
}

/// Energy damage carried by a weapon; its drive equals its damage (Energy Damage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoEnergyDamage))]
#[serde(deny_unknown_fields)]
pub struct EnergyDamage {
    #[serde(rename = "type")]
    pub energy: EnergyType,
    pub damage: DamageValue,
}

/// One weapon (or shot) of an attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoWeapon))]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub name: String,
    pub delivery: Delivery,
    /// Normal damage (an explosive's frag); 0 for a weapon of pure energy.
    #[serde(default = "zero_damage")]
    pub damage: DamageValue,
    /// Normal drive (an explosive's frag drive).
    #[serde(default = "zero_drive")]
    pub drive: DriveValue,
    /// Melee only: the STR addition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<Strength>,
    /// Energy damage (an explosive's blast, which must be `blast`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy: Option<EnergyDamage>,
    /// Drive added by Abilities, to the normal and the energy drive alike.
    #[serde(default = "zero_bonus")]
    pub drive_bonus: DriveBonus,
    /// Melee only: the Precise tag (+20 drive on a critical hit instead of +10).
    #[serde(default)]
    pub precise: bool,
    /// Material or kind tags matched by resistances and weaknesses (e.g. `quartz`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Ranged only: the projectile was stopped by a kinetic shield; only the energy remains.
    #[serde(default)]
    pub stopped_by_kinetic_shield: bool,
    /// Explosive only: the target takes the device's impact damage (not area damage).
    #[serde(default)]
    pub impact: bool,
}

fn zero_damage() -> DamageValue {
    Score::<0, 10_000>::new(0).unwrap_or_else(|_| unreachable!("0 is in range"))
}

fn zero_drive() -> DriveValue {
    zero_damage()
}

fn zero_bonus() -> DriveBonus {
    Score::<0, 1_000>::new(0).unwrap_or_else(|_| unreachable!("0 is in range"))
}

/// A voluntary reduction of damage (Voluntarily Reducing Damage).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoReduction))]
#[serde(rename_all = "snake_case")]
pub enum Reduction {
    #[default]
    None,
    /// Melee weapon damage (not STR) to 50 %: 1 Hindrance.
    MeleeHalf,
    /// Melee weapon damage (not STR) to 25 %: 1 Hindrance.
    MeleeQuarter,
    /// Ranged damage and drive to 50 %: 3 Hindrance.
    RangedHalf,
}

impl Reduction {
    /// Hindrance to the attacker's offense roll.
    pub fn hindrance(self) -> u32 {
        match self {
            Self::None => 0,
            Self::MeleeHalf | Self::MeleeQuarter => 1,
            Self::RangedHalf => 3,
        }
    }

    /// The percentage of damage kept.
    pub fn percent(self) -> u32 {
        match self {
            Self::None => 100,
            Self::MeleeHalf | Self::RangedHalf => 50,
            Self::MeleeQuarter => 25,
        }
    }
}

impl Weapon {
    /// Whether the weapon has a normal (non-energy) portion.
    pub fn has_normal(&self) -> bool {
        self.damage.get() > 0 || self.strength.is_some_and(|s| s.damage.get() > 0)
    }

    /// Checks one weapon; `field` is its path (e.g. `weapons[0]`).
    pub fn check(&self, field: &str) -> Result<(), RuleError> {
        check_label(&format!("{field}.name"), &self.name)?;
        let melee = self.delivery == Delivery::Melee;
        let only = |flag: bool, name: &str, allowed: bool, kind: &str| {
            if flag && !allowed {
                Err(RuleError::invalid(format!("{field}.{name}"), format!("only a {kind} weapon has this")))
            } else {
                Ok(())
            }
        };
        only(self.strength.is_some(), "strength", melee, "melee")?;
        only(self.precise, "precise", melee, "melee")?;
        only(
            self.stopped_by_kinetic_shield,
            "stopped_by_kinetic_shield",
            self.delivery == Delivery::Ranged,
            "ranged",
        )?;
        only(self.impact, "impact", self.delivery == Delivery::Explosive, "explosive")?;
        if self.delivery == Delivery::Explosive
            && self.energy.is_some_and(|energy| energy.energy != EnergyType::Blast)
        {
            return Err(RuleError::invalid(
                format!("{field}.energy.type"),
                "an explosive's energy element is blast",
            ));
        }
        if !self.has_normal() && self.energy.is_none_or(|energy| energy.damage.get() == 0) {
            return Err(RuleError::invalid(format!("{field}.damage"), "the weapon deals no damage"));
        }
        if self.tags.len() > MAX_TAGS {
            return Err(RuleError::invalid(format!("{field}.tags"), "at most 10 tags"));
        }
        for (index, tag) in self.tags.iter().enumerate() {
            check_label(&format!("{field}.tags[{index}]"), tag)?;
        }
        Ok(())
    }
}

/// Checks the weapons of one attack and that the reduction suits them; `field` is the attack's
/// path in the request (e.g. `attack`), so errors name `attack.weapons[0].damage`.
pub fn check_weapons(field: &str, weapons: &[Weapon], reduction: Reduction) -> Result<(), RuleError> {
    if weapons.is_empty() || weapons.len() > MAX_WEAPONS {
        return Err(RuleError::invalid(format!("{field}.weapons"), "an attack has 1 to 10 weapons"));
    }
    for (index, weapon) in weapons.iter().enumerate() {
        weapon.check(&format!("{field}.weapons[{index}]"))?;
    }
    let all = |delivery| weapons.iter().all(|w| w.delivery == delivery);
    let fits = match reduction {
        Reduction::None => true,
        Reduction::MeleeHalf | Reduction::MeleeQuarter => all(Delivery::Melee),
        Reduction::RangedHalf => all(Delivery::Ranged),
    };
    if !fits {
        return Err(RuleError::invalid(
            format!("{field}.reduction"),
            "this reduction needs every weapon of the attack to be of its kind",
        ));
    }
    Ok(())
}
