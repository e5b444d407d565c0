//! What a declared action reports (cepheus-engine.txt, the sections `actions.rs` lists).

use super::super::collision::CollisionOutcome;
use super::super::explosion::ExplosionOutcome;
use super::super::fatigue::FatigueOutcome;
use super::super::grapple::GrappleOutcome;
use super::super::modifier::Modifier;
use super::super::opposed::CheckRoll;
use super::super::stance::Stance;
use super::apply::HitResult;
use super::super::economy::{ActionEconomy, Cost};
use super::super::state::ExtendedAction;
use super::healing::HealingReport;
use crate::encounter::CombatantId;
use serde::{Deserialize, Serialize};

/// A 2D6 check made for an action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineCheckReport))]
pub struct CheckReport {
    pub purpose: String,
    pub modifiers: Vec<Modifier>,
    pub roll: CheckRoll,
}

/// Where the combatant's aim stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineAimReport))]
pub struct AimReport {
    pub target_id: CombatantId,
    pub aim: u8,
    pub aim_for_kill: u8,
}

/// What one declared action did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineActionReport))]
pub struct ActionReport {
    pub combatant_id: CombatantId,
    pub name: String,
    pub action: String,
    pub cost: Cost,
    /// The combatant's actions this turn, after this one (`None` for free actions).
    pub economy: Option<ActionEconomy>,
    pub description: String,
    pub target_id: Option<CombatantId>,
    pub check: Option<CheckReport>,
    pub aim: Option<AimReport>,
    pub stance: Option<Stance>,
    pub grapple: Option<GrappleOutcome>,
    pub explosion: Option<ExplosionOutcome>,
    /// Damage the action put on someone.
    pub hit: Option<HitResult>,
    pub fatigue: Option<FatigueOutcome>,
    pub extended: Option<ExtendedAction>,
    /// Unit members whose Initiative a Tactics check raised.
    pub boosted: Vec<CombatantId>,
    pub notes: Vec<String>,
    /// A collision's (or ram's) damage roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision: Option<CollisionOutcome>,
    /// Everyone a collision or ram hurt, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hits: Vec<HitResult>,
    /// The weaving number pursuers must match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weaving_number: Option<i32>,
    /// Hours of rest that ended fatigue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rest_hours: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub healing: Option<HealingReport>,
}

impl ActionReport {
    pub fn new(id: &CombatantId, name: &str, action: &str, cost: Cost) -> Self {
        Self {
            combatant_id: id.clone(),
            name: name.to_string(),
            action: action.to_string(),
            cost,
            economy: None,
            description: String::new(),
            target_id: None,
            check: None,
            aim: None,
            stance: None,
            grapple: None,
            explosion: None,
            hit: None,
            fatigue: None,
            extended: None,
            boosted: Vec::new(),
            notes: Vec::new(),
            collision: None,
            hits: Vec::new(),
            weaving_number: None,
            rest_hours: None,
            healing: None,
        }
    }
}
