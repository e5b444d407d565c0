//! How the attack fields of a stored or inline attack become an `AttackRequest` for
//! `resolve_attack`, and how a rule error's field is renamed to the JSON path the client sent
//! (cepheus-engine.txt, "Attack", "Range"). The decisions are in `request.rs`.

use super::super::Stats;
use super::super::allocation::AllocationChoice;
use super::super::attack_request::AttackKind;
use super::super::attack_request::{AttackRequest, Attacker, Defender, WeaponDamage};
use super::super::character::Physical;
use super::super::circumstances::AttackCircumstances;
use super::super::modifier::{Modifier, Reason};
use super::super::range::{RangeBand, band_for_metres, band_for_squares};
use super::super::reactions::Dodge;
use super::super::stance::Stance;
use super::request::{AttackFields, MAX_CLIENT_MODIFIERS, Reaction};
use super::{characteristic, melee_level};
use crate::rulesets::RuleError;

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
        circumstances.infra_red = self.infra_red;
        circumstances.attacker_cover = self.attacker_cover;
        circumstances.zero_g = self.zero_g;
        circumstances.firing_into_combat = self.firing_into_combat;
        circumstances.extreme_range = self.extreme_range;
        circumstances.braced = self.braced;
        circumstances.burst = self.burst;
        circumstances.panic_fire_rounds = self.panic_fire_rounds.map(|rounds| rounds.get().unsigned_abs());
        circumstances.shotgun_spread = self.shotgun_spread;
        circumstances.suppression = self.suppression;
        // A target recorded as a vehicle is one, and its record decides the column (issue 28).
        circumstances.target_is_vehicle = self.target_is_vehicle || sides.target.vehicle.is_some();
        let hit_location_table = match &sides.target.vehicle {
            Some(vehicle) => {
                let column = vehicle.column();
                if self.hit_location_table.is_some_and(|sent| sent != column) {
                    return Err(RuleError::invalid(
                        "defender.hit_location_table",
                        format!("the record says the target's next hit is looked up on the {column:?} column"),
                    ));
                }
                Some(column)
            }
            None => self.hit_location_table,
        };
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
                hit_location_table,
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
