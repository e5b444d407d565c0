//! An Adeva d100 combatant's status (issue 27): Wounds left against the maximum, Fate Points and
//! fatigue levels; the conditions the text and the combat state give (dead, at 0 wounds, stunned,
//! pinned, prone, grappled, falling, fatigued); and the actions left in its turn
//! (adeva-d100.txt, "Attacking" Step Seven, "Structured Time", "Actions", "Take Down",
//! "Combat Structure").
//!
//! Decisions:
//! - The turn budget is read as the next command would find it: the stored state is brought up
//!   to date for the round first ([`CombatState::refresh`]), without being stored.
//! - Outside its own turn it has no Full or Half Action left; its reaction is counted there.
//! - "At 0 wounds" with Fate Points left: further damage is Lethal Damage, not death (Step Seven).

use super::bounds::Unsigned;
use super::state::CombatState;
use super::stats::Stats;
use crate::rulesets::status::{ActionAllowance, HealthTrack, RulesetStatus, StatusCondition, StatusContext};

/// The status from the stat block and combat state.
pub fn status(stats: &Stats, state: &CombatState, context: &StatusContext) -> RulesetStatus {
    let mut health = Vec::new();
    let tracked = stats.wounds.is_some();
    let number = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
    if tracked {
        let (now, max) = (number(stats.current_wounds()), number(stats.max_wounds()));
        health.push(HealthTrack::new("wounds", "Wounds", now, Some(max)));
    }
    health.push(HealthTrack::new("fate_points", "Fate Points", stats.fate_points.get(), None));
    health.push(HealthTrack::new("fatigue", "Fatigue", number(stats.fatigue.n()), None));
    let dead = tracked && stats.current_wounds() == 0 && stats.fate_points.get() == 0;
    let stunned = state.stunned_until_round.is_some_and(|until| context.round <= until);
    let mut conditions = Vec::new();
    let mut add = |on: bool, code: &str, name: &str| {
        if on {
            conditions.push(StatusCondition::derived(code, name, None));
        }
    };
    add(dead, "dead", "Dead");
    add(tracked && !dead && stats.current_wounds() == 0, "at_zero_wounds", "At 0 wounds");
    add(stunned, "stunned", "Stunned");
    add(state.pinned, "pinned", "Pinned");
    add(state.prone, "prone", "Prone");
    add(state.grappled_with.is_some(), "grappled", "Grappled");
    add(stats.falling, "falling", "Falling");
    if stats.fatigue.get() > 0 {
        conditions.push(StatusCondition::derived("fatigued", "Fatigued", Some(stats.fatigue.get())));
    }
    let can_act = !dead && !stunned;
    RulesetStatus { health, conditions, actions: actions(state, context, can_act), can_act }
}

/// Full and Half Actions left on its own turn, and its reaction (adeva-d100.txt, "Structured
/// Time": one Full or two Half Actions a turn, one reaction between turns).
fn actions(state: &CombatState, context: &StatusContext, can_act: bool) -> Vec<ActionAllowance> {
    let mut state = state.clone();
    let round = context.round.max(1);
    state.refresh(round, context.own_turn, context.acted_this_round, context.surprised && round == 1);
    let budget = &state.budget;
    let turn_open = can_act && budget.on_own_turn && !budget.turn_lost && !budget.extended_action;
    let full = i32::from(turn_open && budget.full_actions == 0 && budget.half_actions == 0);
    let half = if turn_open && budget.full_actions == 0 { 2 - i32::from(budget.half_actions.min(2)) } else { 0 };
    let reaction = i32::from(can_act && !budget.surprised && !budget.on_own_turn && !budget.reaction_used);
    vec![
        ActionAllowance::new("full_actions", "Full Actions", full, Some(1)),
        ActionAllowance::new("half_actions", "Half Actions", half, Some(2)),
        ActionAllowance::new("reaction", "Reaction", reaction, Some(1)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Score;

    fn stats(wounds: i32, taken: i32, fate: i32) -> Stats {
        Stats {
            wounds: Some(Score::new(wounds.into()).unwrap()),
            wounds_taken: Score::new(taken.into()).unwrap(),
            fate_points: Score::new(fate.into()).unwrap(),
            ..Stats::default()
        }
    }

    fn left(status: &RulesetStatus) -> Vec<(&str, i32)> {
        status.actions.iter().map(|a| (a.code.as_str(), a.remaining)).collect()
    }

    #[test]
    fn wounds_left_and_a_fresh_turn_give_one_full_or_two_half_actions() {
        // 12 wounds, 5 taken: 7 left (Step Seven); its own turn of round 2 starts afresh.
        let context = StatusContext { round: 2, own_turn: true, ..StatusContext::default() };
        let status = status(&stats(12, 5, 1), &CombatState::default(), &context);
        assert_eq!(status.health[0], HealthTrack::new("wounds", "Wounds", 7, Some(12)));
        assert!(status.conditions.is_empty());
        assert_eq!(left(&status), vec![("full_actions", 1), ("half_actions", 2), ("reaction", 0)]);
    }

    #[test]
    fn zero_wounds_without_fate_points_is_dead_and_with_them_lethal_damage_follows() {
        let dead = status(&stats(12, 12, 0), &CombatState::default(), &StatusContext::default());
        assert_eq!(dead.conditions.iter().map(|c| c.code.as_str()).collect::<Vec<_>>(), vec!["dead"]);
        assert!(!dead.can_act);
        let fated = status(&stats(12, 12, 2), &CombatState::default(), &StatusContext::default());
        assert_eq!(fated.conditions.iter().map(|c| c.code.as_str()).collect::<Vec<_>>(), vec!["at_zero_wounds"]);
    }

    #[test]
    fn a_half_action_taken_leaves_one_half_and_no_full_action() {
        let mut state = CombatState::default();
        let context = StatusContext { round: 3, own_turn: true, ..StatusContext::default() };
        state.refresh(3, true, false, false);
        state.budget.half_actions = 1;
        let status = status(&stats(12, 0, 0), &state, &context);
        assert_eq!(left(&status), vec![("full_actions", 0), ("half_actions", 1), ("reaction", 0)]);
        // Off its turn, later in the round: only the reaction.
        let later = StatusContext { round: 3, acted_this_round: true, ..StatusContext::default() };
        assert_eq!(left(&super::status(&stats(12, 0, 0), &state, &later)), vec![
            ("full_actions", 0),
            ("half_actions", 0),
            ("reaction", 1)
        ]);
    }
}
