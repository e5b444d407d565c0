//! The attack manoeuvres as ordered and as reported: Attack, Charge and Repeated Attack, the
//! order's fields, the combatants involved and the report (arrgs.txt, "Attack Manoeuvre", "Charge
//! Manoeuvre", "Repeated Attack Manoeuvre"). How they are resolved, and the decisions where the
//! text is silent, are in `attack_resolution`.

use super::check::Check;
use super::economy::{Pace, Spend};
use super::fighter::{Fighter, Standing};
use super::modifier::Modifier;
use super::opportunity::{Opportunity, OpportunityReport};
use super::spells::{CounterspellAction, CounterspellReport};
use super::defence::{DefenceAction, DefenceKind};
use super::bonuses::{Ability, Bonuses};
use super::stats::Squares;
use super::strike::{Collision, Effect, Strike};
use super::vitality::Exertion;
use super::weapon::Weapon;
use crate::encounter::CombatantId;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// Which attack manoeuvre.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAttackManoeuvre))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Manoeuvre {
    /// 2 AP.
    #[default]
    Attack,
    /// 2 AP: move at least 2 squares in a straight line, then a melee attack.
    Charge { squares: Score<2, 1000> },
    /// 3 AP: up to 5 attacks on one target.
    RepeatedAttack { attacks: Score<1, 5> },
}

impl crate::bare_or_tagged::BareOrTagged for Manoeuvre {
    const TAG: &'static str = "type";
    const BARE: &'static [&'static str] = &["attack"];
}

impl Manoeuvre {
    pub fn points(&self) -> i32 {
        match self {
            Self::Attack | Self::Charge { .. } => 2,
            Self::RepeatedAttack { .. } => 3,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Self::Attack => "Attack",
            Self::Charge { .. } => "Charge",
            Self::RepeatedAttack { .. } => "Repeated Attack",
        }
    }
}

/// Everything about an attack manoeuvre except who makes it and on whom.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Order {
    pub manoeuvre: Manoeuvre,
    pub effect: Effect,
    pub weapon: Option<Weapon>,
    pub pace: Pace,
    pub defence: Option<DefenceKind>,
    pub no_defence: bool,
    pub distance: Option<Squares>,
    pub ability: Option<Ability>,
    pub bonuses: Bonuses,
    pub target_bonuses: Bonuses,
    pub defence_action: Option<DefenceAction>,
    pub extra_vitality: Option<Score<0, 50>>,
}

/// The combatants an attack involves.
#[derive(Debug, Clone)]
pub struct Cast {
    pub attacker: Fighter,
    pub target: Fighter,
    /// Each opportunist with its Opportunity attack.
    pub opportunists: Vec<(Fighter, Opportunity)>,
    /// What a Reposition pushes the target into, when it is a combatant.
    pub bystander: Option<Fighter>,
    /// A Counterspell against the spell being cast.
    pub counter: Option<Counter>,
}

/// Who counters the spell, and how.
#[derive(Debug, Clone)]
pub struct Counter {
    /// The counterspeller; absent when it is the target itself.
    pub by: Option<Fighter>,
    pub action: CounterspellAction,
}

/// The passive Movement check of a Charge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsChargeMove))]
pub struct ChargeMove {
    pub check: Check,
    /// Squares the check allows.
    pub allowed: i32,
    pub squares: i32,
}

/// How the manoeuvre ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAttackOutcome))]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// The attacks were made.
    Resolved { strikes: Vec<Strike> },
    /// Nothing happened: the attacker died of the effort, or was killed or knocked out by an
    /// Opportunity attack ("the original Action … is wasted").
    Wasted { reason: String },
}

/// An attack manoeuvre as resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAttackReport))]
pub struct AttackReport {
    pub attacker: String,
    pub target: String,
    pub manoeuvre: Manoeuvre,
    pub effect: Effect,
    pub weapon: String,
    pub spend: Spend,
    pub exertion: Exertion,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge: Option<ChargeMove>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opportunities: Vec<OpportunityReport>,
    /// A Counterspell against the spell; a success wastes the attack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterspell: Option<CounterspellReport>,
    pub outcome: Outcome,
    /// Why a Repeated Attack stopped before its last attack: an Opportunity attack between two
    /// attacks killed the attacker or knocked it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<String>,
    /// Penalties the attacker carries until the End of Round because of this manoeuvre.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub round_penalties: Vec<Modifier>,
    /// Afterwards: the attacker, the target, then anyone else touched.
    pub standings: Vec<Standing>,
}

impl Effect {
    /// Disarm, Trip and Reposition are made against Reflex.
    pub fn is_reflex_only(&self) -> bool {
        matches!(self, Self::Disarm { .. } | Self::Trip | Self::Reposition { .. })
    }

    /// The combatant a Reposition pushes the target into.
    pub fn bystander(&self) -> Option<&CombatantId> {
        match self {
            Self::Reposition { collision: Some(Collision::Combatant { combatant_id }), .. } => Some(combatant_id),
            _ => None,
        }
    }
}
