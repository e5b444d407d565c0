//! The report of one attack, stored or stateless, and what it writes into a target's stat block
//! (adeva-d100.txt, "Attacking", Step Seven: Deal Damage; the decisions are in `mod.rs`).

use super::super::Stats;
use super::super::actions::{LingeringEffect, TurnBudget};
use super::super::altitude::AltitudeAccess;
use super::super::test_roll::ModifiedTest;
use super::core::{Resolved, TargetOutcome};
use crate::encounter::CombatantId;
use serde::{Deserialize, Serialize};

/// What the attack did to one target (`wounds.dead`: it is dead, and stored as defeated).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100TargetReport))]
pub struct TargetReport {
    /// The stored combatant (absent in the stateless form).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_id: Option<CombatantId>,
    /// The target's name (was `target_name`, still read from older stored reports).
    #[serde(rename = "target", alias = "target_name")]
    pub target_name: String,
    pub surprised: bool,
    #[serde(flatten)]
    pub outcome: TargetOutcome,
    /// The target's stat block after the attack (wounds taken, fatigue), as stored.
    pub stats_after: Stats,
}

/// Writes what an attack did to a target into its stat block: the wounds left, the fatigue.
pub(crate) fn apply_outcome(stats: &mut Stats, outcome: &TargetOutcome) {
    stats.set_wounds_left(outcome.wounds.after);
    stats.add_fatigue(outcome.fatigue_levels);
}

/// Everything one attack did, stored or stateless.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100AttackReport))]
pub struct AttackReport {
    /// The stored attacker (absent in the stateless form).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_id: Option<CombatantId>,
    /// The attacker's name (was `attacker_name`, still read from older stored reports).
    #[serde(rename = "attacker", alias = "attacker_name")]
    pub attacker_name: String,
    pub action: String,
    pub weapon: String,
    pub altitude: AltitudeAccess,
    pub attack_test: ModifiedTest,
    pub hits_scored: u32,
    /// The burst jammed on 94+ and scored no hits.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub jammed: bool,
    pub targets: Vec<TargetReport>,
    pub lingering: Vec<LingeringEffect>,
    /// The attacker's budget after the attack (absent in the stateless form).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<TurnBudget>,
    pub notes: Vec<String>,
}

impl AttackReport {
    /// The report of a resolved attack, stored or stateless: `stored` is the stored attacker and
    /// its budget after the attack (`None` in the stateless form); `resolved.targets` has been
    /// turned into `targets` by the caller.
    pub(crate) fn new(
        resolved: Resolved,
        stored: Option<(CombatantId, TurnBudget)>,
        attacker_name: String,
        targets: Vec<TargetReport>,
    ) -> Self {
        let (attacker_id, budget) = stored.unzip();
        AttackReport {
            attacker_id,
            attacker_name,
            action: resolved.spec.name(),
            weapon: resolved.weapon.name,
            altitude: resolved.altitude,
            attack_test: resolved.attack_test,
            hits_scored: resolved.hits_scored,
            jammed: resolved.jammed,
            targets,
            lingering: resolved.spec.lingering,
            budget,
            notes: resolved.notes,
        }
    }
}
