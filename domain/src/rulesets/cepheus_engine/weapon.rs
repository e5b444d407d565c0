//! Weapon categories used by the range and modifier rules (cepheus-engine.txt, "Range" and
//! "Attack").
//!
//! Decisions:
//! - Close Quarters and Extended Reach are the melee categories; Thrown, Pistol, Rifle, Shotgun,
//!   Assault Weapon and Rocket are ranged ("Attack" lists melee, shooting and thrown attacks).
//! - "Small arms slug thrower" (needed for panic fire) means a conventional pistol, rifle, shotgun
//!   or assault weapon. Rockets are not small arms, and lasers and other energy weapons do not
//!   throw slugs.

use serde::{Deserialize, Serialize};

/// The weapon categories of the attack difficulty table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineWeaponType))]
#[serde(rename_all = "snake_case")]
pub enum WeaponType {
    CloseQuarters,
    ExtendedReach,
    Thrown,
    Pistol,
    Rifle,
    Shotgun,
    AssaultWeapon,
    Rocket,
}

impl WeaponType {
    /// Every weapon type, in declaration order.
    pub const ALL: [WeaponType; 8] = [
        WeaponType::CloseQuarters,
        WeaponType::ExtendedReach,
        WeaponType::Thrown,
        WeaponType::Pistol,
        WeaponType::Rifle,
        WeaponType::Shotgun,
        WeaponType::AssaultWeapon,
        WeaponType::Rocket,
    ];

    /// True for the two melee categories (cepheus-engine.txt, "Attack"; see the decisions).
    pub fn is_melee(self) -> bool {
        matches!(self, WeaponType::CloseQuarters | WeaponType::ExtendedReach)
    }

    /// True for the categories that can hold a small-arms slug thrower (cepheus-engine.txt, "Panic
    /// Fire"; see the decisions).
    pub fn is_small_arm(self) -> bool {
        matches!(
            self,
            WeaponType::Pistol | WeaponType::Rifle | WeaponType::Shotgun | WeaponType::AssaultWeapon
        )
    }

    /// The category's name as the rules print it.
    pub fn label(self) -> &'static str {
        match self {
            WeaponType::CloseQuarters => "Close Quarters",
            WeaponType::ExtendedReach => "Extended Reach",
            WeaponType::Thrown => "Thrown",
            WeaponType::Pistol => "Pistol",
            WeaponType::Rifle => "Rifle",
            WeaponType::Shotgun => "Shotgun",
            WeaponType::AssaultWeapon => "Assault Weapon",
            WeaponType::Rocket => "Rocket",
        }
    }
}

/// What a weapon fires: the smoke penalty doubles for lasers, panic fire needs slugs and extreme
/// range halves energy weapon damage.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineWeaponTechnology))]
#[serde(rename_all = "snake_case")]
pub enum WeaponTechnology {
    /// Slugs, blades, bows, rockets and anything else that is not an energy weapon.
    #[default]
    Conventional,
    Laser,
    /// Plasma, fusion and other energy weapons that are not lasers.
    OtherEnergy,
}

impl WeaponTechnology {
    /// Lasers and every other energy weapon.
    pub fn is_energy(self) -> bool {
        !matches!(self, WeaponTechnology::Conventional)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_close_quarters_and_extended_reach_are_melee() {
        let melee: Vec<_> = WeaponType::ALL.into_iter().filter(|weapon| weapon.is_melee()).collect();
        assert_eq!(melee, vec![WeaponType::CloseQuarters, WeaponType::ExtendedReach]);
    }

    #[test]
    fn rockets_and_thrown_weapons_are_not_small_arms() {
        assert!(WeaponType::Pistol.is_small_arm());
        assert!(WeaponType::AssaultWeapon.is_small_arm());
        assert!(!WeaponType::Rocket.is_small_arm());
        assert!(!WeaponType::Thrown.is_small_arm());
    }

    #[test]
    fn lasers_and_plasma_are_energy_weapons() {
        assert!(WeaponTechnology::Laser.is_energy());
        assert!(WeaponTechnology::OtherEnergy.is_energy());
        assert!(!WeaponTechnology::Conventional.is_energy());
    }
}
