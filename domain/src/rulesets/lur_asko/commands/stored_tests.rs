//! Attacks, damage and actions on stored encounters, with hand-worked numbers.

use super::super::state::CombatState;
use super::super::stats::Stats;
use super::actions::{ActionReport, ActionRequest, act};
use super::attacks::{attack, damage};
use super::report::AttackReport;
use super::request::{EncounterAttack, EncounterDamage};
use crate::dice::Dice;
use crate::encounter::test_support::{add, encounter, fix, id};
use crate::encounter::{Advance, Encounter, EncounterError, advance};
use crate::rulesets::{RulesetId, RulesetState, StatBlock};
use super::super::outcome::{AuraOutcome, Outcome};
use serde_json::{Value, json};

fn from<T: serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).expect("json")
}

/// Raider (initiative 10) and Ward (8), round 1, Raider's turn. Both injury factor 10; Ward wears
/// armour 16-28.
fn fight() -> Encounter {
    let mut enc = encounter(RulesetId::LurAsko);
    let raider: Stats = from(json!({"injury_factor": 10}));
    let ward: Stats = from(json!({"injury_factor": 10, "armour": {"low": 16, "high": 28}}));
    add(&mut enc, "Raider", StatBlock::LurAsko(raider));
    add(&mut enc, "Ward", StatBlock::LurAsko(ward));
    fix(&mut enc, &[("Raider", 10), ("Ward", 8)]);
    advance(&mut enc, Advance::NextTurn).expect("start");
    enc
}

fn state(enc: &Encounter, name: &str) -> CombatState {
    match &enc.combatant(&id(name)).expect("combatant").state {
        RulesetState::LurAsko(state) => state.clone(),
        _ => panic!("not lur-asko"),
    }
}

fn dice(script: &[u32]) -> Dice {
    Dice::scripted(script.to_vec(), 0).expect("dice")
}

fn effect_names(enc: &Encounter) -> Vec<String> {
    enc.effects.iter().map(|e| e.name.clone()).collect()
}

fn act_ok(enc: &mut Encounter, request: Value) -> ActionReport {
    act(enc, from::<ActionRequest>(request), &mut dice(&[])).expect("action").1
}

fn attack_ok(enc: &mut Encounter, request: Value, rolls: &[u32]) -> AttackReport {
    attack(enc, from::<EncounterAttack>(request), &mut dice(rolls)).expect("attack").1
}

#[test]
fn an_electric_stun_lasts_to_the_end_of_the_attackers_next_turn() {
    // Energy Damage, Electric: 2+ degrees stun until the end of the attacker's next turn. 30
    // electric at drive 30 is above Ward's 16-28: 30 damage, injury factor 10: 3 degrees.
    let mut enc = fight();
    let report = attack_ok(
        &mut enc,
        json!({"attacker_id": "Raider", "target_id": "Ward", "defense": {"defense": "roll", "tn": 14},
            "attack": {"weapons": [{"name": "Arc gun", "delivery": "ranged", "energy": {"type": "electric", "damage": 30}}],
            "injury_type": "Torso"}}),
        &[20],
    );
    assert_eq!(report.standings[0].damage_taken, 30);
    assert_eq!(state(&enc, "Ward").injuries[0].degrees, 3);
    assert_eq!(effect_names(&enc), vec!["stunned"]);
    // Raider's turn ends (its current turn does not count), Ward's turn passes, round 2: Raider's
    // next turn ends: the stun expires exactly then.
    advance(&mut enc, Advance::NextTurn).expect("Ward");
    assert_eq!(effect_names(&enc), vec!["stunned"]);
    advance(&mut enc, Advance::NextTurn).expect("round 2, Raider");
    assert_eq!(effect_names(&enc), vec!["stunned"]);
    advance(&mut enc, Advance::NextTurn).expect("Ward");
    assert!(effect_names(&enc).is_empty());
}

#[test]
fn a_melee_hit_is_answered_by_the_targets_aura_and_both_hits_land() {
    // Damage Auras: Ward stores 35 electric; Raider's axe hits (17 at drive 20 within 16-28: 8);
    // Ward discharges 20: 20 electric at drive 20 on unarmoured Raider: 2 degrees of Core injury,
    // stunned until the end of Raider's (the provoker's) next turn. 15 stay stored.
    let mut enc = fight();
    advance(&mut enc, Advance::NextTurn).expect("Ward's turn");
    act_ok(&mut enc, json!({"action": "charge_aura", "combatant_id": "Ward", "aura": "Storm", "kind": {"kind": "energy", "energy": "electric"}, "amount": 35}));
    advance(&mut enc, Advance::NextTurn).expect("round 2, Raider");
    let report = attack_ok(
        &mut enc,
        json!({"attacker_id": "Raider", "target_id": "Ward", "defense": {"defense": "roll", "tn": 14},
            "attack": {"weapons": [{"name": "Axe", "delivery": "melee", "damage": 17, "drive": 20}], "injury_type": "Limb"},
            "aura_response": {"aura": "Storm", "amount": 20}}),
        &[20],
    );
    let Some(AuraOutcome::Struck(strike)) = &report.aura else { panic!("no strike: {:?}", report.aura) };
    assert_eq!((strike.amount, strike.stored_after, strike.hit.injury.degrees), (20, 15, 2));
    assert_eq!(strike.hit.injury.injury_type, "Core");
    assert_eq!(state(&enc, "Ward").damage_taken, 8);
    assert_eq!(state(&enc, "Raider").damage_taken, 20);
    let stun = enc.effects.iter().find(|e| e.name == "stunned").expect("stun");
    assert_eq!(stun.target, Some(id("Raider")));
    assert_eq!(stun.expiry, crate::encounter::Expiry::EndOfTurn { combatant_id: id("Raider"), remaining: 2 });
}

#[test]
fn a_critical_melee_hit_provokes_no_aura() {
    // Critical Hits / Damage Auras: roll 40 against TN 14 fails by 26: a critical (+10 drive:
    // 30 > 28, full 17); the aura is reported as not provoked and keeps its 30.
    let mut enc = fight();
    act_ok(&mut enc, json!({"action": "charge_aura", "combatant_id": "Ward", "aura": "Spikes", "kind": {"kind": "normal", "drive": 20}, "amount": 30}));
    let report = attack_ok(
        &mut enc,
        json!({"attacker_id": "Raider", "target_id": "Ward", "defense": {"defense": "roll", "tn": 14},
            "attack": {"weapons": [{"name": "Axe", "delivery": "melee", "damage": 17, "drive": 20}], "injury_type": "Limb"},
            "aura_response": {"aura": "Spikes"}}),
        &[40],
    );
    assert!(matches!(report.aura, Some(AuraOutcome::NotProvoked { .. })));
    assert!(matches!(report.outcome, Outcome::Hit { critical: Some(_), .. }));
    assert_eq!(report.standings[0].damage_taken, 17);
    assert_eq!(state(&enc, "Ward").auras[0].stored, 30);
}

#[test]
fn refusals_name_the_field_and_change_nothing() {
    let mut enc = fight();
    act_ok(&mut enc, json!({"action": "charge_aura", "combatant_id": "Ward", "aura": "Spikes", "kind": {"kind": "normal", "drive": 20}, "amount": 35}));
    let before = enc.clone();
    let request = |extra: Value| {
        let mut body = json!({"attacker_id": "Raider", "target_id": "Ward", "defense": {"defense": "roll", "tn": 14},
            "attack": {"weapons": [{"name": "Axe", "delivery": "melee", "damage": 17, "drive": 20}], "injury_type": "Limb"}});
        body.as_object_mut().expect("object").extend(extra.as_object().expect("object").clone());
        from::<EncounterAttack>(body)
    };
    let field = |result: Result<_, EncounterError>| match result {
        Err(EncounterError::Invalid { field, .. }) => field,
        other => panic!("{other:?}"),
    };
    let odd = attack(&mut enc, request(json!({"aura_response": {"aura": "Spikes", "amount": 25}})), &mut dice(&[20]));
    assert_eq!(field(odd.map(|_| ())), "aura_response.amount");
    let unknown = attack(&mut enc, request(json!({"aura_response": {"aura": "Nope"}})), &mut dice(&[20]));
    assert_eq!(field(unknown.map(|_| ())), "aura_response.aura");
    assert_eq!(enc, before);
    let shield_off_turn = act(
        &mut enc,
        from(json!({"action": "raise_shield", "combatant_id": "Ward", "shield": "Veil", "precision": "low", "points": 10})),
        &mut dice(&[]),
    );
    assert_eq!(field(shield_off_turn.map(|_| ())), "combatant_id");
    assert_eq!(enc, before);
}

#[test]
fn stored_shields_are_spent_and_a_high_shield_puts_out_a_fire() {
    // Energy Shielding: Ward raises a 50-point medium shield on its turn; a 40 heat ray is
    // negated, 10 points remain. Then heat 30 at drive 30 is above the range: 3 degrees, ignited;
    // a high-precision shield raised on Ward's next turn extinguishes it.
    let mut enc = fight();
    advance(&mut enc, Advance::NextTurn).expect("Ward's turn");
    act_ok(&mut enc, json!({"action": "raise_shield", "combatant_id": "Ward", "shield": "Veil", "precision": "medium", "points": 50}));
    advance(&mut enc, Advance::NextTurn).expect("round 2, Raider");
    let ray = |damage: u32| {
        json!({"attacker_id": "Raider", "target_id": "Ward", "defense": {"defense": "roll", "tn": 14},
            "attack": {"weapons": [{"name": "Heat ray", "delivery": "ranged", "energy": {"type": "heat", "damage": damage}}],
            "injury_type": "Torso"}})
    };
    let report = attack_ok(&mut enc, ray(40), &[]);
    assert_eq!(report.outcome, Outcome::StoppedByShielding);
    assert_eq!(state(&enc, "Ward").shields[0].points, 10);
    act_ok(&mut enc, json!({"action": "drop_shield", "combatant_id": "Ward", "shield": "Veil"}));
    attack_ok(&mut enc, ray(30), &[20]);
    assert_eq!(effect_names(&enc), vec!["ignited"]);
    advance(&mut enc, Advance::NextTurn).expect("Ward's turn");
    let report = act_ok(&mut enc, json!({"action": "raise_shield", "combatant_id": "Ward", "shield": "Skin", "precision": "high", "points": 5}));
    let ActionReport::ShieldRaised { extinguished, .. } = report else { panic!() };
    assert_eq!(extinguished, vec!["Ward"]);
    assert!(effect_names(&enc).is_empty());
}

#[test]
fn called_damage_without_an_attacker_applies_the_gms_numbers() {
    // Damage, Drive, & Armor Ranges: "17, 20 drive" against 16-28: 8.
    let mut enc = fight();
    let request: EncounterDamage = from(json!({"target_id": "Ward", "attack": {"weapons": [{"name": "Axe",
        "delivery": "melee", "damage": 17, "drive": 20}], "injury_type": "Limb"}}));
    let (_, report) = damage(&mut enc, request, &mut dice(&[])).expect("damage");
    assert_eq!((report.attacker.as_str(), report.standings[0].damage_taken), ("the GM", 8));
}

#[test]
fn a_stunned_aura_holder_loses_its_auras_at_the_end_of_its_next_turn() {
    // Damage Auras: auras expire at the end of the owner's turn if it cannot act. Ward holds an
    // aura and is stunned (30 electric): at the end of Ward's turn the auras lapse.
    let mut enc = fight();
    act_ok(&mut enc, json!({"action": "charge_aura", "combatant_id": "Ward", "aura": "Spikes", "kind": {"kind": "normal", "drive": 20}, "amount": 30}));
    attack_ok(
        &mut enc,
        json!({"attacker_id": "Raider", "target_id": "Ward", "defense": {"defense": "roll", "tn": 14},
            "attack": {"weapons": [{"name": "Arc gun", "delivery": "ranged", "energy": {"type": "electric", "damage": 30}}],
            "injury_type": "Torso"}}),
        &[20],
    );
    assert_eq!(state(&enc, "Ward").auras.len(), 1);
    advance(&mut enc, Advance::NextTurn).expect("Ward's turn");
    advance(&mut enc, Advance::NextTurn).expect("end of Ward's turn, round ends");
    assert!(state(&enc, "Ward").auras.is_empty());
}
