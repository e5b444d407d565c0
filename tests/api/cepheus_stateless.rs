//! The stateless Cepheus Engine twins: POST /v1/rulesets/cepheus-engine/attacks and /damage take
//! stat blocks inline, give the same numbers as the stored operations, and store nothing.

use crate::helpers::{TestApp, spawn_app, text};
use serde_json::{Value, json};

fn vasquez() -> Value {
    json!({"str": 8, "dex": 10, "end": 9, "int": 7, "edu": 7, "soc": 8, "skills": {"gun_combat": 2}})
}

fn rook() -> Value {
    json!({"str": 8, "dex": 9, "end": 7, "int": 6, "edu": 5, "soc": 4, "skills": {"gun_combat": 1}, "armour": 2})
}

/// The attack both twins make, with the dice fields `dice` (`rolls` or `seed`) merged in.
fn shot(dice: Value) -> Value {
    let mut body = json!({
        "weapon": {"weapon_type": "rifle", "damage_dice": 3},
        "distance_m": 20, "cover": "quarter", "reaction": "dodge", "overflow_to": "str"
    });
    for (key, value) in dice.as_object().unwrap_or_else(|| panic!("dice fields: {dice}")) {
        body[key] = value.clone();
    }
    body
}

/// An active encounter on Vasquez's turn (Vasquez 10, Rook 9); returns it and the two ids.
async fn stored(app: &TestApp) -> (String, String, String) {
    let encounter = app.create_encounter_id("cepheus-engine", "Twins").await;
    let v = app.add_combatant(&encounter, "Vasquez", "marines", vasquez()).await;
    let r = app.add_combatant(&encounter, "Rook", "raiders", rook()).await;
    let fixed = json!([{"combatant_id": v, "value": 10}, {"combatant_id": r, "value": 9}]);
    app.roll_initiative(&encounter, json!({"combatant_ids": [], "fixed": fixed})).await;
    app.advance(&encounter, "next_turn").await;
    (encounter, v, r)
}

async fn stored_attack(app: &TestApp, encounter: &str, attacker: &str, target: &str, dice: Value) -> Value {
    let mut body = shot(dice);
    body["attacker_id"] = json!(attacker);
    body["target_id"] = json!(target);
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/cepheus-engine/attacks"), &body).await;
    reply.expect_status(200, "stored attack").body
}

async fn inline_attack(app: &TestApp, dice: Value) -> Value {
    let mut body = shot(dice);
    body["attacker"] = vasquez();
    body["target"] = rook();
    let reply = app.post_json("/v1/rulesets/cepheus-engine/attacks", &body).await;
    reply.expect_status(200, "inline attack").body
}

async fn encounters_total(app: &TestApp) -> Value {
    app.get("/v1/encounters").await.expect_status(200, "list encounters").body["total"].clone()
}

/// The inline result must carry the stored attack's numbers exactly.
fn assert_twins(inline: &Value, stored: &Value) {
    assert_eq!(inline["dice"], stored["dice"], "the same dice with the same purposes");
    let (a, b) = (&inline["result"], &stored["result"]);
    for field in ["skill", "skill_level", "range_band", "reaction", "outcome"] {
        assert_eq!(a[field], b[field], "{field}");
    }
    // The same report shape: the hit, the stat block after it, the same names.
    for field in ["allocation", "stats_after", "defeated"] {
        assert_eq!(a["target_hit"][field], b["target_hit"][field], "target_hit.{field}");
    }
    assert_eq!((&a["attacker"], &a["target"]), (&json!("attacker"), &json!("target")));
    assert_eq!((&a["attacker_id"], &a["target_hit"]["combatant_id"]), (&Value::Null, &Value::Null));
}

#[tokio::test]
async fn an_inline_attack_gives_the_stored_attacks_numbers_and_stores_nothing() {
    let app = spawn_app().await;
    let (encounter, v, r) = stored(&app).await;
    // Gun Combat 2 (+2), DEX 10 (+1), Rifle at Medium: Average (+0), 1/4 cover (−0), Rook dodges
    // from cover (−2): DM +1. Dice 5 + 4 = 9 + 1 = 10: Effect 2. Damage 3D6 (6 + 2 + 3 = 11) + 2 =
    // 13, less armour 2 = 11: END 7 → 0, then 4 to STR (overflow_to) 8 → 4. Wounded.
    let rolls = json!({"rolls": [5, 4, 6, 2, 3]});
    let at_table = stored_attack(&app, &encounter, &v, &r, rolls.clone()).await;
    let total = encounters_total(&app).await;
    assert_eq!(total, json!(1));
    let before = app.snapshot(&encounter).await;

    let inline = inline_attack(&app, rolls).await;

    assert_twins(&inline, &at_table);
    let outcome = &inline["result"]["outcome"];
    assert_eq!(
        outcome["modifiers"],
        json!([
            {"code": "skill", "reason": "gun combat skill 2", "value": 2},
            {"code": "characteristic_dm", "reason": "DEX 10 (DM +1)", "value": 1},
            {"code": "range", "reason": "Rifle at Medium range: Average", "value": 0},
            {"code": "cover", "reason": "target in 1/4 cover", "value": 0},
            {"code": "dodge", "reason": "target dodges from cover", "value": -2}
        ])
    );
    assert_eq!(
        (&outcome["total_dm"], &outcome["roll_total"], &outcome["effect"], &outcome["hit"]),
        (&json!(1), &json!(10), &json!(2), &json!(true))
    );
    assert_eq!(
        (
            &inline["result"]["damage"]["before_armour"],
            &inline["result"]["damage"]["armour"],
            &inline["result"]["damage"]["after_armour"]
        ),
        (&json!(13), &json!(2), &json!(11))
    );
    assert_eq!(
        inline["result"]["target_hit"]["allocation"],
        json!({"damage": 11, "str": 4, "dex": 0, "end": 7, "excess": 0, "first_damage": true,
               "status_before": "uninjured", "status_after": "wounded"})
    );
    let mut hurt = rook();
    hurt["damage"] = json!({"str": 4, "dex": 0, "end": 7});
    assert_eq!(inline["result"]["target_hit"]["stats_after"], hurt);
    let notes: Vec<String> = inline["result"]["notes"].as_array().unwrap().iter().map(text).collect();
    assert!(notes.iter().any(|n| n.contains("yours to track")), "{notes:?}");
    assert!(inline.get("version").is_none() && inline.get("events").is_none(), "{inline}");
    assert!(inline["seed"].is_u64());
    assert_eq!(encounters_total(&app).await, total, "the inline attack stored nothing");
    assert_eq!(app.snapshot(&encounter).await, before, "nor touched the stored encounter");
}

#[tokio::test]
async fn the_same_seed_rolls_the_same_attack_stored_or_inline() {
    let app = spawn_app().await;
    let (encounter, v, r) = stored(&app).await;
    let seed = json!({"seed": 20_261_121});

    let at_table = stored_attack(&app, &encounter, &v, &r, seed.clone()).await;
    let inline = inline_attack(&app, seed.clone()).await;
    let again = inline_attack(&app, seed).await;

    assert_eq!((&at_table["seed"], &inline["seed"]), (&json!(20_261_121), &json!(20_261_121)));
    assert_twins(&inline, &at_table);
    assert_eq!(inline, again, "replayable by seed");
    assert_eq!(encounters_total(&app).await, json!(1));
}

#[tokio::test]
async fn inline_damage_returns_the_target_with_the_damage_applied() {
    let app = spawn_app().await;
    let target = json!({"str": 7, "dex": 8, "end": 6, "int": 7, "edu": 7, "soc": 7, "armour": 3});

    // 10 points less armour 3 = 7 (Effect 2 forces nothing): a first hit, so END 6 → 0 and the
    // last point to DEX (8, higher than STR 7) → 7. Wounded.
    let reply = app
        .post_json(
            "/v1/rulesets/cepheus-engine/damage",
            &json!({"target": target, "damage": 10, "apply_armour": true, "effect": 2}),
        )
        .await
        .expect_status(200, "inline damage");
    let result = &reply.body["result"];
    assert_eq!(
        (&result["damage"], &result["armour"], &result["after_armour"], &result["minimum_one_applied"]),
        (&json!(10), &json!(3), &json!(7), &json!(false))
    );
    assert_eq!(
        result["hit"]["allocation"],
        json!({"damage": 7, "str": 0, "dex": 1, "end": 6, "excess": 0, "first_damage": true,
               "status_before": "uninjured", "status_after": "wounded"})
    );
    let mut after = target.clone();
    after["damage"] = json!({"str": 0, "dex": 1, "end": 6});
    assert_eq!(result["hit"]["stats_after"], after);
    assert_eq!(
        reply.body["summary"],
        json!(
            "target takes 10 damage (7 after armour 3): 7 damage to DEX 8 → 7, END 6 → 0; target is wounded"
        )
    );
    assert_eq!(reply.body["dice"], json!([]));

    // Again on the hurt stat block: 2 points against armour 3 stop at 0, but Effect 6 always
    // forces 1 through; hurt before, it may go where the character likes: STR 7 → 6. All three
    // physical characteristics are now damaged: seriously wounded.
    let second = app
        .post_json(
            "/v1/rulesets/cepheus-engine/damage",
            &json!({"target": after, "damage": 2, "apply_armour": true, "effect": 6, "allocation": {"str": 1}}),
        )
        .await
        .expect_status(200, "inline damage on a hurt target");
    let result = &second.body["result"];
    assert_eq!((&result["after_armour"], &result["minimum_one_applied"]), (&json!(1), &json!(true)));
    assert_eq!(result["hit"]["stats_after"]["damage"], json!({"str": 1, "dex": 1, "end": 6}));
    assert_eq!(
        (&result["hit"]["allocation"]["status_before"], &result["hit"]["allocation"]["status_after"]),
        (&json!("wounded"), &json!("seriously_wounded"))
    );

    // A split onto END, already at 0, is refused by name.
    let refused = app
        .post_json(
            "/v1/rulesets/cepheus-engine/damage",
            &json!({"target": after, "damage": 2, "allocation": {"str": 1, "end": 1}}),
        )
        .await;
    refused.assert_problem(422, Some("allocation.end"), "inline split onto END at 0");
    assert_eq!(encounters_total(&app).await, json!(0));
}

#[tokio::test]
async fn inline_operations_of_an_unknown_ruleset_are_404_and_a_foreign_body_422() {
    let app = spawn_app().await;
    let body = json!({"attacker": vasquez(), "target": rook(), "weapon": {"weapon_type": "rifle", "damage_dice": 3},
                      "distance_m": 20, "rolls": [6, 6, 6, 6, 6]});

    for operation in ["attacks", "damage"] {
        let unknown = app.post_json(&format!("/v1/rulesets/traveller-5/{operation}"), &body).await;
        unknown.assert_problem(404, None, &format!("unknown ruleset, {operation}"));
        assert!(text(&unknown.body["detail"]).contains("traveller-5"), "{}", unknown.body);

        // arrgs has its own typed bodies: a Cepheus body is refused, naming the first stranger.
        let arrgs = app.post_json(&format!("/v1/rulesets/arrgs/{operation}"), &body).await;
        assert_eq!(arrgs.status, 422, "arrgs, {operation}: {}", arrgs.body);
    }
    assert_eq!(encounters_total(&app).await, json!(0));
}

#[tokio::test]
async fn each_die_is_listed_once_in_both_answers_and_the_log_keeps_the_reports_dice() {
    let app = spawn_app().await;
    let (encounter, v, r) = stored(&app).await;
    // Attack 5 + 4, damage 6 + 2 + 3 (as in the first test): five dice, each listed once.
    let rolls = json!({"rolls": [5, 4, 6, 2, 3]});
    let die = |value: u32, purpose: &str| json!({"sides": 6, "value": value, "purpose": purpose, "status": "kept", "source": "scripted"});
    let expected = json!([
        die(5, "attack roll"),
        die(4, "attack roll"),
        die(6, "damage: weapon"),
        die(2, "damage: weapon"),
        die(3, "damage: weapon")
    ]);

    let at_table = stored_attack(&app, &encounter, &v, &r, rolls.clone()).await;
    let inline = inline_attack(&app, rolls).await;

    for (answer, form) in [(&at_table, "stored"), (&inline, "inline")] {
        assert_eq!(answer["dice"], expected, "{form}: every die at the top level");
        assert_eq!(answer["result"].get("dice"), None, "{form}: not again inside the report");
    }
    let logged = app.logged(&encounter, &at_table).await;
    let resolved = logged.as_array().unwrap().iter().find(|e| e["kind"] == "attack_resolved").unwrap();
    assert_eq!(resolved["data"]["dice"], expected, "the log's entry carries the dice beside its report");
    assert_eq!(resolved["data"]["report"].get("dice"), None, "not again inside the logged report");
}
