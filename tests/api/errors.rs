//! Extractor and routing errors: malformed JSON, body size, media type, wrong method, unknown
//! path. Every one is problem+json.

use crate::helpers::{TestApp, spawn_app};
use reqwest::Method;
use serde_json::json;

/// A syntactically valid JSON body just over 64 KiB.
fn oversized_body() -> Vec<u8> {
    format!("{{\"ruleset\": \"arrgs\", \"name\": \"{}\"}}", "n".repeat(64 * 1024)).into_bytes()
}

async fn post_raw(
    app: &TestApp,
    path: &str,
    content_type: Option<&str>,
    body: &[u8],
) -> crate::helpers::Reply {
    app.send_raw(Method::POST, path, content_type, body.to_vec()).await
}

#[tokio::test]
async fn a_body_over_64_kib_is_refused_with_413() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Big").await;

    for path in [
        "/v1/encounters".to_owned(),
        "/v1/dice/roll".to_owned(),
        format!("/v1/encounters/{encounter}/effects"),
    ] {
        let reply = post_raw(&app, &path, Some("application/json"), &oversized_body()).await;

        reply.assert_problem(413, None, &path);
        assert_eq!(reply.body["type"], json!("urn:skirmish:problem:payload-too-large"));
    }
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(1));
    assert_eq!(app.encounter(&encounter).await["version"], json!(1));
}

#[tokio::test]
async fn a_body_of_just_under_64_kib_is_read() {
    let app = spawn_app().await;
    let padding = " ".repeat(64 * 1024 - 40);
    let body = format!("{{\"ruleset\": \"arrgs\",{padding}\"name\": \"Fits\"}}");
    assert!(body.len() <= 64 * 1024);

    let reply = post_raw(&app, "/v1/encounters", Some("application/json"), body.as_bytes()).await;

    assert_eq!(reply.status, 201, "{}", reply.body);
}

#[tokio::test]

async fn an_oversized_advance_body_is_refused_as_problem_json() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Big").await;
    let body = format!("{{\"to\": \"{}\"}}", "x".repeat(70_000));

    let reply = post_raw(
        &app,
        &format!("/v1/encounters/{encounter}/advance"),
        Some("application/json"),
        body.as_bytes(),
    )
    .await;

    reply.assert_problem(413, None, "oversized advance body");
}

#[tokio::test]
async fn a_non_json_content_type_is_refused_with_415() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Media").await;
    let body = br#"{"ruleset": "arrgs", "name": "x"}"#;
    let cases = [
        ("/v1/encounters".to_owned(), "text/plain"),
        ("/v1/encounters".to_owned(), "application/x-www-form-urlencoded"),
        ("/v1/dice/roll".to_owned(), "text/plain"),
        (format!("/v1/encounters/{encounter}/combatants"), "text/json"),
        (format!("/v1/encounters/{encounter}/initiative"), "application/xml"),
    ];

    for (path, content_type) in cases {
        let reply = post_raw(&app, &path, Some(content_type), body).await;

        reply.assert_problem(415, Some("Content-Type"), &format!("{content_type} to {path}"));
        assert_eq!(reply.body["type"], json!("urn:skirmish:problem:unsupported-media-type"));
    }
    assert_eq!(app.encounter(&encounter).await["version"], json!(1));
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(1));
}

#[tokio::test]

async fn a_non_json_advance_body_is_refused_with_415() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Media").await;

    let reply = post_raw(
        &app,
        &format!("/v1/encounters/{encounter}/advance"),
        Some("text/plain"),
        br#"{"to": "end_encounter"}"#,
    )
    .await;

    reply.assert_problem(415, Some("Content-Type"), "text/plain advance");
    assert_eq!(app.encounter(&encounter).await["status"], json!("setup"));
}

#[tokio::test]
async fn json_with_parameters_json_suffixes_and_no_content_type_are_accepted() {
    let app = spawn_app().await;
    let body = br#"{"ruleset": "arrgs", "name": "x"}"#;

    for content_type in [
        Some("application/json; charset=utf-8"),
        Some("application/problem+json"),
        Some("APPLICATION/JSON"),
        None,
    ] {
        let reply = post_raw(&app, "/v1/encounters", content_type, body).await;

        assert_eq!(reply.status, 201, "{content_type:?}: {}", reply.body);
    }
}

#[tokio::test]
async fn malformed_json_is_a_bad_request_naming_the_body_or_the_path() {
    let app = spawn_app().await;
    let cases: [(&[u8], &str, &str); 6] = [
        (b"{\"ruleset\": \"arrgs\", \"name\": ", "name", "truncated: named where the parser stopped"),
        (b"{\"ruleset\": \"arrgs\", \"name\": \"x\"} trailing", "body", "trailing garbage"),
        (b"not json", "body", "not JSON at all"),
        (b"", "body", "empty body"),
        (b"   ", "body", "blank body"),
        (b"{\"ruleset\": \"arrgs\", \"name\": 7}", "name", "wrong type"),
    ];

    for (body, field, case) in cases {
        let reply = post_raw(&app, "/v1/encounters", Some("application/json"), body).await;
        reply.assert_problem(400, Some(field), case);
    }
    let nested = app.post_json("/v1/dice/roll", &json!({"expression": "1d6", "rolls": [1, "two"]})).await;
    nested.assert_problem(400, Some("rolls[1]"), "nested path");
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(0));
}

#[tokio::test]

async fn a_json_array_body_is_refused() {
    let app = spawn_app().await;

    let reply = app.post_json("/v1/encounters", &json!(["arrgs", "Positional"])).await;

    reply.assert_problem(400, Some("body"), "array body");
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(0));
}

#[tokio::test]
async fn a_wrong_method_on_a_known_path_is_405_with_allow() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Methods").await;
    let cases = [
        (Method::PUT, format!("/v1/encounters/{encounter}"), "GET, DELETE"),
        (Method::PATCH, format!("/v1/encounters/{encounter}"), "GET, DELETE"),
        (Method::DELETE, "/v1/encounters".to_owned(), "GET, POST"),
        (Method::GET, "/v1/dice/roll".to_owned(), "POST"),
        (Method::POST, "/healthz".to_owned(), "GET"),
        (Method::POST, "/openapi.json".to_owned(), "GET"),
        (Method::GET, format!("/v1/encounters/{encounter}/advance"), "POST"),
        (Method::PUT, format!("/v1/encounters/{encounter}/combatants/cmb_x"), "PATCH, DELETE"),
        (Method::POST, format!("/v1/encounters/{encounter}/events"), "GET"),
        (Method::GET, "/v1/rulesets/cepheus-engine/nothing".to_owned(), "POST"),
        (Method::GET, "/v1/rulesets/cepheus-engine/attacks".to_owned(), "POST"),
        (Method::DELETE, "/v1/rulesets/lur-asko/attacks".to_owned(), "POST"),
        (Method::GET, format!("/v1/encounters/{encounter}/arrgs/attacks"), "POST"),
        (Method::POST, "/v1/rulesets".to_owned(), "GET"),
    ];

    for (method, path, allow) in cases {
        let case = format!("{method} {path}");
        let reply = app.send(method, &path, None, &[]).await;

        reply.assert_problem(405, None, &case);
        assert_eq!(reply.header("allow"), Some(allow), "{case}");
        assert_eq!(reply.body["type"], json!("urn:skirmish:problem:method-not-allowed"), "{case}");
    }
    assert_eq!(app.encounter(&encounter).await["version"], json!(1));
}

#[tokio::test]
async fn an_unknown_path_is_a_404_problem() {
    let app = spawn_app().await;

    let paths = [
        "/v2/encounters",
        "/v1/encounters/enc_x/combatants/cmb_x/extra",
        "/v1/rulesets/cepheus-engine/attacks/extra",
        "/v1/rulesets/nothing",
        "/v1/rulesets/",
        "/v1/nothing",
        "/",
    ];
    for path in paths {
        let reply = app.get(path).await;

        reply.assert_problem(404, None, path);
        assert_eq!(reply.body["type"], json!("urn:skirmish:problem:not-found"), "{path}");
    }
}

#[tokio::test]

async fn a_trailing_slash_path_is_not_found_rather_than_405() {
    let app = spawn_app().await;

    let reply = app.get("/v1/encounters/").await;

    reply.assert_problem(404, None, "GET /v1/encounters/");
}

#[tokio::test]
async fn a_compressed_body_is_refused_with_415_naming_content_encoding() {
    let app = spawn_app().await;
    let body = br#"{"ruleset": "arrgs", "name": "Zipped"}"#.to_vec();
    let send = |encoding: &'static str| {
        let request = app.request(Method::POST, "/v1/encounters").header("Content-Encoding", encoding);
        let request = request.header("Content-Type", "application/json").body(body.clone());
        async move { crate::helpers::Reply::read(request.send().await.unwrap()).await }
    };

    for encoding in ["br", "gzip", "deflate", "identity, gzip"] {
        let reply = send(encoding).await;

        reply.assert_problem(415, Some("Content-Encoding"), encoding);
        assert_eq!(reply.body["type"], json!("urn:skirmish:problem:unsupported-media-type"));
    }
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(0));
    assert_eq!(send("identity").await.status, 201, "identity is no encoding at all");
}

#[tokio::test]
async fn a_charset_other_than_utf8_is_refused_with_415() {
    let app = spawn_app().await;
    let body = br#"{"ruleset": "arrgs", "name": "Charset"}"#;

    for content_type in ["application/json; charset=iso-8859-1", "application/json;charset=\"UTF-16\""] {
        let reply = post_raw(&app, "/v1/encounters", Some(content_type), body).await;

        reply.assert_problem(415, Some("Content-Type"), content_type);
    }
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(0));
    for content_type in ["application/json; charset=utf-8", "application/json; charset=\"UTF-8\""] {
        let reply = post_raw(&app, "/v1/encounters", Some(content_type), body).await;

        assert_eq!(reply.status, 201, "{content_type}: {}", reply.body);
    }
}
