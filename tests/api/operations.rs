//! The ruleset operations on a stored encounter: not implemented yet (501), never made up.

use crate::helpers::{spawn_app, text};
use serde_json::json;

const OPERATIONS: [&str; 3] = ["attacks", "damage", "actions"];

#[tokio::test]
async fn operations_on_an_encounter_are_not_implemented_and_change_nothing() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Casino").await;
    let before = app.snapshot(&encounter).await;

    for operation in OPERATIONS {
        let reply = app.post_json(&format!("/v1/encounters/{encounter}/{operation}"), &json!({})).await;

        reply.assert_problem(501, None, operation);
        assert_eq!(reply.body["type"], json!("urn:skirmish:problem:not-implemented"));
        let detail = text(&reply.body["detail"]);
        assert!(detail.contains(operation) && detail.contains("lur-asko"), "{operation}: {detail}");
    }
    assert_eq!(app.snapshot(&encounter).await, before);
}

#[tokio::test]
async fn operations_on_an_unknown_encounter_are_not_found() {
    let app = spawn_app().await;

    for operation in OPERATIONS {
        let reply = app.post_json(&format!("/v1/encounters/enc_missing/{operation}"), &json!({})).await;

        reply.assert_problem(404, None, operation);
    }
}
