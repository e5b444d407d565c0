//! POST /v1/encounters/{id}/advance: starting, turns, rounds, skips and ending.

use crate::helpers::{TestApp, pluck, spawn_app, text};
use serde_json::{Value, json};

/// A lur-asko encounter with fixed initiatives, highest first: returns (encounter, ids).
async fn ready_encounter(app: &TestApp, combatants: &[(&str, i64)]) -> (String, Vec<String>) {
    let encounter = app.create_encounter_id("lur-asko", "Advance").await;
    let mut ids = Vec::new();
    for (name, _) in combatants {
        ids.push(app.add_combatant(&encounter, name, "side", json!({})).await);
    }
    let fixed: Vec<Value> = ids
        .iter()
        .zip(combatants)
        .map(|(id, (_, value))| json!({"combatant_id": id, "value": value}))
        .collect();
    app.roll_initiative(&encounter, json!({"fixed": fixed})).await;
    (encounter, ids)
}

/// (round, whose turn) of an advance response or encounter.
fn turn(body: &Value) -> (Value, Value) {
    (body["round"].clone(), body["current_turn"]["name"].clone())
}

#[tokio::test]
async fn the_first_advance_starts_round_one_with_the_highest_initiative() {
    let app = spawn_app().await;
    let (encounter, ids) = ready_encounter(&app, &[("Aro", 5), ("Bel", 9)]).await;

    let reply =
        app.post_json(&format!("/v1/encounters/{encounter}/advance"), &json!({"to": "next_turn"})).await;

    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!((reply.body["version"].clone(), reply.etag()), (json!(5), Some("\"5\"")));
    assert_eq!(reply.body["status"], json!("active"));
    assert_eq!(reply.body["current_turn"], json!({"combatant_id": ids[1], "name": "Bel"}));
    assert_eq!(reply.body["round"], json!(1));
    assert_eq!(
        pluck(&reply.body["events"], "kind"),
        ["encounter_started", "round_started", "turn_started"].map(|k| json!(k))
    );
    assert_eq!(
        app.logged(&encounter, &reply.body).await[1]["data"],
        json!({"kind": "round_started", "round": 1})
    );
    assert_eq!((reply.body["fired"].clone(), reply.body["expired"].clone()), (json!([]), json!([])));
    let stored = app.encounter(&encounter).await;
    assert_eq!((stored["status"].clone(), turn(&stored)), (json!("active"), (json!(1), json!("Bel"))));
}

#[tokio::test]
async fn the_body_is_optional_and_defaults_to_next_turn() {
    let app = spawn_app().await;
    let (encounter, _) = ready_encounter(&app, &[("Aro", 5), ("Bel", 9)]).await;
    let path = format!("/v1/encounters/{encounter}/advance");

    let empty = app.send_raw(reqwest::Method::POST, &path, None, Vec::new()).await;
    let defaulted = app.post_json(&path, &json!({})).await;

    assert_eq!(empty.status, 200, "{}", empty.body);
    assert_eq!(turn(&empty.body), (json!(1), json!("Bel")));
    assert_eq!(turn(&defaulted.body), (json!(1), json!("Aro")));
}

#[tokio::test]
async fn turns_follow_the_order_and_wrap_into_the_next_round() {
    let app = spawn_app().await;
    let (encounter, _) = ready_encounter(&app, &[("Aro", 5), ("Bel", 9), ("Cai", 7)]).await;
    let expected = [(1, "Bel"), (1, "Cai"), (1, "Aro"), (2, "Bel"), (2, "Cai"), (2, "Aro"), (3, "Bel")];

    for (step, (round, name)) in expected.into_iter().enumerate() {
        let reply = app.advance(&encounter, "next_turn").await;
        assert_eq!(turn(&reply), (json!(round), json!(name)), "advance {}", step + 1);
    }
    let wrap = app.events(&encounter).await;
    let kinds: Vec<Value> = wrap.iter().rev().take(4).rev().map(|e| e["kind"].clone()).collect();
    assert_eq!(kinds, ["turn_ended", "round_ended", "round_started", "turn_started"].map(|k| json!(k)));
}

#[tokio::test]
async fn next_round_passes_everyone_still_to_act() {
    let app = spawn_app().await;
    let (encounter, _) = ready_encounter(&app, &[("Aro", 5), ("Bel", 9), ("Cai", 7)]).await;
    app.advance(&encounter, "next_turn").await;

    let reply = app.advance(&encounter, "next_round").await;

    assert_eq!(turn(&reply), (json!(2), json!("Bel")));
    let kinds = pluck(&reply["events"], "kind");
    let expected =
        ["turn_ended", "turn_skipped", "turn_skipped", "round_ended", "round_started", "turn_started"];
    assert_eq!(kinds, expected.map(|k| json!(k)));
    let logged = app.logged(&encounter, &reply).await;
    assert_eq!(logged[1]["data"]["name"], json!("Cai"));
    assert_eq!(logged[1]["data"]["reason"], json!("the round was advanced"));
    assert_eq!(logged[2]["data"]["name"], json!("Aro"));
}

#[tokio::test]
async fn next_round_from_setup_starts_round_one() {
    let app = spawn_app().await;
    let (encounter, _) = ready_encounter(&app, &[("Aro", 5), ("Bel", 9)]).await;

    let reply = app.advance(&encounter, "next_round").await;

    assert_eq!(turn(&reply), (json!(1), json!("Bel")));
}

#[tokio::test]
async fn a_defeated_combatant_is_skipped() {
    let app = spawn_app().await;
    let (encounter, ids) = ready_encounter(&app, &[("Aro", 5), ("Bel", 9), ("Cai", 7)]).await;
    app.advance(&encounter, "next_turn").await;
    app.patch_json(&format!("/v1/encounters/{encounter}/combatants/{}", ids[2]), &json!({"defeated": true}))
        .await
        .expect_status(200, "defeat Cai");

    let reply = app.advance(&encounter, "next_turn").await;

    assert_eq!(turn(&reply), (json!(1), json!("Aro")));
    assert_eq!(
        pluck(&reply["events"], "kind"),
        ["turn_ended", "turn_skipped", "turn_started"].map(|k| json!(k))
    );
    assert_eq!(
        app.logged(&encounter, &reply).await[1]["data"],
        json!({"kind": "turn_skipped", "combatant_id": ids[2], "name": "Cai", "reason": "defeated"})
    );
    assert_eq!(pluck(&reply["turn_order"], "defeated"), [json!(false), json!(true), json!(false)]);
}

#[tokio::test]
async fn removing_the_current_combatant_lets_the_next_advance_start_the_next_turn() {
    let app = spawn_app().await;
    let (encounter, ids) = ready_encounter(&app, &[("Aro", 5), ("Bel", 9)]).await;
    app.advance(&encounter, "next_turn").await;
    app.delete(&format!("/v1/encounters/{encounter}/combatants/{}", ids[1]))
        .await
        .expect_status(200, "remove");
    assert_eq!(app.encounter(&encounter).await["current_turn"], Value::Null);

    let reply = app.advance(&encounter, "next_turn").await;

    assert_eq!(turn(&reply), (json!(1), json!("Aro")));
    assert_eq!(pluck(&reply["events"], "kind"), [json!("turn_started")]);
}

#[tokio::test]
async fn ending_the_encounter_from_setup_ends_it_in_round_zero() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Called off").await;

    let reply = app.advance(&encounter, "end_encounter").await;

    assert_eq!(reply["status"], json!("ended"));
    assert_eq!(turn(&reply), (json!(0), Value::Null));
    assert_eq!(reply["events"][0]["kind"], json!("encounter_ended"));
    assert_eq!(
        app.logged(&encounter, &reply).await[0]["data"],
        json!({"kind": "encounter_ended", "round": 0})
    );
}

#[tokio::test]
async fn advancing_without_initiative_is_a_conflict_and_changes_nothing() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Unready").await;
    app.add_combatant(&encounter, "Ash", "crew", crate::helpers::cepheus(7)).await;
    let before = app.snapshot(&encounter).await;

    let reply =
        app.post_json(&format!("/v1/encounters/{encounter}/advance"), &json!({"to": "next_turn"})).await;

    reply.assert_problem(409, None, "no initiative");
    assert_eq!(reply.body["type"], json!("urn:skirmish:problem:conflict"));
    assert!(text(&reply.body["detail"]).contains("Ash"), "{}", reply.body);
    assert_eq!(app.snapshot(&encounter).await, before);
}

#[tokio::test]
async fn advancing_an_empty_encounter_is_a_conflict() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Empty").await;

    let reply = app.post_json(&format!("/v1/encounters/{encounter}/advance"), &json!({})).await;

    reply.assert_problem(409, None, "nobody to act");
    assert_eq!(app.encounter(&encounter).await["version"], json!(1));
}

#[tokio::test]
async fn advancing_when_everyone_is_defeated_is_a_conflict() {
    let app = spawn_app().await;
    let (encounter, ids) = ready_encounter(&app, &[("Aro", 5)]).await;
    app.advance(&encounter, "next_turn").await;
    app.patch_json(&format!("/v1/encounters/{encounter}/combatants/{}", ids[0]), &json!({"defeated": true}))
        .await
        .expect_status(200, "defeat Aro");
    let before = app.snapshot(&encounter).await;

    let reply = app.post_json(&format!("/v1/encounters/{encounter}/advance"), &json!({})).await;

    reply.assert_problem(409, None, "everyone defeated");
    assert_eq!(app.snapshot(&encounter).await, before);
}

#[tokio::test]
async fn advancing_an_ended_encounter_is_a_conflict_and_changes_nothing() {
    let app = spawn_app().await;
    let (encounter, _) = ready_encounter(&app, &[("Aro", 5)]).await;
    app.advance(&encounter, "next_turn").await;
    app.advance(&encounter, "end_encounter").await;
    let before = app.snapshot(&encounter).await;

    for to in ["next_turn", "next_round", "end_encounter"] {
        let reply = app.post_json(&format!("/v1/encounters/{encounter}/advance"), &json!({"to": to})).await;
        reply.assert_problem(409, None, to);
        assert_eq!(app.snapshot(&encounter).await, before, "{to}: nothing changed");
    }
}

#[tokio::test]
async fn bad_advance_requests_are_refused() {
    let app = spawn_app().await;
    let (encounter, _) = ready_encounter(&app, &[("Aro", 5)]).await;
    let path = format!("/v1/encounters/{encounter}/advance");
    let before = app.snapshot(&encounter).await;

    app.post_json(&path, &json!({"to": "sideways"})).await.assert_problem(422, Some("to"), "unknown step");
    app.post_json(&path, &json!({"to": "next_turn", "n": 2})).await.assert_problem(
        422,
        Some("n"),
        "unknown field",
    );
    let broken =
        app.send_raw(reqwest::Method::POST, &path, Some("application/json"), b"{\"to\":".to_vec()).await;
    // A syntax error names where the parser stopped.
    broken.assert_problem(400, Some("to"), "broken JSON");
    app.post_json("/v1/encounters/enc_missing/advance", &json!({}))
        .await
        .assert_problem(404, None, "unknown");
    assert_eq!(app.snapshot(&encounter).await, before);
}
