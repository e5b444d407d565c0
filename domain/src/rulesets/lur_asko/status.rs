//! A Lur-Asko combatant's status (issue 27): the damage taken, the degrees of injury it has
//! crossed (one per multiple of the injury factor), fatigue, each injury by type, and the rolls
//! against Alacrian war fever owed at the end of the combat (lur-asko.txt, "Damage, Drive, &
//! Armor Ranges", "Energy Damage").
//!
//! Decisions:
//! - The text sets no maximum health, no death threshold and no action economy: the tracks have
//!   no maximum, nothing is derived beyond the injuries, and no allowance is listed. What the
//!   energy types inflict for a time (stunned, ignited, deafened) is recorded as encounter
//!   effects, which the generic status lists with their remaining duration.

use super::state::CombatState;
use super::stats::Stats;
use crate::rulesets::status::{HealthTrack, RulesetStatus, StatusCondition, StatusContext};

/// The status from the stat block and combat state.
pub fn status(_stats: &Stats, state: &CombatState, _context: &StatusContext) -> RulesetStatus {
    let number = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
    let health = vec![
        HealthTrack::new("damage_taken", "Damage taken", number(state.damage_taken), None),
        HealthTrack::new("degrees", "Degrees of injury", number(state.degrees()), None),
        HealthTrack::new("fatigue", "Fatigue", number(state.fatigue), None),
    ];
    let mut conditions: Vec<StatusCondition> = state
        .injuries
        .iter()
        .map(|injury| {
            let name = format!("Injury: {}", injury.injury_type);
            StatusCondition::derived("injury", &name, Some(number(injury.degrees)))
        })
        .collect();
    let owed = state.war_fever_rolls.len();
    if owed > 0 {
        let value = Some(i32::try_from(owed).unwrap_or(i32::MAX));
        conditions.push(StatusCondition::derived("war_fever_rolls_owed", "War fever rolls owed", value));
    }
    RulesetStatus { health, conditions, actions: Vec::new(), can_act: true }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::lur_asko::state::InjuryRecord;
    use serde_json::json;

    #[test]
    fn damage_degrees_and_injuries_are_listed() {
        // 27 damage at injury factor 10 crossed 10 and 20: 2 degrees ("Damage, Drive, & Armor
        // Ranges"), both of the rolled type.
        let stats: Stats = serde_json::from_value(json!({"injury_factor": 10})).unwrap();
        let state = CombatState {
            damage_taken: 27,
            injuries: vec![InjuryRecord { injury_type: "slash".into(), degrees: 2 }],
            fatigue: 25,
            ..CombatState::default()
        };
        let status = status(&stats, &state, &StatusContext::default());
        let health: Vec<_> = status.health.iter().map(|h| (h.code.as_str(), h.current)).collect();
        assert_eq!(health, vec![("damage_taken", 27), ("degrees", 2), ("fatigue", 25)]);
        assert_eq!(status.conditions[0].label(), "Injury: slash 2");
        assert!(status.actions.is_empty() && status.can_act);
    }
}
