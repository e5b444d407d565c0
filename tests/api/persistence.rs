//! Everything lives in the SQLite file: a restarted server on the same file sees it all.

use crate::helpers::{TestApp, cepheus, pluck, spawn_app};
use serde_json::{Value, json};

/// An encounter in round 1 with an effect running and a tie-break in its initiative.
async fn encounter_in_play(app: &TestApp) -> String {
    let encounter = app.create_encounter_id("cepheus-engine", "Persistent").await;
    let ash = app.add_combatant(&encounter, "Ash", "crew", cepheus(7)).await;
    app.add_combatant(&encounter, "Kane", "crew", cepheus(7)).await;
    app.add_combatant(&encounter, "Lamb", "crew", cepheus(12)).await;
    app.roll_initiative(&encounter, json!({"rolls": [3, 4, 5, 2, 1, 1]})).await;
    app.add_effect(
        &encounter,
        json!({"name": "bleeding", "target_id": ash, "fires_at": {"at": "start_of_round"},
               "ends": {"ends": "after_rounds", "rounds": 3}}),
    )
    .await;
    app.advance(&encounter, "next_turn").await;
    app.advance(&encounter, "next_turn").await;
    encounter
}

#[tokio::test]
async fn an_encounter_and_its_log_survive_a_restart_unchanged() {
    let app = spawn_app().await;
    let encounter = encounter_in_play(&app).await;
    let before = (app.encounter(&encounter).await, app.events(&encounter).await);
    let list_before = app.get("/v1/encounters").await.body;
    let db_path = app.db_path.clone();

    let app = app.restart().await;

    assert_eq!(app.db_path, db_path);
    assert_eq!((app.encounter(&encounter).await, app.events(&encounter).await), before);
    assert_eq!(app.get("/v1/encounters").await.body, list_before);
    // Ash and Kane tie on 7 and DEX 7: simultaneous, which must survive too.
    assert_eq!(pluck(&before.0["turn_order"], "simultaneous"), [json!(true), json!(true), json!(false)]);
}

#[tokio::test]
async fn play_continues_after_a_restart_where_it_left_off() {
    let app = spawn_app().await;
    let encounter = encounter_in_play(&app).await;
    let before = app.encounter(&encounter).await;
    let log_length = app.events(&encounter).await.len();

    let app = app.restart().await;
    let reply = app.advance(&encounter, "next_turn").await;

    // Order: Ash 7, Kane 7 (simultaneous), Lamb 1 + 1 + 2 = 4. Two advances in, it was Kane's
    // turn; now Lamb's.
    assert_eq!(before["current_turn"]["name"], json!("Kane"));
    assert_eq!((reply["round"].clone(), reply["current_turn"]["name"].clone()), (json!(1), json!("Lamb")));
    assert_eq!(reply["version"], json!(before["version"].as_i64().unwrap() + 1));
    let first_new = reply["events"][0]["seq"].as_i64().unwrap();
    assert_eq!(first_new, log_length as i64 + 1, "the log continues without a gap");
    let next_round = app.advance(&encounter, "next_turn").await;
    assert_eq!(pluck(&next_round["fired"], "name"), [json!("bleeding")]);
    assert_eq!(next_round["round"], json!(2));
    let stored: Value = app.encounter(&encounter).await;
    assert_eq!(stored["effects"][0]["ends"], json!({"ends": "end_of_round", "remaining": 2}));
}
