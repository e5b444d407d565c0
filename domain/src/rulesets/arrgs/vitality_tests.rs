use super::*;
use crate::rulesets::arrgs::test_support::fighter;
use serde_json::json;

fn dice(values: Vec<u32>) -> Dice {
    Dice::scripted(values, 0).unwrap()
}

/// Fortitude +3: Body 1, Fortitude skill 2.
fn tough(current: i64) -> Fighter {
    fighter("Hero", json!({"agility": 10, "vitality": 20, "current_vitality": current,
        "abilities": {"body": 1}, "checks": {"fortitude": {"skill": 2}}}))
}

#[test]
fn every_action_drains_one_vitality_and_zero_brings_disabled() {
    // "Vitality": each action costs 1; "Disabled" at 0 or less. 1 → 0, no check (not yet Disabled).
    let mut hero = tough(1);
    let paid = exert(&mut hero, 1, 10, None, &mut dice(vec![])).unwrap();
    assert_eq!((paid.vitality_before, paid.vitality_after, paid.condition_check), (1, 0, None));
    assert!(hero.is_disabled());
}

#[test]
fn a_disabled_action_that_fails_fortitude_costs_one_more_and_brings_dying() {
    // "Disabled": 0 → −1 for the action; d20 5 + 3 = 8 < DC 10: 1 more (−2), Dying [1].
    let mut hero = tough(0);
    let paid = exert(&mut hero, 1, 10, None, &mut dice(vec![5])).unwrap();
    let check = paid.condition_check.unwrap();
    assert_eq!((check.reason, check.check.result, check.dc, check.success), (SurvivalReason::DisabledAction, 8, 10, false));
    assert_eq!((check.vitality_lost, paid.vitality_after), (1, -2));
    assert_eq!(hero.state.dying, 1);
    assert!(!hero.is_disabled(), "Dying replaces Disabled");
}

#[test]
fn a_disabled_success_ends_disabled_only_above_zero() {
    // At −1: −2 after the action; 12 + 3 = 15 ≥ 10, but Vitality ≤ 0 → Disabled again at once.
    let mut low = tough(-1);
    let paid = exert(&mut low, 1, 10, None, &mut dice(vec![12])).unwrap();
    assert!(paid.condition_check.unwrap().success);
    assert!(low.is_disabled());
    // Disabled after Dying ran out, at 5: 9 + 3 = 12 ≥ 10 → 4 Vitality, no longer Disabled.
    let mut healed = tough(5);
    healed.state.disabled_after_dying = true;
    exert(&mut healed, 1, 10, None, &mut dice(vec![9])).unwrap();
    assert!(!healed.is_disabled());
    assert_eq!(healed.current_vitality(), 4);
}

#[test]
fn a_dying_action_checks_negative_vitality_plus_n() {
    // "Dying [n]": −3, Dying [2]; the action takes it to −4; DC 4 + 2 = 6.
    // d20 1 + 3 = 4: fail, loses 2 → −6.
    let mut hero = tough(-3);
    hero.state.dying = 2;
    let paid = exert(&mut hero, 1, 10, None, &mut dice(vec![1])).unwrap();
    let check = paid.condition_check.unwrap();
    assert_eq!((check.dc, check.check.result, check.success, check.vitality_lost), (6, 4, false, 2));
    assert_eq!(hero.current_vitality(), -6);
    // Success reduces the loss by 1 per point above the DC: −3 → −4, DC 6; 4 + 3 = 7 (1 above) → loses 1.
    let mut again = tough(-3);
    again.state.dying = 2;
    let paid = exert(&mut again, 1, 10, None, &mut dice(vec![4])).unwrap();
    assert_eq!(paid.condition_check.unwrap().vitality_lost, 1);
    assert_eq!((again.current_vitality(), again.state.dying), (-5, 2), "only the End of Round lowers n");
}

#[test]
fn dying_at_end_of_round_lowers_n_on_success_and_zero_means_disabled() {
    // −2, Dying [1], Fortitude 0: DC 2 + 1 = 3; d20 3 = 3: success by 0 → still loses 1 (−3);
    // n 1 → 0: Disabled.
    let mut hero = fighter("Hero", json!({"agility": 10, "vitality": 20, "current_vitality": -2}));
    hero.state.dying = 1;
    let check = dying_check(&mut hero, SurvivalReason::DyingEndOfRound, None, &mut dice(vec![3])).unwrap();
    assert_eq!((check.dc, check.success, check.vitality_lost), (3, true, 1));
    assert_eq!((hero.current_vitality(), hero.state.dying), (-3, 0));
    assert!(hero.is_disabled());
    // Dying [1] from a critical at 6 Vitality: DC 0 + 1; 2 ≥ 1 → no loss, n 0 → Disabled at 6.
    let mut struck = fighter("Struck", json!({"agility": 10, "vitality": 20, "current_vitality": 6}));
    struck.state.dying = 1;
    dying_check(&mut struck, SurvivalReason::DyingEndOfRound, None, &mut dice(vec![2])).unwrap();
    assert_eq!(struck.current_vitality(), 6);
    assert!(struck.is_disabled());
}

#[test]
fn failing_dying_checks_lead_to_death_at_negative_total() {
    // "Death": Total 5; −4, Dying [2]: DC 4 + 2 = 6; d20 1 → fail → −6 ≤ −5: dead.
    let mut hero = fighter("Hero", json!({"agility": 10, "vitality": 5, "current_vitality": -4}));
    hero.state.dying = 2;
    dying_check(&mut hero, SurvivalReason::DyingEndOfRound, None, &mut dice(vec![1])).unwrap();
    assert!(hero.is_dead());
}

#[test]
fn staggered_end_of_round_check_is_dc_fifteen_plus_n() {
    // "Staggered [n]": DC 15 + 2 = 17. Fortitude +4: d20 13 → 17 → Staggered [1]; then DC 16, 11 → 15: unchanged.
    let mut hero = fighter("Hero", json!({"agility": 10, "vitality": 20, "checks": {"fortitude": {"skill": 4}}}));
    hero.state.staggered = 2;
    let first = staggered_check(&mut hero, &mut dice(vec![13])).unwrap();
    assert_eq!((first.dc, first.check.result, first.success, hero.state.staggered), (17, 17, true, 1));
    let second = staggered_check(&mut hero, &mut dice(vec![11])).unwrap();
    assert_eq!((second.dc, second.success, hero.state.staggered), (16, false, 1));
}

#[test]
fn waking_is_a_fortitude_check_against_negative_vitality() {
    // "Unconscious": −3 Vitality, not Dying: DC 3. d20 2 fails, d20 3 wakes.
    let mut hero = fighter("Hero", json!({"agility": 10, "vitality": 20, "current_vitality": -3}));
    hero.state.unconscious = true;
    assert!(!wake_check(&mut hero, &mut dice(vec![2])).unwrap().success);
    assert!(wake_check(&mut hero, &mut dice(vec![3])).unwrap().success);
    assert!(!hero.state.unconscious);
}

#[test]
fn a_dying_target_checks_when_it_reacts() {
    // "Dying [n]": "including any Reaction check". −1, Dying [1]: DC 2; d20 1 + 3 = 4, 2 above → no loss.
    let mut hero = tough(-1);
    hero.state.dying = 1;
    let check = react(&mut hero, None, &mut dice(vec![1])).unwrap().unwrap();
    assert_eq!((check.reason, check.dc, check.vitality_lost), (SurvivalReason::DyingReaction, 2, 0));
    let mut fine = tough(5);
    assert_eq!(react(&mut fine, None, &mut dice(vec![])).unwrap(), None);
}
