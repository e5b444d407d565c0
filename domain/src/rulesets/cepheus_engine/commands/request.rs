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

use super::super::Stats;
use super::super::allocation::{AllocationChoice, Overflow, Split};
use super::super::attack_request::AttackKind;
use super::super::attack_request::{
    AttackRequest, Attacker, BlindFire, Defender, MeleeCharacteristic, ThrownKind, WeaponDamage,
};
use super::super::burst::Burst;
use super::super::character::Physical;
use super::super::circumstances::AttackCircumstances;
use super::super::conditions::{Darkness, Smoke};
use super::super::cover::CoverLevel;
use super::super::explosion::ExplosionResponse;
use super::super::modifier::{Modifier, Reason};
use super::super::range::{RangeBand, band_for_metres, band_for_squares};
use super::super::reactions::Dodge;
use super::super::stance::Stance;
use super::super::vehicle_location::LocationTable;
use super::super::weapon::{WeaponTechnology, WeaponType};
use super::{characteristic, melee_level};
use crate::rulesets::RuleError;
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
            #[serde(default)]
            pub range_band: Option<$crate::rulesets::cepheus_engine::range::RangeBand>,
            #[serde(default)]
            pub melee_characteristic: Option<$crate::rulesets::cepheus_engine::attack_request::MeleeCharacteristic>,
            #[serde(default)]
            pub cover: $crate::rulesets::cepheus_engine::cover::CoverLevel,
            #[serde(default)]
            pub reaction: $crate::rulesets::cepheus_engine::commands::request::Reaction,
            #[serde(default)]
            pub blast_response: $crate::rulesets::cepheus_engine::explosion::ExplosionResponse,
            /// Metres the target moved this round, 0 to 10,000 (−1 DM per full 10 m).
            #[serde(default)]
            pub target_movement_m: $crate::rulesets::cepheus_engine::commands::request::TargetMovementM,
            #[serde(default)]
            pub darkness: $crate::rulesets::cepheus_engine::conditions::Darkness,
            #[serde(default)]
            pub smoke: $crate::rulesets::cepheus_engine::conditions::Smoke,
            #[serde(default)]
            pub extreme_weather: bool,
            #[serde(default)]
            pub sensors: bool,
            #[serde(default)]
            pub zero_g: bool,
            #[serde(default)]
            pub laser_sight: bool,
            #[serde(default)]
            pub intelligent_weapon: bool,
            #[serde(default)]
            pub firing_into_combat: bool,
            #[serde(default)]
            pub extreme_range: bool,
            #[serde(default)]
            pub braced: bool,
            #[serde(default)]
            pub burst: Option<$crate::rulesets::cepheus_engine::burst::Burst>,
            /// Panic fire with this many rounds left, 0 to 1,000.
            #[serde(default)]
            pub panic_fire_rounds: Option<$crate::rulesets::cepheus_engine::commands::request::PanicFireRounds>,
            #[serde(default)]
            pub shotgun_spread: bool,
            #[serde(default)]
            pub suppression: bool,
            #[serde(default)]
            pub suppression_immune: bool,
            #[serde(default)]
            pub target_is_vehicle: bool,
            #[serde(default)]
            pub hit_location_table: Option<$crate::rulesets::cepheus_engine::vehicle_location::LocationTable>,
            #[serde(default)]
            pub blind_fire: Option<$crate::rulesets::cepheus_engine::attack_request::BlindFire>,
            #[serde(default)]
            pub coup_de_grace: bool,
            #[serde(default)]
            pub target_helpless: bool,
            /// The caller's own DMs (at most 10), each with a reason; reported with code `caller`.
            #[serde(default)]
            pub extra_modifiers: Vec<$crate::rulesets::cepheus_engine::modifier::ExtraModifier>,
            #[serde(default)]
            pub overflow_to: Option<$crate::rulesets::cepheus_engine::allocation::Overflow>,
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
                    zero_g: self.zero_g,
                    laser_sight: self.laser_sight,
                    intelligent_weapon: self.intelligent_weapon,
                    firing_into_combat: self.firing_into_combat,
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

/// The two sides as the attack needs them.
pub struct Sides<'a> {
    pub attacker: &'a Stats,
    pub target: &'a Stats,
    pub attacker_stance: Stance,
    pub target_stance: Stance,
    pub aim: u8,
    pub aim_for_kill: u8,
    /// The attacker's own check penalties (see `own_check_modifiers`).
    pub own_modifiers: Vec<Modifier>,
    pub target_helpless: bool,
    /// A stored attack: rule errors about the attacker's stance or aim name `attacker_id`.
    pub stored: bool,
}

/// The attack after the engine has filled in what it knows.
pub struct Built {
    pub request: AttackRequest,
    pub skill: Reason,
    pub skill_level: Option<i32>,
    pub range_band: RangeBand,
    pub range_field: &'static str,
}

impl AttackFields {
    /// The target's choices for the hit's damage.
    pub fn choice(&self) -> AllocationChoice {
        AllocationChoice { overflow_to: self.overflow_to, allocation: self.allocation }
    }

    /// The range band from whichever of the three range fields was sent.
    pub fn range(&self) -> Result<(RangeBand, &'static str), RuleError> {
        match (self.distance_m, self.distance_squares, self.range_band) {
            (Some(metres), None, None) => Ok((band_for_metres(metres.get())?, "distance_m")),
            (None, Some(squares), None) => {
                Ok((band_for_squares(squares.get().unsigned_abs()), "distance_squares"))
            }
            (None, None, Some(band)) => Ok((band, "range_band")),
            _ => Err(RuleError::invalid(
                "range_band",
                "send exactly one of distance_m, distance_squares and range_band",
            )),
        }
    }

    fn skill_name(&self, kind: AttackKind) -> Reason {
        match &self.skill {
            Some(skill) => Reason::Owned(skill.clone()),
            None => Reason::Borrowed(match kind {
                AttackKind::Shooting => "gun_combat",
                AttackKind::Melee => "melee_combat",
                AttackKind::Thrown => "athletics",
            }),
        }
    }

    /// Builds the `AttackRequest` for `resolve_attack` (see the module decisions).
    pub fn build(&self, sides: &Sides) -> Result<Built, RuleError> {
        let (range_band, range_field) = self.range()?;
        if self.extra_modifiers.len() > MAX_CLIENT_MODIFIERS {
            return Err(RuleError::invalid("extra_modifiers", "at most 10 extra modifiers may be sent"));
        }
        if let Some(skill) = &self.skill
            && (skill.trim().is_empty() || skill.chars().count() > 64)
        {
            return Err(RuleError::invalid("skill", "a skill name has 1 to 64 characters"));
        }
        let kind = AttackKind::of(self.weapon.weapon_type);
        let skill = self.skill_name(kind);
        let skill_level = sides.attacker.skill_level(&skill);
        let mut circumstances = AttackCircumstances::new(self.weapon.weapon_type, range_band);
        circumstances.technology = self.weapon.technology;
        circumstances.recoil = self.weapon.recoil;
        circumstances.skill_level = skill_level;
        circumstances.attacker_stance = sides.attacker_stance;
        circumstances.aim = sides.aim;
        circumstances.aim_for_kill = sides.aim_for_kill;
        circumstances.laser_sight = self.laser_sight;
        circumstances.intelligent_weapon = self.intelligent_weapon;
        circumstances.cover = self.cover;
        circumstances.target_stance = sides.target_stance;
        match self.reaction {
            Reaction::None => {}
            Reaction::Dodge => circumstances.dodge = Dodge::Dodges,
            Reaction::DodgeBehindObstruction => circumstances.dodge = Dodge::DodgesBehindObstruction,
            Reaction::Parry => circumstances.parry_skill = Some(melee_level(sides.target)),
        }
        circumstances.target_movement_m = self.target_movement_m.get();
        circumstances.darkness = self.darkness;
        circumstances.smoke = self.smoke;
        circumstances.extreme_weather = self.extreme_weather;
        circumstances.sensors = self.sensors;
        circumstances.zero_g = self.zero_g;
        circumstances.firing_into_combat = self.firing_into_combat;
        circumstances.extreme_range = self.extreme_range;
        circumstances.braced = self.braced;
        circumstances.burst = self.burst;
        circumstances.panic_fire_rounds = self.panic_fire_rounds.map(|rounds| rounds.get().unsigned_abs());
        circumstances.shotgun_spread = self.shotgun_spread;
        circumstances.suppression = self.suppression;
        circumstances.target_is_vehicle = self.target_is_vehicle;
        let mut extra_modifiers = Vec::with_capacity(self.extra_modifiers.len() + sides.own_modifiers.len());
        extra_modifiers.extend(self.extra_modifiers.iter().cloned());
        extra_modifiers.extend(sides.own_modifiers.iter().cloned());
        let request = AttackRequest {
            circumstances,
            attacker: Attacker {
                str: characteristic(sides.attacker.current(Physical::Str)),
                dex: characteristic(sides.attacker.current(Physical::Dex)),
                melee_characteristic: self.melee_characteristic,
                zero_g_skill: sides.attacker.skill_level("zero_g"),
            },
            weapon: WeaponDamage {
                damage_dice: self.weapon.damage_dice.get().unsigned_abs(),
                damage_bonus: self.weapon.damage_bonus.get(),
                thrown_kind: self.weapon.thrown_kind,
            },
            defender: Defender {
                armour: u32::try_from(sides.target.armour.get()).unwrap_or(0),
                helpless: sides.target_helpless,
                blast_response: self.blast_response,
                hit_location_table: self.hit_location_table,
            },
            extra_modifiers,
            blind_fire: self.blind_fire,
            coup_de_grace: self.coup_de_grace,
        };
        Ok(Built { request, skill, skill_level, range_band, range_field })
    }
}

/// Renames a rule error's field to the JSON path the client sent (see the module decisions).
pub fn client_field(error: RuleError, range_field: &str, stored: bool) -> RuleError {
    let RuleError::Invalid { field, message } = error else { return error };
    let own = |name: &str| if stored { "attacker_id".to_string() } else { name.to_string() };
    let renamed = match field.as_str() {
        "circumstances.weapon_type" => "weapon.weapon_type".to_string(),
        "circumstances.technology" => "weapon.technology".to_string(),
        "circumstances.recoil" => "weapon.recoil".to_string(),
        "circumstances.range_band" => range_field.to_string(),
        "circumstances.skill_level" => "skill".to_string(),
        "circumstances.dodge" | "circumstances.parry_skill" => "reaction".to_string(),
        "circumstances.attacker_stance" => own("attacker_stance"),
        "circumstances.aim" => own("aim"),
        "circumstances.aim_for_kill" => own("aim_for_kill"),
        "circumstances.target_stance" => {
            if stored {
                "target_id".to_string()
            } else {
                "target_stance".to_string()
            }
        }
        "attacker.zero_g_skill" => "zero_g".to_string(),
        "attacker.melee_characteristic" => "melee_characteristic".to_string(),
        "defender.helpless" => "coup_de_grace".to_string(),
        "defender.blast_response" => "blast_response".to_string(),
        "defender.hit_location_table" => "hit_location_table".to_string(),
        other => other.strip_prefix("circumstances.").unwrap_or(other).to_string(),
    };
    RuleError::invalid(renamed, message)
}
