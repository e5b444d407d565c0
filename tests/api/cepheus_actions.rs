//! Cepheus Engine declared actions over HTTP: hastening and Leadership move Initiative, and the
//! order follows; both are undone when the round ends.

use crate::cepheus_fight::{combatant, expected_order, kinds, order};
use crate::helpers::{TestApp, spawn_app};
use serde_json::{Value, json};

async fn act(app: &TestApp, encounter: &str, body: Value) -> Value {
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/cepheus-engine/actions"), &body).await;
    reply.expect_status(200, "action").body
}

#[tokio::test]
async fn hastening_and_leadership_raise_initiative_for_the_round() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Orders").await;
    let vasquez = app
        .add_combatant(
            &encounter,
            "Vasquez",
            "marines",
            json!({"str": 8, "dex": 10, "end": 9, "int": 7, "edu": 7, "soc": 10,
                   "skills": {"gun_combat": 2, "leadership": 2}}),
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
    let rook = app
        .add_combatant(
            &encounter,
            "Rook",
            "raiders",
            json!({"str": 8, "dex": 9, "end": 7, "int": 6, "edu": 5, "soc": 4, "skills": {"gun_combat": 1}}),
        )
        .await;
    let fixed = json!([{"combatant_id": vasquez, "value": 10}, {"combatant_id": hicks, "value": 7},
                       {"combatant_id": rook, "value": 6}]);
    app.roll_initiative(&encounter, json!({"combatant_ids": [], "fixed": fixed})).await;
    // Round 1 stops at its start (issue 28: hasten is declared "at the start of each combat
    // round"; this test used to hasten during Vasquez's turn, which is now refused).
    app.advance(&encounter, "start_round").await;

    // Rook hastens: a free action, +2 Initiative this round (6 → 8), so he now goes before
    // Hicks (7); −1 DM on his checks this round.
    let hasten = act(&app, &encounter, json!({"action": "hasten", "combatant_id": rook})).await;
    assert_eq!(
        hasten["result"],
        json!({
            "combatant_id": rook, "name": "Rook", "action": "hasten", "cost": "free", "economy": null,
            "description": "Rook acts hastily: +2 Initiative and −1 DM on all checks this round",
            "target_id": null, "check": null, "aim": null, "stance": null, "grapple": null,
            "explosion": null, "hit": null, "fatigue": null, "extended": null, "boosted": [],
            "notes": []
        })
    );
    // Each die once: at the top level, not again in the report.
    assert_eq!(hasten["dice"], json!([]));
    assert_eq!(kinds(&hasten), ["action_taken", "initiative_changed"]);
    let changed = &app.logged(&encounter, &hasten).await[1]["data"];
    assert_eq!(
        (&changed["from"], &changed["to"], &changed["reason"]),
        (&json!(6), &json!(8), &json!("hastened"))
    );
    let now = app.encounter(&encounter).await;
    assert_eq!(order(&now), expected_order(&[("Vasquez", 10), ("Rook", 8), ("Hicks", 7)]));
    assert_eq!(combatant(&now, &rook)["state"]["has_hastened"], json!(true));

    // Only once per combat.
    let before = app.snapshot(&encounter).await;
    let twice = app
        .post_json(
            &format!("/v1/encounters/{encounter}/cepheus-engine/actions"),
            &json!({"action": "hasten", "combatant_id": rook}),
        )
        .await;
    twice.assert_problem(422, Some("action"), "hastening twice");
    assert_eq!(app.snapshot(&encounter).await, before);
    app.advance(&encounter, "next_turn").await; // Vasquez's turn

    // Vasquez's Leadership check on Hicks (a significant action): 2D6 + Leadership 2 + SOC 10 DM
    // (+1) = dice 5 + 4 = 9 + 3 = 12 ≥ 8, Effect 4. Hicks, who has not acted: 7 → 11, ahead of
    // Rook (8) for the rest of this round.
    let lead = act(
        &app,
        &encounter,
        json!({"action": "leadership", "combatant_id": vasquez, "target_id": hicks, "rolls": [5, 4]}),
    )
    .await;
    let result = &lead["result"];
    assert_eq!(
        (&result["action"], &result["cost"], &result["target_id"]),
        (&json!("leadership"), &json!("significant"), &json!(hicks))
    );
    assert_eq!(
        result["check"],
        json!({
            "purpose": "Leadership check",
            "modifiers": [{"code": "skill", "reason": "leadership 2", "value": 2}, {"code": "characteristic_dm", "reason": "SOC DM", "value": 1}],
            "roll": {"dice": [5, 4], "value": 3, "total": 12, "effect": 4, "success": true}
        })
    );
    assert_eq!(
        result["economy"],
        json!({"round": 1, "significant": 1, "minor": 0, "significant_lost": false})
    );
    assert_eq!(
        result["description"],
        json!("Vasquez's Leadership (Effect +4) raises Hicks's Initiative by 4 for one round")
    );
    assert_eq!(
        lead["dice"],
        json!([
            {"sides": 6, "value": 5, "purpose": "Leadership check", "status": "kept", "source": "scripted"},
            {"sides": 6, "value": 4, "purpose": "Leadership check", "status": "kept", "source": "scripted"}
        ])
    );
    assert_eq!(result.get("dice"), None, "each die is listed once, in the answer's own dice");
    assert_eq!(kinds(&lead), ["action_taken", "initiative_changed"]);
    let changed = &app.logged(&encounter, &lead).await[1]["data"];
    assert_eq!(
        (&changed["combatant_id"], &changed["from"], &changed["to"], &changed["reason"]),
        (&json!(hicks), &json!(7), &json!(11), &json!("Leadership, Effect 4"))
    );
    assert_eq!(
        order(&app.encounter(&encounter).await),
        expected_order(&[("Hicks", 11), ("Vasquez", 10), ("Rook", 8)])
    );
    assert_eq!(app.advance(&encounter, "next_turn").await["current_turn"]["name"], json!("Hicks"));
    assert_eq!(app.advance(&encounter, "next_turn").await["current_turn"]["name"], json!("Rook"));

    // Rook's hasty shot carries his −1: Gun Combat 1 + DEX 9 (+1) + Pistol at Short (+0) − 1 = +1.
    let shot = app
        .post_json(
            &format!("/v1/encounters/{encounter}/cepheus-engine/attacks"),
            &json!({"attacker_id": rook, "target_id": hicks, "weapon": {"weapon_type": "pistol", "damage_dice": 1},
                    "range_band": "short", "rolls": [4, 4, 3]}),
        )
        .await
        .expect_status(200, "Rook's hasty shot")
        .body;
    let outcome = &shot["result"]["outcome"];
    assert_eq!(
        outcome["modifiers"][3],
        json!({"code": "own_penalties", "reason": "own penalties this round (hastened -1)", "value": -1})
    );
    // Dice 4 + 4 = 8 + 1 = 9: Effect 1; 1D6 (3) + 1 = 4 on Hicks's END 8 → 4.
    assert_eq!((&outcome["total_dm"], &outcome["effect"]), (&json!(1), &json!(1)));
    assert_eq!(shot["result"]["target_hit"]["allocation"]["end"], json!(4));

    // The round ends: both one-round changes are undone (Hicks 11 → 7, Rook 8 → 6).
    let round_two = app.advance(&encounter, "next_turn").await;
    let changes: Vec<(Value, Value, Value)> = app
        .logged(&encounter, &round_two)
        .await
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == json!("initiative_changed"))
        .map(|e| (e["data"]["name"].clone(), e["data"]["from"].clone(), e["data"]["to"].clone()))
        .collect();
    assert_eq!(changes, [(json!("Hicks"), json!(11), json!(7)), (json!("Rook"), json!(8), json!(6))]);
    assert_eq!(order(&round_two), expected_order(&[("Vasquez", 10), ("Hicks", 7), ("Rook", 6)]));
    assert_eq!(round_two["current_turn"]["name"], json!("Vasquez"));
}

/// Adds Vasquez (DEX 10), Hicks (DEX 7) and Rook (DEX 9) on fixed initiative 10, 7 and 6, in setup;
/// returns their ids.
async fn three(app: &TestApp, encounter: &str) -> [String; 3] {
    let mut ids = Vec::new();
    for (name, dex) in [("Vasquez", 10), ("Hicks", 7), ("Rook", 9)] {
        let stats = json!({"str": 7, "dex": dex, "end": 7, "int": 7, "edu": 7, "soc": 7});
        ids.push(app.add_combatant(encounter, name, "x", stats).await);
    }
    let fixed: Vec<Value> =
        ids.iter().zip([10, 7, 6]).map(|(id, value)| json!({"combatant_id": id, "value": value})).collect();
    app.roll_initiative(encounter, json!({"combatant_ids": [], "fixed": fixed})).await;
    ids.try_into().unwrap_or_else(|ids| panic!("three ids, got {ids:?}"))
}

#[tokio::test]
async fn a_hastened_delayer_keeps_the_count_it_acted_on_after_the_round() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Hasty delay").await;
    let [_, _, rook] = three(&app, &encounter).await;
    let path = format!("/v1/encounters/{encounter}/advance");
    // Rook hastens at the start of round 1 (6 → 8: "At the start of each combat round"; issue 28
    // — this test used to hasten during Vasquez's turn, which is now refused), takes his turn
    // before Hicks, holds it, and acts on Hicks's count 7, interrupting Hicks's turn: "When he
    // acts, his Initiative is set to the count on which he acted" (Delay).
    app.advance(&encounter, "start_round").await;
    act(&app, &encounter, json!({"action": "hasten", "combatant_id": rook})).await;
    assert_eq!(app.advance(&encounter, "next_turn").await["current_turn"]["name"], json!("Vasquez"));
    assert_eq!(app.advance(&encounter, "next_turn").await["current_turn"]["name"], json!("Rook"));
    assert_eq!(app.advance(&encounter, "delay").await["current_turn"]["name"], json!("Hicks"));
    let acted = app.post_json(&path, &json!({"to": "act_now", "combatant_id": rook})).await;
    assert_eq!(acted.status, 200, "{}", acted.body);
    assert_eq!(order(&acted.body), expected_order(&[("Vasquez", 10), ("Rook", 7), ("Hicks", 7)]));
    // Rook's turn ends and Hicks's interrupted turn resumes.
    assert_eq!(app.advance(&encounter, "next_turn").await["current_turn"]["name"], json!("Hicks"));

    // The hastening's +2 is part of the count Rook acted on; the end of the round must not take
    // it off again (that would leave him on 5, below both his roll and the count he acted on).
    let round_two = app.advance(&encounter, "next_turn").await;
    assert_eq!(round_two["round"], json!(2));
    assert_eq!(order(&round_two), expected_order(&[("Vasquez", 10), ("Rook", 7), ("Hicks", 7)]));
}

#[tokio::test]
async fn a_delayer_held_past_the_round_goes_one_above_the_top_still_fighting() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Held past the round").await;
    let [vasquez, hicks, _] = three(&app, &encounter).await;
    let path = format!("/v1/encounters/{encounter}/advance");
    app.patch_json(&format!("/v1/encounters/{encounter}/combatants/{vasquez}"), &json!({"defeated": true}))
        .await
        .expect_status(200, "Vasquez is out");
    // Round 1: Vasquez (10) is skipped; Hicks holds his action; Rook acts; the round ends with
    // Hicks still holding: he goes first in round 2, one above the first person in the order who
    // still fights, Rook 6 → 7 (not one above the skipped Vasquez's 10).
    assert_eq!(app.advance(&encounter, "next_turn").await["current_turn"]["name"], json!("Hicks"));
    assert_eq!(app.advance(&encounter, "delay").await["current_turn"]["name"], json!("Rook"));
    let round_two = app.post_json(&path, &json!({})).await.expect_status(200, "end of round 1").body;
    assert_eq!(
        (round_two["round"].clone(), round_two["current_turn"]["name"].clone()),
        (json!(2), json!("Hicks"))
    );
    assert_eq!(combatant(&app.encounter(&encounter).await, &hicks)["initiative"]["score"], json!(7));
}
