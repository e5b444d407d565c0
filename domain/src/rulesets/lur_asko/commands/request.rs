//! What callers send: attacks and called damage on stored combatants, and their inline twins.

use super::super::aura::AuraResponse;
use super::super::options::Options;
use super::super::pipeline::CriticalChoice;
use super::super::shielding::Situation;
use super::super::state::{AuraKind, Precision, WarFeverRolls};
use super::super::stats::{Stats, check_label};
use super::super::weapon::{Reduction, Weapon, check_weapons};
use crate::encounter::CombatantId;
use crate::rulesets::RuleError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// A defense TN.
pub type Tn = Score<-1_000, 1_000>;
/// Damage a character has already taken: at most what a stored record holds
/// (`injury::MAX_DAMAGE_TAKEN`).
pub type DamageTaken = Score<0, { super::super::injury::MAX_DAMAGE_TAKEN as i32 }>;
/// Shielding points or stored aura damage.
pub type PoolValue = Score<0, 100_000>;

fn yes() -> bool {
    true
}

/// How the defense is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoDefenseRequest))]
#[serde(tag = "defense", rename_all = "snake_case", deny_unknown_fields)]
pub enum DefenseRequest {
    /// The defender rolls the encounter's defense dice against `tn`.
    Roll {
        tn: Tn,
        /// False when a critical hit is out of reach (e.g. a ranged weapon beyond its
        /// Marksmanship limit). True by default.
        #[serde(default = "yes")]
        critical_possible: bool,
    },
    /// No defense at all: a critical hit when one is possible.
    Undefended {
        #[serde(default = "yes")]
        critical_possible: bool,
    },
    /// The hit has landed already (e.g. the GM rolled it): no roll.
    Hit {
        #[serde(default)]
        critical: bool,
    },
}

impl crate::bare_or_tagged::BareOrTagged for DefenseRequest {
    const TAG: &'static str = "defense";
    const BARE: &'static [&'static str] = &["undefended", "hit"];
}

/// The attack itself, shared by every form of the operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoStrike))]
#[serde(deny_unknown_fields)]
pub struct Strike {
    /// 1 to 10 weapons or shots resolved together.
    pub weapons: Vec<Weapon>,
    /// The type rolled on the melee or ranged injury type table (the table is not in this text).
    pub injury_type: String,
    /// Used if the hit is critical (default: +drive); `"drive"` is `{"choice": "drive"}`.
    #[serde(default, deserialize_with = "crate::bare_or_tagged::deserialize")]
    #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<CriticalChoice>))]
    pub critical_choice: CriticalChoice,
    #[serde(default)]
    pub reduction: Reduction,
    /// STR voluntarily used as 0.
    #[serde(default)]
    pub strength_withheld: bool,
    #[serde(default)]
    pub situation: Situation,
}

impl Strike {
    /// Checks the attack; `field` is its path in the request (`attack`), which every error names
    /// as its parent (`attack.weapons[0].damage`).
    pub fn check(&self, field: &str) -> Result<(), RuleError> {
        check_weapons(field, &self.weapons, self.reduction)?;
        check_label(&format!("{field}.injury_type"), &self.injury_type)?;
        if let CriticalChoice::InjuryType { injury_type } = &self.critical_choice {
            check_label(&format!("{field}.critical_choice.injury_type"), injury_type)?;
        }
        Ok(())
    }
}

/// An attack between stored combatants.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoEncounterAttack))]
#[serde(deny_unknown_fields)]
pub struct EncounterAttack {
    pub attacker_id: CombatantId,
    pub target_id: CombatantId,
    pub attack: Strike,
    /// `{"defense": "roll", "tn": 14}`; `"undefended"` and `"hit"` may be bare names.
    #[serde(deserialize_with = "crate::bare_or_tagged::deserialize")]
    #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<DefenseRequest>))]
    pub defense: DefenseRequest,
    /// The target answers a melee hit with one of its damage auras.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aura_response: Option<AuraResponse>,
}

/// Damage called out against a stored combatant: a hit that has landed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoEncounterDamage))]
#[serde(deny_unknown_fields)]
pub struct EncounterDamage {
    pub target_id: CombatantId,
    /// Who dealt it, if anyone: "the attacker's next turn" durations anchor on them (on the
    /// target itself when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_id: Option<CombatantId>,
    pub attack: Strike,
    #[serde(default)]
    pub critical: bool,
}

/// A shield in an inline request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoInlineShield))]
#[serde(deny_unknown_fields)]
pub struct InlineShield {
    pub name: String,
    pub precision: Precision,
    pub points: PoolValue,
    #[serde(default)]
    pub techshield: bool,
}

/// A damage aura in an inline request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoInlineAura))]
#[serde(deny_unknown_fields)]
pub struct InlineAura {
    pub name: String,
    pub kind: AuraKind,
    pub stored: PoolValue,
}

/// A combatant sent inline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoInlineCombatant))]
#[serde(deny_unknown_fields)]
pub struct InlineCombatant {
    pub name: String,
    pub stats: Stats,
    #[serde(default)]
    pub damage_taken: Option<DamageTaken>,
    /// The shields protecting this combatant, in the order they are used within a level.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shields: Vec<InlineShield>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub auras: Vec<InlineAura>,
    /// The war-fever rolls already owed, as a stored record holds them: at most 100
    /// (`state::MAX_WAR_FEVER_ROLLS`), and a hit that would owe one more past it is refused.
    #[serde(default, skip_serializing_if = "WarFeverRolls::is_empty")]
    #[cfg_attr(feature = "schema", schema(value_type = Vec<super::super::state::WarFeverRoll>, max_items = 100))]
    pub war_fever_rolls: WarFeverRolls,
}

impl InlineCombatant {
    pub fn check(&self, field: &str) -> Result<(), RuleError> {
        check_label(&format!("{field}.name"), &self.name)?;
        self.stats.check(&format!("{field}.stats"))?;
        if self.shields.len() > 20 || self.auras.len() > 20 {
            return Err(RuleError::invalid(format!("{field}.shields"), "at most 20 shields and 20 auras"));
        }
        for (index, shield) in self.shields.iter().enumerate() {
            check_label(&format!("{field}.shields[{index}].name"), &shield.name)?;
        }
        for (index, aura) in self.auras.iter().enumerate() {
            check_label(&format!("{field}.auras[{index}].name"), &aura.name)?;
        }
        Ok(())
    }

    pub fn damage_taken(&self) -> u32 {
        self.damage_taken.map_or(0, |d| d.get() as u32)
    }
}

/// An attack between inline stat blocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoInlineAttack))]
#[serde(deny_unknown_fields)]
pub struct InlineAttack {
    pub attacker: InlineCombatant,
    pub target: InlineCombatant,
    pub attack: Strike,
    /// `{"defense": "roll", "tn": 14}`; `"undefended"` and `"hit"` may be bare names.
    #[serde(deserialize_with = "crate::bare_or_tagged::deserialize")]
    #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<DefenseRequest>))]
    pub defense: DefenseRequest,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aura_response: Option<AuraResponse>,
    /// The encounter settings to use (defense dice, TN per Hindrance).
    #[serde(default)]
    pub options: Options,
}

/// Called damage on an inline stat block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoInlineDamage))]
#[serde(deny_unknown_fields)]
pub struct InlineDamage {
    pub target: InlineCombatant,
    /// Whose next turn ends a stun (the target's own when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_name: Option<String>,
    pub attack: Strike,
    #[serde(default)]
    pub critical: bool,
}
