//! Turns, rounds and durations expiring at exactly the right moment.

use super::test_support::*;
use super::*;
use crate::rulesets::RulesetId;

/// Three combatants with fixed initiative: A 20, B 15, C 10.
fn three() -> Encounter {
    let mut enc = encounter(RulesetId::LurAsko);
    for name in ["A", "B", "C"] {
        add(&mut enc, name, lur_asko());
    }
    fix(&mut enc, &[("A", 20), ("B", 15), ("C", 10)]);
    enc
}

fn step(enc: &mut Encounter) -> Vec<Event> {
    advance(enc, Advance::NextTurn).unwrap()
}

#[test]
fn starting_needs_initiative_for_everyone() {
    let mut enc = encounter(RulesetId::LurAsko);
    add(&mut enc, "A", lur_asko());
    let error = advance(&mut enc, Advance::NextTurn).unwrap_err();
    assert_eq!(error, EncounterError::Conflict("roll initiative first: no initiative for A".into()));
    assert_eq!(enc.status, EncounterStatus::Setup);
}

#[test]
fn turns_follow_the_order_and_wrap_into_the_next_round() {
    let mut enc = three();
    let first = step(&mut enc);
    assert_eq!(first[0], Event::EncounterStarted);
    assert_eq!((enc.round, current_name(&enc)), (1, Some("A".into())));
    step(&mut enc);
    assert_eq!(current_name(&enc).as_deref(), Some("B"));
    step(&mut enc);
    assert_eq!(current_name(&enc).as_deref(), Some("C"));
    let wrap = step(&mut enc);
    assert_eq!((enc.round, current_name(&enc)), (2, Some("A".into())));
    assert!(
        wrap.contains(&Event::RoundEnded { round: 1 }) && wrap.contains(&Event::RoundStarted { round: 2 })
    );
}

#[test]
fn defeated_combatants_are_skipped() {
    let mut enc = three();
    step(&mut enc); // A
    update_combatant(&mut enc, &id("B"), CombatantPatch { defeated: Some(true), ..Default::default() })
        .unwrap();
    let events = step(&mut enc);
    assert_eq!(current_name(&enc).as_deref(), Some("C"));
    assert!(events.iter().any(|e| matches!(e, Event::TurnSkipped { name, .. } if name == "B")));
}

#[test]
fn next_round_passes_everyone_left_and_starts_at_the_top() {
    let mut enc = three();
    step(&mut enc); // round 1, A
    advance(&mut enc, Advance::NextRound).unwrap();
    assert_eq!((enc.round, current_name(&enc)), (2, Some("A".into())));
}

#[test]
fn nobody_able_to_act_is_a_conflict() {
    let mut enc = three();
    for name in ["A", "B", "C"] {
        update_combatant(&mut enc, &id(name), CombatantPatch { defeated: Some(true), ..Default::default() })
            .unwrap();
    }
    assert!(matches!(advance(&mut enc, Advance::NextTurn), Err(EncounterError::Conflict(_))));
}

#[test]
fn end_of_turn_effect_expires_at_the_end_of_that_combatants_next_turn() {
    let mut enc = three();
    step(&mut enc); // round 1: A's turn
    let expiry = Expiry::EndOfTurn { combatant_id: id("B"), remaining: 1 };
    add_effect(&mut enc, effect("dazed", expiry, None)).unwrap();
    assert!(expired_names(&step(&mut enc)).is_empty(), "A's turn ends and B's starts: still on");
    let events = step(&mut enc); // B's turn ends, C's starts
    assert_eq!(expired_names(&events), ["dazed"]);
    assert!(enc.effects.is_empty());
}

#[test]
fn start_of_turn_effect_expires_when_that_turn_begins() {
    let mut enc = three();
    step(&mut enc); // A
    step(&mut enc); // B
    let expiry = Expiry::StartOfTurn { combatant_id: id("B"), remaining: 1 };
    add_effect(&mut enc, effect("dodging", expiry, None)).unwrap();
    assert!(expired_names(&step(&mut enc)).is_empty(), "C starts");
    assert!(expired_names(&step(&mut enc)).is_empty(), "round 2, A starts");
    assert_eq!(expired_names(&step(&mut enc)), ["dodging"], "round 2, B starts");
}

#[test]
fn after_two_rounds_means_the_second_end_of_round() {
    let mut enc = three();
    step(&mut enc); // round 1, A
    add_effect(&mut enc, effect("smoke", Expiry::EndOfRound { remaining: 2 }, None)).unwrap();
    step(&mut enc);
    step(&mut enc);
    assert!(expired_names(&step(&mut enc)).is_empty(), "end of round 1: one round left");
    step(&mut enc);
    step(&mut enc);
    let events = step(&mut enc); // end of round 2
    assert_eq!(expired_names(&events), ["smoke"]);
    let ended = events.iter().position(|e| *e == Event::RoundEnded { round: 2 });
    let expired = events.iter().position(|e| matches!(e, Event::EffectExpired { .. }));
    assert!(ended < expired, "the expiry follows the end of round 2 in the log");
}

#[test]
fn recurring_effect_fires_each_time_then_expires_on_its_count() {
    // Bleeding on B: fires at the start of B's turn, for three of B's turns.
    let mut enc = three();
    let start_b = Moment::StartOfTurn { combatant_id: id("B") };
    let expiry = Expiry::StartOfTurn { combatant_id: id("B"), remaining: 3 };
    add_effect(&mut enc, effect("bleeding", expiry, Some(start_b))).unwrap();
    let mut fired = 0;
    let mut expired_in_round = None;
    for _ in 0..12 {
        let events = step(&mut enc);
        fired += fired_names(&events).len();
        if !expired_names(&events).is_empty() {
            expired_in_round = Some(enc.round);
        }
    }
    assert_eq!((fired, expired_in_round), (3, Some(3)));
}

#[test]
fn skipped_turns_still_count_for_durations() {
    let mut enc = three();
    step(&mut enc); // A
    update_combatant(&mut enc, &id("B"), CombatantPatch { defeated: Some(true), ..Default::default() })
        .unwrap();
    add_effect(&mut enc, effect("stunned", Expiry::EndOfTurn { combatant_id: id("B"), remaining: 1 }, None))
        .unwrap();
    assert_eq!(expired_names(&step(&mut enc)), ["stunned"], "B's skipped turn ends it");
}

#[test]
fn ending_the_encounter_ends_every_effect() {
    let mut enc = three();
    step(&mut enc);
    add_effect(&mut enc, effect("blessed", Expiry::EndOfEncounter, None)).unwrap();
    let events = advance(&mut enc, Advance::EndEncounter).unwrap();
    assert_eq!(expired_names(&events), ["blessed"]);
    assert_eq!(enc.status, EncounterStatus::Ended);
    assert!(matches!(advance(&mut enc, Advance::NextTurn), Err(EncounterError::Conflict(_))));
}

#[test]
fn removing_a_combatant_ends_effects_that_name_it() {
    let mut enc = three();
    add_effect(&mut enc, effect("marked", Expiry::EndOfTurn { combatant_id: id("C"), remaining: 1 }, None))
        .unwrap();
    let events = remove_combatant(&mut enc, &id("C")).unwrap();
    assert_eq!(expired_names(&events), ["marked"]);
}

#[test]
fn a_late_joiner_ahead_of_the_current_turn_waits_for_the_next_round() {
    let mut enc = three();
    step(&mut enc); // A
    step(&mut enc); // B
    add(&mut enc, "Fast", lur_asko());
    add(&mut enc, "Slow", lur_asko());
    fix(&mut enc, &[("Fast", 30), ("Slow", 5)]);
    step(&mut enc);
    assert_eq!(current_name(&enc).as_deref(), Some("C"));
    step(&mut enc);
    assert_eq!(current_name(&enc).as_deref(), Some("Slow"), "Slow is behind B: acts this round");
    step(&mut enc);
    assert_eq!((enc.round, current_name(&enc)), (2, Some("Fast".into())));
}

#[test]
fn effect_bounds_and_unknown_combatants_are_refused() {
    let mut enc = three();
    let zero = effect("x", Expiry::EndOfRound { remaining: 0 }, None);
    assert!(
        matches!(add_effect(&mut enc, zero), Err(EncounterError::Invalid { field, .. }) if field == "ends")
    );
    let ghost = effect("x", Expiry::EndOfTurn { combatant_id: id("ghost"), remaining: 1 }, None);
    assert!(
        matches!(add_effect(&mut enc, ghost), Err(EncounterError::Invalid { field, .. }) if field == "ends.combatant_id")
    );
    let blank = effect("  ", Expiry::EndOfEncounter, None);
    assert!(
        matches!(add_effect(&mut enc, blank), Err(EncounterError::Invalid { field, .. }) if field == "name")
    );
    assert!(enc.effects.is_empty());
}

#[test]
fn an_unacted_combatant_rerolled_ahead_of_the_current_turn_keeps_its_turn() {
    let mut enc = three();
    step(&mut enc); // A (20)
    fix(&mut enc, &[("C", 25)]); // C has not acted; now above A.
    step(&mut enc);
    assert_eq!(current_name(&enc).as_deref(), Some("C"), "C acts next this round, not skipped");
    step(&mut enc);
    assert_eq!(current_name(&enc).as_deref(), Some("B"));
    step(&mut enc);
    assert_eq!((enc.round, current_name(&enc)), (2, Some("C".into())));
}
