//! adeva-d100 over HTTP: an attack on a stored encounter and its refusals.

use crate::helpers::{TestApp, spawn_app};
use serde_json::{Value, json};

fn adeva(ws: i64, bs: i64, ag: i64, wounds: i64, armour: i64) -> Value {
    json!({"ws": ws, "bs": bs, "s": 30, "t": 30, "ag": ag, "int": 30, "per": 30, "wp": 30, "fel": 30,
           "wounds": wounds, "armour": armour})
}

/// Ana (BS 40, 12 wounds) against a surprised Bo (TB 3, AP 2, 10 wounds); round 1, Ana's turn.
async fn ambush(app: &TestApp) -> (String, String, String) {
    let table = json!(["Stunned", "Bleeding", "Maimed", "Crippled", "Slain"]);
    let created = app
        .post_json(
            "/v1/encounters",
            &json!({"ruleset": "adeva-d100", "name": "Ambush",
            "options": {"lethal_damage_table": table}}),
        )
        .await;
    let encounter = created.body["id"].as_str().unwrap_or_default().to_owned();
    let ana = app.add_combatant(&encounter, "Ana", "hunters", adeva(40, 40, 30, 12, 0)).await;
    let bo_body = json!({"name": "Bo", "side": "prey", "stats": adeva(30, 30, 40, 10, 2), "surprised": true});
    let bo = app.post_json(&format!("/v1/encounters/{encounter}/combatants"), &bo_body).await;
    let bo = bo.body["combatant"]["id"].as_str().unwrap_or_default().to_owned();
    let fixed = json!([{"combatant_id": ana, "value": 10}, {"combatant_id": bo, "value": 8}]);
    app.roll_initiative(&encounter, json!({"combatant_ids": [], "fixed": fixed})).await;
    app.advance(&encounter, "next_turn").await;
    (encounter, ana, bo)
}

fn shot(ana: &str, bo: &str, rolls: Value) -> Value {
    json!({"attacker_id": ana, "target_id": bo,
           "action": {"action": "standard_attack", "weapon": {"name": "Gun", "class": "ranged"}},
           "damage": {"count": 1, "sides": 10, "bonus": 5}, "rolls": rolls})
}

#[tokio::test]
async fn a_surprised_target_is_hit_at_plus_30_and_loses_wounds_past_soak() {
    // adeva-d100.txt, Combat Structure step two and Attacking steps three to seven:
    // BS 40 + 10 (Standard Attack) + 30 (surprised) = 80; d100 45 passes with 1 + (80−45)/10 = 4 DoS.
    // Damage 1d10 + 5: the die shows 3, the DoS 4 replaces it → 4 + 5 = 9; soak TB 3 + AP 2 = 5
    // → 4 wounds: 10 → 6.
    let app = spawn_app().await;
    let (encounter, ana, bo) = ambush(&app).await;

    let reply =
        app.post_json(&format!("/v1/encounters/{encounter}/attacks"), &shot(&ana, &bo, json!([45, 3]))).await;

    assert_eq!(reply.status, 200, "{}", reply.body);
    let result = &reply.body["result"];
    assert_eq!(result["attack_test"]["test"]["target"], json!(80));
    let target = &result["targets"][0];
    assert_eq!((target["wounds_before"].clone(), target["wounds_after"].clone()), (json!(10), json!(6)));
    let dice: Vec<Value> =
        reply.body["dice"].as_array().unwrap().iter().map(|d| d["value"].clone()).collect();
    assert_eq!(dice, [json!(45), json!(3)], "every die, in order");
    let bo_after = app.encounter(&encounter).await["combatants"][1]["stats"].clone();
    assert_eq!(bo_after["wounds_taken"], json!(4), "stored");
}

#[tokio::test]
async fn a_second_attack_in_a_turn_and_a_surprised_dodge_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let (encounter, ana, bo) = ambush(&app).await;
    let path = format!("/v1/encounters/{encounter}/attacks");

    let mut dodge = shot(&ana, &bo, json!([45, 3]));
    dodge["evasion"] = json!("dodge");
    let before = app.snapshot(&encounter).await;
    let refused = app.post_json(&path, &dodge).await;
    assert_eq!((refused.status, &refused.body["field"]), (422, &json!("evasion")), "{}", refused.body);
    assert_eq!(app.snapshot(&encounter).await, before, "a refused dodge stores nothing");

    assert_eq!(app.post_json(&path, &shot(&ana, &bo, json!([45, 3]))).await.status, 200);
    let before = app.snapshot(&encounter).await;
    let second = app.post_json(&path, &shot(&ana, &bo, json!([45, 3]))).await;
    assert_eq!((second.status, &second.body["field"]), (422, &json!("action")), "{}", second.body);
    assert_eq!(app.snapshot(&encounter).await, before, "a refused second attack stores nothing");
}
