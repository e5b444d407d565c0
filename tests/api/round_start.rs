//! The start of a round as a moment of its own (`"to": "start_round"`): no turn runs yet, so
//! declarations made "at the start of each combat round" can be taken — cepheus-engine.txt,
//! "Dynamic Initiative": a character may declare at the start of a round that he acts hastily.

use crate::helpers::{TestApp, cepheus, pluck, spawn_app};
use serde_json::{Value, json};

/// A cepheus-engine encounter with Vasquez on 10 and Hicks on 7; returns it and their ids.
async fn two_marines(app: &TestApp) -> (String, String, String) {
    let encounter = app.create_encounter_id("cepheus-engine", "Round start").await;
    let vasquez = app.add_combatant(&encounter, "Vasquez", "marines", cepheus(10)).await;
    let hicks = app.add_combatant(&encounter, "Hicks", "marines", cepheus(7)).await;
    let fixed = json!([{"combatant_id": vasquez, "value": 10}, {"combatant_id": hicks, "value": 7}]);
    app.roll_initiative(&encounter, json!({"fixed": fixed})).await;
    (encounter, vasquez, hicks)
}

fn hasten(id: &str) -> Value {
    json!({"action": "hasten", "combatant_id": id})
}

#[tokio::test]
async fn the_combatant_at_the_top_of_the_order_can_hasten_at_the_start_of_the_round() {
    let app = spawn_app().await;
    let (encounter, vasquez, _) = two_marines(&app).await;

    let start = app.advance(&encounter, "start_round").await;
    assert_eq!((start["moment"].clone(), start["round"].clone()), (json!("round_start"), json!(1)));
    assert_eq!(start["current_turn"], Value::Null);
    assert_eq!(pluck(&start["events"], "kind"), [json!("encounter_started"), json!("round_started")]);

    // Issue 12, item 8: before, the advance that started the round also started Vasquez's turn,
    // and hasten was refused as "already started acting". Now: +2 this round, 10 → 12.
    let path = format!("/v1/encounters/{encounter}/cepheus-engine/actions");
    let reply = app.post_json(&path, &hasten(&vasquez)).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let logged = app.logged(&encounter, &reply.body).await;
    let changed = logged.as_array().unwrap().iter().find(|e| e["kind"] == "initiative_changed");
    assert_eq!(
        changed.map(|e| (e["data"]["from"].clone(), e["data"]["to"].clone())),
        Some((json!(10), json!(12)))
    );

    let turn = app.advance(&encounter, "next_turn").await;
    assert_eq!(turn["moment"], json!("turn"));
    assert_eq!(turn["current_turn"]["combatant_id"], json!(vasquez));
}

#[tokio::test]
async fn start_round_twice_in_a_row_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    let (encounter, _, _) = two_marines(&app).await;
    app.advance(&encounter, "start_round").await;
    let before = app.encounter(&encounter).await;

    let reply =
        app.post_json(&format!("/v1/encounters/{encounter}/advance"), &json!({"to": "start_round"})).await;

    reply.assert_problem(409, None, "a second start_round");
    assert_eq!(app.encounter(&encounter).await, before);
}

#[tokio::test]
async fn start_round_mid_round_passes_the_rest_and_stops_at_the_next_round() {
    let app = spawn_app().await;
    let (encounter, _, hicks) = two_marines(&app).await;
    app.advance(&encounter, "next_turn").await; // round 1, Vasquez's turn

    let reply = app.advance(&encounter, "start_round").await;

    assert_eq!((reply["round"].clone(), reply["moment"].clone()), (json!(2), json!("round_start")));
    assert_eq!(
        pluck(&reply["events"], "kind"),
        ["turn_ended", "turn_skipped", "round_ended", "round_started"].map(|kind| json!(kind))
    );
    assert_eq!(app.logged(&encounter, &reply).await[1]["data"]["combatant_id"], json!(hicks));
    assert_eq!(reply["current_turn"], Value::Null);
}
