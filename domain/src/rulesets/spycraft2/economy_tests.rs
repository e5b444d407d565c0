//! Steps 4 and 5 worked by hand (spycraft2.txt, "Running a Surprise Round", "Step 5: Combat Round").

use super::*;
use crate::rulesets::spycraft2::state::{CombatState, ExtraHalf, SurpriseRole};

fn half() -> Spend {
    Spend { cost: Some(Cost::Half), ..Spend::default() }
}
fn full() -> Spend {
    Spend { cost: Some(Cost::Full), ..Spend::default() }
}
fn free() -> Spend {
    Spend { cost: Some(Cost::Free), ..Spend::default() }
}
fn message(result: Result<Spent, EncounterError>) -> String {
    match result {
        Err(EncounterError::Invalid { field, message }) => format!("{field}: {message}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_round_holds_one_full_or_two_half_actions_and_any_free_actions() {
    let mut state = CombatState::default();
    assert_eq!(spend(&mut state, &half(), false).unwrap(), Spent::Half { source: None });
    for _ in 0..5 {
        assert_eq!(spend(&mut state, &free(), false).unwrap(), Spent::Free);
    }
    spend(&mut state, &half(), false).unwrap();
    assert!(message(spend(&mut state, &half(), false)).starts_with("action: no half action left"));
    let mut fresh = CombatState::default();
    spend(&mut fresh, &full(), false).unwrap();
    assert!(spend(&mut fresh, &half(), false).is_err());
}

#[test]
fn half_actions_from_different_sources_combine_with_their_restrictions() {
    let mut state = CombatState::default();
    spend(&mut state, &half(), false).unwrap();
    // One half left: no full action …
    assert!(message(spend(&mut state, &full(), false)).contains("1 left"));
    // … until another source grants a half action that forbids attacking (Surge of Speed).
    state.budget.extra_halves.push(ExtraHalf { source: "Surge of Speed".into(), forbids_attack: true });
    let attack = Spend { cost: Some(Cost::Full), attack: true, ..Spend::default() };
    assert!(message(spend(&mut state, &attack, false)).contains("forbids attacking"));
    let spent = spend(&mut state, &full(), false).unwrap();
    assert_eq!(spent, Spent::Full { sources: vec!["Surge of Speed".into()] });
}

#[test]
fn a_full_action_skill_check_splits_over_two_rounds_but_an_attack_does_not() {
    let mut state = CombatState::default();
    spend(&mut state, &half(), false).unwrap();
    let attack = Spend { cost: Some(Cost::Full), attack: true, ..Spend::default() };
    assert!(message(spend(&mut state, &attack, false)).contains("completed in the round they begin"));
    let check = Spend { cost: Some(Cost::Full), splittable: Some("Computers".into()), ..Spend::default() };
    assert_eq!(spend(&mut state, &check, false).unwrap(), Spent::SplitStarted);
    state.new_round();
    // The other half must be the first action of the next round; free actions may come first.
    spend(&mut state, &free(), false).unwrap();
    assert!(message(spend(&mut state, &half(), false)).contains("must be finished"));
    let finish = Spend { cost: Some(Cost::Half), finish_split: true, ..Spend::default() };
    spend(&mut state, &finish, false).unwrap();
    assert_eq!(state.split_check, None);
    spend(&mut state, &half(), false).unwrap();
}

#[test]
fn the_bonus_step_needs_a_round_without_other_movement() {
    let step = Spend { bonus_step: true, ..Spend::default() };
    let walk = Spend { cost: Some(Cost::Half), movement: true, ..Spend::default() };
    let mut stepped = CombatState::default();
    assert_eq!(spend(&mut stepped, &step, false).unwrap(), Spent::BonusStep);
    assert!(message(spend(&mut stepped, &step, false)).contains("already took"));
    assert!(message(spend(&mut stepped, &walk, false)).contains("no other move action"));
    let mut walked = CombatState::default();
    spend(&mut walked, &walk, false).unwrap();
    assert!(message(spend(&mut walked, &step, false)).contains("no bonus 5-ft. step"));
}

#[test]
fn after_fifty_the_first_action_must_be_a_press() {
    let mut state = CombatState { press_required: true, ..CombatState::default() };
    assert!(message(spend(&mut state, &half(), false)).contains("must be a Press"));
    let press = Spend { cost: Some(Cost::Free), press: true, ..Spend::default() };
    spend(&mut state, &press, false).unwrap();
    assert!(!state.press_required);
    spend(&mut state, &half(), false).unwrap();
}

#[test]
fn the_surprise_round_allows_one_free_half_or_full_action() {
    let acts = || CombatState { surprise: SurpriseRole::Acts, ..CombatState::default() };
    let waits = CombatState { surprise: SurpriseRole::Waits, ..CombatState::default() };
    assert!(message(spend(&mut waits.clone(), &free(), true)).starts_with("combatant_id:"));
    let mut freed = acts();
    spend(&mut freed, &free(), true).unwrap();
    assert!(message(spend(&mut freed, &free(), true)).contains("at most 1 free action"));
    let mut halved = acts();
    spend(&mut halved, &half(), true).unwrap();
    assert!(message(spend(&mut halved, &half(), true)).contains("may not be split into 2 half actions"));
    let mut fulled = acts();
    assert_eq!(spend(&mut fulled, &full(), true).unwrap(), Spent::Full { sources: vec![] });
    assert!(message(spend(&mut fulled, &free(), true)).contains("only 1 free, 1 half or 1 full"));
    let step = Spend { bonus_step: true, ..Spend::default() };
    assert!(spend(&mut acts(), &step, true).is_err());
}
