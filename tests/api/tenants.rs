//! Tenants and API keys: a key acts for its tenant, every encounter belongs to its creator's
//! tenant, and without a valid key nothing under /v1 answers (except in open mode: no key at
//! all and a loopback address).

use crate::helpers::{
    AsKey, Reply, cepheus, loopback_settings, spawn_app, spawn_app_with_keys, temp_db, text,
};
use reqwest::Method;
use serde_json::{Value, json};
use skirmish_api::keys::{KeysCommand, run as run_keys};
use skirmish_api::{Application, StartupError};

/// Asserts the 401 every refused key gets.
#[track_caller]
fn assert_unauthorized(reply: &Reply, case: &str) {
    reply.assert_problem(401, None, case);
    assert_eq!(reply.header("www-authenticate"), Some("Bearer"), "{case}: WWW-Authenticate");
    assert_eq!(reply.body["type"], json!("urn:skirmish:problem:unauthorized"), "{case}: type");
}

/// An encounter of `owner` with a combatant and an effect: (encounter, combatant, effect).
async fn owned_encounter(owner: &AsKey<'_>) -> (String, String, String) {
    let encounter = owner.create_encounter_id("cepheus-engine", "Private fight").await;
    let ash = owner.add_combatant(&encounter, "Ash", "crew", cepheus(7)).await;
    let effect = owner
        .post_json(
            &format!("/v1/encounters/{encounter}/effects"),
            &json!({"name": "prone", "ends": {"ends": "end_of_round"}}),
        )
        .await
        .expect_status(201, "add effect");
    (encounter, ash, text(&effect.body["effect"]["id"]))
}

/// Every route that names an encounter, with a body that would succeed for its owner.
fn encounter_routes(encounter: &str, combatant: &str, effect: &str) -> Vec<(Method, String, Option<Value>)> {
    let base = format!("/v1/encounters/{encounter}");
    vec![
        (Method::GET, base.clone(), None),
        (Method::GET, format!("{base}/events"), None),
        (
            Method::POST,
            format!("{base}/combatants"),
            Some(json!({"name": "Mole", "side": "spy", "stats": cepheus(7)})),
        ),
        (Method::PATCH, format!("{base}/combatants/{combatant}"), Some(json!({"name": "Renamed"}))),
        (Method::DELETE, format!("{base}/combatants/{combatant}"), None),
        (Method::POST, format!("{base}/initiative"), Some(json!({"seed": 1}))),
        (Method::POST, format!("{base}/advance"), Some(json!({"to": "next_turn"}))),
        (
            Method::POST,
            format!("{base}/effects"),
            Some(json!({"name": "blinded", "ends": {"ends": "end_of_round"}})),
        ),
        (Method::DELETE, format!("{base}/effects/{effect}"), None),
        (Method::POST, format!("{base}/attacks"), Some(json!({}))),
        (Method::POST, format!("{base}/damage"), Some(json!({}))),
        (Method::POST, format!("{base}/actions"), Some(json!({}))),
        (Method::DELETE, base, None),
    ]
}

#[tokio::test]
async fn once_a_key_exists_every_v1_route_refuses_a_request_without_one() {
    let (app, keys) = spawn_app_with_keys(&["alpha"]).await;
    let alpha = app.with_key(&keys[0]);
    let (encounter, ash, effect) = owned_encounter(&alpha).await;
    let before = alpha.snapshot(&encounter).await;
    let mut routes = encounter_routes(&encounter, &ash, &effect);
    routes.extend([
        (Method::GET, "/v1/encounters".to_owned(), None),
        (Method::POST, "/v1/encounters".to_owned(), Some(json!({"ruleset": "arrgs", "name": "Sneaky"}))),
        (Method::GET, "/v1/rulesets".to_owned(), None),
        (Method::POST, "/v1/rulesets/arrgs/attacks".to_owned(), Some(json!({}))),
        (Method::POST, "/v1/rulesets/arrgs/damage".to_owned(), Some(json!({}))),
        (Method::POST, "/v1/dice/roll".to_owned(), Some(json!({"expression": "1d20"}))),
    ]);

    for (method, path, body) in routes {
        let case = format!("{method} {path} without a key");
        let reply = app.send(method, &path, body.as_ref(), &[]).await;

        assert_unauthorized(&reply, &case);
        assert_eq!(reply.body["detail"], json!("send an API key: Authorization: Bearer <key>"), "{case}");
    }
    assert_eq!(alpha.snapshot(&encounter).await, before);
    assert_eq!(alpha.get("/v1/encounters").await.body["total"], json!(1));
}

#[tokio::test]
async fn an_unknown_or_malformed_key_is_refused_with_401_and_changes_nothing() {
    let (app, keys) = spawn_app_with_keys(&["alpha"]).await;
    let secret = keys[0].secret.clone();
    let cases = [
        ("Bearer sk_unknown".to_owned(), "the API key is unknown or revoked", "an unknown key"),
        (format!("Bearer {secret}x"), "the API key is unknown or revoked", "the key with one more character"),
        (
            format!("Bearer {}", &secret[1..]),
            "the API key is unknown or revoked",
            "the key less its first character",
        ),
        (secret.clone(), "expected Authorization: Bearer <key>", "the key without a scheme"),
        (format!("Token {secret}"), "expected Authorization: Bearer <key>", "another scheme"),
        ("Basic YWxwaGE6c2VjcmV0".to_owned(), "expected Authorization: Bearer <key>", "basic auth"),
        ("Bearer".to_owned(), "expected Authorization: Bearer <key>", "the scheme alone"),
        (String::new(), "expected Authorization: Bearer <key>", "an empty header"),
    ];

    for (authorization, detail, case) in cases {
        let body = json!({"ruleset": "arrgs", "name": "Forged"});
        let reply =
            app.send(Method::POST, "/v1/encounters", Some(&body), &[("Authorization", &authorization)]).await;

        assert_unauthorized(&reply, case);
        assert_eq!(reply.body["detail"], json!(detail), "{case}");
    }
    assert_eq!(app.with_key(&keys[0]).get("/v1/encounters").await.body["total"], json!(0));
}

#[tokio::test]
async fn a_key_acts_for_its_tenant_whatever_the_case_of_the_bearer_scheme() {
    let (app, keys) = spawn_app_with_keys(&["alpha"]).await;
    let secret = &keys[0].secret;

    for scheme in ["Bearer", "bearer", "BEARER"] {
        let authorization = format!("{scheme} {secret}");
        let body = json!({"ruleset": "arrgs", "name": scheme});
        let reply =
            app.send(Method::POST, "/v1/encounters", Some(&body), &[("Authorization", &authorization)]).await;

        assert_eq!(reply.status, 201, "{scheme}: {}", reply.body);
    }
    let list = app.with_key(&keys[0]).get("/v1/encounters").await.body;
    let names: Vec<Value> = list["items"].as_array().unwrap().iter().map(|e| e["name"].clone()).collect();
    assert_eq!(names, [json!("BEARER"), json!("bearer"), json!("Bearer")], "newest first");
}

#[tokio::test]
async fn the_health_check_and_the_api_document_need_no_key() {
    let (app, _keys) = spawn_app_with_keys(&["alpha"]).await;

    let health = app.get("/healthz").await;
    let spec = app.get("/openapi.json").await;

    assert_eq!((health.status, health.body["status"].clone()), (200, json!("ok")));
    assert_eq!(spec.status, 200);
    assert!(spec.body["paths"]["/v1/encounters"].is_object(), "the document lists the routes");
}

#[tokio::test]
async fn another_tenants_encounter_is_not_found_on_every_route_and_left_untouched() {
    let (app, keys) = spawn_app_with_keys(&["alpha", "beta"]).await;
    let (alpha, beta) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let (encounter, ash, effect) = owned_encounter(&alpha).await;
    let before = alpha.snapshot(&encounter).await;
    let missing = beta.get("/v1/encounters/enc_0000000000000000").await;

    for (method, path, body) in encounter_routes(&encounter, &ash, &effect) {
        let case = format!("beta: {method} {path}");
        let reply = beta.send(method, &path, body.as_ref(), &[]).await;

        reply.assert_problem(404, None, &case);
        assert_eq!(reply.body, missing.body, "{case}: indistinguishable from a missing encounter");
        assert_eq!(alpha.snapshot(&encounter).await, before, "{case}: nothing changed");
    }
}

#[tokio::test]
async fn another_tenant_cannot_learn_an_encounters_version_through_if_match() {
    let (app, keys) = spawn_app_with_keys(&["alpha", "beta"]).await;
    let (alpha, beta) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let (encounter, ash, _) = owned_encounter(&alpha).await;
    let path = format!("/v1/encounters/{encounter}/combatants/{ash}");

    for if_match in ["\"1\"", "\"3\"", "*"] {
        let reply =
            beta.send(Method::PATCH, &path, Some(&json!({"hidden": true})), &[("If-Match", if_match)]).await;

        reply.assert_problem(404, None, if_match);
        assert_eq!(reply.body.get("current_version"), None, "{if_match}");
    }
    assert_eq!(alpha.encounter(&encounter).await["version"], json!(3));
}

#[tokio::test]
async fn another_tenant_lists_none_of_the_encounters() {
    let (app, keys) = spawn_app_with_keys(&["alpha", "beta"]).await;
    let (alpha, beta) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    for name in ["One", "Two", "Three"] {
        alpha.create_encounter_id("arrgs", name).await;
    }
    let own = beta.create_encounter_id("arrgs", "Beta's own").await;

    let seen_by_beta = beta.get("/v1/encounters").await.expect_status(200, "beta lists").body;
    let seen_by_alpha = alpha.get("/v1/encounters?limit=100").await.expect_status(200, "alpha lists").body;

    assert_eq!(seen_by_beta["total"], json!(1));
    assert_eq!(seen_by_beta["items"].as_array().unwrap().len(), 1);
    assert_eq!(seen_by_beta["items"][0]["id"], json!(own));
    assert_eq!(seen_by_alpha["total"], json!(3));
    let names: Vec<Value> =
        seen_by_alpha["items"].as_array().unwrap().iter().map(|e| e["name"].clone()).collect();
    assert_eq!(names, [json!("Three"), json!("Two"), json!("One")], "newest first");
}

#[tokio::test]
async fn a_tenant_with_no_encounters_gets_an_empty_list() {
    let (app, keys) = spawn_app_with_keys(&["alpha", "beta"]).await;
    app.with_key(&keys[0]).create_encounter_id("arrgs", "Alpha's").await;

    let list = app.with_key(&keys[1]).get("/v1/encounters").await.expect_status(200, "list").body;

    assert_eq!(
        list,
        json!({"items": [], "total": 0, "limit": 20, "offset": 0, "next_offset": null, "next_cursor": null})
    );
}

#[tokio::test]
async fn two_keys_of_one_tenant_share_its_encounters() {
    let (app, keys) = spawn_app_with_keys(&["alpha", "alpha", "beta"]).await;
    let (first, second) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let encounter = first.create_encounter_id("cepheus-engine", "Shared").await;

    second.add_combatant(&encounter, "Ash", "crew", cepheus(7)).await;

    let seen = first.encounter(&encounter).await;
    assert_eq!(seen["version"], json!(2));
    assert_eq!(seen["combatants"][0]["name"], json!("Ash"));
    assert_eq!(second.get("/v1/encounters").await.body["total"], json!(1));
    assert_eq!(app.with_key(&keys[2]).get(&format!("/v1/encounters/{encounter}")).await.status, 404);
}

#[tokio::test]
async fn revoking_the_last_key_locks_the_server_instead_of_reopening_it() {
    let (app, keys) = spawn_app_with_keys(&["alpha"]).await;
    assert!(app.store().revoke_key(&keys[0].id).unwrap(), "the key was active");

    let keyless = app.get("/v1/encounters").await;
    assert_unauthorized(&keyless, "no key after the last key was revoked");
    assert_eq!(keyless.body["detail"], json!("send an API key: Authorization: Bearer <key>"));
    assert_unauthorized(&app.with_key(&keys[0]).get("/v1/encounters").await, "the revoked key");
}

#[tokio::test]
async fn a_key_revoked_while_the_server_runs_is_refused_on_its_next_request() {
    let (app, keys) = spawn_app_with_keys(&["alpha", "alpha"]).await;
    let (revoked, kept) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let encounter = revoked.create_encounter_id("arrgs", "Before revocation").await;
    revoked.encounter(&encounter).await;

    assert!(app.store().revoke_key(&keys[0].id).unwrap(), "the key was active");

    let reply = revoked.get(&format!("/v1/encounters/{encounter}")).await;
    assert_unauthorized(&reply, "a revoked key");
    assert_eq!(reply.body["detail"], json!("the API key is unknown or revoked"));
    let write = revoked.post_json("/v1/encounters", &json!({"ruleset": "arrgs", "name": "After"})).await;
    assert_unauthorized(&write, "a revoked key writing");
    assert_eq!(
        kept.get("/v1/encounters").await.body["total"],
        json!(1),
        "the tenant's other key still works"
    );
}

#[tokio::test]
async fn a_key_made_by_keys_create_while_the_server_runs_works_at_once_and_is_never_listed() {
    let (app, keys) = spawn_app_with_keys(&["alpha"]).await;
    let store = app.store();

    let printed = run_keys(&store, KeysCommand::Create { tenant: "guild".into() }).unwrap();
    let secret = printed.lines().nth(1).unwrap().to_owned();
    let bearer = format!("Bearer {secret}");
    let auth = [("Authorization", bearer.as_str())];

    let body = json!({"ruleset": "arrgs", "name": "Guild fight"});
    let created = app.send(Method::POST, "/v1/encounters", Some(&body), &auth).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let listed = app.send(Method::GET, "/v1/encounters", None, &auth).await;
    assert_eq!(listed.body["total"], json!(1));
    assert_eq!(app.with_key(&keys[0]).get("/v1/encounters").await.body["total"], json!(0), "alpha sees none");
    let list = run_keys(&store, KeysCommand::List).unwrap();
    assert!(list.contains("guild") && !list.contains(&secret), "listed without its secret: {list}");

    let key_id = printed.split_whitespace().nth(1).unwrap().to_owned();
    run_keys(&store, KeysCommand::Revoke { key_id }).unwrap();
    assert_unauthorized(
        &app.send(Method::GET, "/v1/encounters", None, &auth).await,
        "revoked by the command",
    );
}

#[tokio::test]
async fn open_mode_acts_as_the_default_tenant_whose_key_keeps_access_once_keys_exist() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Made in open mode").await;
    let store = app.store();
    store.create_key("key_default", "default", "sk_default_tenant").unwrap();
    store.create_key("key_other", "other", "sk_other_tenant").unwrap();
    let path = format!("/v1/encounters/{encounter}");

    assert_unauthorized(&app.get(&path).await, "no key once keys exist");
    let default = app.send(Method::GET, &path, None, &[("Authorization", "Bearer sk_default_tenant")]).await;
    assert_eq!((default.status, default.body["name"].clone()), (200, json!("Made in open mode")));
    let other = app.send(Method::GET, &path, None, &[("Authorization", "Bearer sk_other_tenant")]).await;
    other.assert_problem(404, None, "another tenant");
}

#[tokio::test]
async fn an_unknown_key_is_refused_even_in_open_mode() {
    let app = spawn_app().await;

    let reply = app.send(Method::GET, "/v1/encounters", None, &[("Authorization", "Bearer sk_guess")]).await;

    assert_unauthorized(&reply, "an unknown key in open mode");
    assert_eq!(app.get("/v1/encounters").await.status, 200, "no key at all is still fine");
}

#[tokio::test]
async fn open_mode_refuses_to_start_on_a_non_loopback_address_before_listening() {
    for bind in ["0.0.0.0:0", "[::]:0"] {
        let (_dir, db_path) = temp_db();
        let mut settings = loopback_settings(&db_path);
        settings.bind = bind.to_owned();

        let built = Application::build(&settings);

        match built {
            Err(StartupError::OpenModeNotLoopback { address }) => {
                assert_eq!(address, bind);
                let message = StartupError::OpenModeNotLoopback { address }.to_string();
                assert!(message.contains("skirmish keys create --tenant NAME"), "{bind}: {message}");
            }
            Err(other) => panic!("{bind}: expected OpenModeNotLoopback, got {other}"),
            Ok(app) => panic!("{bind}: an open server was built on {}", app.address()),
        }
    }
}

#[tokio::test]
async fn open_mode_on_loopback_needs_no_key() {
    let app = spawn_app().await;

    let created = app.post_json("/v1/encounters", &json!({"ruleset": "arrgs", "name": "Open"})).await;

    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(1));
}

#[tokio::test]
async fn a_request_without_a_key_is_refused_with_401_before_its_body_or_headers_are_checked() {
    let (app, _keys) = spawn_app_with_keys(&["alpha"]).await;
    let oversized = format!("{{\"ruleset\": \"arrgs\", \"name\": \"{}\"}}", "n".repeat(70_000)).into_bytes();
    let raw_cases = [
        (Some("application/json"), b"not json".to_vec(), "malformed JSON"),
        (Some("text/plain"), br#"{"ruleset": "arrgs", "name": "x"}"#.to_vec(), "a non-JSON content type"),
        (Some("application/json"), oversized, "a body over 64 KiB"),
    ];
    let body = json!({"ruleset": "arrgs", "name": "x"});

    for (content_type, bytes, case) in raw_cases {
        let reply = app.send_raw(Method::POST, "/v1/encounters", content_type, bytes).await;
        assert_unauthorized(&reply, case);
    }
    let bad_key = app.send(Method::POST, "/v1/encounters", Some(&body), &[("Idempotency-Key", "a b")]).await;
    assert_unauthorized(&bad_key, "a malformed Idempotency-Key");
    let path = "/v1/encounters/enc_0000000000000000/combatants/cmb_0000000000000000";
    let bad_if_match = app.send(Method::PATCH, path, Some(&json!({})), &[("If-Match", "abc")]).await;
    assert_unauthorized(&bad_if_match, "a malformed If-Match");
}
