//! One plain-English line per report, built from the names and the numbers, that a chat bot can
//! post as is: "Hicks hits Drone (Effect 0): 9 damage to END 9 → 0; Drone is unconscious".

use super::character::Physical;
use super::damage::Status;
use crate::number_text::number_text;
use super::commands::{ActionReport, AttackReport, DamageReport, HitResult};
use crate::rulesets::Summary;
use serde::{Deserialize, Serialize};
use std::fmt::Write;


/// Every Cepheus Engine report, as the attack, damage and action events carry it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineReport))]
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
    fn summary(&self) -> String {
        attack(self)
    }
}

impl Summary for DamageReport {
    fn summary(&self) -> String {
        damage(self)
    }
}

impl Summary for ActionReport {
    fn summary(&self) -> String {
        action(self)
    }
}

/// "END 9 → 0, STR 7 → 5" for the characteristics that took points, then the status it left.
fn hit_line(hit: &HitResult) -> String {
    let mut line = String::with_capacity(64);
    push_hit_line(&mut line, hit);
    line
}

/// Writes [`hit_line`] onto `line` (one buffer for the whole summary).
fn push_hit_line(line: &mut String, hit: &HitResult) {
    // Pieces and `number_text` rather than `write!`: this runs for every hit of every attack.
    let allocation = &hit.allocation;
    line.push_str(number_text(allocation.damage, false).as_str());
    line.push_str(" damage");
    let mut first = true;
    for physical in Physical::ALL {
        let points = allocation.split().of(physical);
        if points > 0 {
            let after = hit.stats_after.current(physical);
            line.push_str(if first { " to " } else { ", " });
            first = false;
            line.push_str(upper_label(physical));
            line.push(' ');
            line.push_str(number_text(after.saturating_add(points), false).as_str());
            line.push_str(" → ");
            line.push_str(number_text(after, false).as_str());
        }
    }
    if allocation.status_after != allocation.status_before {
        line.push_str("; ");
        line.push_str(&hit.name);
        line.push_str(" is ");
        line.push_str(status_word(allocation.status_after));
    }
}

/// Appends formatted text to a line (writing to a `String` cannot fail).
fn push(line: &mut String, text: std::fmt::Arguments) {
    let _ = line.write_fmt(text);
}

/// "STR", "DEX" or "END".
fn upper_label(physical: Physical) -> &'static str {
    match physical {
        Physical::Str => "STR",
        Physical::Dex => "DEX",
        Physical::End => "END",
    }
}

fn status_word(status: Status) -> &'static str {
    match status {
        Status::Uninjured => "uninjured",
        Status::Wounded => "wounded",
        Status::SeriouslyWounded => "seriously wounded",
        Status::Unconscious => "unconscious",
        Status::Dead => "dead",
    }
}

/// The attack in one line.
pub fn attack(report: &AttackReport) -> String {
    let (attacker, target, outcome) = (&report.attacker_name, &report.target_name, &report.outcome);
    if outcome.coup_de_grace {
        return format!("{attacker} delivers a coup de grâce: {target} is dead");
    }
    let mut line = String::with_capacity(128);
    let verb = if outcome.hit { " hits " } else { " misses " };
    for piece in [&**attacker, verb, &**target] {
        line.push_str(piece);
    }
    if let Some(effect) = outcome.effect {
        line.push_str(" (Effect ");
        line.push_str(number_text(effect, false).as_str());
        line.push(')');
    }
    if !outcome.hit {
        if let Some(stray) = &report.stray_shot {
            push(&mut line, format_args!("; the stray shot hits {}: ", stray.hit.name));
            push_hit_line(&mut line, &stray.hit);
        }
        return line;
    }
    if let Some(suppressed) = &report.suppression {
        if suppressed.applied {
            push(
                &mut line,
                format_args!(
                    ": suppressed, Initiative −{} and {:+} DM on checks",
                    suppressed.initiative_penalty, suppressed.check_dm
                ),
            );
        } else {
            line.push_str(": suppressed again before acting, no further penalty");
        }
    } else if let Some(suppression) = &outcome.suppression {
        push(&mut line, format_args!(": suppression, Initiative −{}", suppression.initiative_penalty));
    } else if let Some(hit) = &report.target_hit {
        line.push_str(": ");
        push_hit_line(&mut line, hit);
    } else if let Some(tracked) = &report.tracked_vehicle {
        push(&mut line, format_args!(": {}", tracked.summary));
    } else if let Some(vehicle) = &outcome.vehicle {
        push(&mut line, format_args!(": {} damage, {} vehicle hit(s)", vehicle.damage, vehicle.hits.len()));
    } else if let Some(damage) = &outcome.damage {
        push(&mut line, format_args!(": {} damage after armour, not applied", damage.after_armour));
    }
    line
}

/// The damage in one line.
pub fn damage(report: &DamageReport) -> String {
    let armour = if report.armour > 0 { format!(" ({} after armour {})", report.after_armour, report.armour) } else { String::new() };
    let mut line = format!("{} takes {} damage{armour}", report.target_name, report.damage);
    if let Some(hit) = &report.hit {
        line.push_str(&format!(": {}", hit_line(hit)));
    } else if let Some(tracked) = &report.tracked_vehicle {
        line.push_str(&format!(": {}", tracked.summary));
    } else if let Some(vehicle) = &report.vehicle {
        line.push_str(&format!(": {} vehicle hit(s)", vehicle.hits.len()));
    }
    line
}

/// The action in one line.
pub fn action(report: &ActionReport) -> String {
    let mut line = if report.description.is_empty() {
        format!("{}: {}", report.name, report.action.replace('_', " "))
    } else {
        report.description.clone()
    };
    for hit in report.hit.iter().chain(report.hits.iter()) {
        line.push_str(&format!("; {}: {}", hit.name, hit_line(hit)));
    }
    line
}
