//! Vehicle actions, collisions, coming round, rest and healing; numbers worked by hand from
//! cepheus-engine.txt.

use super::super::character::Physical;
use super::super::damage::Status;
use super::test_support::*;
use super::*;
use crate::encounter::Encounter;
use crate::encounter::test_support::id;
use crate::score::Score;
use serde_json::{Value, json};

fn run(enc: &mut Encounter, body: Value, script: &[u32]) -> ActionReport {
    act(enc, json(body), &mut dice(script)).unwrap().1
}

fn refuse(enc: &mut Encounter, body: Value) -> String {
    let action: Action = json(body);
    refused(enc, |e| act(e, action, &mut dice(&[6, 6, 6, 6, 6, 6])))
}

fn hurt(enc: &mut Encounter, name: &str, str: i64, dex: i64, end: i64) {
    let damage = &mut stats_mut(enc, name).damage;
    damage.str = Score::new(str).unwrap();
    damage.dex = Score::new(dex).unwrap();
    damage.end = Score::new(end).unwrap();
}

fn damage(enc: &Encounter, name: &str) -> [i32; 3] {
    let stats = stats_of(enc, name);
    Physical::ALL.map(|physical| stats.damage.of(physical))
}

fn defeated(enc: &Encounter, name: &str) -> bool {
    enc.combatant(&id(name)).unwrap().flags.defeated
}

/// Fight with Ana as a driver (Drive 2, DEX +1 → +3) and a medic (Medicine 2, EDU 7 → +2).
fn driving() -> Encounter {
    let mut enc = fight();
    stats_mut(&mut enc, "Ana").skills = stats(7, 7, 7, &[("drive", 2), ("medicine", 2)]).skills;
    enc
}

#[test]
fn a_collision_hurts_the_struck_and_the_passengers() {
    // 35 kph → 4D6: 3 + 5 + 2 + 6 = 16. Cy struck: END 7 → 0, then the higher of STR 7 / DEX 4
    // takes 7, DEX 2 → two at zero: unconscious. Bo unsecured, armour 4: 12 → END 7, STR 5;
    // thrown 12 m. Ana secured: 16 / 4 = 4 → END 4.
    let mut enc = driving();
    stats_mut(&mut enc, "Bo").armour = Score::new(4).unwrap();
    let report = run(
        &mut enc,
        json!({"action": "collision", "combatant_id": "Ana", "speed_kph": 35.0,
               "target_ids": ["Cy"], "unsecured_ids": ["Bo"], "secured_ids": ["Ana"]}),
        &[3, 5, 2, 6],
    );
    assert_eq!(report.collision.as_ref().unwrap().damage, 16);
    assert_eq!(report.hits.len(), 3);
    assert_eq!(damage(&enc, "Cy"), [7, 2, 7]);
    assert!(defeated(&enc, "Cy"));
    assert_eq!(damage(&enc, "Bo"), [5, 0, 7]);
    assert_eq!(damage(&enc, "Ana"), [0, 0, 4]);
    assert!(report.notes.iter().any(|note| note.contains("thrown 12 m")));
    assert_eq!(report.cost, economy::Cost::Free);
}

#[test]
fn collision_requests_are_checked() {
    let mut enc = driving();
    let base = |extra: Value| {
        let mut body = json!({"action": "collision", "combatant_id": "Ana", "speed_kph": 30.0});
        for (key, value) in extra.as_object().unwrap() {
            body[key] = value.clone();
        }
        body
    };
    assert!(serde_json::from_value::<Action>(base(json!({"speed_kph": -1.0}))).is_err());
    assert_eq!(refuse(&mut enc, base(json!({"target_ids": ["Zed"]}))), "target_ids[0]");
    assert_eq!(
        refuse(&mut enc, base(json!({"target_ids": ["Bo"], "secured_ids": ["Bo"]}))),
        "secured_ids[0]"
    );
}

#[test]
fn evasive_action_penalises_attacks_until_the_drivers_next_turn() {
    // Drive 2 + DEX 1 = +3; 5 + 4 = 9 + 3 = 12 → Effect 4.
    let mut enc = driving();
    let report =
        run(&mut enc, json!({"action": "evasive_action", "combatant_id": "Ana", "skill": "drive"}), &[5, 4]);
    assert_eq!(report.check.unwrap().roll.effect, 4);
    assert_eq!(report.economy.unwrap().significant, 1);
    next_turn(&mut enc);
    // Bo shoots at Ana, who rides in her own vehicle: −4 "evasive action".
    let request: EncounterAttack = json(json!({
        "attacker_id": "Bo", "target_id": "Ana", "vehicle_driver_id": "Ana",
        "weapon": {"weapon_type": "pistol", "damage_dice": 1}, "range_band": "short"
    }));
    let (_, attack_report) = attack(&mut enc, request, &mut dice(&[1, 1, 1])).unwrap();
    assert!(attack_report.outcome.modifiers.iter().any(|m| m.reason == "evasive action" && m.dm == -4));
    assert_eq!(vehicle_actions::evasive_dm(&enc, &id("Ana"), "x").unwrap(), 4);
    // Round 2, Ana's turn: it has ended.
    next_turn(&mut enc);
    next_turn(&mut enc);
    assert_eq!(enc.current, Some(id("Ana")));
    assert_eq!(vehicle_actions::evasive_dm(&enc, &id("Ana"), "x").unwrap(), 0);
}

#[test]
fn a_ram_hits_the_target_and_a_solid_one_hits_back() {
    // Check 4 + 3 + 3 = 10: success. 20 kph → 2D6: 4 + 3 = 7. Bo END 7 → 0. Solid: Cy secured
    // takes 7 / 4 → 2.
    let mut enc = driving();
    let report = run(
        &mut enc,
        json!({"action": "ram", "combatant_id": "Ana", "skill": "drive", "target_id": "Bo",
               "speed_kph": 20.0, "target_solid": true, "secured_ids": ["Cy"]}),
        &[4, 3, 4, 3],
    );
    assert_eq!(report.collision.unwrap().damage, 7);
    assert_eq!(damage(&enc, "Bo"), [0, 0, 7]);
    assert_eq!(damage(&enc, "Cy"), [0, 0, 2]);
    // A miss: 1 + 1 + 3 − 2 (dm) = 3, nothing hit.
    let mut enc = driving();
    let report = run(
        &mut enc,
        json!({"action": "ram", "combatant_id": "Ana", "skill": "drive", "target_id": "Bo",
               "speed_kph": 20.0, "dm": -2}),
        &[1, 1],
    );
    assert!(report.hits.is_empty() && report.collision.is_none());
    let mut enc = driving();
    let body = json!({"action": "ram", "combatant_id": "Ana", "skill": "drive", "target_id": "Ana", "speed_kph": 20.0});
    assert_eq!(refuse(&mut enc, body), "target_id");
}

#[test]
fn weaving_stunts_and_driving() {
    let mut enc = driving();
    // 50 kph → at most 3.
    let body = json!({"action": "weave", "combatant_id": "Ana", "skill": "drive", "weaving_number": 4, "speed_kph": 50.0});
    assert_eq!(refuse(&mut enc, body), "weaving_number");
    // +3 − 3 = 0; 3 + 4 = 7: crash.
    let report = run(
        &mut enc,
        json!({"action": "weave", "combatant_id": "Ana", "skill": "drive", "weaving_number": 3, "speed_kph": 50.0}),
        &[3, 4],
    );
    assert!(report.description.contains("crashes"));
    assert_eq!(report.weaving_number, Some(3));
    // Stunt: +3 − 2 = +1; 4 + 4 + 1 = 9 → Effect 1.
    let mut enc = driving();
    let report =
        run(&mut enc, json!({"action": "stunt", "combatant_id": "Ana", "skill": "drive", "dm": -2}), &[4, 4]);
    assert!(report.check.unwrap().roll.success);
    // Drive: minor, then a demanding (significant) one; a second significant is refused.
    let mut enc = driving();
    let report = run(&mut enc, json!({"action": "drive", "combatant_id": "Ana"}), &[]);
    assert_eq!((report.cost, report.economy.unwrap().minor), (economy::Cost::Minor, 1));
    let report = run(&mut enc, json!({"action": "drive", "combatant_id": "Ana", "demanding": true}), &[]);
    assert_eq!(report.cost, economy::Cost::Significant);
    assert_eq!(
        refuse(&mut enc, json!({"action": "drive", "combatant_id": "Ana", "demanding": true})),
        "action"
    );
    assert_eq!(refuse(&mut enc, json!({"action": "drive", "combatant_id": "Bo"})), "combatant_id");
}

#[test]
fn coming_round_after_fatigue() {
    let mut enc = driving();
    stats_mut(&mut enc, "Bo").fatigued = true;
    stats_mut(&mut enc, "Bo").knocked_out = true;
    enc.combatant_mut(&id("Bo")).unwrap().flags.defeated = true;
    // END DM 0 + 2 failed − 2 fatigued = 0: 4 + 3 = 7 fails.
    let report = run(
        &mut enc,
        json!({"action": "regain_consciousness", "combatant_id": "Bo", "failed_checks": 2}),
        &[4, 3],
    );
    assert!(!report.check.unwrap().roll.success);
    assert!(stats_of(&enc, "Bo").knocked_out);
    // The engine now counts: 2 before + this one = 3 (issue 28: this test used to send 2 again).
    assert_eq!(state(&enc, "Bo").wake_checks_failed, Some(3));
    assert_eq!(
        refuse(&mut enc, json!({"action": "regain_consciousness", "combatant_id": "Bo", "failed_checks": 2})),
        "failed_checks"
    );
    // END DM 0 + 3 failed − 2 fatigued = +1: 5 + 3 + 1 = 9: awake, back in the fight, still fatigued.
    let report = run(&mut enc, json!({"action": "regain_consciousness", "combatant_id": "Bo"}), &[5, 3]);
    assert_eq!(report.check.unwrap().roll.total, 9);
    assert_eq!(state(&enc, "Bo").wake_checks_failed, None);
    assert!(!stats_of(&enc, "Bo").knocked_out && !defeated(&enc, "Bo"));
    assert_eq!(
        refuse(&mut enc, json!({"action": "regain_consciousness", "combatant_id": "Bo"})),
        "combatant_id"
    );
    // Unconscious from damage: refused.
    hurt(&mut enc, "Cy", 7, 0, 7);
    assert_eq!(
        refuse(&mut enc, json!({"action": "regain_consciousness", "combatant_id": "Cy"})),
        "combatant_id"
    );
    // Rest: END 7 → 3 hours.
    let report = run(&mut enc, json!({"action": "rest", "combatant_id": "Bo"}), &[]);
    assert_eq!(report.rest_hours, Some(3));
    assert!(!stats_of(&enc, "Bo").fatigued);
    assert_eq!(refuse(&mut enc, json!({"action": "rest", "combatant_id": "Bo"})), "combatant_id");
}

#[test]
fn natural_healing_day_by_day() {
    // Bo damage STR 3, END 5: END 2 → DM −2. Day 1: 6 − 2 = 4 → END 5 → 1 (END 6, DM 0).
    // Day 2: 3 + 0 = 3 → END 1 → 0, then the lower of STR 4 / DEX 7: STR 3 → 1.
    let mut enc = driving();
    hurt(&mut enc, "Bo", 3, 0, 5);
    let report = run(
        &mut enc,
        json!({"action": "heal", "combatant_id": "Bo", "method": "natural_rest", "days": 2}),
        &[6, 3],
    );
    assert_eq!(damage(&enc, "Bo"), [1, 0, 0]);
    let healing = report.healing.unwrap();
    assert_eq!((healing.restored.end, healing.restored.str, healing.lost), (5, 2, 0));
    // Seriously wounded Cy (1/1/6, END 1 → DM −2): resting loses 2, END 1 → 0 then STR.
    hurt(&mut enc, "Cy", 1, 1, 6);
    let report =
        run(&mut enc, json!({"action": "heal", "combatant_id": "Cy", "method": "natural_rest"}), &[]);
    assert_eq!(report.healing.unwrap().lost, 2);
    assert_eq!(damage(&enc, "Cy"), [2, 1, 7]);
    // Active: END 3 → DM −1: 1 − 1 = 0.
    hurt(&mut enc, "Bo", 0, 0, 4);
    run(&mut enc, json!({"action": "heal", "combatant_id": "Bo", "method": "natural_active"}), &[]);
    assert_eq!(damage(&enc, "Bo"), [0, 0, 4]);
}

#[test]
fn first_aid_surgery_and_medical_care() {
    // Ana: Medicine 2 + EDU 0 = +2; 5 + 4 + 2 = 11 → Effect 3 → 6 points: split STR 2 first,
    // then END 4.
    let mut enc = driving();
    hurt(&mut enc, "Bo", 3, 0, 7);
    let body = json!({"action": "heal", "combatant_id": "Bo", "method": "first_aid", "medic_id": "Ana", "split": {"str": 2}});
    run(&mut enc, body, &[5, 4]);
    assert_eq!(damage(&enc, "Bo"), [1, 0, 3]);
    // Late: Effect 3 → 3 points to END.
    let body = json!({"action": "heal", "combatant_id": "Bo", "method": "first_aid_late", "medic_id": "Ana"});
    run(&mut enc, body, &[5, 4]);
    assert_eq!(damage(&enc, "Bo"), [1, 0, 0]);
    // Self-treatment, unskilled: −3 − 2 = −5; 6 + 6 − 5 = 7 fails.
    let report =
        run(&mut enc, json!({"action": "heal", "combatant_id": "Bo", "method": "first_aid"}), &[6, 6]);
    assert!(!report.check.unwrap().roll.success);
    assert_eq!(damage(&enc, "Bo"), [1, 0, 0]);
    // Surgery on seriously wounded Cy (1/1/6): it "requires a hospital or sickbay" (issue 28:
    // this test used to operate anywhere), refused without one.
    hurt(&mut enc, "Cy", 1, 1, 6);
    let body = json!({"action": "heal", "combatant_id": "Cy", "method": "surgery", "medic_id": "Ana"});
    assert_eq!(refuse(&mut enc, body), "facility");
    // In the sickbay: 2 + 3 + 2 = 7 → Effect −1: END loses 1.
    let body = json!({"action": "heal", "combatant_id": "Cy", "method": "surgery", "medic_id": "Ana",
                      "facility": "sickbay"});
    let report = run(&mut enc, body, &[2, 3]);
    assert_eq!(report.healing.unwrap().lost, 1);
    assert_eq!(damage(&enc, "Cy"), [1, 1, 7]);
    // Medical care for Bo (STR 3, END 4 taken; END 3 → DM −1): 2 − 1 + 2 = 3 → END, STR, END.
    hurt(&mut enc, "Bo", 3, 0, 4);
    let body = json!({"action": "heal", "combatant_id": "Bo", "method": "medical_care", "medic_id": "Ana"});
    assert_eq!(refuse(&mut enc, body), "facility");
    let body = json!({"action": "heal", "combatant_id": "Bo", "method": "medical_care", "medic_id": "Ana",
                      "facility": "hospital"});
    run(&mut enc, body, &[]);
    assert_eq!(damage(&enc, "Bo"), [2, 0, 2]);
}

#[test]
fn healing_wakes_the_unconscious_and_refuses_bad_requests() {
    // Cy 7/0/7 taken: unconscious. Ana: 6 + 6 + 2 = 14 → Effect 6 → 12: END 7, then STR 5.
    let mut enc = driving();
    hurt(&mut enc, "Cy", 7, 0, 7);
    enc.combatant_mut(&id("Cy")).unwrap().flags.defeated = true;
    let body = json!({"action": "heal", "combatant_id": "Cy", "method": "first_aid", "medic_id": "Ana"});
    let report = run(&mut enc, body, &[6, 6]);
    assert_eq!(damage(&enc, "Cy"), [2, 0, 0]);
    assert_eq!(report.healing.unwrap().status_after, Status::Wounded);
    assert!(!defeated(&enc, "Cy"));
    let heal = |extra: Value| {
        let mut body = json!({"action": "heal", "combatant_id": "Bo", "method": "first_aid"});
        for (key, value) in extra.as_object().unwrap() {
            body[key] = value.clone();
        }
        body
    };
    assert_eq!(refuse(&mut enc, heal(json!({}))), "combatant_id");
    hurt(&mut enc, "Bo", 1, 0, 2);
    assert_eq!(refuse(&mut enc, heal(json!({"days": 2}))), "days");
    assert!(serde_json::from_value::<Action>(heal(json!({"method": "natural_rest", "days": 0}))).is_err());
    assert_eq!(refuse(&mut enc, heal(json!({"method": "natural_rest", "medic_id": "Ana"}))), "medic_id");
    assert_eq!(refuse(&mut enc, heal(json!({"split": {"str": 2}}))), "split.str");
    assert_eq!(refuse(&mut enc, heal(json!({"method": "medical_care"}))), "medic_id");
    assert_eq!(refuse(&mut enc, heal(json!({"method": "surgery"}))), "method");
    assert_eq!(refuse(&mut enc, heal(json!({"medic_id": "Ana", "medic_skill": 1}))), "medic_skill");
}

#[test]
fn the_checks_failed_to_come_round_are_counted_from_an_engine_knock_out() {
    // "Unconsciousness": each failed check gives +1 DM on the next. Fatigue on fatigue knocks Bo
    // out here, so the engine knows how many he has failed: 0, then 1 after a failure.
    let mut enc = driving();
    for _ in 0..2 {
        run(&mut enc, json!({"action": "fatigue", "combatant_id": "Bo"}), &[]);
    }
    assert_eq!(state(&enc, "Bo").wake_checks_failed, Some(0));
    assert_eq!(
        refuse(&mut enc, json!({"action": "regain_consciousness", "combatant_id": "Bo", "failed_checks": 1})),
        "failed_checks"
    );
    // END DM 0 − 2 fatigued: 4 + 4 − 2 = 6 < 8, fails.
    let report = run(&mut enc, json!({"action": "regain_consciousness", "combatant_id": "Bo"}), &[4, 4]);
    assert_eq!(report.check.unwrap().roll.total, 6);
    // +1 for the failed check (sent or not, the same number): 4 + 4 + 1 − 2 = 7, fails again.
    let report = run(
        &mut enc,
        json!({"action": "regain_consciousness", "combatant_id": "Bo", "failed_checks": 1}),
        &[4, 4],
    );
    assert_eq!(report.check.unwrap().roll.total, 7);
    assert_eq!(state(&enc, "Bo").wake_checks_failed, Some(2));
}
