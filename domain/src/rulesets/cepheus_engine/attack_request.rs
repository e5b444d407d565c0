//! What a client sends to resolve one attack, and the checks on it that `circumstances.rs` does
//! not already make (cepheus-engine.txt, "Attack", "Blind Firing", "Thrown Weapons", "Coup de
//! Grace", "Explosions" and "Vehicles in Personal Combat").
//!
//! Decisions:
//! - The attack kind follows the weapon type: Close Quarters and Extended Reach are melee, Thrown
//!   is thrown, every other type is shooting. There is no separate kind field to contradict it.
//! - The weapon skill level (Athletics for thrown weapons) is `circumstances.skill_level`, the one
//!   field the extreme-range check already reads; it is not repeated on the attacker.
//! - The attacker sends Strength and Dexterity as characteristics; their DMs come from
//!   `characteristic_dm`. A melee attacker may name STR or DEX; with no choice sent, the better DM
//!   is used (STR on a tie), since the choice is the attacker's and nobody picks the worse.
//! - The target's dodge and parry are `circumstances.dodge` and `circumstances.parry_skill`; the
//!   defender block only carries armour, helplessness, a blast response and, for vehicles, the
//!   location column.
//! - `thrown_kind` is required for thrown weapons (impact or explosive payload) and refused for
//!   every other weapon.
//! - A thrown explosive's direct target may dodge or dive away from the blast
//!   (`defender.blast_response`). That is its one reaction to the attack, so it cannot also dodge
//!   or parry the throw, and a prone target cannot send it.
//! - A target with `target_is_vehicle` must name its hit location column; any other target may
//!   name one too (robots and drones, or a vehicle the referee denies the +1).
//! - Blind fire is for shooting only: the text describes it as a way of firing and counts the
//!   weapon's own skill. 1 to 100 eligible targets.
//! - Weapon damage: 0 to 50 dice and a flat bonus of −100 to +100. Extra modifiers: at most 20,
//!   each with a non-blank reason and a DM of −20 to +20. These bounds keep the arithmetic small;
//!   no real weapon or situation comes near them.
//! - Coup de grâce needs `defender.helpless`. A melee weapon must be within Close range (Personal
//!   or Close). A ranged weapon must be adjacent to the target; a grid square's neighbours are one
//!   square away, which the range table puts in the Close band, so Personal and Close are accepted
//!   for it as well (the band cannot tell one square from two; the referee can). It cannot be
//!   fired blind.

use super::circumstances::{AttackCircumstances, validate};
use super::explosion::{ExplosionResponse, check_can_react};
use super::modifier::Modifier;
use super::range::RangeBand;
use super::reactions::Dodge;
use super::vehicle_location::LocationTable;
use super::weapon::WeaponType;
use super::{Characteristic, characteristic_dm};
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

pub const MAX_DAMAGE_DICE: u32 = 50;
pub const MAX_DAMAGE_BONUS: i32 = 100;
pub const MAX_EXTRA_MODIFIERS: usize = 20;
pub const MAX_EXTRA_DM: i32 = 20;
pub const MAX_BLIND_FIRE_TARGETS: u32 = 100;

/// Melee, shooting or thrown (cepheus-engine.txt, "Attack").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineAttackKind))]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    Melee,
    Shooting,
    Thrown,
}

impl AttackKind {
    /// The kind of attack a weapon type makes (see the decisions).
    pub fn of(weapon: WeaponType) -> Self {
        match weapon {
            _ if weapon.is_melee() => AttackKind::Melee,
            WeaponType::Thrown => AttackKind::Thrown,
            _ => AttackKind::Shooting,
        }
    }

    /// The skill the text names for this kind of attack.
    pub fn skill_label(self) -> &'static str {
        match self {
            AttackKind::Melee => "melee combat skill",
            AttackKind::Shooting => "gun combat skill",
            AttackKind::Thrown => "Athletics",
        }
    }
}

/// The characteristic a melee attacker adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineMeleeCharacteristic))]
#[serde(rename_all = "snake_case")]
pub enum MeleeCharacteristic {
    Str,
    Dex,
}

/// The attacker, as far as the roll needs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineAttacker))]
#[serde(deny_unknown_fields)]
pub struct Attacker {
    pub str: Characteristic,
    pub dex: Characteristic,
    /// Melee only; the better of the two when left out.
    #[serde(default)]
    pub melee_characteristic: Option<MeleeCharacteristic>,
    /// Used when `circumstances.zero_g` is set; `None` = no Zero-G skill.
    #[serde(default)]
    pub zero_g_skill: Option<i32>,
}

impl Attacker {
    /// The characteristic and its DM for this kind of attack (cepheus-engine.txt, "Attack").
    pub fn characteristic_for(&self, kind: AttackKind) -> (&'static str, Characteristic, i32) {
        let (str_dm, dex_dm) = (characteristic_dm(self.str), characteristic_dm(self.dex));
        let use_str = match (kind, self.melee_characteristic) {
            (AttackKind::Melee, Some(choice)) => choice == MeleeCharacteristic::Str,
            (AttackKind::Melee, None) => str_dm >= dex_dm,
            _ => false,
        };
        if use_str { ("STR", self.str, str_dm) } else { ("DEX", self.dex, dex_dm) }
    }
}

/// The two kinds of thrown weapon (cepheus-engine.txt, "Thrown Weapons").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineThrownKind))]
#[serde(rename_all = "snake_case")]
pub enum ThrownKind {
    /// Knives, rocks: damage from the impact, plus the Effect.
    Impact,
    /// Grenades: a payload, without the Effect.
    Explosive,
}

/// The weapon's damage: D6 plus a flat bonus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineWeaponDamage))]
#[serde(deny_unknown_fields)]
pub struct WeaponDamage {
    pub damage_dice: u32,
    #[serde(default)]
    pub damage_bonus: i32,
    /// Required for thrown weapons, refused for others.
    #[serde(default)]
    pub thrown_kind: Option<ThrownKind>,
}

impl WeaponDamage {
    /// Whether the attack's Effect is added to damage (cepheus-engine.txt, "Damage"; "Thrown
    /// Weapons": not for explosive payloads).
    pub fn adds_effect(&self) -> bool {
        self.thrown_kind != Some(ThrownKind::Explosive)
    }
}

/// The target.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDefender))]
#[serde(deny_unknown_fields)]
pub struct Defender {
    #[serde(default)]
    pub armour: u32,
    /// Helpless (needed for a coup de grâce).
    #[serde(default)]
    pub helpless: bool,
    /// Dodging or diving away from a thrown explosive's blast.
    #[serde(default)]
    pub blast_response: ExplosionResponse,
    /// For vehicles, robots and drones: the column hits are rolled on.
    #[serde(default)]
    pub hit_location_table: Option<LocationTable>,
}

/// Blind fire into a line holding this many eligible targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineBlindFire))]
#[serde(deny_unknown_fields)]
pub struct BlindFire {
    /// 1 to 100.
    pub eligible_targets: crate::score::Score<1, 100>,
}

/// Everything needed to resolve one attack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineAttackRequest))]
#[serde(deny_unknown_fields)]
pub struct AttackRequest {
    pub circumstances: AttackCircumstances,
    pub attacker: Attacker,
    pub weapon: WeaponDamage,
    #[serde(default)]
    pub defender: Defender,
    /// DMs the encounter layer works out itself, each with its reason.
    #[serde(default)]
    pub extra_modifiers: Vec<Modifier>,
    #[serde(default)]
    pub blind_fire: Option<BlindFire>,
    #[serde(default)]
    pub coup_de_grace: bool,
}

impl AttackRequest {
    pub fn kind(&self) -> AttackKind {
        AttackKind::of(self.circumstances.weapon_type)
    }
}

/// Puts `prefix.` in front of the field an error names.
pub fn within(prefix: &str, error: RuleError) -> RuleError {
    match error {
        RuleError::Invalid { field, message } => RuleError::invalid(format!("{prefix}.{field}"), message),
        other => other,
    }
}

fn invalid(field: &str, message: &str) -> Result<(), RuleError> {
    Err(RuleError::invalid(field, message))
}

/// Refuses a request the rules do not allow, naming the field by its JSON path (cepheus-engine.txt,
/// the sections cited on each check).
pub fn validate_request(request: &AttackRequest) -> Result<(), RuleError> {
    validate(&request.circumstances).map_err(|error| within("circumstances", error))?;
    check_attacker(request)?;
    check_weapon(request)?;
    check_defender(request)?;
    check_extra_modifiers(&request.extra_modifiers)?;
    check_blind_fire(request)?;
    if request.coup_de_grace {
        check_coup_de_grace(request)?;
    }
    Ok(())
}

/// Zero-G skill is a level, 0 or more; STR is a choice only in melee (cepheus-engine.txt,
/// "Attack"; "Fighting in Zero Gravity").
fn check_attacker(request: &AttackRequest) -> Result<(), RuleError> {
    if request.attacker.zero_g_skill.is_some_and(|level| level < 0) {
        return invalid(
            "attacker.zero_g_skill",
            "a skill level cannot be negative; leave it out when unskilled",
        );
    }
    if request.attacker.melee_characteristic.is_some() && request.kind() != AttackKind::Melee {
        return invalid(
            "attacker.melee_characteristic",
            "only melee attacks choose between STR and DEX; shooting and throwing use DEX",
        );
    }
    Ok(())
}

/// Damage bounds, and the thrown kind for thrown weapons only (cepheus-engine.txt, "Thrown
/// Weapons").
fn check_weapon(request: &AttackRequest) -> Result<(), RuleError> {
    let weapon = &request.weapon;
    if weapon.damage_dice > MAX_DAMAGE_DICE {
        return invalid("weapon.damage_dice", "a weapon rolls at most 50 dice of damage");
    }
    if weapon.damage_bonus.abs() > MAX_DAMAGE_BONUS {
        return invalid("weapon.damage_bonus", "a flat damage bonus must lie between −100 and +100");
    }
    match (request.kind(), weapon.thrown_kind) {
        (AttackKind::Thrown, None) => invalid(
            "weapon.thrown_kind",
            "a thrown weapon must say whether it strikes by impact or delivers an explosive payload",
        ),
        (AttackKind::Thrown, Some(_)) | (_, None) => Ok(()),
        (_, Some(_)) => invalid("weapon.thrown_kind", "only thrown weapons have a thrown kind"),
    }
}

/// Blast responses only against thrown explosives, as the target's one reaction; vehicles name a
/// location column (cepheus-engine.txt, "Explosions"; "Reactions"; "Vehicle Damage").
fn check_defender(request: &AttackRequest) -> Result<(), RuleError> {
    let (defender, circumstances) = (&request.defender, &request.circumstances);
    if defender.blast_response != ExplosionResponse::None {
        if request.weapon.thrown_kind != Some(ThrownKind::Explosive) {
            return invalid(
                "defender.blast_response",
                "only a thrown explosive's blast can be dodged or dived from",
            );
        }
        if circumstances.dodge != Dodge::None || circumstances.parry_skill.is_some() {
            return invalid(
                "defender.blast_response",
                "a target reacts at most once to each attack: the throw or the blast, not both",
            );
        }
        check_can_react("defender.blast_response", defender.blast_response, circumstances.target_stance)?;
    }
    if circumstances.target_is_vehicle && defender.hit_location_table.is_none() {
        return invalid(
            "defender.hit_location_table",
            "a vehicle target needs its hit location column: external while it has Hull, else internal",
        );
    }
    Ok(())
}

/// Every extra DM needs a reason and a sane size.
fn check_extra_modifiers(modifiers: &[Modifier]) -> Result<(), RuleError> {
    if modifiers.len() > MAX_EXTRA_MODIFIERS {
        return invalid("extra_modifiers", "at most 20 extra modifiers may be sent");
    }
    for (index, modifier) in modifiers.iter().enumerate() {
        if modifier.reason.trim().is_empty() {
            return Err(RuleError::invalid(
                format!("extra_modifiers[{index}].reason"),
                "every DM needs a reason",
            ));
        }
        if modifier.dm.abs() > MAX_EXTRA_DM {
            return Err(RuleError::invalid(
                format!("extra_modifiers[{index}].value"),
                "an extra DM must lie between −20 and +20",
            ));
        }
    }
    Ok(())
}

/// Blind fire is shooting into a line of 1 to 100 targets (cepheus-engine.txt, "Blind Firing").
fn check_blind_fire(request: &AttackRequest) -> Result<(), RuleError> {
    let Some(blind) = request.blind_fire else {
        return Ok(());
    };
    if request.kind() != AttackKind::Shooting {
        return invalid("blind_fire", "only shooting attacks can be fired blind");
    }
    if !(1..=MAX_BLIND_FIRE_TARGETS).contains(&blind.eligible_targets.get().unsigned_abs()) {
        return invalid(
            "blind_fire.eligible_targets",
            "there must be 1 to 100 eligible targets in the line of fire",
        );
    }
    Ok(())
}

/// A helpless target within Close range, not fired at blind (cepheus-engine.txt, "Coup de Grace").
fn check_coup_de_grace(request: &AttackRequest) -> Result<(), RuleError> {
    if !request.defender.helpless {
        return invalid("defender.helpless", "a coup de grâce needs a helpless target");
    }
    if request.circumstances.range_band > RangeBand::Close {
        return invalid(
            "circumstances.range_band",
            "a coup de grâce is delivered within Close range (melee) or from next to the target (ranged)",
        );
    }
    if request.blind_fire.is_some() {
        return invalid("blind_fire", "a coup de grâce is aimed at a helpless target, never fired blind");
    }
    Ok(())
}
