//! Cepheus Engine operations refused over HTTP: each answers a 4xx problem naming the offending
//! field, and the encounter and its log are left exactly as they were.

use crate::helpers::{TestApp, spawn_app, text};
use serde_json::{Value, json};

/// An active cepheus-engine encounter in round 1 on Vasquez's turn: Rook 12 (already acted, now
/// prone), Vasquez 10, Hicks 8, Kell 6 (surprised). Returns the encounter and the four ids.
async fn fight(app: &TestApp) -> (String, [String; 4]) {
    let encounter = app.create_encounter_id("cepheus-engine", "Refusals").await;
    let rook = app
        .add_combatant(
            &encounter,
            "Rook",
            "raiders",
            json!({"str": 8, "dex": 9, "end": 7, "int": 6, "edu": 5, "soc": 4}),
        )
        .await;
    let vasquez = app
        .add_combatant(
            &encounter,
            "Vasquez",
            "marines",
            json!({"str": 8, "dex": 10, "end": 9, "int": 7, "edu": 7, "soc": 8, "skills": {"gun_combat": 2}}),
        )
        .await;
    let hicks = app
        .add_combatant(
            &encounter,
            "Hicks",
            "marines",
            json!({"str": 7, "dex": 7, "end": 8, "int": 8, "edu": 8, "soc": 9}),
        )
        .await;
    let kell = app
        .post_json(
            &format!("/v1/encounters/{encounter}/combatants"),
            &json!({"name": "Kell", "side": "raiders", "surprised": true,
                    "stats": {"str": 7, "dex": 6, "end": 6, "int": 6, "edu": 5, "soc": 4}}),
        )
        .await
        .expect_status(201, "add Kell")
        .body["combatant"]["id"]
        .clone();
    let kell = text(&kell);
    let fixed: Vec<Value> = [(&rook, 12), (&vasquez, 10), (&hicks, 8), (&kell, 6)]
        .iter()
        .map(|(id, value)| json!({"combatant_id": id, "value": value}))
        .collect();
    app.roll_initiative(&encounter, json!({"combatant_ids": [], "fixed": fixed})).await;
    assert_eq!(app.advance(&encounter, "next_turn").await["current_turn"]["name"], json!("Rook"));
    // Rook drops prone (a minor action on his turn), then his turn ends.
    let prone = app
        .post_json(
            &format!("/v1/encounters/{encounter}/cepheus-engine/actions"),
            &json!({"action": "change_stance", "combatant_id": rook, "stance": "prone"}),
        )
        .await
        .expect_status(200, "Rook goes prone");
    assert_eq!(prone.body["result"]["stance"], json!("prone"));
    assert_eq!(app.advance(&encounter, "next_turn").await["current_turn"]["name"], json!("Vasquez"));
    (encounter, [rook, vasquez, hicks, kell])
}

/// A rifle shot from `attacker` at `target` 20 m away (Medium), with `extra` fields merged in.
fn rifle(attacker: &str, target: &str, extra: Value) -> Value {
    let mut body = json!({
        "attacker_id": attacker, "target_id": target,
        "weapon": {"weapon_type": "rifle", "damage_dice": 1}, "distance_m": 20
    });
    for (key, value) in extra.as_object().unwrap_or_else(|| panic!("extra fields: {extra}")) {
        body[key] = value.clone();
    }
    body
}

/// Sends `body` to `operation`, expects the problem and checks nothing changed.
async fn refused(
    app: &TestApp,
    encounter: &str,
    operation: &str,
    body: Value,
    expect: (u16, &str),
    case: &str,
) {
    let before = app.snapshot(encounter).await;
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/cepheus-engine/{operation}"), &body).await;
    reply.assert_problem(expect.0, Some(expect.1), case);
    assert_eq!(app.snapshot(encounter).await, before, "{case}: nothing is stored");
}

#[tokio::test]
async fn bad_attacks_damage_and_actions_name_the_field_and_store_nothing() {
    let app = spawn_app().await;
    let (encounter, [rook, vasquez, hicks, kell]) = fight(&app).await;
    let (v, r, h, k) = (vasquez.as_str(), rook.as_str(), hicks.as_str(), kell.as_str());

    // Well-formed JSON the ruleset cannot read is 422, not 400 (`wire::ruleset_request`).
    let phaser = json!({"weapon": {"weapon_type": "phaser", "damage_dice": 2}});
    refused(
        &app,
        &encounter,
        "attacks",
        rifle(v, r, phaser),
        (422, "weapon.weapon_type"),
        "unknown weapon type",
    )
    .await;
    refused(
        &app,
        &encounter,
        "attacks",
        rifle(v, r, json!({"distance_m": -5})),
        (422, "distance_m"),
        "negative distance",
    )
    .await;
    let two_ranges = json!({"range_band": "short"});
    refused(&app, &encounter, "attacks", rifle(v, r, two_ranges), (422, "range_band"), "two range fields")
        .await;
    refused(&app, &encounter, "attacks", rifle(h, r, json!({})), (422, "attacker_id"), "Hicks out of turn")
        .await;
    refused(
        &app,
        &encounter,
        "attacks",
        rifle(v, "cmb_nobody", json!({})),
        (422, "target_id"),
        "unknown target",
    )
    .await;
    let dodge = json!({"reaction": "dodge", "rolls": [6, 6, 6]});
    refused(
        &app,
        &encounter,
        "attacks",
        rifle(v, r, dodge.clone()),
        (422, "reaction"),
        "prone Rook cannot dodge",
    )
    .await;
    refused(&app, &encounter, "attacks", rifle(v, k, dodge), (422, "reaction"), "surprised Kell in round 1")
        .await;
    // A scripted die that cannot be a d6 is only found when it is rolled, after Hicks's dodge has
    // been spent on the working copy: the dodge must not be kept.
    let bad_die = json!({"reaction": "dodge", "rolls": [7, 1]});
    refused(
        &app,
        &encounter,
        "attacks",
        rifle(v, h, bad_die),
        (422, "rolls[0]"),
        "a 7 on a d6 after a dodge",
    )
    .await;
    let parry = json!({"reaction": "parry", "rolls": [6, 6, 6]});
    refused(&app, &encounter, "attacks", rifle(v, h, parry), (422, "reaction"), "parrying a rifle shot")
        .await;

    // No split before a character's first damage: it goes to END first.
    let split = json!({"target_id": kell, "damage": 2, "allocation": {"str": 1, "end": 1}});
    refused(&app, &encounter, "damage", split, (422, "allocation"), "a split on the first damage").await;
    // 6 points take Kell's END 6 → 0.
    let first = app
        .post_json(
            &format!("/v1/encounters/{encounter}/cepheus-engine/damage"),
            &json!({"target_id": kell, "damage": 6}),
        )
        .await
        .expect_status(200, "Kell's first damage");
    assert_eq!(first.body["result"]["hit"]["allocation"]["end"], json!(6));
    assert_eq!(first.body["result"]["hit"]["stats_after"]["damage"], json!({"str": 0, "dex": 0, "end": 6}));
    // Now a split putting a point on END (already 0) is refused, on damage and on an attack's hit.
    let on_end = json!({"target_id": kell, "damage": 2, "allocation": {"str": 1, "end": 1}});
    refused(&app, &encounter, "damage", on_end, (422, "allocation.end"), "damage split onto END at 0").await;
    // The shot would hit: DM +2 (skill) + 1 (DEX 10) + 0 (Medium), dice 6 + 6 → 15, Effect 7;
    // 1D6 (1) + 7 = 8 points, split 1 STR + 1 END: refused on END.
    let hit_split = json!({"rolls": [6, 6, 1], "allocation": {"str": 1, "end": 1}});
    refused(
        &app,
        &encounter,
        "attacks",
        rifle(v, k, hit_split),
        (422, "allocation.end"),
        "attack split onto END at 0",
    )
    .await;
    let effect = json!({"target_id": kell, "damage": 2, "effect": 6});
    refused(&app, &encounter, "damage", effect, (422, "effect"), "effect without armour").await;

    // Vasquez's attack (his significant action) goes through; a second one, or a Leadership check,
    // in the same turn is refused. DM +3, dice 1 + 1 → 5: a miss.
    let first_shot = app
        .post_json(
            &format!("/v1/encounters/{encounter}/cepheus-engine/attacks"),
            &rifle(v, k, json!({"rolls": [1, 1]})),
        )
        .await
        .expect_status(200, "Vasquez's attack");
    assert_eq!(first_shot.body["result"]["outcome"]["hit"], json!(false));
    assert_eq!(first_shot.body["result"]["economy"]["significant"], json!(1));
    refused(
        &app,
        &encounter,
        "attacks",
        rifle(v, k, json!({"rolls": [1, 1]})),
        (422, "action"),
        "a second attack",
    )
    .await;
    let lead = json!({"action": "leadership", "combatant_id": vasquez, "target_id": hicks, "rolls": [6, 6]});
    refused(&app, &encounter, "actions", lead, (422, "action"), "Leadership after an attack").await;
    // One minor action is still allowed beside the significant one, but not two.
    let minor = json!({"action": "draw_or_reload", "combatant_id": vasquez});
    app.post_json(&format!("/v1/encounters/{encounter}/cepheus-engine/actions"), &minor)
        .await
        .expect_status(200, "reload");
    refused(&app, &encounter, "actions", minor, (422, "action"), "a second minor action").await;
    let log = app.events(&encounter).await;
    let kinds: Vec<&str> = log.iter().filter_map(|e| e["kind"].as_str()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "attack_resolved").count(), 1, "{kinds:?}");
    assert_eq!(kinds.iter().filter(|k| **k == "damage_applied").count(), 1, "{kinds:?}");
}

#[tokio::test]
async fn attacks_and_actions_wait_for_the_encounter_to_start_and_store_nothing() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Not yet").await;
    let a = app.add_combatant(&encounter, "A", "x", crate::helpers::cepheus(7)).await;
    let b = app.add_combatant(&encounter, "B", "y", crate::helpers::cepheus(7)).await;
    let before = app.snapshot(&encounter).await;

    let attack = app
        .post_json(&format!("/v1/encounters/{encounter}/cepheus-engine/attacks"), &rifle(&a, &b, json!({})))
        .await;
    attack.assert_problem(409, None, "an attack in setup");
    let hasten = json!({"action": "hasten", "combatant_id": a});
    let action = app.post_json(&format!("/v1/encounters/{encounter}/cepheus-engine/actions"), &hasten).await;
    action.assert_problem(409, None, "an action in setup");
    assert_eq!(app.snapshot(&encounter).await, before);

    // Damage may be applied during setup (a wound from before the fight): 3 points on B's END.
    let wound = app
        .post_json(
            &format!("/v1/encounters/{encounter}/cepheus-engine/damage"),
            &json!({"target_id": b, "damage": 3}),
        )
        .await
        .expect_status(200, "damage in setup");
    assert_eq!(wound.body["result"]["hit"]["stats_after"]["damage"], json!({"str": 0, "dex": 0, "end": 3}));
    assert_eq!(wound.body["events"][0]["kind"], json!("damage_applied"));
}

/// Issue 12, item 1: a DM of i32::MIN and a target movement of 1e308 used to pass the checks and
/// wrap the attack total to a hit with Effect 2147483459, stored and logged.
#[tokio::test]
async fn wrapping_dms_and_endless_target_movement_are_refused_and_store_nothing() {
    let app = spawn_app().await;
    let (encounter, [rook, vasquez, _, _]) = fight(&app).await;
    let (v, r) = (vasquez.as_str(), rook.as_str());
    let huge: Vec<Value> =
        (0..10).map(|_| json!({"reason": "bribe", "value": i64::from(i32::MIN)})).collect();
    let cases = [
        (
            json!({"extra_modifiers": [{"reason": "bribe", "value": i64::from(i32::MIN)}]}),
            "extra_modifiers[0].value",
        ),
        (json!({"extra_modifiers": huge}), "extra_modifiers[0].value"),
        (json!({"extra_modifiers": [{"reason": "x", "value": -21}]}), "extra_modifiers[0].value"),
        (json!({"target_movement_m": 1e308}), "target_movement_m"),
        (json!({"target_movement_m": 21_474_836_470_i64}), "target_movement_m"),
        (json!({"target_movement_m": 10_001}), "target_movement_m"),
        (json!({"distance_m": 1e308}), "distance_m"),
        (json!({"panic_fire_rounds": 4_294_967_295_i64}), "panic_fire_rounds"),
    ];
    for (extra, field) in cases {
        let case = format!("stored attack with {extra}");
        refused(&app, &encounter, "attacks", rifle(v, r, extra.clone()), (422, field), &case).await;
        let mut inline = rifle("", "", extra.clone());
        if let Some(body) = inline.as_object_mut() {
            body.retain(|key, _| !key.ends_with("_id"));
        }
        inline["attacker"] = json!({"str": 8, "dex": 10, "end": 9, "int": 7, "edu": 7, "soc": 8});
        inline["target"] = json!({"str": 8, "dex": 9, "end": 7, "int": 6, "edu": 5, "soc": 4});
        let reply = app.post_json("/v1/rulesets/cepheus-engine/attacks", &inline).await;
        reply.assert_problem(422, Some(field), &format!("inline attack with {extra}"));
    }
    // The largest movement the bounds allow is an ordinary penalty: 10,000 m is −1,000 DM, a miss.
    let far = app
        .post_json(
            &format!("/v1/encounters/{encounter}/cepheus-engine/attacks"),
            &rifle(v, r, json!({"target_movement_m": 10_000, "rolls": [6, 6]})),
        )
        .await
        .expect_status(200, "the fastest target allowed");
    let outcome = &far.body["result"]["outcome"];
    let codes: Vec<&str> =
        outcome["modifiers"].as_array().unwrap().iter().filter_map(|m| m["code"].as_str()).collect();
    assert_eq!(
        codes,
        ["skill", "characteristic_dm", "range", "target_stance", "target_movement"],
        "{outcome}"
    );
    // +2 (skill) + 1 (DEX 10) + 0 (Medium) − 2 (prone at Medium) − 1,000: −999, so 12 − 999 misses.
    assert_eq!((&outcome["hit"], &outcome["total_dm"]), (&json!(false), &json!(-999)));
}

/// Issue 12, item 5: `weapon.damage_bonus` and the damage command's `effect` accepted i32::MIN
/// although ±100 is documented.
#[tokio::test]
async fn damage_bonus_and_effect_beyond_a_hundred_are_refused_and_store_nothing() {
    let app = spawn_app().await;
    let (encounter, [rook, vasquez, _, kell]) = fight(&app).await;
    let (v, r) = (vasquez.as_str(), rook.as_str());
    for bonus in [i64::from(i32::MIN), -101, 101] {
        let weapon = json!({"weapon": {"weapon_type": "rifle", "damage_dice": 1, "damage_bonus": bonus}});
        refused(&app, &encounter, "attacks", rifle(v, r, weapon), (422, "weapon.damage_bonus"), "bonus")
            .await;
    }
    let dice = json!({"weapon": {"weapon_type": "rifle", "damage_dice": 51}});
    refused(&app, &encounter, "attacks", rifle(v, r, dice), (422, "weapon.damage_dice"), "51 dice").await;
    for effect in [i64::from(i32::MIN), -101, 101] {
        let body = json!({"target_id": kell, "damage": 2, "apply_armour": true, "effect": effect});
        refused(&app, &encounter, "damage", body, (422, "effect"), "effect out of range").await;
    }
    let body = json!({"target_id": kell, "damage": 10_001});
    refused(&app, &encounter, "damage", body, (422, "damage"), "damage above 10,000").await;
}

/// Issue 12, item 10: a damage total could reach a vehicle only through a staged attack.
#[tokio::test]
async fn damage_to_a_vehicle_gives_its_hits_and_their_locations() {
    let app = spawn_app().await;
    let (encounter, [_, _, _, kell]) = fight(&app).await;
    let before = app.snapshot(&encounter).await;
    // 8 points (no armour) are row 7–9 of the Vehicle Damage table: one Double. Its location roll
    // 3 + 4 = 7 on the External column is Armour.
    let reply = app
        .post_json(
            &format!("/v1/encounters/{encounter}/cepheus-engine/damage"),
            &json!({"target_id": kell, "damage": 8, "hit_location_table": "external", "rolls": [3, 4]}),
        )
        .await
        .expect_status(200, "damage to a vehicle");
    let result = &reply.body["result"];
    assert_eq!((&result["after_armour"], &result["hit"]), (&json!(8), &Value::Null));
    let hit = &result["vehicle"]["hits"][0];
    assert_eq!(
        (&hit["hit"], &hit["hits_on_location"], &hit["roll"], &hit["location"]),
        (&json!("double"), &json!(2), &json!(7), &json!("armour"))
    );
    assert_eq!(result["vehicle"]["hits"].as_array().map(Vec::len), Some(1));
    assert_eq!(reply.body["summary"], json!("Kell takes 8 damage: 1 vehicle hit(s)"));
    let after = app.snapshot(&encounter).await;
    assert_eq!(
        after.encounter["combatants"], before.encounter["combatants"],
        "a vehicle's hits are reported, not put on the characteristics"
    );
    // Nothing is allocated on a vehicle.
    let split =
        json!({"target_id": kell, "damage": 8, "hit_location_table": "external", "allocation": {"end": 1}});
    refused(&app, &encounter, "damage", split, (422, "allocation"), "a split on a vehicle").await;
}

/// Issue 12, item 11: fatigue, rest, comms and tactics on a dead combatant answered 200.
#[tokio::test]
async fn a_dead_combatant_takes_no_fatigue_rest_comms_or_tactics() {
    let app = spawn_app().await;
    let (encounter, [_, vasquez, _, kell]) = fight(&app).await;
    // STR 7 + DEX 6 + END 6 = 19 points: every physical characteristic at 0, Kell is dead.
    let killed = app
        .post_json(
            &format!("/v1/encounters/{encounter}/cepheus-engine/damage"),
            &json!({"target_id": kell, "damage": 19}),
        )
        .await
        .expect_status(200, "Kell dies");
    assert_eq!(killed.body["result"]["hit"]["allocation"]["status_after"], json!("dead"));
    for action in [
        json!({"action": "fatigue", "combatant_id": kell}),
        json!({"action": "rest", "combatant_id": kell}),
        json!({"action": "comms", "combatant_id": kell, "in_contact": false}),
        json!({"action": "tactics", "combatant_id": kell, "unit_ids": [kell]}),
        json!({"action": "free", "combatant_id": kell, "note": "last words"}),
    ] {
        let case = format!("{} on a dead combatant", action["action"]);
        // The ruleset's one rule for the dead (issue 30 item 6): 409, as for damage on the dead.
        refused(&app, &encounter, "actions", action, (409, "combatant_id"), &case).await;
    }
    let tactics = json!({"action": "tactics", "combatant_id": vasquez, "unit_ids": [kell], "rolls": [6, 6]});
    refused(&app, &encounter, "actions", tactics, (409, "unit_ids[0]"), "tactics for a dead unit member")
        .await;
}
