//! The Action List (adeva-d100.txt, "Actions", "Action List"): every action as data. For a
//! declared action, a function returns its [`ActionSpec`]: what it costs, its subtypes, the tests
//! it calls for with every modifier and its reason, how many hits a pass can score, and what it
//! leaves behind after it is done. Actions that roll dice of their own (a suppressive burst's jam
//! and random victims, Pinning tests, the opposed Agility test of an Overwatch) have resolution
//! functions in their modules.
//!
//! Decisions (general; each module lists its own):
//! - Only the modifiers an action itself brings are listed (e.g. Standard Attack +10). Situational
//!   ones (a surprised target's +30, altitude) are added where the attack is resolved
//!   (`attack_sequence.rs`); an aim bonus comes from [`TurnBudget::pending_aim`].
//! - A thrown melee weapon is tested with WS, as "Attacking" Step Three says, and its attack counts
//!   as ranged; it cannot fire a Burst or a Flurry, which need a ranged or a melee weapon.
//! - An action with no type in the table (the grapple Controller actions marked "-") is part of the
//!   action that leads to it and costs nothing more (see `grapple.rs`).

pub mod aim;
pub mod attack_action;
pub mod attack_actions;
pub mod charge;
pub mod declared;
pub mod economy;
pub mod grapple;
pub mod grapple_strike;
pub mod hit_spread;
pub mod kinds;
pub mod manoeuvres;
pub mod overwatch;
pub mod pinning;
pub mod spec;
pub mod starship;
pub mod suppressive;
#[cfg(test)]
mod spec_tests;
#[cfg(test)]
pub(crate) mod test_support;
pub mod weapon;

pub use declared::{DeclaredAction, action_spec};
pub use economy::{ExtendedAction, TurnBudget};
/// The one characteristic-name enum, declared beside the decays that lower a characteristic.
pub use super::decay::CharacteristicName;

pub use kinds::{ActionKind, ActionSubtype, ActionType};
pub use spec::{
    ActionSpec, Evasion, HitRule, LingeringEffect, Opposition, TestSpec, USUAL_EVASIONS, Until,
};
pub use weapon::{MAX_WEAPON_RATING, Weapon, WeaponClass};
