//! The grapple's "Either" Standard Attack as it is rolled (adeva-d100.txt, "Grapple (Initiate)",
//! "Either: Unarmed/Knife/Natural Weapon Standard Attack": "following all the usual rules of a
//! Standard Attack"; its target "does not need to be the other participant").
//!
//! Decisions:
//! - The attack is the attack command's Standard Attack (+10, one hit, evasion, damage, soak,
//!   critical), already paid for by the grapple action that leads to it.
//! - Its target defaults to the other participant. Unarmed deals 1d5 − 3 + SB ("Unarmed
//!   Attacks"); a small melee weapon is the row's "1d5 damage weapon", so its damage defaults to
//!   1d5 (+ SB, as any melee weapon); a natural weapon's or a pistol's damage must be sent.

use super::grapple::GrappleWeapon;
use super::{ActionSubtype, CharacteristicName, HitRule, TestSpec, Weapon, WeaponClass};
use crate::rulesets::adeva_d100::test_modifiers::{Modifier, ModifierCode};
use crate::encounter::CombatantId;
use crate::rulesets::adeva_d100::commands::EvasionChoice;
use crate::rulesets::adeva_d100::damage::DamageDice;
use serde::{Deserialize, Serialize};

/// What the grapple's Standard Attack needs besides its weapon kind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100GrappleStrike))]
#[serde(deny_unknown_fields)]
pub struct GrappleStrike {
    /// Left out: the other participant.
    #[serde(default)]
    pub target_id: Option<CombatantId>,
    /// The weapon's damage; needed for a natural weapon or a pistol (small melee: 1d5).
    #[serde(default)]
    pub damage: Option<DamageDice>,
    #[serde(default, deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub penetration: u32,
    /// The target's evasion.
    #[serde(default)]
    pub evasion: EvasionChoice,
}

/// The weapon, damage dice and unarmed flag the attack path rolls for a grapple weapon (see the
/// decisions).
pub fn strike_weapon(kind: GrappleWeapon, damage: Option<DamageDice>) -> (Weapon, Option<DamageDice>, bool) {
    let weapon = |name: &str, class| Weapon {
        name: name.into(),
        class,
        hit_rating: 1,
        semi_auto: None,
        full_auto: None,
    };
    match kind {
        GrappleWeapon::Unarmed => (weapon("unarmed", WeaponClass::Melee), None, true),
        GrappleWeapon::SmallMelee => (
            weapon("small melee weapon", WeaponClass::Melee),
            Some(damage.unwrap_or(DamageDice { count: 1, sides: 5, bonus: 0 })),
            false,
        ),
        GrappleWeapon::Natural => (weapon("natural weapon", WeaponClass::Melee), damage, false),
        GrappleWeapon::Pistol => (weapon("pistol", WeaponClass::Ranged), damage, false),
    }
}

/// The grapple's Standard Attack: +10, one hit; WS, or BS with a pistol (adeva-d100.txt, "Either:
/// Unarmed/Knife/Natural Weapon Standard Attack").
pub(super) fn grapple_attack_test(weapon: GrappleWeapon) -> (TestSpec, ActionSubtype) {
    let (name, characteristic, subtype) = match weapon {
        GrappleWeapon::Natural => ("natural weapon", CharacteristicName::Ws, ActionSubtype::Melee),
        GrappleWeapon::Unarmed => ("unarmed", CharacteristicName::Ws, ActionSubtype::Melee),
        GrappleWeapon::SmallMelee => ("small melee weapon", CharacteristicName::Ws, ActionSubtype::Melee),
        GrappleWeapon::Pistol => ("pistol", CharacteristicName::Bs, ActionSubtype::Ranged),
    };
    let modifiers = vec![Modifier::coded(ModifierCode::AttackAction, "standard attack", super::attack_actions::STANDARD_BONUS)];
    (TestSpec::attack(format!("attack with {name}"), characteristic, modifiers, HitRule::Single), subtype)
}
