//! Every Spycraft 2.0 report, as the attack, damage and action events carry it.

use super::attack::{AttackOutcome, AttackReport};
use super::commands::actions::ActionReport;
use super::commands::damage::DamageReport;
use super::commands::enter::EnterReport;
use super::commands::group_initiative::GroupInitiativeReport;
use super::commands::surprise::SurpriseReport;
use super::distance::DistanceReport;
use super::round::RoundReport;
use super::saves::SaveReport;
use crate::rulesets::Summary;
use serde::{Deserialize, Serialize};

/// One report of any Spycraft 2.0 operation (or of the end of a round).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Report))]
#[serde(untagged)]
pub enum Report {
    Attack(Box<AttackReport>),
    Damage(Box<DamageReport>),
    Save(Box<SaveReport>),
    Action(Box<ActionReport>),
    Distance(Box<DistanceReport>),
    Surprise(Box<SurpriseReport>),
    Initiative(Box<GroupInitiativeReport>),
    Enter(Box<EnterReport>),
    Round(Box<RoundReport>),
}

impl Summary for Report {
    fn summary(&self) -> String {
        match self {
            Self::Attack(report) => report.summary(),
            Self::Damage(report) => report.summary(),
            Self::Save(report) => report.summary(),
            Self::Action(report) => report.summary(),
            Self::Distance(report) => report.summary(),
            Self::Surprise(report) => report.summary(),
            Self::Initiative(report) => report.summary(),
            Self::Enter(report) => report.summary(),
            Self::Round(report) => report.summary(),
        }
    }
}

impl Summary for AttackReport {
    fn summary(&self) -> String {
        let check = format!("{} ({} + {}) against Defense {}", self.total, self.die, self.total - self.die as i32, self.defense);
        let attacks = format!("{} attacks {} with the {}", self.attacker, self.target, self.weapon);
        match &self.outcome {
            AttackOutcome::Miss => format!("{attacks}: {check}, a miss"),
            AttackOutcome::CriticalMiss { action_dice } => {
                format!("{attacks}: a natural {}, critical miss ({action_dice} Action Dice)", self.die)
            }
            AttackOutcome::Hit { .. } | AttackOutcome::CriticalHit { .. } => {
                let Some(damage) = &self.damage else { return format!("{attacks}: {check}, a hit") };
                let critical = if matches!(self.outcome, AttackOutcome::CriticalHit { .. }) { "critical hit" } else { "hit" };
                let down = if damage.down { format!(", {} is down", self.target) } else { String::new() };
                format!(
                    "{attacks}: {check}, {critical}: {} damage ({} after armour), {} vitality and {} wounds{down}",
                    damage.amount, damage.suffered, damage.to_vitality, damage.to_wounds
                )
            }
        }
    }
}
