//! Idempotency-Key on POSTs: a retry replays the first response and applies nothing again, even
//! when it races the first request or comes after a restart; keys are per tenant.

use crate::helpers::{Reply, TestApp, cepheus, concurrently, spawn_app, spawn_app_with_keys, text};
use reqwest::Method;
use reqwest::header::HeaderValue;
use serde_json::{Value, json};

/// POSTs `body` to `path` with this Idempotency-Key.
async fn post_with_key(app: &TestApp, path: &str, body: &Value, key: &str) -> Reply {
    app.send(Method::POST, path, Some(body), &[("Idempotency-Key", key)]).await
}

/// Asserts `retry` is a replay of `first`: same status, body, ETag and Location, marked replayed.
#[track_caller]
fn assert_replay(first: &Reply, retry: &Reply, case: &str) {
    assert!((200..300).contains(&first.status), "{case}: first status {}; {}", first.status, first.body);
    assert_eq!(first.header("idempotent-replayed"), None, "{case}: the first response is no replay");
    assert_eq!(retry.status, first.status, "{case}: status");
    assert_eq!(retry.body, first.body, "{case}: body");
    assert_eq!(retry.etag(), first.etag(), "{case}: ETag");
    assert_eq!(retry.header("location"), first.header("location"), "{case}: Location");
    assert_eq!(retry.header("content-type"), Some("application/json"), "{case}: content type");
    assert_eq!(retry.header("idempotent-replayed"), Some("true"), "{case}: marked replayed");
}

fn ash() -> Value {
    json!({"name": "Ash", "side": "crew", "stats": cepheus(7)})
}

#[tokio::test]
async fn a_retried_post_replays_the_first_response_and_applies_nothing_again() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Retries").await;
    let path = format!("/v1/encounters/{encounter}/combatants");

    let first = post_with_key(&app, &path, &ash(), "add-ash-1").await;
    let retry = post_with_key(&app, &path, &ash(), "add-ash-1").await;
    let again = post_with_key(&app, &path, &ash(), "add-ash-1").await;

    assert_eq!(first.status, 201, "{}", first.body);
    assert_replay(&first, &retry, "second try");
    assert_replay(&first, &again, "third try");
    assert_eq!(app.event_kinds(&encounter).await, ["encounter_created", "combatant_added"]);
    let stored = app.encounter(&encounter).await;
    assert_eq!(stored["version"], json!(2));
    assert_eq!(stored["combatants"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn every_post_route_replays_with_the_same_key() {
    let app = spawn_app().await;
    let created = post_with_key(
        &app,
        "/v1/encounters",
        &json!({"ruleset": "cepheus-engine", "name": "Every route"}),
        "create",
    )
    .await;
    assert_replay(
        &created,
        &post_with_key(
            &app,
            "/v1/encounters",
            &json!({"ruleset": "cepheus-engine", "name": "Every route"}),
            "create",
        )
        .await,
        "create encounter",
    );
    let encounter = text(&created.body["id"]);
    let base = format!("/v1/encounters/{encounter}");
    let steps = [
        ("add-ash", format!("{base}/combatants"), ash()),
        (
            "add-kane",
            format!("{base}/combatants"),
            json!({"name": "Kane", "side": "crew", "stats": cepheus(9)}),
        ),
        ("initiative", format!("{base}/initiative"), json!({"seed": 3})),
        ("effect", format!("{base}/effects"), json!({"name": "prone", "ends": {"ends": "end_of_round"}})),
        ("advance", format!("{base}/advance"), json!({"to": "next_turn"})),
    ];
    let mut logged = 1;

    for (case, path, body) in &steps {
        let first = post_with_key(&app, path, body, case).await;
        let retry = post_with_key(&app, path, body, case).await;

        assert_replay(&first, &retry, case);
        logged += first.body["events"].as_array().unwrap().len();
    }
    let roll = json!({"expression": "4d6kh3"});
    let dice = post_with_key(&app, "/v1/dice/roll", &roll, "dice").await;
    assert_replay(&dice, &post_with_key(&app, "/v1/dice/roll", &roll, "dice").await, "dice");

    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(1));
    let stored = app.encounter(&encounter).await;
    assert_eq!(stored["version"], json!(6), "one version per distinct change");
    let seqs: Vec<Value> = app.events(&encounter).await.iter().map(|e| e["seq"].clone()).collect();
    assert_eq!(seqs, (1..=logged).map(|n| json!(n)).collect::<Vec<_>>(), "each change logged once");
}

#[tokio::test]
async fn a_retry_after_later_changes_still_replays_the_original_response() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Later").await;
    let path = format!("/v1/encounters/{encounter}/combatants");
    let first = post_with_key(&app, &path, &ash(), "ash").await;
    app.add_combatant(&encounter, "Kane", "crew", cepheus(8)).await;

    let retry = post_with_key(&app, &path, &ash(), "ash").await;

    assert_replay(&first, &retry, "after Kane joined");
    assert_eq!((retry.body["version"].clone(), retry.etag()), (json!(2), Some("\"2\"")));
    assert_eq!(app.encounter(&encounter).await["version"], json!(3));
    assert_eq!(
        app.event_kinds(&encounter).await,
        ["encounter_created", "combatant_added", "combatant_added"]
    );
}

#[tokio::test]
async fn the_same_key_with_another_body_or_path_is_refused_with_422_and_changes_nothing() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Mismatch").await;
    let other = app.create_encounter_id("cepheus-engine", "Elsewhere").await;
    let path = format!("/v1/encounters/{encounter}/combatants");
    post_with_key(&app, &path, &ash(), "k-1").await.expect_status(201, "first use");
    let (before, before_other) = (app.snapshot(&encounter).await, app.snapshot(&other).await);
    let kane = json!({"name": "Kane", "side": "crew", "stats": cepheus(7)});
    let cases = [
        (path.clone(), kane, "another body"),
        (format!("/v1/encounters/{other}/combatants"), ash(), "another encounter"),
        (
            format!("/v1/encounters/{encounter}/effects"),
            json!({"name": "p", "ends": {"ends": "end_of_round"}}),
            "another route",
        ),
        ("/v1/dice/roll".to_owned(), json!({"expression": "1d6"}), "dice"),
        ("/v1/encounters".to_owned(), json!({"ruleset": "arrgs", "name": "New"}), "create"),
    ];

    for (path, body, case) in cases {
        let reply = post_with_key(&app, &path, &body, "k-1").await;

        reply.assert_problem(422, Some("Idempotency-Key"), case);
        assert_eq!(
            reply.body["detail"],
            json!("this key was already used with a different request"),
            "{case}"
        );
    }
    assert_eq!(app.snapshot(&encounter).await, before);
    assert_eq!(app.snapshot(&other).await, before_other);
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(2));
}

#[tokio::test]
async fn idempotency_keys_are_scoped_to_the_tenant() {
    let (app, keys) = spawn_app_with_keys(&["alpha", "beta"]).await;
    let (alpha, beta) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let send = |who: &crate::helpers::AsKey<'_>, name: &str| {
        let body = json!({"ruleset": "arrgs", "name": name});
        let request =
            who.request(Method::POST, "/v1/encounters").header("Idempotency-Key", "create-1").json(&body);
        async move { Reply::read(request.send().await.unwrap()).await }
    };

    let from_alpha = send(&alpha, "Alpha's").await;
    let from_beta = send(&beta, "Beta's").await;
    let alpha_again = send(&alpha, "Alpha's").await;

    assert_eq!((from_alpha.status, from_beta.status), (201, 201));
    assert_eq!(from_beta.header("idempotent-replayed"), None, "beta's first use is no replay of alpha's");
    assert_ne!(from_alpha.body["id"], from_beta.body["id"]);
    assert_eq!(from_beta.body["name"], json!("Beta's"));
    assert_replay(&from_alpha, &alpha_again, "alpha again");
    for (who, name) in [(&alpha, "Alpha's"), (&beta, "Beta's")] {
        let list = who.get("/v1/encounters").await.body;
        assert_eq!((list["total"].clone(), list["items"][0]["name"].clone()), (json!(1), json!(name)));
    }
}

#[tokio::test]
async fn concurrent_requests_with_one_key_apply_once_and_answer_alike() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Racing retries").await;
    let path = format!("/v1/encounters/{encounter}/combatants");
    let requests = (0..10)
        .map(|_| app.request(Method::POST, &path).header("Idempotency-Key", "race").json(&ash()))
        .collect();

    let replies = concurrently(requests).await;

    let (originals, replays): (Vec<&Reply>, Vec<&Reply>) =
        replies.iter().partition(|r| r.header("idempotent-replayed").is_none());
    assert_eq!((originals.len(), replays.len()), (1, 9), "one applied, the rest replayed");
    for replay in replays {
        assert_replay(originals[0], replay, "a racing retry");
    }
    assert_eq!(app.event_kinds(&encounter).await, ["encounter_created", "combatant_added"]);
    assert_eq!(app.encounter(&encounter).await["version"], json!(2));
}

#[tokio::test]
async fn concurrent_creates_with_one_key_make_one_encounter() {
    let app = spawn_app().await;
    let body = json!({"ruleset": "arrgs", "name": "Only once"});
    let requests = (0..5)
        .map(|_| {
            app.request(Method::POST, "/v1/encounters").header("Idempotency-Key", "create-race").json(&body)
        })
        .collect();

    let replies = concurrently(requests).await;

    let ids: Vec<&Value> = replies.iter().map(|r| &r.body["id"]).collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "one id for all: {ids:?}");
    assert_eq!(replies.iter().filter(|r| r.header("idempotent-replayed") == Some("true")).count(), 4);
    assert!(replies.iter().all(|r| r.status == 201));
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(1));
}

#[tokio::test]
async fn an_invalid_idempotency_key_is_a_bad_request_and_changes_nothing() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Bad keys").await;
    let path = format!("/v1/encounters/{encounter}/combatants");
    let before = app.snapshot(&encounter).await;
    let cases = [
        (HeaderValue::from_static(""), "empty"),
        (HeaderValue::from_str(&"k".repeat(256)).unwrap(), "256 characters"),
        (HeaderValue::from_str(&"k".repeat(300)).unwrap(), "300 characters"),
        (HeaderValue::from_static("has space"), "a space inside"),
        (HeaderValue::from_static("tab\there"), "a tab inside"),
        (HeaderValue::from_bytes("clé".as_bytes()).unwrap(), "not ASCII"),
    ];

    for (key, case) in cases {
        for (path, body) in [(path.as_str(), ash()), ("/v1/dice/roll", json!({"expression": "1d6"}))] {
            let request = app.request(Method::POST, path).header("Idempotency-Key", key.clone()).json(&body);
            let reply = Reply::read(request.send().await.unwrap()).await;

            reply.assert_problem(400, Some("Idempotency-Key"), &format!("{case} on {path}"));
            assert_eq!(reply.body["detail"], json!("must be 1 to 255 visible ASCII characters"));
        }
    }
    assert_eq!(app.snapshot(&encounter).await, before);
}

#[tokio::test]
async fn a_key_of_255_visible_characters_is_accepted() {
    let app = spawn_app().await;
    let key: String = ('!'..='~').cycle().take(255).collect();
    let body = json!({"ruleset": "arrgs", "name": "Long key"});

    let first = post_with_key(&app, "/v1/encounters", &body, &key).await;
    let retry = post_with_key(&app, "/v1/encounters", &body, &key).await;

    assert_eq!(first.status, 201, "{}", first.body);
    assert_replay(&first, &retry, "255 characters");
}

#[tokio::test]
async fn a_dice_roll_with_a_key_replays_the_same_dice_without_a_seed() {
    let app = spawn_app().await;
    let roll = json!({"expression": "10d20"});

    let first = post_with_key(&app, "/v1/dice/roll", &roll, "roll-1").await;
    let retry = post_with_key(&app, "/v1/dice/roll", &roll, "roll-1").await;
    let fresh = post_with_key(&app, "/v1/dice/roll", &roll, "roll-2").await;

    assert_eq!(first.status, 200, "{}", first.body);
    assert_replay(&first, &retry, "the same roll");
    assert_eq!(fresh.header("idempotent-replayed"), None);
    assert_ne!(fresh.body["seed"], first.body["seed"], "another key rolls afresh");
}

#[tokio::test]
async fn a_refused_request_is_not_remembered_so_its_retry_runs_again() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Stale").await;
    app.add_combatant(&encounter, "Kane", "crew", cepheus(8)).await;
    let path = format!("/v1/encounters/{encounter}/combatants");
    let send = |if_match: &'static str| {
        let request = app.request(Method::POST, &path).header("If-Match", if_match);
        let request = request.header("Idempotency-Key", "ash").json(&ash());
        async move { Reply::read(request.send().await.unwrap()).await }
    };

    let stale = send("\"1\"").await;
    let current = send("\"2\"").await;
    let retry = send("\"2\"").await;

    stale.assert_problem(412, Some("If-Match"), "stale If-Match");
    assert_eq!(current.status, 201, "{}", current.body);
    assert_eq!(current.header("idempotent-replayed"), None, "the 412 was not stored");
    assert_replay(&current, &retry, "after success");
    assert_eq!(app.encounter(&encounter).await["version"], json!(3));
}

#[tokio::test]
async fn an_invalid_request_is_not_remembered_so_the_key_can_carry_the_corrected_body() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Typo").await;
    let path = format!("/v1/encounters/{encounter}/combatants");
    let typo = json!({"name": "Ash", "side": "crew", "stats": cepheus(99)});

    let refused = post_with_key(&app, &path, &typo, "ash").await;
    let corrected = post_with_key(&app, &path, &ash(), "ash").await;

    refused.assert_problem(422, Some("stats.dex"), "DEX 99");
    assert_eq!(corrected.status, 201, "{}", corrected.body);
    assert_eq!(corrected.header("idempotent-replayed"), None);
    assert_eq!(app.event_kinds(&encounter).await, ["encounter_created", "combatant_added"]);
}

#[tokio::test]
async fn a_replay_survives_a_restart() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Crash").await;
    let path = format!("/v1/encounters/{encounter}/combatants");
    let first = post_with_key(&app, &path, &ash(), "before-restart").await;

    let app = app.restart().await;
    let retry = post_with_key(&app, &path, &ash(), "before-restart").await;

    assert_replay(&first, &retry, "after a restart");
    assert_eq!(app.event_kinds(&encounter).await, ["encounter_created", "combatant_added"]);
}

#[tokio::test]
async fn an_idempotency_key_on_a_patch_or_delete_is_ignored() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Not POST").await;
    let ash = app.add_combatant(&encounter, "Ash", "crew", cepheus(7)).await;
    let kane = app.add_combatant(&encounter, "Kane", "crew", cepheus(8)).await;
    let patch = format!("/v1/encounters/{encounter}/combatants/{ash}");
    let headers = [("Idempotency-Key", "same")];

    let first = app.send(Method::PATCH, &patch, Some(&json!({"hidden": true})), &headers).await;
    let second = app.send(Method::PATCH, &patch, Some(&json!({"hidden": true})), &headers).await;
    let remove = format!("/v1/encounters/{encounter}/combatants/{kane}");
    let deleted = app.send(Method::DELETE, &remove, None, &[("Idempotency-Key", "not even valid")]).await;

    assert_eq!((first.status, first.body["version"].clone()), (200, json!(4)));
    assert_eq!((second.status, second.body["version"].clone()), (200, json!(5)), "applied again");
    assert_eq!(second.header("idempotent-replayed"), None);
    assert_eq!((deleted.status, deleted.body["version"].clone()), (200, json!(6)));
}

#[tokio::test]
async fn a_retry_after_the_encounter_was_deleted_runs_again_instead_of_replaying() {
    let app = spawn_app().await;
    let body = json!({"ruleset": "arrgs", "name": "Gone"});
    let first = post_with_key(&app, "/v1/encounters", &body, "again").await;
    let id = first.body["id"].as_str().unwrap().to_owned();
    assert_eq!(app.delete(&format!("/v1/encounters/{id}")).await.status, 204);

    let retry = post_with_key(&app, "/v1/encounters", &body, "again").await;

    assert_eq!(retry.status, 201);
    assert_eq!(retry.header("Idempotent-Replayed"), None, "nothing left to replay");
    assert_ne!(retry.body["id"], json!(id), "a new encounter, since the old one is gone");
    assert_eq!(app.get(&format!("/v1/encounters/{}", text(&retry.body["id"]))).await.status, 200);
}

#[tokio::test]
async fn the_same_json_with_other_whitespace_and_key_order_replays_instead_of_422() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Canonical").await;
    let path = format!("/v1/encounters/{encounter}/combatants");
    let send = |body: &'static str| {
        let request = app.request(Method::POST, &path).header("Idempotency-Key", "ash-canonical");
        let request = request.header("Content-Type", "application/json").body(body);
        async move { Reply::read(request.send().await.unwrap()).await }
    };
    let compact = r#"{"name":"Ash","side":"crew","stats":{"str":7,"dex":7,"end":7,"int":7,"edu":7,"soc":7}}"#;
    let reordered = r#"{
        "stats": { "soc": 7, "edu": 7, "int": 7, "end": 7, "dex": 7, "str": 7 },
        "side": "crew",   "name": "Ash"
    }"#;
    let other_value =
        r#"{"name":"Ash","side":"crew","stats":{"str":7,"dex":8,"end":7,"int":7,"edu":7,"soc":7}}"#;

    let first = send(compact).await;
    let retry = send(reordered).await;
    let changed = send(other_value).await;

    assert_replay(&first, &retry, "same JSON, other whitespace and key order");
    changed.assert_problem(422, Some("Idempotency-Key"), "another value under the same key");
    assert_eq!(app.encounter(&encounter).await["combatants"].as_array().unwrap().len(), 1);
}
