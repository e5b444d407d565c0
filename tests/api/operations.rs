//! The untyped operation paths on a stored encounter (`POST /v1/encounters/{id}/attacks`, gone in
//! issue 27): an operation the encounter's ruleset has answers 404 naming its typed route, one it
//! does not have answers 501 (never a made-up result); neither changes anything.

use crate::helpers::{spawn_app, text};
use serde_json::json;

const OPERATIONS: [&str; 3] = ["attacks", "damage", "actions"];

/// Operations only spycraft2 has.
const SPYCRAFT_ONLY: [&str; 3] = ["distance", "surprise", "saves"];

#[tokio::test]
async fn operations_the_encounters_ruleset_lacks_are_not_implemented_and_change_nothing() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Casino").await;
    let before = app.snapshot(&encounter).await;

    for operation in SPYCRAFT_ONLY {
        let reply = app.post_json(&format!("/v1/encounters/{encounter}/{operation}"), &json!({})).await;

        reply.assert_problem(501, None, operation);
        assert_eq!(reply.body["type"], json!("urn:skirmish:problem:not-implemented"));
        let detail = text(&reply.body["detail"]);
        assert!(detail.contains(operation) && detail.contains("cepheus-engine"), "{operation}: {detail}");
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

#[tokio::test]
async fn an_untyped_operation_path_is_gone_and_names_the_typed_route() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Casino").await;
    let before = app.snapshot(&encounter).await;

    for operation in OPERATIONS {
        let reply = app.post_json(&format!("/v1/encounters/{encounter}/{operation}"), &json!({})).await;

        reply.assert_problem(404, None, operation);
        let typed = format!("POST /v1/encounters/{encounter}/cepheus-engine/{operation}");
        assert!(text(&reply.body["detail"]).contains(&typed), "{operation}: {}", reply.body);
    }
    assert_eq!(app.snapshot(&encounter).await, before);
}
