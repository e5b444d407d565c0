//! One plain-English line per report, built from the names and the numbers, that a chat bot can
//! post as is: "Hicks hits Drone (Effect 0): 9 damage to END 9 → 0; Drone is unconscious".

use super::character::Physical;
use super::damage::Status;
use super::operations::{ActionReport, AttackReport, DamageReport, HitResult};

/// "END 9 → 0, STR 7 → 5" for the characteristics that took points, then the status it left.
fn hit_line(hit: &HitResult) -> String {
    let allocation = &hit.allocation;
    let changes: Vec<String> = Physical::ALL
        .iter()
        .filter_map(|physical| {
            let points = allocation.split().of(*physical);
            (points > 0).then(|| {
                let after = hit.stats_after.current(*physical);
                format!("{} {} → {after}", physical.field().to_uppercase(), after.saturating_add(points))
            })
        })
        .collect();
    let mut line = format!("{} damage", allocation.damage);
    if !changes.is_empty() {
        line.push_str(&format!(" to {}", changes.join(", ")));
    }
    if allocation.status_after != allocation.status_before {
        line.push_str(&format!("; {} is {}", hit.name, status_word(allocation.status_after)));
    }
    line
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
    let effect = outcome.effect.map(|effect| format!(" (Effect {effect})")).unwrap_or_default();
    if !outcome.hit {
        let mut line = format!("{attacker} misses {target}{effect}");
        if let Some(stray) = &report.stray_shot {
            line.push_str(&format!("; the stray shot hits {}: {}", stray.hit.name, hit_line(&stray.hit)));
        }
        return line;
    }
    let mut line = format!("{attacker} hits {target}{effect}");
    if let Some(suppressed) = &report.suppression {
        if suppressed.applied {
            line.push_str(&format!(
                ": suppressed, Initiative −{} and {:+} DM on checks",
                suppressed.initiative_penalty, suppressed.check_dm
            ));
        } else {
            line.push_str(": suppressed again before acting, no further penalty");
        }
    } else if let Some(suppression) = &outcome.suppression {
        line.push_str(&format!(": suppression, Initiative −{}", suppression.initiative_penalty));
    } else if let Some(hit) = &report.target_hit {
        line.push_str(&format!(": {}", hit_line(hit)));
    } else if let Some(vehicle) = &outcome.vehicle {
        line.push_str(&format!(": {} damage, {} vehicle hit(s)", vehicle.damage, vehicle.hits.len()));
    } else if let Some(damage) = &outcome.damage {
        line.push_str(&format!(": {} damage after armour, not applied", damage.after_armour));
    }
    line
}

/// The damage in one line.
pub fn damage(report: &DamageReport) -> String {
    let armour = if report.armour > 0 { format!(" ({} after armour {})", report.after_armour, report.armour) } else { String::new() };
    let mut line = format!("{} takes {} damage{armour}", report.target_name, report.damage);
    if let Some(hit) = &report.hit {
        line.push_str(&format!(": {}", hit_line(hit)));
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
