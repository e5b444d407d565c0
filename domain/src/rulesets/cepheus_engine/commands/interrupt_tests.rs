//! A delayer acting now interrupts the running turn, which resumes with the actions it has left
//! (cepheus-engine.txt, "Delay": "He may act at any later point during the round, even
//! interrupting another's actions to do so"; issue 28). Setup (`fight()`): Ana 10 (DEX 9), Bo 8
//! (DEX 7), Cy 6 (DEX 4); round 1, Ana's turn.

use super::super::economy::ActionEconomy;
use super::super::state::SuspendedTurn;
use super::test_support::*;
use super::*;
use crate::encounter::test_support::{current_name, id};
use crate::encounter::{Advance, CombatantPatch, Encounter, Event, advance, update_combatant};
use serde_json::json;

fn step(enc: &mut Encounter, to: Advance) -> Vec<String> {
    advance(enc, to).unwrap().iter().map(Event::summary).collect()
}

fn economy(enc: &Encounter, name: &str) -> ActionEconomy {
    state(enc, name).economy
}

fn minor(enc: &mut Encounter, name: &str) {
    act(enc, json(json!({"action": "move", "combatant_id": name})), &mut dice(&[])).unwrap();
}

fn significant(enc: &mut Encounter, name: &str) {
    act(enc, json(json!({"action": "other_significant", "combatant_id": name})), &mut dice(&[])).unwrap();
}

#[test]
fn an_interrupted_turn_resumes_with_the_actions_it_has_left() {
    let mut enc = fight();
    step(&mut enc, Advance::Delay); // Ana holds; Bo's turn
    minor(&mut enc, "Bo"); // Bo moves: one minor action of his turn spent
    let interrupt = step(&mut enc, Advance::ActNow(id("Ana")));
    assert_eq!(
        interrupt,
        [
            "Ana acts from a delay, interrupting Bo's turn",
            "Ana's initiative 10 → 8 (acted from a delay on this count)",
            "Ana's turn"
        ]
    );
    assert_eq!(state(&enc, "Bo").suspended_turn, Some(SuspendedTurn { by: id("Ana"), depth: 1 }));
    assert!(!enc.combatant(&id("Bo")).unwrap().acted_this_round, "Bo's turn has not ended");
    // Bo cannot act while Ana does.
    let field = refused(&mut enc, |e| act(e, json(json!({"action": "move", "combatant_id": "Bo"})), &mut dice(&[])));
    assert_eq!(field, "combatant_id");
    significant(&mut enc, "Ana");

    let resumed = step(&mut enc, Advance::NextTurn);
    assert_eq!(resumed, ["Ana's turn ends", "Bo's turn resumes"]);
    assert_eq!(current_name(&enc).as_deref(), Some("Bo"));
    assert_eq!(state(&enc, "Bo").suspended_turn, None);
    assert_eq!(economy(&enc, "Bo"), ActionEconomy { round: 1, significant: 0, minor: 1, significant_lost: false });
    // One significant action and one minor action a turn (The Combat Round): Bo still has his
    // significant action.
    significant(&mut enc, "Bo");
    assert_eq!(economy(&enc, "Bo"), ActionEconomy { round: 1, significant: 1, minor: 1, significant_lost: false });
    assert_eq!(step(&mut enc, Advance::NextTurn), ["Bo's turn ends", "Cy's turn"]);
}

#[test]
fn nested_interrupts_resume_the_latest_first() {
    let mut enc = fight();
    step(&mut enc, Advance::Delay); // Ana holds; Bo
    step(&mut enc, Advance::Delay); // Bo holds; Cy
    step(&mut enc, Advance::ActNow(id("Ana"))); // Ana interrupts Cy on count 6
    let nested = step(&mut enc, Advance::ActNow(id("Bo"))); // Bo interrupts Ana, also on 6
    assert_eq!(
        nested,
        [
            "Bo acts from a delay, interrupting Ana's turn",
            "Bo's initiative 8 → 6 (acted from a delay on this count)",
            "Bo's turn"
        ]
    );
    assert_eq!(state(&enc, "Cy").suspended_turn, Some(SuspendedTurn { by: id("Ana"), depth: 1 }));
    assert_eq!(state(&enc, "Ana").suspended_turn, Some(SuspendedTurn { by: id("Bo"), depth: 2 }));
    assert_eq!(step(&mut enc, Advance::NextTurn), ["Bo's turn ends", "Ana's turn resumes"]);
    assert_eq!(step(&mut enc, Advance::NextTurn), ["Ana's turn ends", "Cy's turn resumes"]);
    let round_two = step(&mut enc, Advance::NextTurn);
    assert_eq!(round_two, ["Cy's turn ends", "Round 1 ends", "Round 2 begins", "Ana's turn"]);
    // All three on 6: DEX decides (Ana 9, Bo 7, Cy 4).
    let order: Vec<_> = crate::encounter::turn_order(&enc).into_iter().map(|s| (s.name, s.score)).collect();
    assert_eq!(order, [("Ana".into(), 6), ("Bo".into(), 6), ("Cy".into(), 6)]);
}

#[test]
fn the_end_of_the_round_ends_a_suspended_turn() {
    let mut enc = fight();
    step(&mut enc, Advance::Delay); // Ana holds; Bo
    step(&mut enc, Advance::ActNow(id("Ana"))); // Bo suspended
    let next = step(&mut enc, Advance::NextRound);
    assert_eq!(
        next,
        [
            "Ana's turn ends",
            "Bo's turn ends",
            "Cy's turn is skipped (the round was advanced)",
            "Round 1 ends",
            "Round 2 begins",
            "Ana's turn"
        ]
    );
    assert_eq!(state(&enc, "Bo").suspended_turn, None);
}

#[test]
fn a_suspended_combatant_defeated_meanwhile_does_not_resume() {
    let mut enc = fight();
    step(&mut enc, Advance::Delay); // Ana holds; Bo
    step(&mut enc, Advance::ActNow(id("Ana"))); // Bo suspended
    let patch = CombatantPatch { defeated: Some(true), ..Default::default() };
    update_combatant(&mut enc, &id("Bo"), patch).unwrap();
    assert_eq!(step(&mut enc, Advance::NextTurn), ["Ana's turn ends", "Bo's turn ends", "Cy's turn"]);
    assert_eq!(state(&enc, "Bo").suspended_turn, None);
}
