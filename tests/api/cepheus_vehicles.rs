//! A Cepheus Engine vehicle over HTTP (issue 28): a van recorded with Hull 2 and Structure 1, its
//! pilot and a passenger aboard, driven through Hull into Structure and destroyed, its explosion
//! landing on both occupants, then refused as scrap; and the stateless twin answering with the
//! same report. Numbers worked by hand from shared/rules/cepheus-engine.txt, "Vehicle Damage".

use crate::cepheus_fight::combatant;
use crate::helpers::{TestApp, spawn_app};
use serde_json::{Value, json};

fn character(str: i64, dex: i64, end: i64) -> Value {
    json!({"str": str, "dex": dex, "end": end, "int": 7, "edu": 7, "soc": 7})
}

async fn damage(app: &TestApp, encounter: &str, body: Value, case: &str) -> Value {
    app.post_json(&format!("/v1/encounters/{encounter}/cepheus-engine/damage"), &body)
        .await
        .expect_status(200, case)
        .body
}

fn codes(tracked: &Value) -> Vec<(String, i64)> {
    let mut all = Vec::new();
    for hit in tracked["hits"].as_array().unwrap_or_else(|| panic!("hits in {tracked}")) {
        for step in hit["steps"].as_array().unwrap_or_else(|| panic!("steps in {hit}")) {
            all.push((
                step["code"].as_str().unwrap_or_default().to_owned(),
                step["value"].as_i64().unwrap_or(i64::MIN),
            ));
        }
    }
    all
}

fn steps(list: &[(&str, i64)]) -> Vec<(String, i64)> {
    list.iter().map(|(code, value)| ((*code).to_owned(), *value)).collect()
}

#[tokio::test]
async fn a_vehicle_goes_through_hull_into_structure_and_explodes_on_its_occupants() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Van ambush").await;
    let bo = app.add_combatant(&encounter, "Bo", "crew", character(7, 7, 7)).await;
    let mut armoured = character(7, 7, 7);
    armoured["armour"] = json!(4);
    let cy = app.add_combatant(&encounter, "Cy", "crew", armoured).await;
    let mut van_stats = character(7, 7, 7);
    van_stats["armour"] = json!(2);
    van_stats["vehicle"] =
        json!({"hull": 2, "structure": 1, "closed": true, "pilot_id": bo, "passenger_ids": [cy]});
    let van = app.add_combatant(&encounter, "Van", "crew", van_stats).await;

    // 10 − armour 2 = 8 → Double Hit (7–9); 1 + 1 = 2 on the External column (Hull left): Hull.
    // Two hits: Hull 2 → 1 → 0.
    let first = damage(
        &app,
        &encounter,
        json!({"target_id": van, "damage": 10, "apply_armour": true, "rolls": [1, 1]}),
        "Hull hits",
    )
    .await;
    let tracked = &first["result"]["tracked_vehicle"];
    assert_eq!(codes(tracked), steps(&[("hull", 1), ("hull", 0)]));
    assert_eq!((&tracked["hull_left"], &tracked["structure_left"]), (&json!(0), &json!(1)));
    assert_eq!(
        first["summary"],
        json!("Van takes 10 damage (8 after armour 2): 8 damage, 2 vehicle hits: Hull 0, Structure 1")
    );

    // With no Hull the next Hit is looked up on the Internal column. 8 (no armour sent) → Double;
    // 4 + 4 = 8, Structure: 1 → 0 (scrap), then −1 in the same attack: it explodes. 4D6 = 1 + 2 +
    // 3 + 4 = 10 on each occupant: Bo (no armour) END 7 → 0 and 3 on STR; Cy (armour 4) takes 6,
    // END 7 → 1. 2D6 = 5 + 6 = 11 within 12 m, reported.
    let second = damage(
        &app,
        &encounter,
        json!({"target_id": van, "damage": 8, "rolls": [4, 4, 1, 2, 3, 4, 5, 6]}),
        "Structure hits",
    )
    .await;
    let tracked = &second["result"]["tracked_vehicle"];
    assert_eq!(
        codes(tracked),
        steps(&[("structure", 0), ("destroyed", 0), ("structure", -1), ("explodes", -1)])
    );
    let explosion = &tracked["explosion"];
    assert_eq!((&explosion["damage_within_6_m"], &explosion["damage_within_12_m"]), (&json!(10), &json!(11)));
    assert_eq!(explosion["occupants"][1]["armour"], json!(4));
    let purposes: Vec<&str> = second["dice"]
        .as_array()
        .map(|dice| dice.iter().filter_map(|die| die["purpose"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(purposes[2], "vehicle explosion: 4D6 within 6 m");
    assert_eq!(purposes[7], "vehicle explosion: 2D6 within 12 m");
    let stored = app.encounter(&encounter).await;
    let van_after = combatant(&stored, &van);
    assert_eq!(van_after["stats"]["vehicle"]["damage"]["structure_lost"], json!(2));
    assert_eq!(van_after["stats"]["vehicle"]["damage"]["exploded"], json!(true));
    assert_eq!(van_after["defeated"], json!(true));
    assert_eq!(combatant(&stored, &bo)["stats"]["damage"], json!({"str": 3, "dex": 0, "end": 7}));
    assert_eq!(combatant(&stored, &cy)["stats"]["damage"], json!({"str": 0, "dex": 0, "end": 6}));

    // Scrap takes no more hits: 409 on target_id, and nothing is stored.
    let before = app.snapshot(&encounter).await;
    let reply = app
        .post_json(
            &format!("/v1/encounters/{encounter}/cepheus-engine/damage"),
            &json!({"target_id": van, "damage": 3, "rolls": [1, 1]}),
        )
        .await;
    reply.assert_problem(409, Some("target_id"), "damage to a destroyed vehicle");
    assert_eq!(app.snapshot(&encounter).await, before, "a refused hit on scrap stores nothing");
}

#[tokio::test]
async fn the_stateless_twin_answers_with_the_same_report() {
    let app = spawn_app().await;
    let mut target = character(7, 7, 7);
    target["vehicle"] = json!({"hull": 2, "structure": 1, "damage": {"hull_lost": 2}});
    let reply = app
        .post_json(
            "/v1/rulesets/cepheus-engine/damage",
            &json!({"target": target, "damage": 3, "rolls": [3, 3]}),
        )
        .await
        .expect_status(200, "stateless vehicle damage");
    // 3 → Single; no Hull: 3 + 3 = 6 on the Internal column, Structure 1 → 0.
    let tracked = &reply.body["result"]["tracked_vehicle"];
    assert_eq!(codes(tracked), steps(&[("structure", 0), ("destroyed", 0)]));
    assert_eq!(tracked["vehicle_after"]["damage"]["destroyed"], json!(true));
}
