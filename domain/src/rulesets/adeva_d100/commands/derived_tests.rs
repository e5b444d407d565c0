//! Issue 28, "derived, not declared" and "resolved, not reported": facts the encounter records are
//! derived by the server (a contradicting caller flag is refused, naming it), and what the text
//! decides with dice is rolled and applied. Scripted dice; numbers worked by hand from
//! shared/rules/adeva-d100.txt. DoS = (target − roll) / 10 + 1 on a pass.

use super::*;
// The fight and the helpers the stored Action List tests use (Ana WS 40, Bo Ag 40, Cy; Ana's turn).
pub(super) use super::actions_tests::{action, dice, fight, refused, state_of, stats_of};
use crate::encounter::test_support::id;
use crate::encounter::{Advance, EncounterError, Event, advance};
use crate::rulesets::RulesetState;
use serde_json::json;

pub(super) fn run(enc: &mut Encounter, value: serde_json::Value, script: &[u32]) -> ActionReport {
    act(enc, action(value), &mut dice(script)).unwrap().1
}

pub(super) fn attack_refused(enc: &mut Encounter, value: serde_json::Value, script: &[u32]) -> (String, String) {
    let before = enc.clone();
    let request: EncounterAttack = serde_json::from_value(value).unwrap();
    let error = attack(enc, request, &mut dice(script)).unwrap_err();
    assert_eq!(*enc, before, "a refusal leaves the encounter unchanged");
    match error {
        EncounterError::Invalid { field, message } => (field, message),
        other => panic!("{other:?}"),
    }
}

pub(super) fn attack_report(enc: &mut Encounter, value: serde_json::Value, script: &[u32]) -> AttackReport {
    let request: EncounterAttack = serde_json::from_value(value).unwrap();
    attack(enc, request, &mut dice(script)).unwrap().1
}

/// Ana grapples Bo: WS 40, d100 30 passes (2 DoS); no dodge. The grapple starts, Ana in control.
pub(super) fn grapple_bo(enc: &mut Encounter) {
    let report = run(enc, json!({"action": "grapple", "combatant_id": "Ana", "target_id": "Bo", "hand_free": true}), &[30]);
    let ActionOutcome::Grapple { started, .. } = report.outcome else { panic!() };
    assert!(started);
}

pub(super) fn grapple_ended_events(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::ActionTaken { action, .. } if action == "grapple ended" => Some(event.summary()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_grapple_ends_when_the_controllers_turn_ends_without_the_grapple_action() {
    // adeva-d100.txt, "Grapple (Initiate)": the controller must take the 'Grapple' Full Action on
    // its turn, or the grapple ends.
    let mut enc = fight();
    grapple_bo(&mut enc);
    // The turn the grapple began: it holds through that turn's end.
    let events = advance(&mut enc, Advance::NextTurn).unwrap();
    assert!(grapple_ended_events(&events).is_empty());
    assert_eq!(state_of(&enc, "Ana").grappled_with, Some(id("Bo")));
    advance(&mut enc, Advance::NextTurn).unwrap(); // Bo's turn ends (restrained: no duty)
    advance(&mut enc, Advance::NextTurn).unwrap(); // Cy's; round 2, Ana's turn
    // Round 2: Ana takes the 'Grapple' action (Damage: S 30, d100 10 → 3 DoS; Bo S 30, d100 90
    // fails; 1d5 = 1 − 3 + SB 3 = 1, below soak TB 3): the grapple holds past her turn.
    run(&mut enc, json!({"action": "grapple_action", "combatant_id": "Ana",
        "move": {"kind": "grapple", "then": {"kind": "damage"}}}), &[10, 90, 1]);
    let events = advance(&mut enc, Advance::NextTurn).unwrap();
    assert!(grapple_ended_events(&events).is_empty());
    advance(&mut enc, Advance::NextTurn).unwrap();
    advance(&mut enc, Advance::NextTurn).unwrap(); // round 3, Ana's turn
    // Round 3: Ana only moves; her turn ends without the 'Grapple' action: the grapple ends.
    run(&mut enc, json!({"action": "move", "combatant_id": "Ana", "kind": "half_move"}), &[]);
    let events = advance(&mut enc, Advance::NextTurn).unwrap();
    assert_eq!(
        grapple_ended_events(&events),
        vec!["Ana: grapple ended (Ana did not take the 'Grapple' Full Action on its turn: the grapple with Bo ends)"]
    );
    for name in ["Ana", "Bo"] {
        let state = state_of(&enc, name);
        assert_eq!((state.grappled_with, state.grapple_role), (None, None), "{name}");
    }
}

#[test]
fn a_controllers_turn_that_passes_untouched_ends_the_grapple_too() {
    let mut enc = fight();
    grapple_bo(&mut enc);
    for _ in 0..3 {
        advance(&mut enc, Advance::NextTurn).unwrap();
    }
    // Round 2: Ana's turn passes with no command at all.
    let events = advance(&mut enc, Advance::NextTurn).unwrap();
    assert_eq!(grapple_ended_events(&events).len(), 1);
    assert_eq!(state_of(&enc, "Bo").grappled_with, None);
}

pub(super) fn sword() -> serde_json::Value {
    json!({"name": "Sword", "class": "melee"})
}

pub(super) fn strike(attacker: &str, target: &str, evasion: &str) -> serde_json::Value {
    json!({"attacker_id": attacker, "target_id": target,
        "action": {"action": "standard_attack", "weapon": sword()},
        "damage": {"count": 1, "sides": 10}, "evasion": evasion})
}

#[test]
fn a_feints_opening_lapses_when_the_feinter_takes_another_action_first() {
    // adeva-d100.txt, "Feint": the opening holds "so long as it is the next action you take".
    // Ana WS 40, d100 15 → 3 DoS; Bo WS 30, d100 90 fails: Ana wins.
    let mut enc = fight();
    run(&mut enc, json!({"action": "feint", "combatant_id": "Ana", "target_id": "Bo"}), &[15, 90]);
    assert_eq!(state_of(&enc, "Bo").feinted_by, Some(id("Ana")));
    // A Half Move before the attack: the opening lapses.
    run(&mut enc, json!({"action": "move", "combatant_id": "Ana", "kind": "half_move"}), &[]);
    assert_eq!(state_of(&enc, "Bo").feinted_by, None);
}

#[test]
fn a_feinters_reaction_before_its_attack_ends_the_opening() {
    // Round 1: Ana feints Bo (as above) and ends her turn.
    let mut enc = fight();
    run(&mut enc, json!({"action": "feint", "combatant_id": "Ana", "target_id": "Bo"}), &[15, 90]);
    advance(&mut enc, Advance::NextTurn).unwrap();
    // Bo's turn: Bo WS 30 + 10 = 40, d100 95 misses Ana, who does not evade: no action of Ana's,
    // the opening still holds.
    attack_report(&mut enc, strike("Bo", "Ana", "none"), &[95]);
    assert_eq!(state_of(&enc, "Bo").feinted_by, Some(id("Ana")));
    advance(&mut enc, Advance::NextTurn).unwrap();
    // Cy's turn: Cy WS 30 + 10 = 40, d100 30 → 2 DoS, one hit; Ana dodges on Ag 30, d100 10 →
    // 3 DoS: evaded. The dodge is Ana's action, taken before her attack: the opening lapses.
    let report = attack_report(&mut enc, strike("Cy", "Ana", "dodge"), &[30, 10]);
    assert_eq!(report.targets[0].outcome.hits_landed, 0);
    assert_eq!(state_of(&enc, "Bo").feinted_by, None);
}

pub(super) fn counter(parried: bool) -> serde_json::Value {
    json!({"attacker_id": "Ana", "target_id": "Bo",
        "action": {"action": "counter_attack", "weapon": sword(), "has_talent": true,
                   "parried_melee_attack": parried},
        "damage": {"count": 1, "sides": 10}})
}

#[test]
fn a_counter_attack_follows_only_a_recorded_parry_of_that_melee_attack() {
    // adeva-d100.txt, "Counter-Attack": "Whenever you successfully parry a melee attack".
    let mut enc = fight();
    advance(&mut enc, Advance::NextTurn).unwrap(); // Bo's turn
    // No attack on Ana yet: no parry recorded.
    let (field, _) = attack_refused(&mut enc, counter(true), &[15, 4]);
    assert_eq!(field, "action.parried_melee_attack");
    // Bo WS 30 + 10 = 40, d100 30 → 2 DoS; Ana dodges (Ag 30, d100 10 → 3 DoS): evaded by a dodge.
    attack_report(&mut enc, strike("Bo", "Ana", "dodge"), &[30, 10]);
    let (field, message) = attack_refused(&mut enc, counter(true), &[15, 4]);
    assert_eq!(field, "action.parried_melee_attack");
    assert!(message.contains("no successful parry"), "{message}");
}

#[test]
fn a_counter_attack_after_a_successful_parry_is_rolled_at_minus_twenty() {
    let mut enc = fight();
    advance(&mut enc, Advance::NextTurn).unwrap(); // Bo's turn
    // Bo WS 30 + 10 = 40, d100 30 → 2 DoS; Ana parries on WS 40, d100 20 → 3 DoS: parried.
    attack_report(&mut enc, strike("Bo", "Ana", "parry"), &[30, 20]);
    assert_eq!(state_of(&enc, "Ana").parried, Some(id("Bo")));
    // Counter-Attack: WS 40 − 20 = 20, d100 15 → 1 DoS, one hit. 1d10 = 4 (the 1 DoS is lower,
    // kept) + SB 3 = 7 against soak TB 3 → 4 wounds.
    let report = attack_report(&mut enc, counter(true), &[15, 4]);
    assert_eq!(report.attack_test.test.target, 20);
    assert_eq!(stats_of(&enc, "Bo").wounds_taken.get(), 4);
    // The parry is answered: a second Counter-Attack on it is refused.
    assert_eq!(state_of(&enc, "Ana").parried, None);
}

#[test]
fn knock_downs_plus_ten_is_derived_from_a_half_move_taken_this_turn() {
    // adeva-d100.txt, "Knock Down": "if made after a Half Move action you gain a +10 bonus".
    let mut enc = fight();
    let (field, message) = refused(
        &mut enc,
        json!({"action": "knock_down", "combatant_id": "Ana", "target_id": "Bo", "after_half_move": true}),
        &[35, 90],
    );
    assert_eq!(field, "after_half_move");
    assert!(message.contains("no Half Move"), "{message}");
    run(&mut enc, json!({"action": "move", "combatant_id": "Ana", "kind": "half_move"}), &[]);
    let (field, _) = refused(
        &mut enc,
        json!({"action": "knock_down", "combatant_id": "Ana", "target_id": "Bo", "after_half_move": false}),
        &[35, 90],
    );
    assert_eq!(field, "after_half_move");
    // Unsent, derived: Ana S 30 + 10 = 40, d100 35 → 1 DoS (without the +10 it would fail); Bo
    // S 30, d100 90 fails: Bo is knocked prone.
    run(&mut enc, json!({"action": "knock_down", "combatant_id": "Ana", "target_id": "Bo"}), &[35, 90]);
    assert!(state_of(&enc, "Bo").prone);
}

#[test]
fn an_attack_of_opportunity_needs_the_enemy_to_have_taken_a_movement_action() {
    // adeva-d100.txt, "Attack of Opportunity": the enemy "undertakes an Movement-type action".
    let mut enc = fight();
    advance(&mut enc, Advance::NextTurn).unwrap(); // Bo's turn
    let opportunity = json!({"attacker_id": "Ana", "target_id": "Bo",
        "action": {"action": "attack_of_opportunity", "weapon": sword(), "enemy_engaged": true,
                   "enemy_moves_away": true},
        "damage": {"count": 1, "sides": 10}});
    let (field, _) = attack_refused(&mut enc, opportunity.clone(), &[25, 5]);
    assert_eq!(field, "action.enemy_moves_away");
    run(&mut enc, json!({"action": "move", "combatant_id": "Bo", "kind": "half_move"}), &[]);
    // WS 40 + 10 = 50, d100 25 → 3 DoS, one hit; 1d10 = 5 (DoS 3 lower, kept) + SB 3 = 8 against
    // soak TB 3 → 5 wounds.
    attack_report(&mut enc, opportunity, &[25, 5]);
    assert_eq!(stats_of(&enc, "Bo").wounds_taken.get(), 5);
}

pub(super) fn to_round_two(enc: &mut Encounter) {
    for _ in 0..3 {
        advance(enc, Advance::NextTurn).unwrap();
    }
}

#[test]
fn a_push_goes_no_further_than_the_pushers_half_move_from_its_stat_block() {
    // adeva-d100.txt, "Controller: Push": 1 square plus 1 per DoS, no further than the Half Move;
    // "Movement": Half Move = AB. Ana Ag 30 → Half Move 3.
    let mut enc = fight();
    grapple_bo(&mut enc);
    to_round_two(&mut enc);
    let (field, message) = refused(
        &mut enc,
        json!({"action": "grapple_action", "combatant_id": "Ana", "move": {"kind": "grapple",
            "then": {"kind": "push", "half_move_squares": 5, "move_with_target": true}}}),
        &[10, 90],
    );
    assert_eq!(field, "move.then.half_move_squares");
    assert!(message.contains("3 squares"), "{message}");
    // S 30, d100 10 → 3 DoS; Bo S 30, d100 90 fails: 1 + 3 = 4 squares, capped at 3.
    let report = run(
        &mut enc,
        json!({"action": "grapple_action", "combatant_id": "Ana", "move": {"kind": "grapple",
            "then": {"kind": "push", "move_with_target": true}}}),
        &[10, 90],
    );
    assert!(report.notes.contains(&"pushed 3 squares".to_string()), "{:?}", report.notes);
}

pub(super) fn set_prone(enc: &mut Encounter, name: &str) {
    if let RulesetState::AdevaD100(state) = &mut enc.combatant_mut(&id(name)).unwrap().state {
        state.prone = true;
    }
}

#[test]
fn a_grapple_stand_needs_both_recorded_prone_and_its_drag_is_rolled() {
    // adeva-d100.txt, "Controller: Stand": both participants on the ground; dragging the opponent
    // up is an opposed Strength test.
    let mut enc = fight();
    grapple_bo(&mut enc);
    to_round_two(&mut enc);
    let stand = |both: Option<bool>| {
        let mut then = json!({"kind": "stand", "drag_opponent": true});
        if let Some(both) = both {
            then["both_on_ground"] = json!(both);
        }
        json!({"action": "grapple_action", "combatant_id": "Ana", "move": {"kind": "grapple", "then": then}})
    };
    let (field, message) = refused(&mut enc, stand(Some(true)), &[10, 90]);
    assert_eq!(field, "move.then.both_on_ground");
    assert!(message.contains("Ana is not prone"), "{message}");
    set_prone(&mut enc, "Ana");
    let (field, _) = refused(&mut enc, stand(None), &[10, 90]);
    assert_eq!(field, "move.then.both_on_ground");
    set_prone(&mut enc, "Bo");
    let (field, _) = refused(&mut enc, stand(Some(false)), &[10, 90]);
    assert_eq!(field, "move.then.both_on_ground");
    // Both prone. Drag: Ana S 30, d100 10 → 3 DoS; Bo S 30, d100 90 fails: both stand.
    let report = run(&mut enc, stand(None), &[10, 90]);
    let ActionOutcome::GrappleAction { contests, .. } = report.outcome else { panic!() };
    assert_eq!(contests.len(), 1);
    assert!(!state_of(&enc, "Ana").prone);
    assert!(!state_of(&enc, "Bo").prone);
}

#[test]
fn a_grapple_stand_whose_drag_fails_leaves_the_opponent_down() {
    let mut enc = fight();
    grapple_bo(&mut enc);
    to_round_two(&mut enc);
    set_prone(&mut enc, "Ana");
    set_prone(&mut enc, "Bo");
    // Drag: Ana S 30, d100 90 fails; Bo S 30, d100 10 → 3 DoS: Bo stays down, Ana is up.
    run(&mut enc, json!({"action": "grapple_action", "combatant_id": "Ana", "move": {"kind": "grapple",
        "then": {"kind": "stand", "drag_opponent": true}}}), &[90, 10]);
    assert!(!state_of(&enc, "Ana").prone);
    assert!(state_of(&enc, "Bo").prone);
}
