//! Liveness, the OpenAPI document and the Swagger UI.

use crate::helpers::spawn_app;
use serde_json::json;

#[tokio::test]
async fn healthz_reports_ok() {
    let app = spawn_app().await;

    let reply = app.get("/healthz").await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["status"], json!("ok"));
}

#[tokio::test]
async fn openapi_document_describes_every_route() {
    let app = spawn_app().await;

    let reply = app.get("/openapi.json").await;

    assert_eq!(reply.status, 200);
    let version = reply.body["openapi"].as_str().unwrap();
    assert!(version.starts_with("3."), "openapi version {version}");
    let paths = reply.body["paths"].as_object().unwrap();
    let expected = [
        "/healthz",
        "/v1/dice/roll",
        "/v1/rulesets",
        "/v1/rulesets/cepheus-engine/attacks",
        "/v1/rulesets/adeva-d100/damage",
        "/v1/encounters",
        "/v1/encounters/{id}",
        "/v1/encounters/{id}/combatants",
        "/v1/encounters/{id}/combatants/{cid}",
        "/v1/encounters/{id}/initiative",
        "/v1/encounters/{id}/advance",
        "/v1/encounters/{id}/effects",
        "/v1/encounters/{id}/effects/{eid}",
        "/v1/encounters/{id}/events",
        "/v1/encounters/{id}/cepheus-engine/attacks",
        "/v1/encounters/{id}/cepheus-engine/damage",
        "/v1/encounters/{id}/adeva-d100/actions",
    ];
    for path in expected {
        assert!(paths.contains_key(path), "{path} is missing from the OpenAPI paths");
    }
    assert!(paths["/v1/encounters/{id}/advance"]["post"].is_object());
}

#[tokio::test]
async fn swagger_ui_is_served_at_docs() {
    let app = spawn_app().await;

    let reply = app.get("/docs/").await;

    assert_eq!(reply.status, 200);
    let content_type = reply.header("content-type").unwrap();
    assert!(content_type.starts_with("text/html"), "content type {content_type}");
    let page = reply.body.as_str().unwrap();
    assert!(page.contains("swagger"), "no Swagger UI in {page}");
}

#[tokio::test]
async fn docs_without_the_slash_redirects_to_the_ui() {
    let app = spawn_app().await;

    let reply = app.get("/docs").await;

    assert_eq!(reply.status, 308);
    assert_eq!(reply.header("location"), Some("/docs/"));
}
