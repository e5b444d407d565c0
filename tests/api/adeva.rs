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

    let reply = app
        .post_json(
            &format!("/v1/encounters/{encounter}/adeva-d100/attacks"),
            &shot(&ana, &bo, json!([45, 3])),
        )
        .await;

    assert_eq!(reply.status, 200, "{}", reply.body);
    let result = &reply.body["result"];
    assert_eq!(result["attack_test"]["test"]["target"], json!(80));
    let target = &result["targets"][0];
    assert_eq!(
        (target["wounds"]["before"].clone(), target["wounds"]["after"].clone()),
        (json!(10), json!(6))
    );
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
    let path = format!("/v1/encounters/{encounter}/adeva-d100/attacks");

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

/// Issue 12, item 3: `-2147483648` passed the ±100 check (its `abs()` wraps) and, with another
/// −20, wrapped the total to the +60 cap, so a 90 hit. Now it is refused at the edge.
#[tokio::test]
async fn a_minimum_integer_modifier_is_refused_instead_of_wrapping_into_a_hit() {
    let app = spawn_app().await;
    let (encounter, ana, bo) = ambush(&app).await;
    let mut body = shot(&ana, &bo, json!([90, 3]));
    body["modifiers"] = json!([{"reason": "x", "value": -2147483648_i64}, {"reason": "fog", "value": -20}]);
    let before = app.snapshot(&encounter).await;
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/adeva-d100/attacks"), &body).await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert!(reply.body["field"].as_str().unwrap_or_default().contains("modifiers"), "{}", reply.body);
    assert_eq!(app.snapshot(&encounter).await, before, "nothing stored");
    body["modifiers"] = json!([{"reason": "x", "value": -101}]);
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/adeva-d100/attacks"), &body).await;
    assert_eq!(reply.status, 422, "{}", reply.body);
}

/// Issue 12, item 4: stat blocks took `wounds`, `armour`, `fate_points`, `fatigue` up to
/// 4294967295 and `size` up to 2147483647; the stateless twins then reported a soak of 2147483652.
#[tokio::test]
async fn stat_block_numbers_beyond_their_documented_bounds_are_refused() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("adeva-d100", "Bounds").await;
    let path = format!("/v1/encounters/{encounter}/combatants");
    for (field, value) in [
        ("wounds", json!(4294967295_u64)),
        ("wounds", json!(10001)),
        ("armour", json!(4294967295_u64)),
        ("armour", json!(101)),
        ("fate_points", json!(101)),
        ("fatigue", json!(1001)),
        ("size", json!(2147483647)),
        ("size", json!(21)),
    ] {
        let mut stats = adeva(30, 30, 30, 10, 0);
        stats[field] = value.clone();
        let reply = app.post_json(&path, &json!({"name": "X", "side": "a", "stats": stats})).await;
        assert_eq!(reply.status, 422, "{field} = {value}: {}", reply.body);
    }
    let mut target = adeva(30, 30, 30, 10, 0);
    target["armour"] = json!(4294967295_u64);
    let reply = app
        .post_json(
            "/v1/rulesets/adeva-d100/damage",
            &json!({"target": target, "amount": 9, "apply_soak": true}),
        )
        .await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    // At the bounds: soak TB 3 + AP 100 = 103 against 9 → nothing lost.
    target["armour"] = json!(100);
    let reply = app
        .post_json(
            "/v1/rulesets/adeva-d100/damage",
            &json!({"target": target, "amount": 9, "apply_soak": true}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["result"]["soak"]["value"], json!(103));
    assert_eq!(reply.body["result"]["wounds"]["lost"], json!(0));
}

/// Issue 12, item 4: a stored fatigue of 4294967295 plus a fatigue action of 2 levels became 1.
/// Now fatigue is held at 1,000 and never wraps.
#[tokio::test]
async fn fatigue_is_held_at_one_thousand_and_never_wraps() {
    let app = spawn_app().await;
    let (encounter, ana, _) = ambush(&app).await;
    let mut stats = adeva(40, 40, 30, 12, 0);
    stats["fatigue"] = json!(999);
    let patched = app
        .patch_json(&format!("/v1/encounters/{encounter}/combatants/{ana}"), &json!({"stats": stats}))
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    let body = json!({"action": "fatigue", "combatant_id": ana, "levels": 2});
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/adeva-d100/actions"), &body).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(app.encounter(&encounter).await["combatants"][0]["stats"]["fatigue"], json!(1000));
}

/// Issue 12, item 5: `damage.bonus = -2147483648` was accepted although ±100 is documented.
#[tokio::test]
async fn a_minimum_integer_damage_bonus_is_refused() {
    let app = spawn_app().await;
    let (encounter, ana, bo) = ambush(&app).await;
    let mut body = shot(&ana, &bo, json!([45, 3]));
    body["damage"]["bonus"] = json!(-2147483648_i64);
    let before = app.snapshot(&encounter).await;
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/adeva-d100/attacks"), &body).await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert_eq!(app.snapshot(&encounter).await, before);
}

/// Issue 12, item 9: the server trusted `half_move_squares`; an attacker whose Agility gives a
/// Charge of 9 charged 30 squares by claiming a Half Move of 10. The Half Move now comes from the
/// stat block (Ag 30 → AB 3 → Charge Move 9).
#[tokio::test]
async fn a_charge_takes_its_reach_from_the_stat_block_not_from_the_caller() {
    let app = spawn_app().await;
    let (encounter, ana, bo) = ambush(&app).await;
    let path = format!("/v1/encounters/{encounter}/adeva-d100/attacks");
    let charge = |distance: i64, extra: Option<i64>| {
        let mut action = json!({"action": "charge", "distance_squares": distance, "straight_line_squares": 4,
            "strike": {"kind": "attack", "weapon": {"name": "Sword", "class": "melee"}}});
        if let Some(half) = extra {
            action["half_move_squares"] = json!(half);
        }
        json!({"attacker_id": ana, "target_id": bo, "action": action,
               "damage": {"count": 1, "sides": 10}, "rolls": [90, 3]})
    };
    let before = app.snapshot(&encounter).await;
    let claimed = app.post_json(&path, &charge(30, Some(10))).await;
    assert_eq!(claimed.status, 422, "a claimed Half Move is not read: {}", claimed.body);
    let far = app.post_json(&path, &charge(30, None)).await;
    assert_eq!((far.status, &far.body["field"]), (422, &json!("action.distance_squares")), "{}", far.body);
    assert!(far.body["detail"].to_string().contains("3 × 3 = 9"), "{}", far.body);
    assert_eq!(app.snapshot(&encounter).await, before, "nothing stored");
    let near = app.post_json(&path, &charge(9, None)).await;
    assert_eq!(near.status, 200, "{}", near.body);
}

/// Issue 12, item 11: a dead combatant still took a characteristic decay (200). Now it is refused
/// like an attack on it: by the ruleset's one rule for the dead, 409 (issue 30 item 6; was 422).
#[tokio::test]
async fn a_dead_combatant_takes_no_decay_or_fatigue() {
    let app = spawn_app().await;
    let (encounter, _, bo) = ambush(&app).await;
    let killed = app
        .post_json(
            &format!("/v1/encounters/{encounter}/adeva-d100/damage"),
            &json!({"combatant_id": bo, "amount": 10}),
        )
        .await;
    assert_eq!(killed.status, 200, "{}", killed.body);
    assert_eq!(killed.body["result"]["wounds"]["dead"], json!(true));
    let path = format!("/v1/encounters/{encounter}/adeva-d100/actions");
    let before = app.snapshot(&encounter).await;
    let decay = json!({"action": "decay", "combatant_id": bo,
        "decay": {"characteristic": "ag", "amount": 5, "reason": "poison"}});
    let reply = app.post_json(&path, &decay).await;
    assert_eq!((reply.status, &reply.body["field"]), (409, &json!("combatant_id")), "{}", reply.body);
    let fatigue = json!({"action": "fatigue", "combatant_id": bo, "levels": 1});
    let reply = app.post_json(&path, &fatigue).await;
    assert_eq!((reply.status, &reply.body["field"]), (409, &json!("combatant_id")), "{}", reply.body);
    assert_eq!(app.snapshot(&encounter).await, before, "nothing stored");
}
