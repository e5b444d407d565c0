//! GET /v1/encounters/{id}/events: the append-only log and its paging.

use crate::helpers::{TestApp, cepheus, pluck, spawn_app};
use serde_json::json;

/// An encounter with a log of 6 events: created, 2 added, 2 initiative_set, 1 updated.
async fn logged_encounter(app: &TestApp) -> String {
    let encounter = app.create_encounter_id("cepheus-engine", "Log").await;
    let ash = app.add_combatant(&encounter, "Ash", "crew", cepheus(7)).await;
    app.add_combatant(&encounter, "Kane", "crew", cepheus(8)).await;
    app.roll_initiative(&encounter, json!({"rolls": [1, 2, 3, 4]})).await;
    app.patch_json(&format!("/v1/encounters/{encounter}/combatants/{ash}"), &json!({"hidden": true}))
        .await
        .expect_status(200, "hide Ash");
    encounter
}

#[tokio::test]
async fn the_log_holds_every_change_numbered_from_one_without_gaps() {
    let app = spawn_app().await;
    let encounter = logged_encounter(&app).await;

    let reply = app.get(&format!("/v1/encounters/{encounter}/events")).await;

    assert_eq!(reply.status, 200, "{}", reply.body);
    let events = &reply.body["events"];
    assert_eq!(pluck(events, "seq"), (1..=6).map(|n| json!(n)).collect::<Vec<_>>());
    let kinds = [
        "encounter_created",
        "combatant_added",
        "combatant_added",
        "initiative_set",
        "initiative_set",
        "combatant_updated",
    ];
    assert_eq!(pluck(events, "kind"), kinds.map(|k| json!(k)));
    assert_eq!(reply.body["next_after"], json!(6));
    for event in events.as_array().unwrap() {
        let at = event["at"].as_str().unwrap();
        assert!(at.ends_with('Z') && at.contains('T'), "timestamp {at}");
    }
    // Every die is in the log: Ash 1 + 2, Kane 3 + 4.
    assert_eq!(pluck(&events[3]["data"]["dice"], "value"), [json!(1), json!(2)]);
    assert_eq!(pluck(&events[4]["data"]["dice"], "value"), [json!(3), json!(4)]);
}

#[tokio::test]
async fn mutation_responses_carry_the_events_they_appended() {
    let app = spawn_app().await;
    let encounter = logged_encounter(&app).await;
    let logged = app.events(&encounter).await;

    let reply = app.roll_initiative(&encounter, json!({"rolls": [6, 6, 5, 5]})).await;

    assert_eq!(pluck(&reply["events"], "seq"), [json!(7), json!(8)]);
    let log = app.events(&encounter).await;
    assert_eq!(&log[..logged.len()], &logged[..], "earlier events never change");
    // The response names each appended event (seq, at, kind, summary); `logged` checks that the
    // log holds those, and the data stays in the log only (the response has each die once).
    let appended = app.logged(&encounter, &reply).await;
    assert_eq!(&log[logged.len()..], appended.as_array().unwrap());
    let fields: Vec<Vec<&String>> =
        reply["events"].as_array().unwrap().iter().map(|e| e.as_object().unwrap().keys().collect()).collect();
    assert_eq!(fields, vec![vec!["at", "kind", "seq", "summary"]; 2]);
}

#[tokio::test]
async fn after_and_limit_page_through_the_log() {
    let app = spawn_app().await;
    let encounter = logged_encounter(&app).await;
    let path = format!("/v1/encounters/{encounter}/events");

    let middle = app.get(&format!("{path}?after=2&limit=3")).await.body;
    let rest = app.get(&format!("{path}?after={}", middle["next_after"])).await.body;
    let beyond = app.get(&format!("{path}?after=6")).await.body;

    assert_eq!(pluck(&middle["events"], "seq"), [json!(3), json!(4), json!(5)]);
    assert_eq!(middle["next_after"], json!(5));
    assert_eq!(pluck(&rest["events"], "seq"), [json!(6)]);
    assert_eq!(rest["next_after"], json!(6));
    assert_eq!(beyond, json!({"events": [], "next_after": 6}));
}

#[tokio::test]
async fn bad_paging_parameters_are_refused_naming_the_parameter() {
    let app = spawn_app().await;
    let encounter = logged_encounter(&app).await;
    let cases = [
        ("after=-1", "after"),
        ("after=x", "after"),
        ("limit=0", "limit"),
        ("limit=1001", "limit"),
        ("limit=1.5", "limit"),
        ("before=3", "before"),
    ];

    for (query, field) in cases {
        let reply = app.get(&format!("/v1/encounters/{encounter}/events?{query}")).await;
        reply.assert_problem(400, Some(field), query);
    }
}

#[tokio::test]
async fn the_log_of_an_unknown_encounter_is_not_found() {
    let app = spawn_app().await;

    let reply = app.get("/v1/encounters/enc_missing/events").await;

    reply.assert_problem(404, None, "unknown encounter");
}

#[tokio::test]
async fn logs_of_different_encounters_are_numbered_separately() {
    let app = spawn_app().await;
    let first = logged_encounter(&app).await;
    let second = app.create_encounter_id("arrgs", "Other").await;

    let events = app.events(&second).await;

    assert_eq!(pluck(&serde_json::Value::from(events), "seq"), [json!(1)]);
    assert_eq!(app.events(&first).await.len(), 6);
}
