//! The ARRGS reports, as its events carry them.

use super::{attacking, commands, manoeuvres, round};
use crate::rulesets::Summary;
use serde::{Deserialize, Serialize};

/// Every ARRGS report, as events carry it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsReport))]
pub enum Report {
    Attack(Box<attacking::AttackReport>),
    Damage(Box<commands::damage::DamageReport>),
    Action(Box<manoeuvres::ActionReport>),
    Condition(Box<commands::conditions::ConditionReport>),
    EndOfRound(Box<round::EndOfRoundReport>),
    Area(Box<commands::area::AreaReport>),
}

impl Summary for Report {
    fn summary(&self) -> String {
        match self {
            Self::Attack(report) => report.summary(),
            Self::Damage(report) => report.summary(),
            Self::Action(report) => report.summary(),
            Self::Condition(report) => report.summary(),
            Self::EndOfRound(report) => report.summary(),
            Self::Area(report) => report.summary(),
        }
    }
}
