//! The Adeva d100 reports, as its events carry them, and their one-line summaries.

use super::commands::{self as ops, ActionReport, AttackReport, DamageReport};
use super::wounds::WoundsLoss;
use crate::rulesets::Summary;
use serde::{Deserialize, Serialize};

/// Every Adeva d100 report, as the attack, damage and action events carry it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Report))]
pub enum Report {
    Attack(Box<AttackReport>),
    Damage(Box<DamageReport>),
    Action(Box<ActionReport>),
}

impl Summary for Report {
    fn summary(&self) -> String {
        match self {
            Self::Attack(report) => report.summary(),
            Self::Damage(report) => report.summary(),
            Self::Action(report) => report.summary(),
        }
    }
}

impl Summary for AttackReport {
    /// e.g. "Ana makes a standard attack with Gun (d100 45 vs 80, 4 DoS, 1 hit): Bo loses 4 wounds
    /// (10 → 6)".
    fn summary(&self) -> String {
        let test = &self.attack_test.test;
        let verdict = if test.passed {
            format!("{} DoS", test.degrees_of_success())
        } else {
            format!("misses by {} DoF", test.degrees_of_failure())
        };
        let jammed = if self.jammed { ", jammed" } else { "" };
        let hits = match self.hits_scored {
            1 => "1 hit".to_string(),
            n => format!("{n} hits"),
        };
        let head = format!(
            "{} makes a {} with {} (d100 {} vs {}, {verdict}{jammed}, {hits})",
            self.attacker_name, self.action, self.weapon, test.roll, test.target
        );
        let targets: Vec<String> = self.targets.iter().map(target_line).collect();
        if targets.is_empty() { head } else { format!("{head}: {}", targets.join("; ")) }
    }
}

fn target_line(target: &ops::TargetReport) -> String {
    let outcome = &target.outcome;
    let name = &target.target_name;
    if outcome.hits_allocated > 0 && outcome.hits_landed == 0 {
        return format!("{name} evades");
    }
    if outcome.hits_landed == 0 {
        return format!("{name} is not hit");
    }
    format!("{name} {}", wounds_line(&outcome.wounds))
}

fn wounds_line(wounds: &WoundsLoss) -> String {
    let mut line = format!("loses {} wounds ({} → {})", wounds.lost, wounds.before, wounds.after);
    if wounds.dead {
        line.push_str(" and is dead");
    } else if wounds.lethal_damage {
        line.push_str(&format!(", {} past 0: Lethal Damage", wounds.past_zero));
    }
    line
}

impl Summary for DamageReport {
    /// e.g. "Bo takes 9 damage, soak 5: loses 4 wounds (10 → 6)".
    fn summary(&self) -> String {
        let soak = self.soak.as_ref().map(|soak| format!(", soak {}", soak.value)).unwrap_or_default();
        format!("{} takes {} damage{soak}: {}", self.name, self.amount, wounds_line(&self.wounds))
    }
}

impl Summary for ActionReport {
    /// e.g. "Ana: aim" followed by the first note, if any.
    fn summary(&self) -> String {
        match self.notes.first() {
            Some(note) => format!("{}: {} ({note})", self.name, self.action),
            None => format!("{}: {}", self.name, self.action),
        }
    }
}
