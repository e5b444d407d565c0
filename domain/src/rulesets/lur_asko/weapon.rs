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
//! - One weapon may carry more than one energy portion ("Combined Energy/Normal Damage" speaks of
//!   "the energy portion" of a weapon with normal damage and "extra energy damage"; devices and
//!   Abilities may stack several): the first is `energy`, the others `extra_energy`. **Reading:**
//!   each energy portion is "the energy portion" of that sentence on its own, so each is settled
//!   against the weapon's normal drive by itself (a higher normal drive carries it, else it keeps
//!   its own), each is shielded on its own, and each type's damage counts toward that type's
//!   degrees. A type appears at most once per weapon (send one portion with the sum), so at most
//!   four extra portions; an explosive's energy element is its blast alone.

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
/// Most energy portions beyond the first on one weapon: the five energy types, each once.
pub const MAX_EXTRA_ENERGY: usize = 4;
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
    /// Further energy portions of other types carried by the same weapon (needs `energy`; not
    /// on an explosive; at most 4, each type once).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schema(max_items = 4))]
    pub extra_energy: Vec<EnergyDamage>,
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
    /// Every energy portion of the weapon, `energy` first, then `extra_energy` in order.
    pub fn energies(&self) -> impl Iterator<Item = EnergyDamage> + '_ {
        self.energy.iter().chain(&self.extra_energy).copied()
    }

    /// Extra energy portions (Combined Energy/Normal Damage, see the module's reading): only
    /// after a first `energy`, not on an explosive, at most 4, no type twice.
    fn check_extra_energy(&self, field: &str) -> Result<(), RuleError> {
        let extra = format!("{field}.extra_energy");
        if self.extra_energy.is_empty() {
            return Ok(());
        }
        if self.extra_energy.len() > MAX_EXTRA_ENERGY {
            return Err(RuleError::invalid(extra, "at most 4 extra energy portions"));
        }
        if self.delivery == Delivery::Explosive {
            return Err(RuleError::invalid(extra, "an explosive's only energy element is its blast"));
        }
        if self.energy.is_none() {
            return Err(RuleError::invalid(extra, "send the first energy portion as `energy`"));
        }
        let all: Vec<EnergyType> = self.energies().map(|energy| energy.energy).collect();
        for (index, energy) in all.iter().enumerate().skip(1) {
            if all[..index].contains(energy) {
                return Err(RuleError::invalid(
                    format!("{extra}[{}].type", index - 1),
                    "this energy type is already on the weapon: send one portion with the sum",
                ));
            }
        }
        Ok(())
    }

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
        self.check_extra_energy(field)?;
        if !self.has_normal() && self.energies().all(|energy| energy.damage.get() == 0) {
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
