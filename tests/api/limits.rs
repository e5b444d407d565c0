//! The documented limits, each at its edge: the largest allowed value is accepted and one more is
//! refused with its 4xx naming the field, changing nothing.

use crate::helpers::{TestApp, spawn_app};
use reqwest::Method;
use serde_json::{Value, json};

/// `{"ruleset": "arrgs", "name": "<name>"}` padded with spaces to exactly `len` bytes.
fn encounter_body_of_len(name: &str, len: usize) -> Vec<u8> {
    let head = format!("{{\"ruleset\": \"arrgs\", \"name\": \"{name}\"");
    let body = format!("{head}{}}}", " ".repeat(len - head.len() - 1));
    assert_eq!(body.len(), len);
    body.into_bytes()
}

async fn total_encounters(app: &TestApp) -> Value {
    app.get("/v1/encounters").await.body["total"].clone()
}

#[tokio::test]
async fn a_body_of_exactly_64_kib_is_read_and_one_byte_more_is_413() {
    let app = spawn_app().await;

    let fits = app
        .send_raw(
            Method::POST,
            "/v1/encounters",
            Some("application/json"),
            encounter_body_of_len("Fits", 65_536),
        )
        .await;
    let over = app
        .send_raw(
            Method::POST,
            "/v1/encounters",
            Some("application/json"),
            encounter_body_of_len("Over", 65_537),
        )
        .await;

    assert_eq!(fits.status, 201, "{}", fits.body);
    over.assert_problem(413, None, "65537 bytes");
    assert_eq!(over.body["type"], json!("urn:skirmish:problem:payload-too-large"));
    assert_eq!(over.body["detail"], json!("the request body is larger than 65536 bytes"));
    assert_eq!(total_encounters(&app).await, json!(1));
}

#[tokio::test]
async fn an_encounter_holds_200_combatants_and_refuses_the_201st() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Horde").await;
    for n in 1..=200 {
        app.add_combatant(&encounter, &format!("Goblin {n}"), "horde", json!({})).await;
    }
    let before = app.snapshot(&encounter).await;

    let reply = app
        .post_json(
            &format!("/v1/encounters/{encounter}/combatants"),
            &json!({"name": "Goblin 201", "side": "horde", "stats": {}}),
        )
        .await;

    reply.assert_problem(422, Some("combatants"), "the 201st combatant");
    assert_eq!(reply.body["detail"], json!("an encounter holds at most 200 combatants"));
    assert_eq!(app.snapshot(&encounter).await, before);
    assert_eq!(before.encounter["version"], json!(201));
    assert_eq!(before.encounter["combatants"].as_array().unwrap().len(), 200);
}

#[tokio::test]
async fn names_are_limited_to_100_characters_not_bytes() {
    let app = spawn_app().await;
    let (longest, too_long) = ("é".repeat(100), "é".repeat(101));

    let created = app.post_json("/v1/encounters", &json!({"ruleset": "lur-asko", "name": longest})).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let encounter = created.body["id"].as_str().unwrap().to_owned();
    let combatants = format!("/v1/encounters/{encounter}/combatants");
    let joined = app.post_json(&combatants, &json!({"name": longest, "side": longest, "stats": {}})).await;
    assert_eq!(joined.status, 201, "{}", joined.body);
    let ash = joined.body["combatant"]["id"].as_str().unwrap().to_owned();
    let effect = app
        .post_json(
            &format!("/v1/encounters/{encounter}/effects"),
            &json!({"name": longest, "ends": {"ends": "end_of_round"}}),
        )
        .await;
    assert_eq!(effect.status, 201, "{}", effect.body);
    let before = app.snapshot(&encounter).await;

    let cases = [
        (Method::POST, "/v1/encounters".to_owned(), json!({"ruleset": "arrgs", "name": too_long}), "name"),
        (Method::POST, combatants.clone(), json!({"name": too_long, "side": "s", "stats": {}}), "name"),
        (Method::POST, combatants.clone(), json!({"name": "n", "side": too_long, "stats": {}}), "side"),
        (Method::PATCH, format!("{combatants}/{ash}"), json!({"name": too_long}), "name"),
        (Method::PATCH, format!("{combatants}/{ash}"), json!({"side": too_long}), "side"),
        (
            Method::POST,
            format!("/v1/encounters/{encounter}/effects"),
            json!({"name": too_long, "ends": {"ends": "end_of_round"}}),
            "name",
        ),
    ];
    for (method, path, body, field) in cases {
        let case = format!("{method} {path} with a 101-character {field}");
        let reply = app.send(method, &path, Some(&body), &[]).await;

        reply.assert_problem(422, Some(field), &case);
    }
    assert_eq!(app.snapshot(&encounter).await, before);
    assert_eq!(total_encounters(&app).await, json!(1));
}

#[tokio::test]
async fn list_pages_are_limited_to_100_encounters_and_1000_events() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Pages").await;
    let events = format!("/v1/encounters/{encounter}/events");

    let most_encounters = app.get("/v1/encounters?limit=100").await;
    let most_events = app.get(&format!("{events}?limit=1000")).await;
    let too_many_encounters = app.get("/v1/encounters?limit=101").await;
    let too_many_events = app.get(&format!("{events}?limit=1001")).await;

    assert_eq!((most_encounters.status, most_encounters.body["limit"].clone()), (200, json!(100)));
    assert_eq!(most_events.status, 200, "{}", most_events.body);
    too_many_encounters.assert_problem(400, Some("limit"), "encounters limit=101");
    assert_eq!(too_many_encounters.body["detail"], json!("must be 1 to 100"));
    too_many_events.assert_problem(400, Some("limit"), "events limit=1001");
    assert_eq!(too_many_events.body["detail"], json!("must be 1 to 1000"));
}

#[tokio::test]
async fn dice_expressions_are_limited_at_each_bound() {
    let app = spawn_app().await;
    // "10" then 99 × "+1": exactly 200 characters; one more digit makes 201.
    let (longest, too_long) = (format!("10{}", "+1".repeat(99)), format!("100{}", "+1".repeat(99)));
    assert_eq!((longest.len(), too_long.len()), (200, 201));
    let five_hundred = "100d6+100d6+100d6+100d6+100d6";
    let accepted = [("100d6", 100), (five_hundred, 500), ("1d1000", 1), (longest.as_str(), 0)];
    let refused = ["101d6".to_owned(), format!("{five_hundred}+1d6"), "1d1001".to_owned(), too_long.clone()];

    for (expression, dice) in accepted {
        let reply = app.post_json("/v1/dice/roll", &json!({"expression": expression, "seed": 1})).await;

        assert_eq!(reply.status, 200, "{expression}: {}", reply.body);
        assert_eq!(reply.body["dice"].as_array().unwrap().len(), dice, "{expression}");
    }
    assert_eq!(
        app.post_json("/v1/dice/roll", &json!({"expression": longest})).await.body["total"],
        json!(109)
    );
    for expression in refused {
        let reply = app.post_json("/v1/dice/roll", &json!({"expression": expression})).await;

        reply.assert_problem(422, Some("expression"), &expression);
    }
}

#[tokio::test]
async fn scripted_rolls_are_limited_to_1000_values() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Rolls").await;
    app.add_combatant(&encounter, "Aro", "a", json!({})).await;
    let before = app.snapshot(&encounter).await;

    let most = app.post_json("/v1/dice/roll", &json!({"expression": "1d6", "rolls": vec![6; 1000]})).await;
    let too_many =
        app.post_json("/v1/dice/roll", &json!({"expression": "1d6", "rolls": vec![6; 1001]})).await;
    let initiative = app
        .post_json(&format!("/v1/encounters/{encounter}/initiative"), &json!({"rolls": vec![6; 1001]}))
        .await;

    assert_eq!((most.status, most.body["total"].clone()), (200, json!(6)), "{}", most.body);
    too_many.assert_problem(422, Some("rolls"), "1001 rolls");
    assert_eq!(too_many.body["detail"], json!("at most 1000 values, got 1001"));
    initiative.assert_problem(422, Some("rolls"), "1001 rolls for initiative");
    assert_eq!(app.snapshot(&encounter).await, before);
}

#[tokio::test]
async fn request_lists_are_limited_to_200_entries() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Lists").await;
    app.add_combatant(&encounter, "Aro", "a", json!({})).await;
    let path = format!("/v1/encounters/{encounter}/initiative");
    let before = app.snapshot(&encounter).await;
    let ids = |n: usize| (0..n).map(|i| format!("cmb_{i:016x}")).collect::<Vec<_>>();
    let fixed = |n: usize| {
        (0..n).map(|i| json!({"combatant_id": format!("cmb_{i:016x}"), "value": 1})).collect::<Vec<_>>()
    };
    // At 200 entries the list itself passes and its first (unknown) id is what is refused.
    let cases = [
        (json!({"combatant_ids": ids(200)}), "combatant_ids[0]"),
        (json!({"combatant_ids": ids(201)}), "combatant_ids"),
        (json!({"fixed": fixed(200)}), "fixed[0].combatant_id"),
        (json!({"fixed": fixed(201)}), "fixed"),
    ];

    for (body, field) in cases {
        let reply = app.post_json(&path, &body).await;

        reply.assert_problem(422, Some(field), field);
    }
    let over = app.post_json(&path, &json!({"combatant_ids": ids(201)})).await;
    assert_eq!(over.body["detail"], json!("at most 200 entries, got 201"));
    assert_eq!(app.snapshot(&encounter).await, before);
}
