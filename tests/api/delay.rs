//! Holding an action: `advance` with `delay`, then `act_now`.

use crate::helpers::spawn_app;
use serde_json::json;

/// A lur-asko encounter with A 20, B 15, C 10, started (A's turn).
async fn started(app: &crate::helpers::TestApp) -> (String, [String; 3]) {
    let encounter = app.create_encounter_id("lur-asko", "Held actions").await;
    let mut ids = Vec::new();
    for name in ["A", "B", "C"] {
        ids.push(app.add_combatant(&encounter, name, "x", json!({})).await);
    }
    let fixed: Vec<_> =
        ids.iter().zip([20, 15, 10]).map(|(id, value)| json!({"combatant_id": id, "value": value})).collect();
    app.roll_initiative(&encounter, json!({"combatant_ids": [], "fixed": fixed})).await;
    app.advance(&encounter, "next_turn").await;
    let ids: [String; 3] = ids.try_into().unwrap_or_else(|ids| panic!("three ids, got {ids:?}"));
    (encounter, ids)
}

#[tokio::test]
async fn a_delayed_combatant_acts_later_on_the_current_count() {
    let app = spawn_app().await;
    let (encounter, [a, _, _]) = started(&app).await;
    let path = format!("/v1/encounters/{encounter}/advance");

    let delayed = app.post_json(&path, &json!({"to": "delay"})).await;
    assert_eq!(delayed.status, 200, "{}", delayed.body);
    assert_eq!(delayed.body["current_turn"]["name"], json!("B"));
    assert_eq!(app.encounter(&encounter).await["combatants"][0]["delaying"], json!(true));

    let acted = app.post_json(&path, &json!({"to": "act_now", "combatant_id": a})).await;
    assert_eq!(acted.status, 200, "{}", acted.body);
    assert_eq!(acted.body["current_turn"]["name"], json!("A"));
    let kinds: Vec<_> = acted.body["events"].as_array().unwrap().iter().map(|e| e["kind"].clone()).collect();
    assert_eq!(kinds, [json!("turn_ended"), json!("initiative_changed"), json!("turn_started")]);
    assert_eq!(
        app.logged(&encounter, &acted.body).await[1]["data"]["to"],
        json!(15),
        "A takes B's count, 15"
    );
    let after = app.post_json(&path, &json!({})).await;
    assert_eq!(after.body["current_turn"]["name"], json!("C"));
}

#[tokio::test]
async fn act_now_needs_a_delaying_combatant() {
    let app = spawn_app().await;
    let (encounter, [_, b, _]) = started(&app).await;
    let path = format!("/v1/encounters/{encounter}/advance");
    let cases = [
        (json!({"to": "act_now"}), "combatant_id", "no id"),
        (json!({"to": "act_now", "combatant_id": b}), "combatant_id", "B is not delaying"),
        (json!({"to": "next_turn", "combatant_id": b}), "combatant_id", "an id without act_now"),
    ];
    for (body, field, case) in cases {
        let before = app.snapshot(&encounter).await;
        let reply = app.post_json(&path, &body).await;
        assert_eq!((reply.status, &reply.body["field"]), (422, &json!(field)), "{case}: {}", reply.body);
        assert_eq!(app.snapshot(&encounter).await, before, "{case}: nothing changes");
    }
}

#[tokio::test]
async fn a_delay_held_past_the_end_of_the_round_is_forfeited_outside_cepheus() {
    let app = spawn_app().await;
    let (encounter, _) = started(&app).await;
    let path = format!("/v1/encounters/{encounter}/advance");
    app.post_json(&path, &json!({})).await; // B
    app.post_json(&path, &json!({})).await; // C
    let wrapped = app.post_json(&path, &json!({"to": "delay"})).await; // C holds; round ends
    assert_eq!(
        (wrapped.body["round"].clone(), wrapped.body["current_turn"]["name"].clone()),
        (json!(2), json!("A"))
    );
    let logged = app.logged(&encounter, &wrapped.body).await;
    let skipped = logged.as_array().unwrap().iter().any(|e| {
        e["kind"] == json!("turn_skipped")
            && e["data"]["reason"] == json!("held its action past the end of the round")
    });
    assert!(skipped, "{}", wrapped.body);
}
