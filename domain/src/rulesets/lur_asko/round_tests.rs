//! Auras lapsing at the end of an owner's turn when it cannot act (lur-asko.txt, "Damage
//! Auras", last paragraph), read from what the encounter records.

use super::commands::ActionReport;
use super::commands::actions::{ActionRequest, act};
use super::{Report, Stats};
use crate::dice::Dice;
use crate::encounter::test_support::{add, encounter, fix, id};
use crate::encounter::{Advance, CombatantPatch, Encounter, Event, Expiry, NewEffect, add_effect, advance, update_combatant};
use crate::encounter::EffectId;
use crate::rulesets::{RulesetId, RulesetReport, RulesetState, StatBlock};
use serde_json::json;

/// Raider (10) then Ward (8), round 1, Raider's turn. Ward holds two auras: Spikes (normal, 30)
/// and Mindfire (heat, 20, created by a purely mental action).
fn fight() -> Encounter {
    let mut enc = encounter(RulesetId::LurAsko);
    let stats: Stats = serde_json::from_value(json!({"injury_factor": 10})).expect("stats");
    add(&mut enc, "Raider", StatBlock::LurAsko(stats.clone()));
    add(&mut enc, "Ward", StatBlock::LurAsko(stats));
    fix(&mut enc, &[("Raider", 10), ("Ward", 8)]);
    advance(&mut enc, Advance::NextTurn).expect("start");
    charge(&mut enc, json!({"action": "charge_aura", "combatant_id": "Ward", "aura": "Spikes",
        "kind": {"kind": "normal", "drive": 20}, "amount": 30}));
    charge(&mut enc, json!({"action": "charge_aura", "combatant_id": "Ward", "aura": "Mindfire",
        "kind": {"kind": "energy", "energy": "heat"}, "amount": 20, "mental": true}));
    enc
}

fn charge(enc: &mut Encounter, request: serde_json::Value) {
    let request: ActionRequest = serde_json::from_value(request).expect("request");
    act(enc, request, &mut Dice::scripted(Vec::new(), 0).expect("dice")).expect("charge");
}

fn condition(enc: &mut Encounter, name: &str, expiry: Expiry) {
    let new = NewEffect {
        id: EffectId(format!("eff_{name}")),
        name: name.into(),
        target: Some(id("Ward")),
        source: None,
        note: None,
        fires_at: None,
        expiry,
    };
    add_effect(enc, new).expect("effect");
}

fn auras(enc: &Encounter) -> Vec<String> {
    match &enc.combatant(&id("Ward")).expect("Ward").state {
        RulesetState::LurAsko(state) => state.auras.iter().map(|a| a.name.clone()).collect(),
        _ => panic!("not lur-asko"),
    }
}

/// The `auras_lapsed` reports among `events`: (auras, reason).
fn lapses(events: &[Event]) -> Vec<(Vec<String>, String)> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::ActionTaken { report: RulesetReport::LurAsko(Report::Action(report)), .. } => match report.as_ref() {
                ActionReport::AurasLapsed { auras, reason, .. } => Some((auras.clone(), reason.clone())),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[test]
fn a_paralyzed_owner_loses_every_aura_at_the_end_of_its_own_turn_not_before() {
    // "damage auras expire at the end of your turn if you are unable to take actions (for
    // example, if you are ... paralyzed ...)": paralysis recorded during Raider's turn; Raider's
    // turn ends (not Ward's): both auras stay. Ward's turn ends: both lapse, with one event.
    let mut enc = fight();
    condition(&mut enc, "Paralyzed", Expiry::EndOfEncounter);
    let events = advance(&mut enc, Advance::NextTurn).expect("Ward's turn");
    assert!(lapses(&events).is_empty());
    assert_eq!(auras(&enc), vec!["Spikes", "Mindfire"]);
    let events = advance(&mut enc, Advance::NextTurn).expect("end of Ward's turn");
    assert_eq!(lapses(&events), vec![(vec!["Spikes".to_owned(), "Mindfire".to_owned()], "paralyzed".to_owned())]);
    assert!(auras(&enc).is_empty());
}

#[test]
fn a_condition_lasting_until_the_end_of_the_owners_turn_still_counts_at_that_end() {
    // Pinned until the end of Ward's next turn: at that end Ward was still pinned (the effect
    // expires with the same moment), so the auras lapse; the pin is gone afterwards.
    let mut enc = fight();
    condition(&mut enc, "pinned", Expiry::EndOfTurn { combatant_id: id("Ward"), remaining: 1 });
    advance(&mut enc, Advance::NextTurn).expect("Ward's turn");
    let events = advance(&mut enc, Advance::NextTurn).expect("end of Ward's turn");
    assert_eq!(lapses(&events).len(), 1);
    assert_eq!(lapses(&events)[0].1, "pinned");
    assert!(enc.effects.is_empty());
    assert!(auras(&enc).is_empty());
}

#[test]
fn a_condition_that_ended_before_the_owners_turn_ended_keeps_the_auras() {
    // Incapacitated until the end of Raider's turn: gone before Ward's turn, so Ward maintains
    // its auras on its turn and nothing lapses.
    let mut enc = fight();
    condition(&mut enc, "incapacitated", Expiry::EndOfTurn { combatant_id: id("Raider"), remaining: 1 });
    advance(&mut enc, Advance::NextTurn).expect("Ward's turn");
    let events = advance(&mut enc, Advance::NextTurn).expect("end of Ward's turn");
    assert!(lapses(&events).is_empty());
    assert_eq!(auras(&enc), vec!["Spikes", "Mindfire"]);
}

#[test]
fn only_mental_actions_keeps_the_auras_a_purely_mental_action_created() {
    // "If you are only able to take purely mental actions, you may only maintain auras that were
    // created by purely mental actions": Mindfire (mental) stays, Spikes lapses.
    let mut enc = fight();
    condition(&mut enc, "Mental actions only", Expiry::EndOfEncounter);
    advance(&mut enc, Advance::NextTurn).expect("Ward's turn");
    let events = advance(&mut enc, Advance::NextTurn).expect("end of Ward's turn");
    assert_eq!(lapses(&events), vec![(vec!["Spikes".to_owned()], "mental actions only".to_owned())]);
    assert_eq!(auras(&enc), vec!["Mindfire"]);
}

#[test]
fn a_defeated_owners_skipped_turn_still_ends_and_its_auras_lapse() {
    // Ward is marked defeated (it takes no turns): its turn is skipped when Raider's ends, and
    // that skipped turn's end lapses the auras.
    let mut enc = fight();
    let patch = CombatantPatch { defeated: Some(true), ..CombatantPatch::default() };
    update_combatant(&mut enc, &id("Ward"), patch).expect("defeated");
    let events = advance(&mut enc, Advance::NextTurn).expect("Ward skipped, round 2");
    assert_eq!(lapses(&events), vec![(vec!["Spikes".to_owned(), "Mindfire".to_owned()], "defeated".to_owned())]);
    assert!(auras(&enc).is_empty());
}
