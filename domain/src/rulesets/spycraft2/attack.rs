//! The attack check Spycraft 2.0 players expect, feeding the fluid-initiative table (the text's
//! "fires a tactical weapon", "non-proficient weapon", "final attacks", "critical misses",
//! "critical hit", "loses wounds" rows; see the docs' decisions for the model itself).
//!
//! 1d20 + attack bonus + modifiers against the target's Defense (a flat-footed target loses its
//! Dexterity and dodge bonuses). A natural roll in the weapon's threat range is a threat, one in
//! its error range an error; a threat on a hit becomes a critical hit only when the attacker
//! spends an Action Die on it, an error becomes a critical miss only when the GC spends Action
//! Dice on it (−2 per die on the attacker's Count).

use super::damage::{DamageResult, apply};
use super::fluid::FluidEntry;
use super::modifier::{Modifier, ModifierCode, total};
use super::state::CombatState;
use super::stats::Stats;
use crate::dice::Dice;
use crate::encounter::EncounterError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// A weapon's damage roll: `count`d`sides` + `bonus`, written `"2d6+1"` or as the fields
/// (`crate::dice_text`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DamageDice {
    pub count: Score<1, 20>,
    pub sides: Score<2, 100>,
    pub bonus: Option<Score<-20, 50>>,
}

impl<'de> Deserialize<'de> for DamageDice {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let DamageDiceFields { count, sides, bonus } = crate::dice_text::object_or_text(deserializer)?;
        Ok(Self { count, sides, bonus })
    }
}

#[cfg(feature = "schema")]
impl utoipa::PartialSchema for DamageDice {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::dice_text::schema::<DamageDiceFields>()
    }
}

#[cfg(feature = "schema")]
impl utoipa::ToSchema for DamageDice {
    fn name() -> std::borrow::Cow<'static, str> {
        "Spycraft2DamageDice".into()
    }
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
        crate::dice_text::schemas::<DamageDiceFields>(schemas);
    }
}

/// The object form of [`DamageDice`], with its bounds.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2DamageDiceFields))]
#[serde(deny_unknown_fields)]
struct DamageDiceFields {
    count: Score<1, 20>,
    sides: Score<2, 100>,
    #[serde(default)]
    bonus: Option<Score<-20, 50>>,
}

/// The weapon used for an attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Weapon))]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// 1 to 100 characters; also identifies the weapon for the once-per-round non-proficiency row.
    pub name: String,
    pub damage: DamageDice,
    /// The lowest natural roll that threatens (20 by default: only a natural 20).
    #[serde(default)]
    pub threat_range: Option<Score<2, 20>>,
    /// The highest natural roll that errs (1 by default: only a natural 1).
    #[serde(default)]
    pub error_range: Option<Score<1, 19>>,
    /// A tactical weapon: firing it costs 2 from the attacker's Count.
    #[serde(default)]
    pub tactical: bool,
    /// False when the attacker lacks the weapon's proficiency (−4 on the Count, once per weapon
    /// per round). True by default.
    #[serde(default = "yes")]
    pub proficient: bool,
    /// The Count change for electrical damage, which the text defers to another chapter: applied
    /// to the target when it suffers 1 or more points. None by default (not electrical).
    #[serde(default)]
    pub electrical_count_change: Option<Score<-20, 20>>,
}

fn yes() -> bool {
    true
}

impl Weapon {
    pub fn threat_from(&self) -> u32 {
        self.threat_range.map_or(20, |range| range.get() as u32)
    }

    pub fn error_to(&self) -> u32 {
        self.error_range.map_or(1, |range| range.get() as u32)
    }
}

/// What the caller decides about one attack besides the weapon.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AttackChoices {
    pub modifiers: Vec<Modifier>,
    /// The attacker spends an Action Die to activate a threat, should one come up on a hit.
    pub activate_threat: bool,
    /// Action Dice the GC spends to activate an error, should one come up.
    pub error_action_dice: i32,
    /// This attack is a final attack (−2 on the attacker's Count).
    pub final_attack: bool,
}

/// How the attack came out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2AttackOutcome))]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum AttackOutcome {
    Miss,
    /// An error activated with Action Dice: the attack misses.
    CriticalMiss {
        action_dice: i32,
    },
    /// A hit; `threat` when the roll threatened but no Action Die activated it. What it did is
    /// the report's `damage`.
    Hit { threat: bool, damage_dice: Vec<u32> },
    /// A critical hit: straight to wounds (the report's `damage`).
    CriticalHit { damage_dice: Vec<u32> },
}

/// The whole attack, every number in one place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2AttackReport))]
pub struct AttackReport {
    pub attacker: String,
    pub target: String,
    pub weapon: String,
    /// The natural d20.
    pub die: u32,
    pub modifiers: Vec<Modifier>,
    pub total: i32,
    /// Defense and what changed it (flat-footed).
    pub defense_modifiers: Vec<Modifier>,
    pub defense: i32,
    pub threat: bool,
    pub error: bool,
    pub outcome: AttackOutcome,
    /// What a hit did to the target (absent on a miss): the one place of the damage, as in every
    /// report (docs/api-conventions.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<DamageResult>,
    /// Rows recorded on the attacker's Count this round (tactical, non-proficient, final attack,
    /// critical miss).
    pub attacker_fluid: Vec<FluidEntry>,
    /// Whether the target stopped being flat-footed (successfully attacked).
    pub target_no_longer_flat_footed: bool,
}

/// The two sides of an attack.
pub struct Sides<'a> {
    pub attacker_name: &'a str,
    pub attacker: &'a Stats,
    pub attacker_state: &'a mut CombatState,
    pub target_name: &'a str,
    pub target: &'a Stats,
    pub target_state: &'a mut CombatState,
}

/// Resolves one attack and applies its damage and fluid-initiative rows to both states.
pub fn resolve(
    sides: Sides<'_>,
    weapon: &Weapon,
    choices: &AttackChoices,
    dice: &mut Dice,
) -> Result<AttackReport, EncounterError> {
    let Sides { attacker_name, attacker, attacker_state, target_name, target, target_state } = sides;
    let die = dice.roll(20, format!("attack: {attacker_name} → {target_name}"))?;
    let mut modifiers =
        vec![Modifier::new(ModifierCode::AttackBonus, attacker.attack_bonus.get(), "attack bonus")];
    modifiers.extend(choices.modifiers.iter().cloned());
    let attack_total = die as i32 + total(&modifiers);
    let defense_modifiers = defense(target, target_state);
    let defense = total(&defense_modifiers);
    let threat = die >= weapon.threat_from();
    let error = die <= weapon.error_to();
    let mut attacker_fluid = attacker_rows(attacker_state, weapon, choices)?;
    let hit = attack_total >= defense;
    let mut dealt = None;
    let outcome = if error && choices.error_action_dice > 0 {
        let entry = FluidEntry::critical_miss(choices.error_action_dice);
        if attacker_state.record(entry.clone(), None)? {
            attacker_fluid.push(entry);
        }
        AttackOutcome::CriticalMiss { action_dice: choices.error_action_dice }
    } else if hit {
        let critical = threat && choices.activate_threat;
        let (damage_dice, amount) = roll_damage(weapon, attacker_name, dice)?;
        let electrical = weapon.electrical_count_change.map(Score::get);
        dealt = Some(apply(target, target_state, amount, critical, false, electrical)?);
        if critical { AttackOutcome::CriticalHit { damage_dice } } else { AttackOutcome::Hit { threat, damage_dice } }
    } else {
        AttackOutcome::Miss
    };
    let landed = matches!(outcome, AttackOutcome::Hit { .. } | AttackOutcome::CriticalHit { .. });
    let target_no_longer_flat_footed = landed && target_state.flat_footed;
    if landed {
        target_state.flat_footed = false;
    }
    Ok(AttackReport {
        attacker: attacker_name.to_owned(),
        target: target_name.to_owned(),
        weapon: weapon.name.clone(),
        die,
        modifiers,
        total: attack_total,
        defense_modifiers,
        defense,
        threat,
        error,
        outcome,
        damage: dealt,
        attacker_fluid,
        target_no_longer_flat_footed,
    })
}

/// The target's Defense: a flat-footed target is vulnerable and loses its Dexterity and dodge
/// bonuses (`vulnerable_defense`, at most its whole Defense).
fn defense(target: &Stats, state: &CombatState) -> Vec<Modifier> {
    let base = target.defense.get();
    let mut modifiers = vec![Modifier::new(ModifierCode::Defense, base, "Defense")];
    let lost = target.vulnerable_defense.get().min(base);
    if state.flat_footed && lost > 0 {
        modifiers.push(Modifier::new(
            ModifierCode::FlatFooted,
            -lost,
            "flat-footed: loses Dexterity and dodge bonuses",
        ));
    }
    modifiers
}

/// The attacker's own rows: tactical weapon (each attack), non-proficiency (once per weapon per
/// round), final attack.
fn attacker_rows(
    state: &mut CombatState,
    weapon: &Weapon,
    choices: &AttackChoices,
) -> Result<Vec<FluidEntry>, EncounterError> {
    let mut recorded = Vec::new();
    let mut rows = Vec::new();
    if weapon.tactical {
        rows.push(FluidEntry::tactical(&weapon.name));
    }
    if !weapon.proficient {
        rows.push(FluidEntry::non_proficient(&weapon.name));
    }
    if choices.final_attack {
        rows.push(FluidEntry::final_attack());
    }
    for entry in rows {
        if state.record(entry.clone(), Some(&weapon.name))? {
            recorded.push(entry);
        }
    }
    Ok(recorded)
}

/// Rolls the weapon's damage; a hit deals at least 1 before armour.
fn roll_damage(weapon: &Weapon, attacker: &str, dice: &mut Dice) -> Result<(Vec<u32>, i32), EncounterError> {
    let mut rolled = Vec::new();
    for _ in 0..weapon.damage.count.get() {
        rolled.push(
            dice.roll(weapon.damage.sides.get() as u32, format!("damage: {attacker} ({})", weapon.name))?,
        );
    }
    let bonus = weapon.damage.bonus.map_or(0, Score::get);
    let sum: i32 = rolled.iter().map(|&die| die as i32).sum();
    Ok((rolled, (sum + bonus).max(1)))
}

#[cfg(test)]
#[path = "attack_tests.rs"]
mod tests;
