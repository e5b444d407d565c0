//! An ARRGS combatant's status (issue 27): Current Vitality against Total Vitality, the
//! conditions of the combat chapter derived from them and the combat state, and the Action
//! Points and Additional Action Points left this round (arrgs.txt, "Vitality", "Conditions":
//! Disabled, Dying [n], Staggered [n], Unconscious; "Death"; "Actions and Action Points").
//!
//! Decisions:
//! - The points left are [`economy::remaining`]; while Disabled (2 points a round) or Dying (1)
//!   a further allowance `condition_limit` says how many of them the condition still lets it use.
//! - It may act unless dead, Unconscious, or Surprised in the surprise round (as
//!   [`economy::ensure_can_act`] refuses).

use super::economy;
use super::fighter::{Condition, Fighter, Scene};
use super::state::CombatState;
use super::stats::Stats;
use crate::encounter::CombatantId;
use crate::rulesets::status::{ActionAllowance, HealthTrack, RulesetStatus, StatusCondition, StatusContext};

/// The status from the stat block and combat state.
pub fn status(stats: &Stats, state: &CombatState, context: &StatusContext) -> RulesetStatus {
    let id = CombatantId(String::new());
    let mut fighter = Fighter::new(id.clone(), "", stats.clone(), "combatant_id");
    fighter.state = state.clone();
    fighter.surprised = context.surprised;
    let scene = Scene {
        round: context.round,
        surprise_round: context.surprise_round,
        current: context.own_turn.then_some(id),
        options: Default::default(),
    };
    let health = stats
        .vitality
        .map(|total| vec![HealthTrack::new("vitality", "Vitality", fighter.current_vitality(), Some(total.get()))])
        .unwrap_or_default();
    let conditions = fighter.conditions().into_iter().map(condition).collect();
    let dead = fighter.is_dead();
    let can_act = !(dead || state.unconscious || (context.surprise_round && context.surprised));
    RulesetStatus { health, conditions, actions: actions(&fighter, &scene), can_act }
}

fn condition(condition: Condition) -> StatusCondition {
    let count = |n: u32| Some(i32::try_from(n).unwrap_or(i32::MAX));
    match condition {
        Condition::Dead => StatusCondition::derived("dead", "Dead", None),
        Condition::Dying { applications } => StatusCondition::derived("dying", "Dying", count(applications)),
        Condition::Disabled => StatusCondition::derived("disabled", "Disabled", None),
        Condition::Unconscious => StatusCondition::derived("unconscious", "Unconscious", None),
        Condition::Staggered { applications } => {
            StatusCondition::derived("staggered", "Staggered", count(applications))
        }
        Condition::Prone => StatusCondition::derived("prone", "Prone", None),
        Condition::Surprised => StatusCondition::derived("surprised", "Surprised", None),
    }
}

/// AP and AAP left of the round's allotment, and the Disabled / Dying limit (arrgs.txt,
/// "Disabled": 2 points a round; "Dying [n]": 1).
fn actions(fighter: &Fighter, scene: &Scene) -> Vec<ActionAllowance> {
    let allotted = economy::allotment(fighter, scene);
    let left = economy::remaining(fighter, scene);
    let mut actions = vec![
        ActionAllowance::new("action_points", "Action Points", left.action_points, Some(allotted.action_points)),
        ActionAllowance::new(
            "additional_action_points",
            "Additional Action Points",
            left.additional_action_points,
            Some(allotted.additional_action_points),
        ),
    ];
    let limit = if fighter.state.dying > 0 {
        Some(1)
    } else if fighter.is_disabled() {
        Some(2)
    } else {
        None
    };
    if let Some(limit) = limit {
        let used = fighter.state.round.points_used();
        let name = "Points the condition allows this round";
        actions.push(ActionAllowance::new("condition_limit", name, (limit - used).max(0), Some(limit)));
    }
    actions
}


#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::arrgs::test_support::stats;
    use serde_json::json;

    fn codes(status: &RulesetStatus) -> Vec<(String, Option<i32>)> {
        status.conditions.iter().map(|c| (c.code.clone(), c.value)).collect()
    }

    #[test]
    fn vitality_below_zero_with_dying_shows_dying_and_one_point_left() {
        // Total 20, 22 lost: Current −2 (arrgs.txt, "Vitality"); Dying 1 from a critical hit
        // ("Dying [n]": 1 point a round; Disabled gives way to Dying).
        let state = CombatState { vitality_lost: 22, dying: 1, ..CombatState::default() };
        let context = StatusContext { round: 2, own_turn: true, ..StatusContext::default() };
        let status = status(&stats(json!({"agility": 10, "vitality": 20})), &state, &context);
        assert_eq!(status.health, vec![HealthTrack::new("vitality", "Vitality", -2, Some(20))]);
        assert_eq!(codes(&status), vec![("dying".into(), Some(1))]);
        let limit = status.actions.iter().find(|a| a.code == "condition_limit").unwrap();
        assert_eq!((limit.remaining, limit.maximum), (1, Some(1)));
        assert!(status.can_act);
    }

    #[test]
    fn zero_vitality_is_disabled_with_two_points_and_staggered_takes_additional_points_first() {
        // Current 0: Disabled ("Disabled": 2 points a round). Staggered 1 takes 1 of the 2 AAP
        // ("Staggered [n]": AAP first); 1 AP spent of 3.
        let mut state = CombatState { vitality_lost: 20, staggered: 1, ..CombatState::default() };
        state.round.action_points_spent = 1;
        let context = StatusContext { round: 2, own_turn: true, ..StatusContext::default() };
        let status = status(&stats(json!({"agility": 10, "vitality": 20})), &state, &context);
        assert_eq!(codes(&status), vec![("disabled".into(), None), ("staggered".into(), Some(1))]);
        let left: Vec<_> = status.actions.iter().map(|a| (a.code.as_str(), a.remaining, a.maximum)).collect();
        assert_eq!(
            left,
            vec![
                ("action_points", 2, Some(3)),
                ("additional_action_points", 1, Some(1)),
                ("condition_limit", 1, Some(2))
            ]
        );
    }

    #[test]
    fn at_negative_total_vitality_it_is_dead_and_may_not_act() {
        // "Death": Negative Vitality equal to Total Vitality.
        let state = CombatState { vitality_lost: 40, ..CombatState::default() };
        let status = status(&stats(json!({"agility": 10, "vitality": 20})), &state, &StatusContext::default());
        assert_eq!(status.health[0].current, -20);
        assert_eq!(codes(&status), vec![("dead".into(), None), ("disabled".into(), None)]);
        assert!(!status.can_act);
    }
}
