//! The ruleset-specific detail carried by the generic attack, damage and action events.

use super::adeva_d100::operations as adeva;
use super::cepheus_engine::operations::{ActionReport, AttackReport, DamageReport};
use serde::Serialize;

/// One ruleset report, written out as the report itself (no wrapper key).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum RulesetReport {
    CepheusAttack(Box<AttackReport>),
    CepheusDamage(Box<DamageReport>),
    CepheusAction(Box<ActionReport>),
    AdevaAttack(Box<adeva::AttackReport>),
    AdevaDamage(Box<adeva::DamageReport>),
    AdevaAction(Box<adeva::ActionReport>),
}
