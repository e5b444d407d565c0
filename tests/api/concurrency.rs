//! Versions, ETags and If-Match: every change bumps the version and says so; a stale
//! If-Match changes nothing.

use crate::helpers::{Reply, TestApp, cepheus, pluck, spawn_app, text};
use reqwest::Method;
use serde_json::{Value, json};

/// Asserts a successful change to `version`, with a matching ETag.
#[track_caller]
fn assert_version(reply: &Reply, version: i64, what: &str) {
    assert!(matches!(reply.status, 200 | 201), "{what}: status {}; {}", reply.status, reply.body);
    assert_eq!(reply.body["version"], json!(version), "{what}: version");
    assert_eq!(reply.etag(), Some(format!("\"{version}\"").as_str()), "{what}: ETag");
}

/// An encounter with Ash and Kane, initiative rolled, and an effect: (encounter, ash, effect).
async fn busy_encounter(app: &TestApp) -> (String, String, String) {
    let encounter = app.create_encounter_id("cepheus-engine", "Versions").await;
    let ash = app.add_combatant(&encounter, "Ash", "crew", cepheus(7)).await;
    app.add_combatant(&encounter, "Kane", "crew", cepheus(8)).await;
    app.roll_initiative(&encounter, json!({"rolls": [6, 6, 1, 1]})).await;
    let effect = app.add_effect(&encounter, json!({"name": "prone", "ends": {"ends": "end_of_round"}})).await;
    (encounter, ash, effect)
}

#[tokio::test]
async fn every_change_returns_the_next_version_and_a_matching_etag() {
    let app = spawn_app().await;
    let created = app.post_json("/v1/encounters", &json!({"ruleset": "cepheus-engine", "name": "V"})).await;
    assert_version(&created, 1, "create");
    let id = text(&created.body["id"]);
    let base = format!("/v1/encounters/{id}");

    let add = app
        .post_json(&format!("{base}/combatants"), &json!({"name": "Ash", "side": "c", "stats": cepheus(7)}))
        .await;
    assert_version(&add, 2, "add combatant");
    let ash = text(&add.body["combatant"]["id"]);
    let kane = app
        .post_json(&format!("{base}/combatants"), &json!({"name": "Kane", "side": "c", "stats": cepheus(8)}))
        .await;
    assert_version(&kane, 3, "add another");
    assert_version(
        &app.patch_json(&format!("{base}/combatants/{ash}"), &json!({"hidden": true})).await,
        4,
        "patch",
    );
    assert_version(&app.post_json(&format!("{base}/initiative"), &json!({"seed": 5})).await, 5, "initiative");
    let effect = app
        .post_json(&format!("{base}/effects"), &json!({"name": "p", "ends": {"ends": "end_of_round"}}))
        .await;
    assert_version(&effect, 6, "add effect");
    let effect_id = text(&effect.body["effect"]["id"]);
    assert_version(&app.delete(&format!("{base}/effects/{effect_id}")).await, 7, "remove effect");
    assert_version(&app.post_json(&format!("{base}/advance"), &json!({})).await, 8, "advance");
    let kane_id = text(&kane.body["combatant"]["id"]);
    assert_version(&app.delete(&format!("{base}/combatants/{kane_id}")).await, 9, "remove combatant");
    assert_version(
        &app.post_json(&format!("{base}/advance"), &json!({"to": "end_encounter"})).await,
        10,
        "end",
    );

    let read = app.get(&base).await;
    assert_eq!((read.body["version"].clone(), read.etag()), (json!(10), Some("\"10\"")));
}

#[tokio::test]
async fn a_current_if_match_is_accepted_in_every_form() {
    let app = spawn_app().await;
    let (encounter, ash, _) = busy_encounter(&app).await;
    let path = format!("/v1/encounters/{encounter}/combatants/{ash}");
    let forms = ["\"5\"", "W/\"6\"", "7", "*"];

    for (offset, if_match) in forms.into_iter().enumerate() {
        let reply =
            app.send(Method::PATCH, &path, Some(&json!({"hidden": true})), &[("If-Match", if_match)]).await;
        assert_version(&reply, 6 + offset as i64, if_match);
    }
}

#[tokio::test]
async fn a_stale_if_match_is_refused_on_every_change_and_changes_nothing() {
    let app = spawn_app().await;
    let (encounter, ash, effect) = busy_encounter(&app).await;
    let base = format!("/v1/encounters/{encounter}");
    let before = app.snapshot(&encounter).await;
    let stale = [("If-Match", "\"4\"")];
    let add = json!({"name": "Lamb", "side": "c", "stats": cepheus(7)});
    let requests: Vec<(Method, String, Option<Value>)> = vec![
        (Method::POST, format!("{base}/combatants"), Some(add)),
        (Method::PATCH, format!("{base}/combatants/{ash}"), Some(json!({"defeated": true}))),
        (Method::DELETE, format!("{base}/combatants/{ash}"), None),
        (Method::POST, format!("{base}/initiative"), Some(json!({"seed": 1}))),
        (Method::POST, format!("{base}/advance"), Some(json!({"to": "next_turn"}))),
        (
            Method::POST,
            format!("{base}/effects"),
            Some(json!({"name": "x", "ends": {"ends": "end_of_round"}})),
        ),
        (Method::DELETE, format!("{base}/effects/{effect}"), None),
    ];

    for (method, path, body) in requests {
        let case = format!("{method} {path}");
        let reply = app.send(method, &path, body.as_ref(), &stale).await;
        reply.assert_problem(412, Some("If-Match"), &case);
        assert_eq!(reply.body["current_version"], json!(5), "{case}");
        assert_eq!(reply.body["type"], json!("urn:skirmish:problem:stale-version"), "{case}");
        assert_eq!(app.snapshot(&encounter).await, before, "{case}: nothing changed");
    }
}

#[tokio::test]
async fn a_malformed_if_match_is_a_bad_request() {
    let app = spawn_app().await;
    let (encounter, ash, _) = busy_encounter(&app).await;
    let path = format!("/v1/encounters/{encounter}/combatants/{ash}");
    let before = app.snapshot(&encounter).await;

    for if_match in ["abc", "\"five\"", "W/", "\"1.5\""] {
        let reply =
            app.send(Method::PATCH, &path, Some(&json!({"hidden": true})), &[("If-Match", if_match)]).await;
        reply.assert_problem(400, Some("If-Match"), if_match);
        assert_eq!(app.snapshot(&encounter).await, before, "{if_match}: nothing changed");
    }
}

#[tokio::test]
async fn only_one_of_several_writers_with_the_same_if_match_wins() {
    let app = spawn_app().await;
    let (encounter, ash, _) = busy_encounter(&app).await;
    let url = format!("{}/v1/encounters/{encounter}/combatants/{ash}", app.address);
    let mut tasks = Vec::new();
    for n in 0..6 {
        let request =
            app.client.patch(&url).header("If-Match", "\"5\"").json(&json!({"name": format!("Ash {n}")}));
        tasks.push(tokio::spawn(async move { request.send().await.map(|r| r.status().as_u16()) }));
    }

    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.unwrap().unwrap());
    }

    statuses.sort_unstable();
    assert_eq!(statuses, [200, 412, 412, 412, 412, 412]);
    let stored = app.encounter(&encounter).await;
    assert_eq!(stored["version"], json!(6));
    assert_eq!(app.events(&encounter).await.len(), 7, "exactly one combatant_updated was logged");
}

#[tokio::test]
async fn concurrent_writers_without_if_match_are_applied_one_after_another() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Crowd").await;
    let url = format!("{}/v1/encounters/{encounter}/combatants", app.address);
    let mut tasks = Vec::new();
    for n in 0..8 {
        let request =
            app.client.post(&url).json(&json!({"name": format!("Extra {n}"), "side": "crowd", "stats": {}}));
        tasks.push(tokio::spawn(async move {
            let response = request.send().await?;
            response.json::<Value>().await
        }));
    }

    let mut versions = Vec::new();
    for task in tasks {
        versions.push(task.await.unwrap().unwrap()["version"].as_i64().unwrap());
    }

    versions.sort_unstable();
    assert_eq!(versions, (2..=9).collect::<Vec<_>>());
    let log = app.events(&encounter).await;
    assert_eq!(pluck(&Value::from(log), "seq"), (1..=9).map(|n| json!(n)).collect::<Vec<_>>());
    assert_eq!(app.encounter(&encounter).await["combatants"].as_array().unwrap().len(), 8);
}

#[tokio::test]
async fn an_invalid_body_with_a_stale_if_match_is_refused_for_the_body_not_the_version() {
    // RFC 9110 13.2.1: preconditions are ignored when the request would fail without them.
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Order of checks").await;
    let path = format!("/v1/encounters/{encounter}/effects");
    let body = json!({"name": "", "ends": {"ends": "end_of_round"}});

    let reply = app.send(Method::POST, &path, Some(&body), &[("If-Match", "\"99\"")]).await;

    assert_eq!((reply.status, &reply.body["field"]), (422, &json!("name")), "{}", reply.body);
}

#[tokio::test]
async fn a_412_names_if_match_as_the_field_at_fault() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Field").await;
    let path = format!("/v1/encounters/{encounter}/effects");
    let body = json!({"name": "stunned", "ends": {"ends": "end_of_round"}});

    let reply = app.send(Method::POST, &path, Some(&body), &[("If-Match", "\"7\"")]).await;

    reply.assert_problem(412, Some("If-Match"), "stale If-Match");
    assert_eq!(reply.body["detail"], json!("the encounter is at version 1, not 7"));
    assert_eq!(reply.body["current_version"], json!(1));
}

/// Readers racing a writer: each read is one whole version — its body and its ETag agree, two
/// reads of one version are the same body (kept bodies never outlive their version), a reader
/// never sees a version go backwards, and the read after the writer is done sees its last change.
#[tokio::test]
async fn reads_racing_changes_each_see_one_whole_version() {
    let app = spawn_app().await;
    let (encounter, _, _) = busy_encounter(&app).await;
    let path = format!("/v1/encounters/{encounter}");
    let before = app.get(&path).await.body["version"].as_i64().unwrap();
    let advance = format!("{path}/advance");

    let writes = async {
        for _ in 0..30 {
            let reply = app.post_json(&advance, &json!({})).await;
            assert_eq!(reply.status, 200, "{}", reply.body);
        }
    };
    let reads = async {
        let mut seen = Vec::new();
        for _ in 0..60 {
            seen.push(app.get(&path).await);
        }
        seen
    };
    let ((), seen) = tokio::join!(writes, reads);
    let last = app.get(&path).await;

    let mut bodies = std::collections::HashMap::new();
    let mut previous = before;
    for reply in &seen {
        let version = reply.body["version"].as_i64().unwrap();
        assert_eq!(reply.etag(), Some(format!("\"{version}\"").as_str()), "body and ETag agree");
        assert!(version >= previous, "version {version} read after {previous}");
        previous = version;
        if let Some(earlier) = bodies.insert(version, reply.body.clone()) {
            assert_eq!(earlier, reply.body, "two reads of version {version} differ");
        }
    }
    assert_eq!(last.body["version"], json!(before + 30));
}
