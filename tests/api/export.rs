//! Carrying an encounter out (issue 29 item 5, its first half): `GET /v1/encounters/{id}/export`
//! is one document holding the encounter as `GET` answers it and its whole log as
//! `GET …/events` lists it, with its format version.

use crate::helpers::{cepheus, pluck, spawn_app, spawn_app_with_keys};
use serde_json::{Value, json};

#[tokio::test]
async fn an_export_holds_the_encounter_and_its_whole_log_as_the_reads_answer_them() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Starport").await;
    let vasquez = app.add_combatant(&encounter, "Vasquez", "marines", cepheus(10)).await;
    app.add_combatant(&encounter, "Drone", "hostiles", cepheus(4)).await;
    // 2D6 + DEX DM: Vasquez 4 + 3 + 1 = 8, Drone 2 + 2 − 1 = 3.
    app.roll_initiative(&encounter, json!({"rolls": [4, 3, 2, 2]})).await;
    app.advance(&encounter, "next_turn").await;
    app.add_effect(
        &encounter,
        json!({"name": "smoke", "target_id": vasquez, "ends": {"ends": "end_of_round"}}),
    )
    .await;
    app.post_json(&format!("/v1/encounters/{encounter}/undo"), &json!({})).await.expect_status(200, "undo");

    let exported = app.get(&format!("/v1/encounters/{encounter}/export")).await.expect_status(200, "export");

    let document = &exported.body;
    assert_eq!(
        (document["format"].clone(), document["format_version"].clone()),
        (json!("skirmish.encounter"), json!(1))
    );
    let expected = format!("attachment; filename=\"{encounter}.json\"");
    assert_eq!(exported.header("content-disposition"), Some(expected.as_str()));
    assert_eq!(document["encounter"], app.encounter(&encounter).await, "the encounter as GET answers it");
    let log: Vec<Value> = app.events(&encounter).await;
    assert_eq!(document["events"], json!(log), "the log as GET …/events lists it");
    let seqs = pluck(&document["events"], "seq");
    assert_eq!(seqs, (1..=log.len() as i64).map(|n| json!(n)).collect::<Vec<_>>(), "every event, in order");
    let kinds = pluck(&document["events"], "kind");
    assert_eq!(kinds.first(), Some(&json!("encounter_created")));
    assert_eq!(kinds.last(), Some(&json!("undone")));
    assert_eq!(document["encounter"]["turn_order"][0]["name"], json!("Vasquez"));
}

#[tokio::test]
async fn only_the_owner_exports_an_encounter() {
    let (app, keys) = spawn_app_with_keys(&["alpha", "beta"]).await;
    let (alpha, beta) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let encounter = alpha.create_encounter_id("lur-asko", "Ford").await;
    alpha.get(&format!("/v1/encounters/{encounter}/export")).await.expect_status(200, "the owner");
    beta.get(&format!("/v1/encounters/{encounter}/export")).await.assert_problem(404, None, "another tenant");
    alpha.get("/v1/encounters/enc_nope/export").await.assert_problem(404, None, "no such encounter");
}
