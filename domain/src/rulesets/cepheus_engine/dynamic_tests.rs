//! Dynamic initiative over whole rounds, numbers worked from cepheus-engine.txt.

use super::dynamic::{check_penalties, hasten, leadership_boost, react, set_comms, tactics_boost};
use crate::encounter::test_support::{add, cepheus, current_name, encounter, fix, id};
use crate::encounter::{Advance, Encounter, advance, turn_order};
use crate::rulesets::{RulesetId, RulesetState};

/// Ana DEX 9 (initiative 10), Bo DEX 7 (8), Cy DEX 4 (6).
fn fight() -> Encounter {
    let mut enc = encounter(RulesetId::CepheusEngine);
    add(&mut enc, "Ana", cepheus(9));
    add(&mut enc, "Bo", cepheus(7));
    add(&mut enc, "Cy", cepheus(4));
    fix(&mut enc, &[("Ana", 10), ("Bo", 8), ("Cy", 6)]);
    enc
}

fn scores(enc: &Encounter) -> Vec<(String, i32)> {
    turn_order(enc).into_iter().map(|s| (s.name, s.score)).collect()
}

fn step(enc: &mut Encounter) {
    advance(enc, Advance::NextTurn).unwrap();
}

fn state(enc: &Encounter, name: &str) -> super::CombatState {
    match &enc.combatant(&id(name)).unwrap().state {
        RulesetState::CepheusEngine(state) => state.clone(),
        _ => panic!("not cepheus"),
    }
}

#[test]
fn a_reaction_before_acting_costs_initiative_this_round_only() {
    // "Reactions": each reaction −2 Initiative; "Dynamic Initiative": this round if not yet acted.
    let mut enc = fight();
    step(&mut enc); // round 1, Ana acts
    let mut events = Vec::new();
    react(&mut enc, &id("Bo"), "dodge", &mut events).unwrap(); // Bo has not acted: 8 − 2 = 6
    react(&mut enc, &id("Bo"), "dodge", &mut events).unwrap(); // cumulative: 6 − 2 = 4
    assert_eq!(scores(&enc), [("Ana".into(), 10), ("Cy".into(), 6), ("Bo".into(), 4)]);
    assert_eq!(check_penalties(&state(&enc, "Bo"), 1).iter().map(|p| p.1).sum::<i32>(), -2);
    step(&mut enc);
    assert_eq!(current_name(&enc).as_deref(), Some("Cy"), "Bo now acts after Cy this round");
    step(&mut enc); // Bo
    step(&mut enc); // round 2: changes undone, Bo back to 8
    assert_eq!(enc.round, 2);
    assert_eq!(scores(&enc), [("Ana".into(), 10), ("Bo".into(), 8), ("Cy".into(), 6)]);
    assert!(check_penalties(&state(&enc, "Bo"), 2).is_empty(), "the −1 DMs lasted until round 2");
}

#[test]
fn a_reaction_after_acting_costs_initiative_next_round() {
    let mut enc = fight();
    step(&mut enc); // Ana acts
    step(&mut enc); // Bo's turn; Ana has acted
    react(&mut enc, &id("Ana"), "parry", &mut Vec::new()).unwrap();
    assert_eq!(scores(&enc)[0], ("Ana".into(), 10), "Ana has acted: no change this round");
    step(&mut enc); // Cy
    step(&mut enc); // round 2: Ana 10 − 2 = 8, ties Bo 8 → higher DEX (Ana 9) first
    assert_eq!(scores(&enc), [("Ana".into(), 8), ("Bo".into(), 8), ("Cy".into(), 6)]);
    for _ in 0..3 {
        step(&mut enc);
    }
    assert_eq!((enc.round, scores(&enc)[0].clone()), (3, ("Ana".into(), 10)), "undone after round 2");
}

#[test]
fn hastening_adds_two_for_the_round_once_per_combat() {
    // "Dynamic Initiative": declared at the start of the round; +2 for that round, −1 DM; once.
    let mut enc = fight();
    advance(&mut enc, Advance::StartRound).unwrap(); // round 1, no turn yet
    hasten(&mut enc, &id("Cy"), &mut Vec::new()).unwrap(); // Cy 6 + 2 = 8, ties Bo 8: Bo DEX 7 > Cy 4
    assert_eq!(scores(&enc)[1..], [("Bo".into(), 8), ("Cy".into(), 8)]);
    assert_eq!(check_penalties(&state(&enc, "Cy"), 1), [("hastened".to_string(), -1)]);
    assert!(hasten(&mut enc, &id("Cy"), &mut Vec::new()).is_err(), "only once per combat");
    step(&mut enc); // Ana's turn
    assert!(hasten(&mut enc, &id("Ana"), &mut Vec::new()).is_err(), "Ana is already acting");
}

#[test]
fn hastening_is_refused_once_the_round_is_under_way() {
    // Issue 28: Bo has not acted, but Ana's turn has begun: the start of round 1 has passed, so
    // Bo may not hasten until the start of round 2 ("At the start of each combat round").
    let mut enc = fight();
    step(&mut enc); // round 1 starts with Ana's turn
    let error = hasten(&mut enc, &id("Bo"), &mut Vec::new()).unwrap_err();
    assert!(error.to_string().starts_with("action:"), "{error}");
    assert!(error.to_string().contains("round 1 is under way (Ana's turn is running)"), "{error}");
    step(&mut enc); // Bo
    step(&mut enc); // Cy
    advance(&mut enc, Advance::StartRound).unwrap(); // round 2, stopped at its start
    hasten(&mut enc, &id("Bo"), &mut Vec::new()).unwrap(); // 8 + 2 = 10, ties Ana: DEX 9 > 7
    assert_eq!(scores(&enc), [("Ana".into(), 10), ("Bo".into(), 10), ("Cy".into(), 6)]);
    assert_eq!(check_penalties(&state(&enc, "Bo"), 2), [("hastened".to_string(), -1)]);
}

#[test]
fn a_delayer_can_act_later_on_the_current_count() {
    // "Delay": act at any later point; initiative becomes the count on which it acts.
    let mut enc = fight();
    step(&mut enc); // Ana's turn
    advance(&mut enc, Advance::Delay).unwrap();
    assert_eq!(current_name(&enc).as_deref(), Some("Bo"));
    advance(&mut enc, Advance::ActNow(id("Ana"))).unwrap(); // interrupting Bo, on Bo's count 8
    assert_eq!(current_name(&enc).as_deref(), Some("Ana"));
    assert_eq!(scores(&enc)[0], ("Ana".into(), 8));
    // Issue 28: Bo's interrupted turn resumes (this test used to go straight on to Cy, Bo's turn
    // lost); then Cy.
    step(&mut enc);
    assert_eq!(current_name(&enc).as_deref(), Some("Bo"));
    step(&mut enc);
    assert_eq!(current_name(&enc).as_deref(), Some("Cy"));
}

#[test]
fn delayers_left_at_the_end_of_the_round_go_first_next_round_and_tie_by_dex() {
    // "Delay": unacted at round end → one higher than the current first; several → same score, DEX.
    let mut enc = fight();
    step(&mut enc); // Ana
    step(&mut enc); // Bo
    advance(&mut enc, Advance::Delay).unwrap(); // Bo delays → Cy
    advance(&mut enc, Advance::Delay).unwrap(); // Cy delays → round ends
    assert_eq!(enc.round, 2);
    // Top is Ana 10 → Bo and Cy 11; Bo (DEX 7) before Cy (DEX 4).
    assert_eq!(scores(&enc), [("Bo".into(), 11), ("Cy".into(), 11), ("Ana".into(), 10)]);
    assert_eq!(current_name(&enc).as_deref(), Some("Bo"));
}

#[test]
fn tactics_lasts_the_combat_and_is_lost_while_cut_off() {
    let mut enc = fight();
    tactics_boost(&mut enc, &[id("Bo"), id("Cy")], 3, &mut Vec::new()).unwrap(); // 8+3 = 11, 6+3 = 9
    assert_eq!(scores(&enc), [("Bo".into(), 11), ("Ana".into(), 10), ("Cy".into(), 9)]);
    set_comms(&mut enc, &id("Bo"), false, &mut Vec::new()).unwrap(); // 11 − 3 = 8
    assert_eq!(scores(&enc), [("Ana".into(), 10), ("Cy".into(), 9), ("Bo".into(), 8)]);
    set_comms(&mut enc, &id("Bo"), true, &mut Vec::new()).unwrap();
    assert_eq!(scores(&enc)[0], ("Bo".into(), 11));
    for _ in 0..4 {
        step(&mut enc);
    }
    assert_eq!((enc.round, scores(&enc)[0].clone()), (2, ("Bo".into(), 11)), "still there in round 2");
}

#[test]
fn leadership_raises_a_target_for_one_round() {
    let mut enc = fight();
    step(&mut enc); // round 1, Ana acting
    leadership_boost(&mut enc, &id("Cy"), 4, &mut Vec::new()).unwrap(); // Cy 6 + 4 = 10: ties Ana, DEX 4 < 9
    assert_eq!(scores(&enc), [("Ana".into(), 10), ("Cy".into(), 10), ("Bo".into(), 8)]);
    leadership_boost(&mut enc, &id("Bo"), -1, &mut Vec::new()).unwrap();
    assert_eq!(scores(&enc)[2], ("Bo".into(), 8), "a failed check changes nothing");
}

#[test]
fn a_surprised_combatant_cannot_react_in_the_first_round() {
    let mut enc = fight();
    let patch = crate::encounter::CombatantPatch { surprised: Some(true), ..Default::default() };
    crate::encounter::update_combatant(&mut enc, &id("Cy"), patch).unwrap();
    step(&mut enc);
    let error = react(&mut enc, &id("Cy"), "dodge", &mut Vec::new()).unwrap_err();
    assert!(error.to_string().starts_with("reaction:"), "{error}");
}

#[test]
fn a_delayer_who_reacted_keeps_the_count_it_acted_on_through_the_round_end() {
    // Ana reacts (10 − 2 = 8) before acting, delays, and acts on Cy's count 6: her initiative is 6,
    // and the end of the round must not add the reaction's 2 back on top (it is settled).
    let mut enc = fight();
    step(&mut enc); // Ana's turn
    advance(&mut enc, Advance::Delay).unwrap(); // Bo
    react(&mut enc, &id("Ana"), "dodge", &mut Vec::new()).unwrap(); // not acted yet: 10 − 2 = 8
    step(&mut enc); // Cy (6)
    advance(&mut enc, Advance::ActNow(id("Ana"))).unwrap(); // Ana on count 6, interrupting Cy
    assert_eq!(scores(&enc).iter().find(|(n, _)| n == "Ana").unwrap().1, 6);
    step(&mut enc); // Cy's turn resumes
    step(&mut enc); // round 2
    assert_eq!(enc.round, 2);
    assert_eq!(
        scores(&enc),
        [("Bo".into(), 8), ("Ana".into(), 6), ("Cy".into(), 6)],
        "Ana stays at 6 (DEX 9 > 4)"
    );
}

#[test]
fn delayers_ignore_defeated_combatants_when_taking_the_top_count() {
    let mut enc = fight();
    let patch = crate::encounter::CombatantPatch { defeated: Some(true), ..Default::default() };
    step(&mut enc); // Ana
    crate::encounter::update_combatant(&mut enc, &id("Ana"), patch).unwrap();
    step(&mut enc); // Bo
    advance(&mut enc, Advance::Delay).unwrap(); // Bo delays; Cy
    step(&mut enc); // round ends: top among those in the fight is Cy 6 → Bo 7
    assert_eq!(scores(&enc).iter().find(|(n, _)| n == "Bo").unwrap().1, 7);
}
