//! Encounter templates (issue 29 item 3): an encounter's setup kept as a template, listed, read
//! and deleted per tenant, and a new encounter started from it in one request.

use crate::helpers::{TestApp, adeva, cepheus, pluck, spawn_app, spawn_app_with_keys, text};
use reqwest::Method;
use serde_json::{Value, json};

/// A Cepheus Engine fight: Vasquez by hand (public), two drones from a creature (hidden), fought
/// a little (initiative, a turn, an effect, Vasquez defeated).
async fn fought(app: &TestApp) -> (String, String) {
    let creature = json!({"name": "Drone", "ruleset": "cepheus-engine", "stats": cepheus(4), "side": "hostiles", "hidden": true});
    let drone =
        text(&app.post_json("/v1/creatures", &creature).await.expect_status(201, "creature").body["id"]);
    let encounter = app.create_encounter_id("cepheus-engine", "Starport").await;
    let body =
        json!({"name": "Vasquez", "side": "marines", "stats": cepheus(8), "public": true, "surprised": true});
    let vasquez = app.post_json(&format!("/v1/encounters/{encounter}/combatants"), &body).await;
    let vasquez = text(&vasquez.expect_status(201, "Vasquez").body["combatant"]["id"]);
    let from = format!("/v1/encounters/{encounter}/combatants/from-creature");
    app.post_json(&from, &json!({"creature_id": drone, "count": 2})).await.expect_status(201, "drones");
    app.roll_initiative(&encounter, json!({"seed": 7})).await;
    app.advance(&encounter, "next_turn").await;
    app.add_effect(&encounter, json!({"name": "smoke", "ends": {"ends": "end_of_round"}})).await;
    let defeat = app
        .patch_json(&format!("/v1/encounters/{encounter}/combatants/{vasquez}"), &json!({"defeated": true}))
        .await;
    defeat.expect_status(200, "defeat Vasquez");
    (encounter, drone)
}

#[tokio::test]
async fn a_template_keeps_the_setup_and_starts_a_fresh_encounter_in_one_request() {
    let app = spawn_app().await;
    let (encounter, drone) = fought(&app).await;

    let kept = app.post_json("/v1/templates", &json!({"encounter_id": encounter, "name": "Ambush"})).await;
    let kept = kept.expect_status(201, "keep the setup");
    let template = text(&kept.body["id"]);
    assert!(template.starts_with("tpl_"), "{template}");
    assert_eq!(kept.header("location"), Some(format!("/v1/templates/{template}").as_str()));
    let body = &kept.body;
    assert_eq!(
        (body["name"].clone(), body["encounter_name"].clone(), body["ruleset"].clone()),
        (json!("Ambush"), json!("Starport"), json!("cepheus-engine"))
    );
    assert_eq!(pluck(&body["combatants"], "name"), [json!("Vasquez"), json!("Drone 1"), json!("Drone 2")]);
    assert_eq!(
        body["combatants"][0],
        json!({"name": "Vasquez", "side": "marines", "stats": cepheus(8), "surprised": true, "hidden": false,
            "public": true, "creature_id": null, "group": null}),
        "as set up: no defeat, no initiative, no state"
    );
    assert_eq!(
        (body["combatants"][1]["hidden"].clone(), body["combatants"][1]["creature_id"].clone()),
        (json!(true), json!(drone))
    );
    assert_eq!(app.get(&format!("/v1/templates/{template}")).await.expect_status(200, "get").body, kept.body);

    let started = app.post_json(&format!("/v1/templates/{template}/encounters"), &json!({})).await;
    let started = started.expect_status(201, "start from the template");
    let fresh = &started.body;
    let id = text(&fresh["id"]);
    assert_ne!(id, encounter);
    assert_eq!(started.header("location"), Some(format!("/v1/encounters/{id}").as_str()));
    assert_eq!(
        (fresh["name"].clone(), fresh["status"].clone(), fresh["round"].clone()),
        (json!("Starport"), json!("setup"), json!(0))
    );
    assert_eq!(fresh["effects"], json!([]), "effects are the fight's, not the setup's");
    let combatants = fresh["combatants"].as_array().unwrap();
    assert_eq!(pluck(&fresh["combatants"], "name"), [json!("Vasquez"), json!("Drone 1"), json!("Drone 2")]);
    assert_eq!(
        (combatants[0]["defeated"].clone(), combatants[0]["initiative"].clone()),
        (json!(false), Value::Null)
    );
    assert_eq!(
        (combatants[0]["surprised"].clone(), combatants[0]["public"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(combatants[2]["creature_id"], json!(drone));
    let old = app.encounter(&encounter).await;
    assert!(
        combatants.iter().all(|c| !pluck(&old["combatants"], "id").contains(&c["id"])),
        "new combatant ids"
    );
    assert_eq!(
        app.event_kinds(&id).await,
        ["encounter_created", "combatant_added", "combatant_added", "combatant_added"]
    );
    // The fresh encounter runs like any other.
    app.roll_initiative(&id, json!({"seed": 1})).await;
    assert_eq!(app.advance(&id, "next_turn").await["round"], json!(1));

    let named =
        app.post_json(&format!("/v1/templates/{template}/encounters"), &json!({"name": "Session 4"})).await;
    assert_eq!(named.expect_status(201, "named start").body["name"], json!("Session 4"));
    let bodiless = app.send(Method::POST, &format!("/v1/templates/{template}/encounters"), None, &[]).await;
    assert_eq!(bodiless.expect_status(201, "no body").body["name"], json!("Starport"));
}

#[tokio::test]
async fn templates_are_listed_by_name_filtered_by_ruleset_and_deleted() {
    let app = spawn_app().await;
    let cepheus_fight = app.create_encounter_id("cepheus-engine", "Dock").await;
    let adeva_fight = app.create_encounter_id("adeva-d100", "Hive").await;
    app.add_combatant(&adeva_fight, "Sergeant", "guard", adeva(34)).await;
    let mut ids = Vec::new();
    for (encounter, name) in
        [(&cepheus_fight, "zero-g"), (&adeva_fight, "Hive sweep"), (&cepheus_fight, "ambush")]
    {
        let kept = app.post_json("/v1/templates", &json!({"encounter_id": encounter, "name": name})).await;
        ids.push(text(&kept.expect_status(201, name).body["id"]));
    }
    let all = app.get("/v1/templates").await.expect_status(200, "list").body;
    assert_eq!(pluck(&all["items"], "name"), [json!("ambush"), json!("Hive sweep"), json!("zero-g")]);
    let adeva_only = app.get("/v1/templates?ruleset=adeva-d100").await.expect_status(200, "filter").body;
    assert_eq!(pluck(&adeva_only["items"], "name"), [json!("Hive sweep")]);
    assert_eq!(adeva_only["items"][0]["combatants"][0]["stats"]["ag"], json!(34));
    app.get("/v1/templates?ruleset=chess").await.assert_problem(400, Some("ruleset"), "unknown ruleset");

    app.delete(&format!("/v1/templates/{}", ids[0])).await.expect_status(204, "delete");
    app.get(&format!("/v1/templates/{}", ids[0])).await.assert_problem(404, None, "deleted");
    let start = app.post_json(&format!("/v1/templates/{}/encounters", ids[0]), &json!({})).await;
    start.assert_problem(404, None, "start from a deleted template");
    assert_eq!(app.get("/v1/templates").await.body["items"].as_array().map(Vec::len), Some(2));
}

#[tokio::test]
async fn another_tenants_templates_and_encounters_are_not_there() {
    let (app, keys) = spawn_app_with_keys(&["alpha", "beta"]).await;
    let (alpha, beta) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let encounter = alpha.create_encounter_id("cepheus-engine", "Alpha's fight").await;
    alpha.add_combatant(&encounter, "Vasquez", "marines", cepheus(8)).await;
    let kept = alpha.post_json("/v1/templates", &json!({"encounter_id": encounter})).await;
    let template = text(&kept.expect_status(201, "alpha keeps a template").body["id"]);

    let stolen = beta.post_json("/v1/templates", &json!({"encounter_id": encounter})).await;
    stolen.assert_problem(422, Some("encounter_id"), "beta keeps alpha's encounter as a template");
    beta.get(&format!("/v1/templates/{template}")).await.assert_problem(404, None, "beta reads it");
    let start = beta.post_json(&format!("/v1/templates/{template}/encounters"), &json!({})).await;
    start.assert_problem(404, None, "beta starts it");
    beta.send(Method::DELETE, &format!("/v1/templates/{template}"), None, &[])
        .await
        .assert_problem(404, None, "delete");
    assert_eq!(beta.get("/v1/templates").await.body["items"], json!([]));
    assert_eq!(beta.get("/v1/encounters").await.body["total"], json!(0), "beta started nothing");
    alpha.get(&format!("/v1/templates/{template}")).await.expect_status(200, "still alpha's");
}

#[tokio::test]
async fn bad_requests_are_refused_naming_the_field_and_a_retry_keeps_one_template() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Dock").await;
    let cases = [
        (json!({"encounter_id": "enc_nope"}), 422, "encounter_id"),
        (json!({"encounter_id": encounter, "name": " "}), 422, "name"),
        (json!({"encounter_id": encounter, "name": "x".repeat(101)}), 422, "name"),
        (json!({"encounter_id": encounter, "colour": "red"}), 400, "colour"),
        (json!({}), 400, "body"),
    ];
    for (body, status, field) in cases {
        app.post_json("/v1/templates", &body).await.assert_problem(status, Some(field), &body.to_string());
    }
    assert_eq!(app.get("/v1/templates").await.body["items"], json!([]), "no refused template was kept");

    let headers = [("Idempotency-Key", "keep-dock")];
    let body = json!({"encounter_id": encounter});
    let first =
        app.send(Method::POST, "/v1/templates", Some(&body), &headers).await.expect_status(201, "first");
    let again =
        app.send(Method::POST, "/v1/templates", Some(&body), &headers).await.expect_status(201, "retry");
    assert_eq!((again.body.clone(), again.header("idempotent-replayed")), (first.body.clone(), Some("true")));
    assert_eq!(app.get("/v1/templates").await.body["items"].as_array().map(Vec::len), Some(1));
    app.delete(&format!("/v1/templates/{}", text(&first.body["id"]))).await.expect_status(204, "delete");
    let first =
        app.send(Method::POST, "/v1/templates", Some(&body), &headers).await.expect_status(201, "anew");
    assert_eq!(first.header("idempotent-replayed"), None, "a deleted template is kept anew, not replayed");

    let template = text(&first.body["id"]);
    let path = format!("/v1/templates/{template}/encounters");
    app.post_json(&path, &json!({"name": ""})).await.assert_problem(422, Some("name"), "blank name");
    app.post_json(&path, &json!({"rounds": 3})).await.assert_problem(400, Some("rounds"), "unknown field");
    let start_headers = [("Idempotency-Key", "start-dock")];
    let once =
        app.send(Method::POST, &path, Some(&json!({})), &start_headers).await.expect_status(201, "start");
    let twice =
        app.send(Method::POST, &path, Some(&json!({})), &start_headers).await.expect_status(201, "retry");
    assert_eq!(twice.body["id"], once.body["id"], "a retried start starts one encounter");
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(2), "the original and one started");
}

#[tokio::test]
async fn a_tenant_keeps_at_most_100_templates() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Cellar").await;
    for n in 0..100 {
        let reply = app
            .post_json("/v1/templates", &json!({"encounter_id": encounter, "name": format!("Cellar {n}")}))
            .await;
        assert_eq!(reply.status, 201, "template {n}: {}", reply.body);
    }
    let refused = app.post_json("/v1/templates", &json!({"encounter_id": encounter})).await;
    refused.assert_problem(409, None, "the 101st template");
    assert_eq!(app.get("/v1/templates").await.body["items"].as_array().map(Vec::len), Some(100));
}
