//! Declared actions and the action economy; numbers worked by hand from cepheus-engine.txt.

use super::super::damage::Status;
use super::super::stance::Stance;
use super::test_support::*;
use super::*;
use crate::encounter::{Advance, Event, advance};
use crate::encounter::test_support::id;
use crate::score::Score;
use serde_json::{Value, json};

fn run(enc: &mut crate::encounter::Encounter, body: Value, script: &[u32]) -> ActionReport {
    act(enc, json(body), &mut dice(script)).unwrap().1
}

fn refuse(enc: &mut crate::encounter::Encounter, body: Value) -> String {
    let action: Action = json(body);
    refused(enc, |e| act(e, action, &mut dice(&[6, 6, 6, 6])))
}

#[test]
fn hasten_at_the_start_of_the_round_adds_two() {
    // "Dynamic Initiative": declared at the start of each combat round. `fight()` is already in
    // Ana's turn, so the round is under way: refused, for Ana and for Cy who has not acted yet.
    let mut enc = fight();
    assert_eq!(refuse(&mut enc, json!({"action": "hasten", "combatant_id": "Ana"})), "action");
    assert_eq!(refuse(&mut enc, json!({"action": "hasten", "combatant_id": "Cy"})), "action");
    advance(&mut enc, Advance::StartRound).unwrap(); // Bo and Cy pass; round 2 stops at its start
    // Cy 6 + 2 = 8 this round.
    let report = run(&mut enc, json!({"action": "hasten", "combatant_id": "Cy"}), &[]);
    assert_eq!((report.cost, score(&enc, "Cy")), (economy::Cost::Free, 8));
}

#[test]
fn a_standalone_reaction_costs_initiative() {
    let mut enc = fight();
    let (events, _) = act(
        &mut enc,
        json(json!({"action": "react", "combatant_id": "Bo", "reaction": "dodge"})),
        &mut dice(&[]),
    )
    .unwrap();
    assert_eq!(score(&enc, "Bo"), 6);
    assert!(matches!(events[0], Event::ActionTaken { .. }));
    assert!(matches!(events[1], Event::InitiativeChanged { from: 8, to: 6, .. }));
    enc.combatant_mut(&id("Cy")).unwrap().flags.surprised = true;
    assert_eq!(
        refuse(&mut enc, json!({"action": "react", "combatant_id": "Cy", "reaction": "parry"})),
        "reaction"
    );
}

#[test]
fn aiming_builds_to_six_and_resets_on_a_new_target() {
    let mut enc = fight();
    let report = run(&mut enc, json!({"action": "aim", "combatant_id": "Ana", "target_id": "Bo"}), &[]);
    assert_eq!(report.aim.unwrap().aim, 1);
    let report =
        run(&mut enc, json!({"action": "aim_for_kill", "combatant_id": "Ana", "target_id": "Bo"}), &[]);
    assert_eq!((report.aim.clone().unwrap().aim, report.aim.unwrap().aim_for_kill), (1, 1));
    let report = run(&mut enc, json!({"action": "aim", "combatant_id": "Ana", "target_id": "Cy"}), &[]);
    assert_eq!(report.aim.unwrap().aim, 1, "a new target starts again");
    // Three minor actions used: a fourth is refused.
    assert_eq!(
        refuse(&mut enc, json!({"action": "aim", "combatant_id": "Ana", "target_id": "Cy"})),
        "action"
    );
    let mut enc = fight();
    state_of(&mut enc, "Ana").aim = 6;
    state_of(&mut enc, "Ana").aim_target = Some(id("Bo"));
    assert_eq!(
        refuse(&mut enc, json!({"action": "aim", "combatant_id": "Ana", "target_id": "Bo"})),
        "action"
    );
    // Any other action loses it.
    run(&mut enc, json!({"action": "move", "combatant_id": "Ana", "metres": 6.0}), &[]);
    assert_eq!(state(&enc, "Ana").aim, 0);
}

#[test]
fn turn_actions_need_the_turn() {
    let mut enc = fight();
    assert_eq!(refuse(&mut enc, json!({"action": "draw_or_reload", "combatant_id": "Bo"})), "combatant_id");
    assert_eq!(refuse(&mut enc, json!({"action": "other_minor", "combatant_id": "Zed"})), "combatant_id");
}

#[test]
fn stance_changes_are_minor_actions() {
    let mut enc = fight();
    let report =
        run(&mut enc, json!({"action": "change_stance", "combatant_id": "Ana", "stance": "crouched"}), &[]);
    assert_eq!((report.stance, state(&enc, "Ana").stance), (Some(Stance::Crouched), Stance::Crouched));
    assert_eq!(
        refuse(&mut enc, json!({"action": "change_stance", "combatant_id": "Ana", "stance": "crouched"})),
        "stance"
    );
    // Crouched: 6 / 2 = 3 m at most.
    assert_eq!(refuse(&mut enc, json!({"action": "move", "combatant_id": "Ana", "metres": 4.0})), "metres");
}

#[test]
fn the_economy_allows_one_significant_and_one_minor_or_three_minor() {
    let mut enc = fight();
    run(&mut enc, json!({"action": "move", "combatant_id": "Ana"}), &[]);
    run(&mut enc, json!({"action": "draw_or_reload", "combatant_id": "Ana"}), &[]);
    // Two minor actions taken: no significant action is left.
    assert_eq!(refuse(&mut enc, json!({"action": "other_significant", "combatant_id": "Ana"})), "action");
    run(&mut enc, json!({"action": "other_minor", "combatant_id": "Ana", "note": "open a door"}), &[]);
    assert_eq!(refuse(&mut enc, json!({"action": "other_minor", "combatant_id": "Ana"})), "action");
    // Free actions stay possible.
    run(&mut enc, json!({"action": "free", "combatant_id": "Ana", "note": "shouts a warning"}), &[]);
    assert_eq!(refuse(&mut enc, json!({"action": "free", "combatant_id": "Ana", "note": " "})), "note");
    // Next round, fresh counters: significant then one minor, then nothing.
    for _ in 0..3 {
        next_turn(&mut enc);
    }
    run(&mut enc, json!({"action": "other_significant", "combatant_id": "Ana"}), &[]);
    run(&mut enc, json!({"action": "other_minor", "combatant_id": "Ana"}), &[]);
    assert_eq!(refuse(&mut enc, json!({"action": "move", "combatant_id": "Ana"})), "action");
}

#[test]
fn the_seriously_wounded_lose_their_minor_action() {
    let mut enc = fight();
    let damage = &mut stats_mut(&mut enc, "Ana").damage;
    damage.str = Score::new(1).unwrap();
    damage.dex = Score::new(1).unwrap();
    damage.end = Score::new(1).unwrap();
    assert_eq!(stats_of(&enc, "Ana").status(), Status::SeriouslyWounded);
    run(&mut enc, json!({"action": "other_significant", "combatant_id": "Ana"}), &[]);
    assert_eq!(refuse(&mut enc, json!({"action": "move", "combatant_id": "Ana"})), "action");
    let mut enc = fight();
    let damage = &mut stats_mut(&mut enc, "Ana").damage;
    damage.str = Score::new(1).unwrap();
    damage.dex = Score::new(1).unwrap();
    damage.end = Score::new(1).unwrap();
    run(&mut enc, json!({"action": "move", "combatant_id": "Ana", "metres": 1.5}), &[]);
    run(&mut enc, json!({"action": "move", "combatant_id": "Ana"}), &[]);
    assert_eq!(refuse(&mut enc, json!({"action": "move", "combatant_id": "Ana"})), "action");
}

#[test]
fn leadership_raises_the_target_for_a_round() {
    // Leadership 1 + SOC 7 (DM 0) = +1; dice 5 + 4 → 10, Effect 2: Cy 6 + 2 = 8.
    let mut enc = fight();
    let report =
        run(&mut enc, json!({"action": "leadership", "combatant_id": "Ana", "target_id": "Cy"}), &[5, 4]);
    assert_eq!(report.check.unwrap().roll.effect, 2);
    assert_eq!(score(&enc, "Cy"), 8);
    assert_eq!(report.economy.unwrap().significant, 1);
    state_of(&mut enc, "Bo").cut_off = true;
    let mut fresh = fight();
    state_of(&mut fresh, "Bo").cut_off = true;
    assert_eq!(
        refuse(&mut fresh, json!({"action": "leadership", "combatant_id": "Ana", "target_id": "Bo"})),
        "target_id"
    );
}

#[test]
fn tactics_at_the_start_boosts_the_unit_in_contact() {
    // Tactics 1 + INT 7 (0) = +1; dice 6 + 4 → 11, Effect 3: Ana 10 → 13, Bo 8 → 11; Cy cut off.
    let mut enc = fight();
    state_of(&mut enc, "Cy").cut_off = true;
    let body = json!({"action": "tactics", "combatant_id": "Ana", "unit_ids": ["Ana", "Bo", "Cy"]});
    let report = run(&mut enc, body.clone(), &[6, 4]);
    assert_eq!(report.boosted, vec![id("Ana"), id("Bo")]);
    assert_eq!((score(&enc, "Ana"), score(&enc, "Bo"), score(&enc, "Cy")), (13, 11, 6));
    assert_eq!(refuse(&mut enc, body), "unit_ids[0]");
    let mut later = fight();
    run(&mut later, json!({"action": "move", "combatant_id": "Ana"}), &[]);
    assert_eq!(
        refuse(&mut later, json!({"action": "tactics", "combatant_id": "Ana", "unit_ids": ["Bo"]})),
        "action"
    );
}

#[test]
fn comms_fatigue_and_abandoning() {
    let mut enc = fight();
    run(&mut enc, json!({"action": "comms", "combatant_id": "Bo", "in_contact": false}), &[]);
    assert!(state(&enc, "Bo").cut_off);
    let report = run(&mut enc, json!({"action": "fatigue", "combatant_id": "Bo"}), &[]);
    assert_eq!(report.fatigue, Some(super::super::fatigue::FatigueOutcome::Fatigued));
    run(&mut enc, json!({"action": "fatigue", "combatant_id": "Bo"}), &[]);
    assert!(enc.combatant(&id("Bo")).unwrap().flags.defeated, "fatigue on fatigue knocks out");
    assert_eq!(
        refuse(&mut enc, json!({"action": "abandon_extended_action", "combatant_id": "Ana"})),
        "action"
    );
    run(
        &mut enc,
        json!({"action": "start_extended_action", "combatant_id": "Ana", "skill": "computer", "rounds": 4}),
        &[],
    );
    let report = run(&mut enc, json!({"action": "abandon_extended_action", "combatant_id": "Ana"}), &[]);
    assert_eq!(report.extended.unwrap().rounds, 4);
    // One round is refused when the request is read (2 to 1,000).
    let one_round = json!({"action": "start_extended_action", "combatant_id": "Ana", "skill": "x", "rounds": 1});
    assert!(serde_json::from_value::<Action>(one_round).is_err());
}

#[test]
fn diving_from_an_explosion_halves_the_damage_and_costs_the_next_significant_action() {
    // 9 damage, dive: 9 − 4 = 5 (half, rounded up); armour 0 → END 7 − 5 = 2. Bo reacted before
    // acting: 8 − 2 = 6 this round.
    let mut enc = fight();
    let body = json!({"action": "explosion", "combatant_id": "Bo", "damage": 9, "response": "dive"});
    let report = run(&mut enc, body, &[]);
    assert_eq!(report.hit.unwrap().allocation.damage, 5);
    assert_eq!((score(&enc, "Bo"), state(&enc, "Bo").stance), (6, Stance::Prone));
    next_turn(&mut enc); // Bo 6 ties Cy 6: Bo's DEX 7 beats Cy's 4
    assert_eq!(enc.current, Some(id("Bo")));
    assert_eq!(refuse(&mut enc, json!({"action": "other_significant", "combatant_id": "Bo"})), "action");
    run(&mut enc, json!({"action": "change_stance", "combatant_id": "Bo", "stance": "standing"}), &[]);
    assert_eq!(refuse(&mut enc, json!({"action": "move", "combatant_id": "Bo"})), "action");
    // A prone character cannot dodge a blast.
    state_of(&mut enc, "Cy").stance = Stance::Prone;
    assert_eq!(
        refuse(
            &mut enc,
            json!({"action": "explosion", "combatant_id": "Cy", "damage": 4, "response": "dodge"})
        ),
        "response"
    );
}

#[test]
fn a_grapple_throw_damages_and_ends_the_grapple() {
    // Ana: Natural Weapons 1 + DEX 9 (+1, better than STR 7's 0) = +2; dice 5 + 5 → 12, Effect 4.
    // Bo: unskilled −3 + 0 = −3; dice 2 + 2 → 1, Effect −7. Ana wins and throws Bo 2 m: 1D6 = 3
    // → END 7 − 3 = 4.
    let mut enc = fight();
    let body = json!({"action": "grapple", "combatant_id": "Ana", "target_id": "Bo",
                      "choice": {"option": "throw", "distance_m": 2.0}});
    let report = run(&mut enc, body, &[5, 5, 2, 2, 3]);
    let outcome = report.grapple.unwrap();
    assert_eq!((outcome.check.a.effect, outcome.check.b.effect), (4, -7));
    assert!(!outcome.grappling);
    assert_eq!(report.hit.unwrap().allocation.damage, 3);
    assert_eq!(stats_of(&enc, "Bo").damage.end.get(), 3);
    assert!(state(&enc, "Ana").grappling_with.is_none() && state(&enc, "Bo").grappling_with.is_none());
}

#[test]
fn a_held_grapple_locks_both_in() {
    let mut enc = fight();
    let body = json!({"action": "grapple", "combatant_id": "Ana", "target_id": "Bo"});
    run(&mut enc, body, &[5, 5, 2, 2]);
    assert_eq!(state(&enc, "Bo").grappling_with, Some(id("Ana")));
    next_turn(&mut enc); // Bo
    assert_eq!(refuse(&mut enc, json!({"action": "move", "combatant_id": "Bo"})), "action");
    let bad =
        json!({"action": "grapple", "combatant_id": "Bo", "target_id": "Ana", "choice": {"option": "drag"}});
    assert_eq!(refuse(&mut enc, bad), "choice.distance_m");
}

#[test]
fn actions_refuse_unknown_fields() {
    let bad: Result<Action, _> =
        serde_json::from_value(json!({"action": "move", "combatant_id": "Ana", "speed": 3}));
    assert!(bad.is_err());
    let bad: Result<Action, _> = serde_json::from_value(json!({"action": "teleport", "combatant_id": "Ana"}));
    assert!(bad.is_err());
}
