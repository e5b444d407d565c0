//! What a client says about one attack, and the checks that refuse impossible or contradictory
//! combinations before any modifier is worked out (cepheus-engine.txt, "Attack" and the sections
//! cited on each check).
//!
//! Decisions:
//! - `skill_level` is the attacker's own level in the weapon's skill (`None` = unskilled). It is
//!   only used here to check extreme range, which needs level 3. The skill DM itself comes from
//!   `skill::effective_skill`.
//! - Extreme range is sent as `range_band: "distant"` plus `extreme_range: true`. The weapon's row
//!   must have a Distant entry (rifle, assault weapon, rocket); the attacker needs level 3 or more
//!   and `braced` (stationary and firing from a rest).
//! - Shooting (burst fire, suppression fire) means pistols, rifles, shotguns, assault weapons and
//!   rockets; thrown weapons are ranged but not shot. Firing into combat covers every ranged
//!   attack, thrown included: a throw at a target next to someone else is just as likely to hit
//!   the wrong person.
//! - Panic fire together with a burst is refused: panic fire already fires every round left.
//! - Suppression fire against a vehicle is refused, because vehicles ignore it. Other immune
//!   targets (zealots, androids, battle dress, the suicidal) are for the referee to judge.
//! - `shotgun_spread` means the shotgun is loaded with flechettes. Up to Short range it fires like
//!   an ordinary round, so the flag changes nothing there; at Medium and Long it spreads.
//! - Battlefield conditions (`darkness`, `smoke`, `extreme_weather`) sent with a melee attack are
//!   accepted and ignored, because they only affect ranged attacks.
//! - A laser sight without aiming, or recoil outside zero gravity, is accepted and adds nothing.

use super::attack_difficulty::attack_difficulty;
use super::burst::{Burst, burst_effect, panic_fire_damage};
use super::conditions::{Darkness, Smoke};
use super::cover::{CoverLevel, check_cover as check_cover_level};
use super::range::RangeBand;
use super::reactions::Dodge;
use super::stance::Stance;
use super::weapon::{WeaponTechnology, WeaponType};
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Most minor actions of aiming (or aiming for the kill) that count (cepheus-engine.txt,
/// "Aiming" and "Aiming for the Kill").
pub const MAX_AIM: u8 = 6;

/// Least weapon skill level for extreme range (cepheus-engine.txt, "Extreme Range Firing").
pub const EXTREME_RANGE_MIN_SKILL: i32 = 3;

/// Everything about one attack that can change its DMs or damage. Only `weapon_type` and
/// `range_band` are required; every other field defaults to "does not apply".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineAttackCircumstances))]
#[serde(deny_unknown_fields)]
pub struct AttackCircumstances {
    pub weapon_type: WeaponType,
    pub range_band: RangeBand,
    /// Conventional, laser or another energy weapon.
    #[serde(default)]
    pub technology: WeaponTechnology,
    /// The attacker's level in the weapon's skill; `None` when unskilled.
    #[serde(default)]
    pub skill_level: Option<i32>,
    #[serde(default)]
    pub attacker_stance: Stance,
    /// Minor actions spent aiming (+1 each, at most 6).
    #[serde(default)]
    pub aim: u8,
    /// Minor actions spent aiming for the kill (damage, not DM; at most 6).
    #[serde(default)]
    pub aim_for_kill: u8,
    #[serde(default)]
    pub laser_sight: bool,
    /// An intelligent weapon whose program tolerates the attack's total DM.
    #[serde(default)]
    pub intelligent_weapon: bool,
    /// The target's cover before its stance is taken into account.
    #[serde(default)]
    pub cover: CoverLevel,
    #[serde(default)]
    pub target_stance: Stance,
    #[serde(default)]
    pub dodge: Dodge,
    /// The target parries with this melee skill level.
    #[serde(default)]
    pub parry_skill: Option<i32>,
    /// How far the target moved this round, in metres.
    #[serde(default)]
    pub target_movement_m: f64,
    #[serde(default)]
    pub darkness: Darkness,
    #[serde(default)]
    pub smoke: Smoke,
    #[serde(default)]
    pub extreme_weather: bool,
    /// The attacker targets with sensors instead of the naked eye.
    #[serde(default)]
    pub sensors: bool,
    /// The attacker sees with infra-red sensors, which negate concealment from smoke.
    #[serde(default)]
    pub infra_red: bool,
    /// The cover the attacker itself is in.
    #[serde(default)]
    pub attacker_cover: CoverLevel,
    #[serde(default)]
    pub zero_g: bool,
    /// The weapon has recoil (matters in zero gravity).
    #[serde(default)]
    pub recoil: bool,
    /// The target is at Personal range of another combatant.
    #[serde(default)]
    pub firing_into_combat: bool,
    /// Beyond Distant range (send `range_band: "distant"` with it).
    #[serde(default)]
    pub extreme_range: bool,
    /// The attacker is stationary and firing from a rest (tripod, tree limb, embrasure).
    #[serde(default)]
    pub braced: bool,
    #[serde(default)]
    pub burst: Option<Burst>,
    /// Panic fire, with this many rounds left in the weapon.
    #[serde(default)]
    pub panic_fire_rounds: Option<u32>,
    /// A shotgun loaded with flechettes.
    #[serde(default)]
    pub shotgun_spread: bool,
    #[serde(default)]
    pub suppression: bool,
    #[serde(default)]
    pub target_is_vehicle: bool,
    /// The attacker is acting hastily this round.
    #[serde(default)]
    pub attacker_hasty: bool,
    /// Reactions the attacker has already made this round.
    #[serde(default)]
    pub attacker_reactions: u8,
    #[serde(default)]
    pub attacker_fatigued: bool,
    /// The attacker was suppressed this round or last.
    #[serde(default)]
    pub attacker_suppressed: bool,
}

impl AttackCircumstances {
    /// A plain attack: this weapon at this band, with no other circumstance.
    pub fn new(weapon_type: WeaponType, range_band: RangeBand) -> Self {
        Self {
            weapon_type,
            range_band,
            technology: WeaponTechnology::default(),
            skill_level: None,
            attacker_stance: Stance::default(),
            aim: 0,
            aim_for_kill: 0,
            laser_sight: false,
            intelligent_weapon: false,
            cover: CoverLevel::default(),
            target_stance: Stance::default(),
            dodge: Dodge::default(),
            parry_skill: None,
            target_movement_m: 0.0,
            darkness: Darkness::default(),
            smoke: Smoke::default(),
            extreme_weather: false,
            sensors: false,
            infra_red: false,
            attacker_cover: CoverLevel::default(),
            zero_g: false,
            recoil: false,
            firing_into_combat: false,
            extreme_range: false,
            braced: false,
            burst: None,
            panic_fire_rounds: None,
            shotgun_spread: false,
            suppression: false,
            target_is_vehicle: false,
            attacker_hasty: false,
            attacker_reactions: 0,
            attacker_fatigued: false,
            attacker_suppressed: false,
        }
    }

    /// Any attack that is not melee (thrown included).
    pub fn is_ranged(&self) -> bool {
        !self.weapon_type.is_melee()
    }

    /// A shot from a gun or launcher (not melee, not thrown).
    pub fn is_shooting(&self) -> bool {
        self.is_ranged() && self.weapon_type != WeaponType::Thrown
    }
}

/// Refuses combinations the rules do not allow, naming the offending field (cepheus-engine.txt,
/// the sections cited on each check below).
pub fn validate(attack: &AttackCircumstances) -> Result<(), RuleError> {
    check_skill_level(attack)?;
    check_reach(attack)?;
    check_aim(attack)?;
    check_attacker_stance(attack)?;
    check_cover(attack)?;
    check_target_reactions(attack)?;
    check_target_movement(attack)?;
    check_fire_mode(attack)?;
    check_shooting_only_options(attack)
}

fn invalid(field: &str, message: &str) -> Result<(), RuleError> {
    Err(RuleError::invalid(field, message))
}

/// Skill levels start at 0; an unskilled attacker sends none (Cepheus Engine SRD skills).
fn check_skill_level(attack: &AttackCircumstances) -> Result<(), RuleError> {
    match attack.skill_level {
        Some(level) if level < 0 => {
            invalid("skill_level", "a skill level cannot be negative; leave it out when unskilled")
        }
        _ => Ok(()),
    }
}

/// The weapon must be able to attack at the band, or meet the extreme range conditions
/// (cepheus-engine.txt, "Range"; "Extreme Range Firing").
fn check_reach(attack: &AttackCircumstances) -> Result<(), RuleError> {
    if attack.extreme_range {
        return check_extreme_range(attack);
    }
    if attack_difficulty(attack.weapon_type, attack.range_band).is_none() {
        let message = format!(
            "a {} weapon cannot attack at {} range",
            attack.weapon_type.label(),
            attack.range_band.label()
        );
        return Err(RuleError::invalid("range_band", message));
    }
    Ok(())
}

fn check_extreme_range(attack: &AttackCircumstances) -> Result<(), RuleError> {
    if attack.range_band != RangeBand::Distant {
        return invalid(
            "extreme_range",
            "extreme range lies beyond Distant: send range_band \"distant\" with it",
        );
    }
    if attack_difficulty(attack.weapon_type, RangeBand::Distant).is_none() {
        return invalid(
            "extreme_range",
            "only weapons that can fire at Distant range (rifle, assault weapon, rocket) reach extreme range",
        );
    }
    if attack.skill_level.unwrap_or(0) < EXTREME_RANGE_MIN_SKILL {
        return invalid("extreme_range", "extreme range needs at least level 3 in the weapon's skill");
    }
    if !attack.braced {
        return invalid(
            "extreme_range",
            "extreme range needs a stationary firer shooting from a rest (braced)",
        );
    }
    Ok(())
}

/// At most six aiming actions count (cepheus-engine.txt, "Aiming"; "Aiming for the Kill").
fn check_aim(attack: &AttackCircumstances) -> Result<(), RuleError> {
    if attack.aim > MAX_AIM {
        return invalid("aim", "at most 6 minor actions of aiming count (+6 is the maximum)");
    }
    if attack.aim_for_kill > MAX_AIM {
        return invalid(
            "aim_for_kill",
            "at most 6 minor actions of aiming for the kill count (+6 is the maximum)",
        );
    }
    Ok(())
}

/// Lying prone rules out melee attacks (cepheus-engine.txt, "Stance").
fn check_attacker_stance(attack: &AttackCircumstances) -> Result<(), RuleError> {
    if attack.attacker_stance == Stance::Prone && !attack.is_ranged() {
        return invalid("attacker_stance", "a prone attacker cannot make melee attacks");
    }
    // "If a character in full cover is crouching or prone they are impossible to hit but cannot
    // return fire" (Cover): the same sentence that protects a low target in full cover stops it
    // attacking. Read for every attack, melee included; a standing attacker in full cover may.
    if attack.attacker_cover == CoverLevel::Full && attack.attacker_stance != Stance::Standing {
        return invalid(
            "attacker_cover",
            "a crouched or prone character in full cover is impossible to hit but cannot return fire",
        );
    }
    Ok(())
}

/// A crouched or prone target in full cover cannot be hit (cepheus-engine.txt, "Cover").
fn check_cover(attack: &AttackCircumstances) -> Result<(), RuleError> {
    check_cover_level(attack.cover, attack.target_stance)
}

/// One reaction per attack; prone targets cannot dodge; only melee attacks can be parried
/// (cepheus-engine.txt, "Reactions"; "Stance"; "Parrying").
fn check_target_reactions(attack: &AttackCircumstances) -> Result<(), RuleError> {
    if attack.dodge != Dodge::None && attack.target_stance == Stance::Prone {
        return invalid("dodge", "a prone target cannot dodge");
    }
    let Some(parry_skill) = attack.parry_skill else {
        return Ok(());
    };
    if attack.dodge != Dodge::None {
        return invalid(
            "parry_skill",
            "a target reacts at most once to each attack: dodge or parry, not both",
        );
    }
    if attack.is_ranged() {
        return invalid("parry_skill", "only melee attacks can be parried");
    }
    if parry_skill < 0 {
        return invalid("parry_skill", "a parry uses the defender's melee skill level, 0 or more");
    }
    Ok(())
}

/// Movement is a distance in metres (cepheus-engine.txt, table "Common Modifiers to Attacks in Personal Combat").
fn check_target_movement(attack: &AttackCircumstances) -> Result<(), RuleError> {
    let metres = attack.target_movement_m;
    if !metres.is_finite() || metres < 0.0 {
        return invalid("target_movement_m", "must be a finite number of metres, 0 or more");
    }
    Ok(())
}

/// Burst sizes; panic fire's weapon and its clash with a burst; flechette spread needs a shotgun
/// (cepheus-engine.txt, "Burst Fire"; "Panic Fire"; "Shotgun Spread").
fn check_fire_mode(attack: &AttackCircumstances) -> Result<(), RuleError> {
    if let Some(burst) = attack.burst {
        if !attack.is_shooting() {
            return invalid("burst", "only guns and launchers fire bursts");
        }
        burst_effect(burst.rounds.get().unsigned_abs())?;
    }
    if let Some(rounds) = attack.panic_fire_rounds {
        check_panic_fire(attack, rounds)?;
    }
    if attack.shotgun_spread && attack.weapon_type != WeaponType::Shotgun {
        return invalid("shotgun_spread", "only a shotgun loaded with flechettes can spread");
    }
    Ok(())
}

/// Panic fire needs a small-arms slug thrower and rounds left (cepheus-engine.txt, "Panic Fire").
fn check_panic_fire(attack: &AttackCircumstances, rounds: u32) -> Result<(), RuleError> {
    if attack.burst.is_some() {
        return invalid("panic_fire_rounds", "panic fire already empties the weapon: send no burst with it");
    }
    let slug_thrower =
        attack.weapon_type.is_small_arm() && attack.technology == WeaponTechnology::Conventional;
    if !slug_thrower {
        return invalid(
            "panic_fire_rounds",
            "panic fire needs a small-arms slug thrower (a conventional pistol, rifle, shotgun or assault weapon)",
        );
    }
    panic_fire_damage(rounds).map(|_| ())
}

/// Suppression fire is a shot that vehicles ignore; firing into combat is a ranged attack
/// (cepheus-engine.txt, "Suppression Fire"; "Firing into Combat").
fn check_shooting_only_options(attack: &AttackCircumstances) -> Result<(), RuleError> {
    if attack.suppression && !attack.is_shooting() {
        return invalid("suppression", "suppression fire is a shooting attack");
    }
    if attack.suppression && attack.target_is_vehicle {
        return invalid("suppression", "vehicles and those enclosed in them ignore suppression fire");
    }
    if attack.firing_into_combat && !attack.is_ranged() {
        return invalid("firing_into_combat", "firing into combat applies only to ranged attacks");
    }
    Ok(())
}

#[cfg(test)]
#[path = "circumstances_tests.rs"]
mod tests;
