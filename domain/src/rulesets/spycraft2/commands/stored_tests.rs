//! The operations on stored encounters, worked by hand (spycraft2.txt, Steps 1–7).

use super::actions::{ActionRequest, act};
use super::attacks::{AttackRequest, attack};
use super::enter::{EnterRequest, enter};
use super::group_initiative::{GroupInitiativeRequest, group_initiative};
use super::saves::{SaveRequest, save};
use super::surprise::{SurpriseRequest, surprise};
use super::super::state::state_of;
use super::{distance::DistanceRequest, distance::distance};
use crate::dice::Dice;
use crate::encounter::test_support::{encounter, fix, id};
use crate::encounter::{Advance, Encounter, EncounterError, Flags, NewCombatant, add_combatant, advance, turn_order};
use crate::rulesets::spycraft2::state::{CombatState, SurpriseRole};
use crate::rulesets::spycraft2::{Stats, fluid::CountConsequence};
use crate::rulesets::{RulesetId, StatBlock};
use crate::score::Score;
use serde_json::json;

fn stats(bonus: i64) -> Stats {
    Stats::with_initiative_bonus(Score::new(bonus).unwrap())
}

fn add(enc: &mut Encounter, name: &str, side: &str, stats: Stats) {
    let new = NewCombatant {
        id: id(name),
        name: name.into(),
        side: side.into(),
        stats: StatBlock::Spycraft2(stats),
        flags: Flags::default(),
    };
    add_combatant(enc, new).unwrap();
}

/// Agents Ana (+4) and Bo (+2) against guards Cy (+1) and Dee (+1).
fn casino() -> Encounter {
    let mut enc = encounter(RulesetId::Spycraft2);
    let mut ana = stats(4);
    ana.attack_bonus = Score::new(5).unwrap();
    ana.int_modifier = Score::new(2).unwrap();
    add(&mut enc, "Ana", "agents", ana);
    add(&mut enc, "Bo", "agents", stats(2));
    let mut cy = stats(1);
    cy.defense = Score::new(14).unwrap();
    cy.vulnerable_defense = Score::new(2).unwrap();
    cy.vitality = Score::new(6).unwrap();
    cy.wounds = Score::new(10).unwrap();
    add(&mut enc, "Cy", "guards", cy);
    add(&mut enc, "Dee", "guards", stats(1));
    enc
}

fn dice(rolls: &[u32]) -> Dice {
    Dice::scripted(rolls.to_vec(), 0).unwrap()
}

fn request<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> T {
    serde_json::from_value(value).unwrap()
}

fn state(enc: &Encounter, name: &str) -> CombatState {
    state_of(enc, &id(name)).cloned().unwrap_or_default()
}

fn score(enc: &Encounter, name: &str) -> i32 {
    enc.combatant(&id(name)).unwrap().initiative.as_ref().unwrap().score
}

fn field(error: EncounterError) -> String {
    match error {
        EncounterError::Invalid { field, message } => format!("{field}: {message}"),
        other => format!("{other:?}"),
    }
}

fn action(enc: &mut Encounter, who: &str, value: serde_json::Value) -> Result<super::actions::ActionReport, EncounterError> {
    let req: ActionRequest = request(json!({"combatant_id": who, "action": value}));
    act(enc, req, &mut dice(&[])).map(|(_, report)| report)
}

fn next(enc: &mut Encounter) {
    advance(enc, Advance::NextTurn).unwrap();
}

#[test]
fn an_ambush_won_by_the_acting_group_gives_only_its_participants_a_surprise_round() {
    let mut enc = casino();
    // Agents (acting, +6) roll 15 → 21; guards (+2) roll 9 → 11: the agents win. Only Ana made
    // the check (partial group awareness), so Bo waits with the guards.
    let req: SurpriseRequest = request(json!({"awareness": "some_aware", "groups": [
        {"side": "agents", "bonus": 6, "acting": true, "participants": ["Ana"]},
        {"side": "guards", "bonus": 2}]}));
    let (_, report) = surprise(&mut enc, req, &mut dice(&[15, 9])).unwrap();
    assert_eq!(report.checks.iter().map(|c| c.total).collect::<Vec<_>>(), vec![21, 11]);
    assert_eq!(report.acting.iter().map(|n| n.name.as_str()).collect::<Vec<_>>(), vec!["Ana"]);
    assert_eq!(state(&enc, "Bo").surprise, SurpriseRole::Waits);
    fix(&mut enc, &[("Ana", 18), ("Cy", 14), ("Bo", 12), ("Dee", 9)]);
    next(&mut enc); // Round 1, the surprise round: Ana's count.
    let aim = action(&mut enc, "Ana", json!({"action": "aim"})).unwrap();
    assert!(aim.no_longer_flat_footed);
    // A second half action would split the surprise round's full action.
    let again = action(&mut enc, "Ana", json!({"action": "brace"})).unwrap_err();
    assert!(field(again).contains("may not be split into 2 half actions"));
    next(&mut enc); // Cy may not act in the surprise round.
    let cy = action(&mut enc, "Cy", json!({"action": "brace"})).unwrap_err();
    assert!(field(cy).starts_with("combatant_id: did not win surprise"));
    assert!(state(&enc, "Cy").flat_footed);
    next(&mut enc);
    next(&mut enc);
    next(&mut enc); // End of the surprise round: Ana's Aim +1 → 19.
    assert_eq!((enc.round, score(&enc, "Ana")), (2, 19));
    // Round 2 is an ordinary round: Ana has 2 half actions again.
    action(&mut enc, "Ana", json!({"action": "brace"})).unwrap();
    action(&mut enc, "Ana", json!({"action": "aim"})).unwrap();
}

#[test]
fn a_second_free_action_in_the_surprise_round_is_refused_and_nothing_changes() {
    let mut enc = casino();
    let req: SurpriseRequest = request(json!({"awareness": "none_aware", "groups": [
        {"side": "agents", "bonus": 0}, {"side": "guards", "bonus": 0}]}));
    surprise(&mut enc, req, &mut dice(&[3, 17])).unwrap(); // guards 17 > agents 3.
    fix(&mut enc, &[("Cy", 15), ("Ana", 12), ("Dee", 8), ("Bo", 5)]);
    next(&mut enc);
    action(&mut enc, "Cy", json!({"action": "other", "name": "shout", "cost": "free"})).unwrap();
    let before = enc.clone();
    let second = action(&mut enc, "Cy", json!({"action": "other", "name": "wave", "cost": "free"})).unwrap_err();
    assert_eq!(field(second), "action: at most 1 free action in the surprise round");
    assert_eq!(enc, before);
}

#[test]
fn all_aware_or_a_failed_ambush_means_round_one_is_ordinary() {
    let mut enc = casino();
    let req: SurpriseRequest = request(json!({"awareness": "all_aware"}));
    let (_, report) = surprise(&mut enc, req, &mut dice(&[])).unwrap();
    assert!(report.acting.is_empty() && report.waiting.is_empty());
    let mut enc = casino();
    let failed: SurpriseRequest = request(json!({"awareness": "some_aware", "groups": [
        {"side": "agents", "bonus": 0, "acting": true}, {"side": "guards", "bonus": 5}]}));
    surprise(&mut enc, failed, &mut dice(&[10, 10])).unwrap(); // 10 against 15: the ambush fails.
    assert_eq!(state(&enc, "Ana").surprise, SurpriseRole::NoSurpriseRound);
    fix(&mut enc, &[("Ana", 18), ("Cy", 14), ("Bo", 12), ("Dee", 9)]);
    next(&mut enc);
    action(&mut enc, "Ana", json!({"action": "aim"})).unwrap();
    action(&mut enc, "Ana", json!({"action": "brace"})).unwrap();
}

#[test]
fn acting_out_of_turn_is_refused_unless_prompted_off_count() {
    let mut enc = casino();
    fix(&mut enc, &[("Ana", 18), ("Cy", 14), ("Bo", 12), ("Dee", 9)]);
    next(&mut enc);
    let before = enc.clone();
    let req: AttackRequest = request(json!({"attacker_id": "Cy", "target_id": "Ana",
        "weapon": {"name": "Baton", "damage": {"count": 1, "sides": 6}}}));
    let refused = attack(&mut enc, req.clone(), &mut dice(&[10])).unwrap_err();
    assert!(field(refused).starts_with("attacker_id: it is not Cy's Initiative Count"));
    assert_eq!(enc, before);
    // Prompted off-count (e.g. a readied action): only that attack, nothing spent.
    let prompted = AttackRequest { off_count: true, ..req };
    attack(&mut enc, prompted, &mut dice(&[2])).unwrap();
    assert_eq!(state(&enc, "Cy").budget.halves_used, 0);
}

#[test]
fn the_end_of_the_round_applies_every_row_with_the_cap_and_reorders() {
    let mut enc = casino();
    fix(&mut enc, &[("Ana", 18), ("Cy", 14), ("Bo", 12), ("Dee", 9)]);
    next(&mut enc);
    // Ana regroups: +5 + Int 2 = +7, and scores a Triumph (+10): +17 → capped +10 → 28.
    action(&mut enc, "Ana", json!({"action": "regroup"})).unwrap();
    action(&mut enc, "Ana", json!({"action": "triumph"})).unwrap();
    next(&mut enc);
    // Cy, flat-footed (Defense 14 − 2 = 12), is shot by Bo off-count? No: on Bo's count below.
    next(&mut enc);
    // Bo: +0, die 12 → 12 ≥ 12 hits; 2d6 = 5 + 4 = 9: 6 vitality, 3 wounds → Cy −2.
    let shot: AttackRequest = request(json!({"attacker_id": "Bo", "target_id": "Cy",
        "weapon": {"name": "Pistol", "damage": {"count": 2, "sides": 6}}}));
    let (_, report) = attack(&mut enc, shot, &mut dice(&[12, 5, 4])).unwrap();
    assert_eq!(report.defense, 12);
    assert!(!state(&enc, "Cy").flat_footed);
    // Cy also fails a Will save against stress: −2 and −5.
    let will: SaveRequest = request(json!({"combatant_id": "Cy", "save": "will", "dc": 20, "against": "stress"}));
    save(&mut enc, will, &mut dice(&[4])).unwrap();
    next(&mut enc);
    let mut events = Vec::new();
    let mut ended = enc.clone();
    events.extend(advance(&mut ended, Advance::NextTurn).unwrap());
    // Ana 18 + 10 = 28; Cy 14 − 9 = 5; Bo and Dee unchanged: Ana, Bo, Dee, Cy.
    assert_eq!((score(&ended, "Ana"), score(&ended, "Cy")), (28, 5));
    let order: Vec<String> = turn_order(&ended).into_iter().map(|slot| slot.name).collect();
    assert_eq!(order, ["Ana", "Bo", "Dee", "Cy"]);
    let reasons: Vec<String> = events
        .iter()
        .filter_map(|event| match event {
            crate::encounter::Event::InitiativeChanged { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(reasons.len(), 2);
    assert!(reasons[0].contains("table total +17 held to +10"), "{}", reasons[0]);
    assert!(reasons[1].contains("lost 3 wounds -2") && reasons[1].contains("stress condition -5"), "{}", reasons[1]);
}

#[test]
fn fifty_or_more_forces_a_press_and_zero_or_less_reels() {
    let mut enc = casino();
    fix(&mut enc, &[("Ana", 45), ("Cy", 4), ("Bo", 3), ("Dee", 2)]);
    next(&mut enc);
    action(&mut enc, "Ana", json!({"action": "triumph"})).unwrap(); // 45 + 10 = 55.
    action(&mut enc, "Cy", json!({"action": "critical_injury"})).unwrap(); // 4 − 10 = −6.
    advance(&mut enc, Advance::NextRound).unwrap();
    assert_eq!(score(&enc, "Ana"), 55);
    assert!(state(&enc, "Ana").press_required);
    // Cy: −6 → reeling, flat-footed, then −6 + 20 = 14.
    let cy = state(&enc, "Cy");
    assert_eq!((score(&enc, "Cy"), cy.reeling, cy.flat_footed), (14, true, true));
    // Round 2, Ana's count: anything but a Press first is refused, and nothing is stored.
    let before = enc.clone();
    let refused = action(&mut enc, "Ana", json!({"action": "aim"})).unwrap_err();
    assert!(field(refused).contains("must be a Press"));
    assert_eq!(enc, before);
    action(&mut enc, "Ana", json!({"action": "press", "count_change": -20})).unwrap();
    action(&mut enc, "Ana", json!({"action": "aim"})).unwrap();
    advance(&mut enc, Advance::NextRound).unwrap();
    // Press −20 is outside the cap: 55 + 1 − 20 = 36; Cy stops reeling after round 2.
    assert_eq!(score(&enc, "Ana"), 36);
    assert!(!state(&enc, "Ana").press_required && !state(&enc, "Cy").reeling);
    let _ = CountConsequence::None;
}

#[test]
fn group_initiative_shares_one_count_and_a_late_entrant_rolls_on_entry() {
    let mut enc = casino();
    // Guards roll once: 12 + Cy's bonus +1 = 13 for Cy and Dee; the agents individually.
    let req: GroupInitiativeRequest =
        request(json!({"groups": [{"name": "Guards", "combatant_ids": ["Cy", "Dee"]}]}));
    // Cy and Dee tie on 13 with equal bonuses: roll-off 8 (Cy) and 15 (Dee) → Dee first.
    let (events, report) = group_initiative(&mut enc, req, &mut dice(&[12, 8, 15])).unwrap();
    assert_eq!((report.groups[0].count, score(&enc, "Cy"), score(&enc, "Dee")), (13, 13, 13));
    assert_eq!(report.order.iter().map(|o| o.name.as_str()).collect::<Vec<_>>(), vec!["Dee", "Cy"]);
    assert!(events.iter().any(|e| matches!(e, crate::encounter::Event::InitiativeTieBroken { .. })));
    fix(&mut enc, &[("Ana", 18), ("Bo", 16)]);
    next(&mut enc);
    // Eve (+2) enters intentionally mid-round: 1d20 (3) + 2 = 5, after the current turn, not
    // flat-footed. Fay (+0) is caught up in it: 1d20 (19) = 19, ahead of Ana's 18 whose turn it
    // is, so she has missed her count this round, and she is flat-footed.
    add(&mut enc, "Eve", "agents", stats(2));
    add(&mut enc, "Fay", "bystanders", stats(0));
    let (_, entered) = enter(&mut enc, EnterRequest { combatant_id: id("Eve"), intentional: true, action_dice: None }, &mut dice(&[3])).unwrap();
    assert_eq!((entered.count, entered.flat_footed, entered.acts_this_round), (5, false, true));
    assert!(!state(&enc, "Eve").flat_footed);
    let (_, caught) = enter(&mut enc, EnterRequest { combatant_id: id("Fay"), intentional: false, action_dice: None }, &mut dice(&[19])).unwrap();
    assert_eq!((caught.count, caught.flat_footed, caught.acts_this_round), (19, true, false));
    let twice = enter(&mut enc, EnterRequest { combatant_id: id("Fay"), intentional: true, action_dice: None }, &mut dice(&[1])).unwrap_err();
    assert!(field(twice).contains("already in the fight"));
}

#[test]
fn the_stored_distance_is_capped_by_the_combatants_senses() {
    let mut enc = casino();
    let mut scout = stats(0);
    scout.visual_range_ft = Some(Score::new(100).unwrap());
    scout.hearing_range_ft = Some(Score::new(60).unwrap());
    add(&mut enc, "Eve", "agents", scout);
    // Desert: 6d6 × 20 = (1+1+1+1+1+2) × 20 = 140 ft., beyond Eve's 100 ft.: 100 ft.
    let req: DistanceRequest = request(json!({"terrain": "desert"}));
    let (_, report) = distance(&mut enc, req, &mut dice(&[1, 1, 1, 1, 1, 2])).unwrap();
    assert_eq!((report.cap_ft, report.capped, report.distance_ft), (Some(100), true, Some(100)));
}

#[test]
fn equal_counts_go_to_the_higher_bonus_then_a_d20_roll_off_that_rerolls_ties() {
    // Step 5: three guards share the group Count 10 + 1 = 11. Gil's bonus is +3, so he acts
    // first without rolling; Cy and Dee (+1 each) roll off 7 and 7, a tie, and re-roll: 12 and 5.
    let mut enc = casino();
    add(&mut enc, "Gil", "guards", stats(3));
    let req: GroupInitiativeRequest = request(json!({"groups": [
        {"name": "Guards", "combatant_ids": ["Cy", "Dee", "Gil"], "bonus": 1}]}));
    let (_, report) = group_initiative(&mut enc, req, &mut dice(&[10, 7, 7, 12, 5])).unwrap();
    assert_eq!(report.groups[0].count, 11);
    let names: Vec<&str> = report.order.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, vec!["Gil", "Cy", "Dee"]);
    let roll_off = |name: &str| enc.combatant(&id(name)).unwrap().initiative.as_ref().unwrap().roll_off.clone();
    assert_eq!((roll_off("Cy"), roll_off("Dee")), (vec![7, 12], vec![7, 5]));
}

#[test]
fn surprise_is_decided_once_and_a_participant_is_listed_once() {
    let mut enc = casino();
    let tied: SurpriseRequest = request(json!({"awareness": "none_aware", "groups": [
        {"side": "agents", "bonus": 0}, {"side": "guards", "bonus": 0}]}));
    surprise(&mut enc, tied.clone(), &mut dice(&[9, 9])).unwrap(); // 9 against 9: no surprise round.
    let before = enc.clone();

    let again = surprise(&mut enc, tied, &mut dice(&[20, 1])).unwrap_err();
    let twice: SurpriseRequest = request(json!({"awareness": "none_aware", "groups": [
        {"side": "agents", "bonus": 0, "participants": ["Ana", "Ana"]}, {"side": "guards", "bonus": 0}]}));
    let listed_twice = surprise(&mut casino(), twice, &mut dice(&[20, 1])).unwrap_err();

    assert!(matches!(again, EncounterError::Conflict(_)), "{again:?}");
    assert_eq!(enc, before, "the refused re-roll changed nothing");
    assert_eq!(field(listed_twice), "groups[0].participants[1]: listed twice");
}
