//! A Cepheus Engine combatant's status (issue 27): Strength, Dexterity and Endurance as damaged
//! against their full values, the Damage Results condition they give (wounded, seriously
//! wounded, unconscious, dead), fatigue, and the minor and significant actions left in its turn
//! (cepheus-engine.txt, "Damage", "Injury and Recovery", "Fatigue", "Minor Actions",
//! "Significant Actions").
//!
//! Decisions:
//! - The counters are read as [`economy::check_spend`] reads them: counters of an earlier round
//!   start afresh (and a pending dive for cover costs that turn's significant action). The
//!   minor actions left are counted beside the significant action once it is taken (or lost),
//!   and without one before.
//! - Busy with an extended action: no minor or significant action is left.

use super::character::Physical;
use super::damage::Status;
use super::economy::ActionEconomy;
use super::state::CombatState;
use super::stats::Stats;
use crate::rulesets::status::{ActionAllowance, HealthTrack, RulesetStatus, StatusCondition, StatusContext};

/// The status from the stat block and combat state.
pub fn status(stats: &Stats, state: &CombatState, context: &StatusContext) -> RulesetStatus {
    let health = Physical::ALL
        .iter()
        .map(|p| HealthTrack::new(p.field(), &p.field().to_uppercase(), stats.current(*p), Some(stats.maximum(*p))))
        .collect();
    let wound = stats.status();
    let mut conditions: Vec<StatusCondition> = match wound {
        Status::Uninjured => None,
        Status::Wounded => Some(StatusCondition::derived("wounded", "Wounded", None)),
        Status::SeriouslyWounded => Some(StatusCondition::derived("seriously_wounded", "Seriously wounded", None)),
        Status::Unconscious => Some(StatusCondition::derived("unconscious", "Unconscious", None)),
        Status::Dead => Some(StatusCondition::derived("dead", "Dead", None)),
    }
    .into_iter()
    .collect();
    if stats.fatigued {
        conditions.push(StatusCondition::derived("fatigued", "Fatigued", None));
    }
    if state.extended.is_some() {
        conditions.push(StatusCondition::derived("extended_action", "Busy with an extended action", None));
    }
    let can_act = wound.can_act();
    RulesetStatus { health, conditions, actions: actions(wound, state, context), can_act }
}

/// Significant and minor actions left (see the decisions).
fn actions(wound: Status, state: &CombatState, context: &StatusContext) -> Vec<ActionAllowance> {
    let economy = if state.economy.round == context.round {
        state.economy.clone()
    } else {
        ActionEconomy {
            round: context.round,
            significant_lost: state.loses_next_significant_action,
            ..ActionEconomy::default()
        }
    };
    let (with_significant, without) = if wound.loses_minor_action() { (0, 2) } else { (1, 3) };
    let busy = state.extended.is_some() || !wound.can_act();
    let (significant, minor) = (i32::from(economy.significant), i32::from(economy.minor));
    let significant_left = i32::from(!busy && !economy.significant_lost && significant == 0 && minor <= with_significant);
    let minor_limit = if significant >= 1 || economy.significant_lost { with_significant } else { without };
    let minor_left = if busy { 0 } else { (minor_limit - minor).max(0) };
    vec![
        ActionAllowance::new("significant", "Significant actions", significant_left, Some(1)),
        ActionAllowance::new("minor", "Minor actions", minor_left, Some(minor_limit)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Score;

    fn stats() -> Stats {
        let c = |v| Score::new(v).unwrap();
        let mut stats = Stats::with_characteristics(c(7), c(8), c(9), c(7), c(7), c(7));
        stats.damage.end = Score::new(9).unwrap();
        stats.damage.str = Score::new(2).unwrap();
        stats
    }

    #[test]
    fn end_at_zero_and_str_damaged_is_wounded_with_one_significant_and_one_minor_action() {
        // END 9 − 9 = 0, STR 7 − 2 = 5, DEX whole: one at zero, two damaged → wounded
        // (cepheus-engine.txt, "Damage", Damage Results); a turn: 1 significant + 1 minor, or
        // 3 minor ("Minor Actions").
        let status = status(&stats(), &CombatState::default(), &StatusContext { round: 1, ..Default::default() });
        let health: Vec<_> = status.health.iter().map(|h| (h.code.as_str(), h.current, h.maximum)).collect();
        assert_eq!(health, vec![("str", 5, Some(7)), ("dex", 8, Some(8)), ("end", 0, Some(9))]);
        let codes: Vec<_> = status.conditions.iter().map(|c| c.code.as_str()).collect();
        assert_eq!(codes, vec!["wounded"]);
        let left: Vec<_> = status.actions.iter().map(|a| (a.code.as_str(), a.remaining, a.maximum)).collect();
        assert_eq!(left, vec![("significant", 1, Some(1)), ("minor", 3, Some(3))]);
        assert!(status.can_act);
    }

    #[test]
    fn two_characteristics_at_zero_is_unconscious_and_nothing_is_left() {
        let mut stats = stats();
        stats.damage.dex = Score::new(8).unwrap();
        let status = status(&stats, &CombatState::default(), &StatusContext { round: 1, ..Default::default() });
        let codes: Vec<_> = status.conditions.iter().map(|c| c.code.as_str()).collect();
        assert_eq!(codes, vec!["unconscious"]);
        assert!(status.actions.iter().all(|a| a.remaining == 0));
        assert!(!status.can_act);
    }

    #[test]
    fn seriously_wounded_after_a_significant_action_has_no_minor_action_left() {
        // All three damaged, none at zero: seriously wounded, no minor action ("Injury and
        // Recovery").
        let mut stats = stats();
        stats.damage.end = Score::new(1).unwrap();
        stats.damage.dex = Score::new(1).unwrap();
        let economy = ActionEconomy { round: 2, significant: 1, ..ActionEconomy::default() };
        let state = CombatState { economy, ..CombatState::default() };
        let status = status(&stats, &state, &StatusContext { round: 2, ..Default::default() });
        let left: Vec<_> = status.actions.iter().map(|a| (a.code.as_str(), a.remaining, a.maximum)).collect();
        assert_eq!(left, vec![("significant", 0, Some(1)), ("minor", 0, Some(0))]);
    }
}
