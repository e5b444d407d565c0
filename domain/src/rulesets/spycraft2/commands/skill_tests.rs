//! Skill checks rolled when they resolve, split over two rounds or not (spycraft2.txt, "Step 5:
//! Combat Round"), on a stored encounter.

use super::actions::{ActionReport, ActionRequest, act};
use crate::dice::Dice;
use crate::encounter::test_support::{add, encounter, fix, id, spycraft};
use crate::encounter::{Advance, Encounter, EncounterError, Event, advance};
use crate::rulesets::spycraft2::state::state_of;
use crate::rulesets::RulesetId;
use serde_json::{Value, json};

/// Ana (Count 20) and Bo (15), round 1, Ana's turn.
fn fight() -> Encounter {
    let mut enc = encounter(RulesetId::Spycraft2);
    add(&mut enc, "Ana", spycraft(4));
    add(&mut enc, "Bo", spycraft(2));
    fix(&mut enc, &[("Ana", 20), ("Bo", 15)]);
    advance(&mut enc, Advance::NextTurn).expect("start");
    enc
}

fn run(enc: &mut Encounter, action: Value, rolls: &[u32]) -> Result<(Vec<Event>, ActionReport, Dice), EncounterError> {
    let request: ActionRequest = serde_json::from_value(json!({"combatant_id": "Ana", "action": action})).expect("request");
    let mut dice = Dice::scripted(rolls.to_vec(), 0).expect("dice");
    let (events, report) = act(enc, request, &mut dice)?;
    Ok((events, report, dice))
}

fn computers() -> Value {
    json!({"action": "skill_check", "name": "Computers", "cost": "full", "bonus": 7, "dc": 15,
        "modifiers": [{"value": -2, "reason": "darkness"}]})
}

#[test]
fn a_split_check_rolls_nothing_when_begun_and_rolls_when_its_second_half_resolves_it() {
    // Ana aims (1 half action left), then begins a full-action Computers check: split, no die.
    // Round 2, first action: the second half resolves it: 1d20 (9) + 7 − 2 = 14 against DC 15,
    // a failure; the one die is in the event with its purpose.
    let mut enc = fight();
    run(&mut enc, json!({"action": "aim"}), &[]).expect("aim");
    let (_, begun, dice) = run(&mut enc, computers(), &[9]).expect("begin");
    assert_eq!((begun.check.clone(), dice.rolls().len()), (None, 0));
    assert_eq!(state_of(&enc, &id("Ana")).and_then(|s| s.pending_check.clone()).map(|p| (p.bonus, p.dc)), Some((7, Some(15))));
    advance(&mut enc, Advance::NextTurn).expect("Bo");
    advance(&mut enc, Advance::NextTurn).expect("round 2, Ana");
    let (events, finished, _) = run(&mut enc, json!({"action": "finish_skill_check"}), &[9]).expect("finish");
    let check = finished.check.expect("rolled");
    assert_eq!((check.die, check.total, check.dc, check.success), (9, 14, Some(15), Some(false)));
    assert_eq!(check.modifiers.iter().map(|m| m.value).collect::<Vec<_>>(), vec![7, -2]);
    let Event::ActionTaken { dice, .. } = &events[0] else { panic!("{events:?}") };
    assert_eq!((dice.len(), dice[0].value, dice[0].purpose.as_ref()), (1, 9, "skill check (Computers): Ana"));
    assert_eq!(state_of(&enc, &id("Ana")).and_then(|s| s.pending_check.clone()), None);
}

#[test]
fn a_check_taken_whole_rolls_at_once() {
    // Two half actions left: the full-action check is taken whole and resolves now:
    // 1d20 (10) + 7 − 2 = 15 meets DC 15.
    let mut enc = fight();
    let (_, report, _) = run(&mut enc, computers(), &[10]).expect("check");
    let check = report.check.clone().expect("rolled");
    assert_eq!((check.total, check.success), (15, Some(true)));
    assert!(crate::rulesets::Summary::summary(&report).contains("Computers check 15 (d20 10) against DC 15: success"), "{}", crate::rulesets::Summary::summary(&report));
}

#[test]
fn a_bad_modifier_is_refused_naming_it_and_nothing_is_spent() {
    let mut enc = fight();
    let before = enc.clone();
    let bad = json!({"action": "skill_check", "name": "Computers", "cost": "half", "bonus": 7,
        "modifiers": [{"value": 1, "reason": " "}]});
    let Err(EncounterError::Invalid { field, .. }) = run(&mut enc, bad, &[10]) else { panic!("accepted") };
    assert_eq!(field, "action.modifiers[0].reason");
    assert_eq!(enc, before);
}
