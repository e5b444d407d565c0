//! A Spycraft 2.0 combatant's status (issue 27): vitality and wounds left against the stat
//! block's, the conditions recorded (bleeding, fatigued, exhausted), flat-footed and reeling, dead
//! at −10 wounds, and the half actions left this round (spycraft2.txt, "Step 1", "Step 5: Combat
//! Round", "Step 6"; docs/rulesets/spycraft2.md, "The dead and the defeated").
//!
//! Decisions:
//! - Half actions left are the round's 2 less those used, plus the extra half actions granted by
//!   other sources and not yet used.
//! - A stat block with no vitality (0, the default: an NPC with wounds only) has no Vitality
//!   track in its status, so `summary` reads "Wounds 6/10", not "Vitality 0/0, Wounds 6/10".
//! - At 0 wounds or fewer, not yet dead: `down` (defeated, not dead; see
//!   docs/rulesets/spycraft2.md).

use super::damage::is_dead;
use super::fluid::Condition;
use super::state::CombatState;
use super::stats::Stats;
use crate::rulesets::status::{ActionAllowance, HealthTrack, RulesetStatus, StatusCondition, StatusContext};

/// The status from the stat block and combat state.
pub fn status(stats: &Stats, state: &CombatState, _context: &StatusContext) -> RulesetStatus {
    let (vitality, wounds) = (stats.vitality.get(), stats.wounds.get());
    let vitality_track =
        HealthTrack::new("vitality", "Vitality", vitality.saturating_sub(state.vitality_lost), Some(vitality));
    let wounds_track = HealthTrack::new("wounds", "Wounds", wounds.saturating_sub(state.wounds_lost), Some(wounds));
    // A stat block without vitality (an NPC that has only wounds) shows no empty Vitality track.
    let health = if vitality > 0 { vec![vitality_track, wounds_track] } else { vec![wounds_track] };
    let dead = is_dead(stats, state);
    let mut conditions = Vec::new();
    if dead {
        conditions.push(StatusCondition::derived("dead", "Dead", None));
    } else if wounds.saturating_sub(state.wounds_lost) <= 0 {
        conditions.push(StatusCondition::derived("down", "Down", None));
    }
    if state.flat_footed {
        conditions.push(StatusCondition::derived("flat_footed", "Flat-footed", None));
    }
    if state.reeling {
        conditions.push(StatusCondition::derived("reeling", "Reeling", None));
    }
    conditions.extend(state.conditions.iter().map(|condition| match condition {
        Condition::Bleeding => StatusCondition::derived("bleeding", "Bleeding", None),
        Condition::Fatigued => StatusCondition::derived("fatigued", "Fatigued", None),
        Condition::Exhausted => StatusCondition::derived("exhausted", "Exhausted", None),
    }));
    let base = 2 - i32::try_from(state.budget.halves_used.min(2)).unwrap_or(2);
    let extra = i32::try_from(state.budget.extra_halves.len()).unwrap_or(i32::MAX);
    let halves = if dead { 0 } else { base.saturating_add(extra) };
    let actions = vec![ActionAllowance::new("half_actions", "Half actions", halves, Some(2))];
    RulesetStatus { health, conditions, actions, can_act: !dead }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stats() -> Stats {
        serde_json::from_value(json!({"initiative_bonus": 2, "attack_bonus": 3, "defense": 14,
            "vitality": 30, "wounds": 12}))
        .unwrap()
    }

    #[test]
    fn vitality_and_wounds_lost_and_a_half_action_used() {
        let mut state = CombatState { vitality_lost: 30, wounds_lost: 4, flat_footed: false, ..CombatState::default() };
        state.budget.halves_used = 1;
        let status = status(&stats(), &state, &StatusContext::default());
        assert_eq!(status.health, vec![
            HealthTrack::new("vitality", "Vitality", 0, Some(30)),
            HealthTrack::new("wounds", "Wounds", 8, Some(12))
        ]);
        assert!(status.conditions.is_empty());
        assert_eq!((status.actions[0].remaining, status.can_act), (1, true));
    }

    #[test]
    fn a_stat_block_without_vitality_shows_only_its_wounds() {
        let stats: Stats = serde_json::from_value(json!({"initiative_bonus": 1, "defense": 13, "wounds": 6})).unwrap();
        let state = CombatState { wounds_lost: 5, ..CombatState::default() };
        let status = status(&stats, &state, &StatusContext::default());
        assert_eq!(status.health, vec![HealthTrack::new("wounds", "Wounds", 1, Some(6))]);
    }

    #[test]
    fn minus_ten_wounds_is_dead() {
        let state = CombatState { wounds_lost: 22, flat_footed: true, ..CombatState::default() };
        let status = status(&stats(), &state, &StatusContext::default());
        assert_eq!(status.health[1].current, -10);
        let codes: Vec<_> = status.conditions.iter().map(|c| c.code.as_str()).collect();
        assert_eq!(codes, vec!["dead", "flat_footed"]);
        assert!(!status.can_act);
    }
}
