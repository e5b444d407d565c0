//! The attack fields shared by the stored and the inline attack requests, and how they become an
//! `AttackRequest` for `resolve_attack` (cepheus-engine.txt, "Attack", "Range" and the sections
//! cited in `circumstances.rs`).
//!
//! Decisions:
//! - The range is given exactly once: `distance_m`, `distance_squares` or `range_band`.
//! - `skill` names the attacker's weapon skill as listed in its stat block; without it the
//!   kind's usual name is used: "gun_combat" for shooting, "melee_combat" for melee, "athletics"
//!   for thrown weapons. A skill the attacker does not have is unskilled (−3). In zero gravity the
//!   attacker's "zero_g" skill caps it.
//! - Strength and Dexterity are the attacker's current values; the target's armour is its stat
//!   block's rating.
//! - `reaction` is the target's choice against this attack: `dodge` (−1, or −2 from cover),
//!   `dodge_behind_obstruction` (−2) or `parry` (minus its melee skill, melee only).
//! - Request errors name the JSON field the client sent; rule errors about the attacker's own
//!   state (its stance, its aim) name the attacker.

use super::super::allocation::{Overflow, Split};
use super::super::attack_request::{BlindFire, MeleeCharacteristic, ThrownKind};
use super::super::burst::Burst;
use super::super::conditions::{Darkness, Smoke};
use super::super::cover::CoverLevel;
use super::super::explosion::ExplosionResponse;
use super::super::modifier::Modifier;
use super::super::range::RangeBand;
use super::super::vehicle_location::LocationTable;
use super::super::weapon::{WeaponTechnology, WeaponType};
use crate::score::{Measure, Score};
use serde::{Deserialize, Serialize};

/// Most extra modifiers a client may send (the rest of the 20 the rules accept are the engine's).
pub const MAX_CLIENT_MODIFIERS: usize = 10;

/// Metres to the target (beyond 500 m everything is Distant).
pub type DistanceM = Measure<0, 1_000_000>;
/// Grid squares to the target (beyond 333 everything is Distant).
pub type DistanceSquares = Score<0, 1_000_000>;
/// Metres the target moved this round: at most −1,000 DM.
pub type TargetMovementM = Measure<0, 10_000>;
/// Rounds left in a weapon fired in panic.
pub type PanicFireRounds = Score<0, 1_000>;

/// The weapon used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineWeapon))]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub weapon_type: WeaponType,
    #[serde(default)]
    pub technology: WeaponTechnology,
    /// Damage dice (D6), 0 to 50.
    pub damage_dice: Score<0, 50>,
    /// A flat bonus, −100 to +100.
    #[serde(default)]
    pub damage_bonus: Score<-100, 100>,
    /// Thrown weapons only: `impact` or `explosive`.
    #[serde(default)]
    pub thrown_kind: Option<ThrownKind>,
    /// The weapon has recoil (−2 in zero gravity).
    #[serde(default)]
    pub recoil: bool,
}

/// The target's reaction to one attack.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineReaction))]
#[serde(rename_all = "snake_case")]
pub enum Reaction {
    #[default]
    None,
    Dodge,
    DodgeBehindObstruction,
    Parry,
}

impl Reaction {
    pub fn label(self) -> &'static str {
        match self {
            Reaction::None => "none",
            Reaction::Dodge | Reaction::DodgeBehindObstruction => "dodge",
            Reaction::Parry => "parry",
        }
    }
}

/// Everything about an attack both request kinds share.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackFields {
    pub weapon: Weapon,
    pub skill: Option<String>,
    pub distance_m: Option<DistanceM>,
    pub distance_squares: Option<DistanceSquares>,
    pub range_band: Option<RangeBand>,
    pub melee_characteristic: Option<MeleeCharacteristic>,
    pub cover: CoverLevel,
    pub reaction: Reaction,
    pub blast_response: ExplosionResponse,
    pub target_movement_m: TargetMovementM,
    pub darkness: Darkness,
    pub smoke: Smoke,
    pub extreme_weather: bool,
    pub sensors: bool,
    pub infra_red: bool,
    pub attacker_cover: CoverLevel,
    pub zero_g: bool,
    pub laser_sight: bool,
    pub intelligent_weapon: bool,
    pub firing_into_combat: bool,
    pub extreme_range: bool,
    pub braced: bool,
    pub burst: Option<Burst>,
    pub panic_fire_rounds: Option<PanicFireRounds>,
    pub shotgun_spread: bool,
    pub suppression: bool,
    pub suppression_immune: bool,
    pub target_is_vehicle: bool,
    pub hit_location_table: Option<LocationTable>,
    pub blind_fire: Option<BlindFire>,
    pub coup_de_grace: bool,
    pub target_helpless: bool,
    pub extra_modifiers: Vec<Modifier>,
    pub overflow_to: Option<Overflow>,
    pub allocation: Option<Split>,
}

/// Defines a request struct holding its own fields followed by every [`AttackFields`] field.
macro_rules! attack_request_struct {
    ($(#[$meta:meta])* pub struct $name:ident { $($(#[$fmeta:meta])* pub $field:ident : $ty:ty,)* }) => {
        $(#[$meta])*
        pub struct $name {
            $($(#[$fmeta])* pub $field: $ty,)*
            pub weapon: $crate::rulesets::cepheus_engine::commands::request::Weapon,
            /// The attacker's weapon skill name; default by weapon kind.
            #[serde(default)]
            pub skill: Option<String>,
            /// Metres to the target, 0 to 1,000,000.
            #[serde(default)]
            pub distance_m: Option<$crate::rulesets::cepheus_engine::commands::request::DistanceM>,
            /// Grid squares to the target, 0 to 1,000,000.
            #[serde(default)]
            pub distance_squares: Option<$crate::rulesets::cepheus_engine::commands::request::DistanceSquares>,
            /// The range band, when no distance is given (a distance decides the band itself).
            #[serde(default)]
            pub range_band: Option<$crate::rulesets::cepheus_engine::range::RangeBand>,
            /// The characteristic a melee attack adds (default: the higher DM of STR and DEX).
            #[serde(default)]
            pub melee_characteristic: Option<$crate::rulesets::cepheus_engine::attack_request::MeleeCharacteristic>,
            /// The target's cover ("Cover").
            #[serde(default)]
            pub cover: $crate::rulesets::cepheus_engine::cover::CoverLevel,
            /// The target's reaction: dodge or parry ("Reactions").
            #[serde(default)]
            pub reaction: $crate::rulesets::cepheus_engine::commands::request::Reaction,
            /// What the target of a blast does: nothing, dodge or dive ("Explosions").
            #[serde(default)]
            pub blast_response: $crate::rulesets::cepheus_engine::explosion::ExplosionResponse,
            /// Metres the target moved this round, 0 to 10,000 (−1 DM per full 10 m).
            #[serde(default)]
            pub target_movement_m: $crate::rulesets::cepheus_engine::commands::request::TargetMovementM,
            /// The light at the target ("Darkness").
            #[serde(default)]
            pub darkness: $crate::rulesets::cepheus_engine::conditions::Darkness,
            /// Smoke between attacker and target ("Smoke").
            #[serde(default)]
            pub smoke: $crate::rulesets::cepheus_engine::conditions::Smoke,
            /// Extreme weather hampers visibility (a DM; `sensors` lift the visibility part).
            #[serde(default)]
            pub extreme_weather: bool,
            /// The attacker aims through sensors: darkness and weather visibility give no DM.
            #[serde(default)]
            pub sensors: bool,
            /// The attacker sees with infra-red sensors: smoke conceals nothing (its DM is 0).
            #[serde(default)]
            pub infra_red: bool,
            /// The cover the attacker itself is in: crouched or prone in full cover, it cannot
            /// attack ("Cover").
            #[serde(default)]
            pub attacker_cover: $crate::rulesets::cepheus_engine::cover::CoverLevel,
            /// The attacker fires in zero gravity: recoil applies to weapons with it.
            #[serde(default)]
            pub zero_g: bool,
            /// The weapon has a laser sight (its DM, where the weapon allows it).
            #[serde(default)]
            pub laser_sight: bool,
            /// The weapon is an intelligent weapon (its DM).
            #[serde(default)]
            pub intelligent_weapon: bool,
            /// The target is at Personal range to another combatant (−2; a miss may hit the
            /// nearest other). Stored: derived `true` for a target locked in a grapple, and
            /// `false` then refused.
            #[serde(default)]
            pub firing_into_combat: Option<bool>,
            /// Fire at Extreme range (needs a Distant-capable weapon, level 3 and `braced`).
            #[serde(default)]
            pub extreme_range: bool,
            /// The firer is braced and stationary (needed for Extreme range).
            #[serde(default)]
            pub braced: bool,
            /// Auto fire: a burst or full auto ("Autofire").
            #[serde(default)]
            pub burst: Option<$crate::rulesets::cepheus_engine::burst::Burst>,
            /// Panic fire with this many rounds left, 0 to 1,000.
            #[serde(default)]
            pub panic_fire_rounds: Option<$crate::rulesets::cepheus_engine::commands::request::PanicFireRounds>,
            /// A shotgun fired for spread (its DM and damage by range).
            #[serde(default)]
            pub shotgun_spread: bool,
            /// Suppressive fire ("Suppression Fire").
            #[serde(default)]
            pub suppression: bool,
            /// The target is immune to suppression (the caller's call).
            #[serde(default)]
            pub suppression_immune: bool,
            /// The target is a vehicle (+1 DM; `hit_location_table` names its column).
            #[serde(default)]
            pub target_is_vehicle: bool,
            /// The vehicle hit-location column of the target ("Vehicle Hit Location").
            #[serde(default)]
            pub hit_location_table: Option<$crate::rulesets::cepheus_engine::vehicle_location::LocationTable>,
            /// Firing at a target the attacker cannot see ("Blind Fire").
            #[serde(default)]
            pub blind_fire: Option<$crate::rulesets::cepheus_engine::attack_request::BlindFire>,
            /// A coup de grâce on a helpless or unconscious target ("Coup de Grace").
            #[serde(default)]
            pub coup_de_grace: bool,
            /// The target is helpless (for a coup de grâce).
            #[serde(default)]
            pub target_helpless: bool,
            /// The caller's own DMs (at most 10), each with a reason; reported with code `caller`.
            #[serde(default)]
            pub extra_modifiers: Vec<$crate::rulesets::cepheus_engine::modifier::ExtraModifier>,
            /// Where damage beyond the first characteristic goes on a first hit.
            #[serde(default)]
            pub overflow_to: Option<$crate::rulesets::cepheus_engine::allocation::Overflow>,
            /// How a later hit splits its damage over STR, DEX and END.
            #[serde(default)]
            pub allocation: Option<$crate::rulesets::cepheus_engine::allocation::DamageSplit>,
        }

        impl $name {
            /// The fields every attack request shares.
            pub fn attack_fields(&self) -> $crate::rulesets::cepheus_engine::commands::request::AttackFields {
                $crate::rulesets::cepheus_engine::commands::request::AttackFields {
                    weapon: self.weapon.clone(),
                    skill: self.skill.clone(),
                    distance_m: self.distance_m,
                    distance_squares: self.distance_squares,
                    range_band: self.range_band,
                    melee_characteristic: self.melee_characteristic,
                    cover: self.cover,
                    reaction: self.reaction,
                    blast_response: self.blast_response,
                    target_movement_m: self.target_movement_m,
                    darkness: self.darkness,
                    smoke: self.smoke,
                    extreme_weather: self.extreme_weather,
                    sensors: self.sensors,
                    infra_red: self.infra_red,
                    attacker_cover: self.attacker_cover,
                    zero_g: self.zero_g,
                    laser_sight: self.laser_sight,
                    intelligent_weapon: self.intelligent_weapon,
                    firing_into_combat: self.firing_into_combat.unwrap_or(false),
                    extreme_range: self.extreme_range,
                    braced: self.braced,
                    burst: self.burst,
                    panic_fire_rounds: self.panic_fire_rounds,
                    shotgun_spread: self.shotgun_spread,
                    suppression: self.suppression,
                    suppression_immune: self.suppression_immune,
                    target_is_vehicle: self.target_is_vehicle,
                    hit_location_table: self.hit_location_table,
                    blind_fire: self.blind_fire,
                    coup_de_grace: self.coup_de_grace,
                    target_helpless: self.target_helpless,
                    extra_modifiers: self.extra_modifiers.iter().map(Into::into).collect(),
                    overflow_to: self.overflow_to,
                    allocation: self.allocation.map(Into::into),
                }
            }
        }
    };
}
pub(crate) use attack_request_struct;
