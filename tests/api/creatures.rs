//! The creature library (issue 29 item 1): `/v1/creatures` per tenant, typed per ruleset, listed
//! by name with filters and a cursor; combatants added from a creature, numbered, with
//! per-instance overrides, keeping the creature id and the stat block they were added with.

use crate::helpers::{TestApp, cepheus, pluck, spawn_app, spawn_app_with_keys, text};
use reqwest::Method;
use serde_json::{Value, json};

/// A Cepheus Engine goblin: STR 5, DEX 8, END 5, INT 4, EDU 2, SOC 2.
fn goblin_stats() -> Value {
    json!({"str": 5, "dex": 8, "end": 5, "int": 4, "edu": 2, "soc": 2})
}

async fn create_creature(app: &TestApp, body: Value) -> Value {
    app.post_json("/v1/creatures", &body).await.expect_status(201, "create creature").body
}

async fn goblin(app: &TestApp) -> String {
    let body = json!({"name": "Goblin", "ruleset": "cepheus-engine", "stats": goblin_stats(), "side": "goblins",
        "notes": "Flees when half the band is down."});
    text(&create_creature(app, body).await["id"])
}

async fn add_from(app: &TestApp, encounter: &str, body: Value) -> Value {
    let path = format!("/v1/encounters/{encounter}/combatants/from-creature");
    app.post_json(&path, &body).await.expect_status(201, "add from creature").body
}

#[tokio::test]
async fn a_creature_is_kept_read_changed_and_deleted() {
    let app = spawn_app().await;
    let created = app
        .post_json(
            "/v1/creatures",
            &json!({"name": "Goblin", "ruleset": "cepheus-engine",
        "stats": goblin_stats(), "side": "goblins", "notes": "cowardly", "hidden": true}),
        )
        .await;
    let created = created.expect_status(201, "create");
    let id = text(&created.body["id"]);
    assert!(id.starts_with("crt_"), "{id}");
    assert_eq!(created.header("location"), Some(format!("/v1/creatures/{id}").as_str()));
    let read = app.get(&format!("/v1/creatures/{id}")).await.expect_status(200, "get").body;
    assert_eq!(read, created.body, "GET answers what the create answered");
    assert_eq!(
        (
            read["ruleset"].clone(),
            read["stats"].clone(),
            read["side"].clone(),
            read["hidden"].clone(),
            read["public"].clone()
        ),
        (json!("cepheus-engine"), goblin_stats(), json!("goblins"), json!(true), json!(false))
    );

    let patch = json!({"name": "Goblin archer", "notes": null, "stats": cepheus(9)});
    let changed =
        app.patch_json(&format!("/v1/creatures/{id}"), &patch).await.expect_status(200, "patch").body;
    assert_eq!((changed["name"].clone(), changed["notes"].clone()), (json!("Goblin archer"), Value::Null));
    assert_eq!((changed["stats"]["dex"].clone(), changed["side"].clone()), (json!(9), json!("goblins")));
    assert_eq!(app.get(&format!("/v1/creatures/{id}")).await.body, changed);

    app.delete(&format!("/v1/creatures/{id}")).await.expect_status(204, "delete");
    app.get(&format!("/v1/creatures/{id}")).await.assert_problem(404, None, "deleted");
    app.delete(&format!("/v1/creatures/{id}")).await.assert_problem(404, None, "deleted twice");
}

#[tokio::test]
async fn combatants_from_a_creature_are_numbered_past_the_names_already_there() {
    let app = spawn_app().await;
    let goblin = goblin(&app).await;
    let encounter = app.create_encounter_id("cepheus-engine", "Ambush").await;
    app.add_combatant(&encounter, "Goblin 2", "goblins", cepheus(7)).await;
    app.add_combatant(&encounter, "Goblin", "goblins", cepheus(7)).await;

    let added = add_from(&app, &encounter, json!({"creature_id": goblin, "count": 3})).await;

    let combatants = added["combatants"].as_array().unwrap();
    assert_eq!(
        pluck(&added["combatants"], "name"),
        [json!("Goblin 3"), json!("Goblin 4"), json!("Goblin 5")]
    );
    for combatant in combatants {
        assert_eq!(combatant["creature_id"], json!(goblin));
        assert_eq!(
            (combatant["stats"].clone(), combatant["side"].clone()),
            (goblin_stats(), json!("goblins"))
        );
    }
    assert_eq!(added["version"], json!(4), "one change: created 1, two adds, this add");
    let kinds: Vec<Value> = pluck(&added["events"], "kind");
    assert_eq!(kinds, vec![json!("combatant_added"); 3]);
    let log = app.events(&encounter).await;
    assert_eq!(log.last().unwrap()["data"]["creature_id"], json!(goblin), "{:?}", log.last());
    // One more continues the numbering.
    let next = add_from(&app, &encounter, json!({"creature_id": goblin})).await;
    assert_eq!(pluck(&next["combatants"], "name"), [json!("Goblin 6")]);
    let read = app.encounter(&encounter).await;
    assert_eq!(read["combatants"].as_array().unwrap().len(), 6);
    assert_eq!(read["combatants"][0]["creature_id"], Value::Null, "added by hand: no creature");
}

#[tokio::test]
async fn instances_take_their_own_overrides_and_a_later_change_to_the_creature_does_not_reach_them() {
    let app = spawn_app().await;
    let goblin = goblin(&app).await;
    let encounter = app.create_encounter_id("cepheus-engine", "Ambush").await;
    let body = json!({"creature_id": goblin, "count": 3, "side": "raiders", "hidden": true, "instances": [
        {"name": "Goblin chief", "stats": {"str": 9, "end": 8}, "hidden": false},
        {},
        {"side": "deserters", "surprised": true}
    ]});

    let added = add_from(&app, &encounter, body).await;

    let names = pluck(&added["combatants"], "name");
    assert_eq!(
        names,
        [json!("Goblin chief"), json!("Goblin 1"), json!("Goblin 2")],
        "only unnamed ones are numbered"
    );
    let chief = &added["combatants"][0];
    assert_eq!(
        chief["stats"],
        json!({"str": 9, "dex": 8, "end": 8, "int": 4, "edu": 2, "soc": 2}),
        "merge patch"
    );
    assert_eq!((chief["side"].clone(), chief["hidden"].clone()), (json!("raiders"), json!(false)));
    assert_eq!(added["combatants"][1]["hidden"], json!(true), "the request's hidden");
    let third = &added["combatants"][2];
    assert_eq!((third["side"].clone(), third["surprised"].clone()), (json!("deserters"), json!(true)));

    app.patch_json(&format!("/v1/creatures/{goblin}"), &json!({"stats": cepheus(12)}))
        .await
        .expect_status(200, "patch");
    app.delete(&format!("/v1/creatures/{goblin}")).await.expect_status(204, "delete");
    let read = app.encounter(&encounter).await;
    assert_eq!(
        read["combatants"][1]["stats"],
        goblin_stats(),
        "the fight keeps the stat block it was added with"
    );
    assert_eq!(read["combatants"][1]["creature_id"], json!(goblin), "and the creature's id, deleted or not");
}

#[tokio::test]
async fn the_library_lists_by_name_with_filters_and_a_cursor() {
    let app = spawn_app().await;
    for (name, ruleset, stats) in [
        ("zombie", "cepheus-engine", cepheus(5)),
        ("Goblin archer", "cepheus-engine", cepheus(8)),
        ("goblin", "cepheus-engine", cepheus(8)),
        ("Orc", "spycraft2", json!({"initiative_bonus": 2})),
        ("GOBLIN KING", "cepheus-engine", cepheus(9)),
        ("100%_goblin", "cepheus-engine", cepheus(1)),
    ] {
        create_creature(&app, json!({"name": name, "ruleset": ruleset, "stats": stats, "side": "monsters"}))
            .await;
    }
    let names = |body: &Value| pluck(&body["items"], "name");
    let all = app.get("/v1/creatures").await.expect_status(200, "list").body;
    let order = ["100%_goblin", "goblin", "Goblin archer", "GOBLIN KING", "Orc", "zombie"];
    assert_eq!(names(&all), order.map(|n| json!(n)), "name order ignoring case");
    assert_eq!((all["total"].clone(), all["next_cursor"].clone()), (json!(6), Value::Null));

    let cases = [
        ("name_prefix=GOB", vec!["goblin", "Goblin archer", "GOBLIN KING"]),
        ("name_prefix=goblin%20k", vec!["GOBLIN KING"]),
        ("name_prefix=100%25_", vec!["100%_goblin"]),
        ("name_prefix=_", vec![]),
        ("ruleset=spycraft2", vec!["Orc"]),
        ("ruleset=cepheus-engine&name_prefix=z", vec!["zombie"]),
    ];
    for (query, expected) in cases {
        let body = app.get(&format!("/v1/creatures?{query}")).await.expect_status(200, query).body;
        assert_eq!(names(&body), expected.iter().map(|n| json!(n)).collect::<Vec<_>>(), "{query}");
    }

    let mut walked = Vec::new();
    let mut page = app.get("/v1/creatures?limit=4").await.expect_status(200, "page 1").body;
    walked.extend(names(&page));
    let cursor = text(&page["next_cursor"]);
    page = app.get(&format!("/v1/creatures?limit=4&cursor={cursor}")).await.expect_status(200, "page 2").body;
    walked.extend(names(&page));
    assert_eq!(walked, order.map(|n| json!(n)), "two pages, each creature once");
    assert_eq!(page["next_cursor"], Value::Null);
}

#[tokio::test]
async fn another_tenants_creatures_are_not_there() {
    let (app, keys) = spawn_app_with_keys(&["alpha", "beta"]).await;
    let (alpha, beta) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let body =
        json!({"name": "Goblin", "ruleset": "cepheus-engine", "stats": goblin_stats(), "side": "goblins"});
    let goblin =
        text(&alpha.post_json("/v1/creatures", &body).await.expect_status(201, "alpha's goblin").body["id"]);
    let path = format!("/v1/creatures/{goblin}");

    beta.get(&path).await.assert_problem(404, None, "beta reads alpha's creature");
    beta.send(Method::PATCH, &path, Some(&json!({"name": "Mine"})), &[])
        .await
        .assert_problem(404, None, "patch");
    beta.send(Method::DELETE, &path, None, &[]).await.assert_problem(404, None, "delete");
    let listed = beta.get("/v1/creatures").await.expect_status(200, "beta's list").body;
    assert_eq!(listed["total"], json!(0));
    let encounter = beta.create_encounter_id("cepheus-engine", "Beta's fight").await;
    let from = format!("/v1/encounters/{encounter}/combatants/from-creature");
    let refused = beta.post_json(&from, &json!({"creature_id": goblin})).await;
    refused.assert_problem(422, Some("creature_id"), "beta adds alpha's creature");
    assert_eq!(beta.encounter(&encounter).await["combatants"], json!([]));
    assert_eq!(alpha.get(&path).await.expect_status(200, "still alpha's").body["name"], json!("Goblin"));
}

#[tokio::test]
async fn bad_creatures_and_adds_are_refused_naming_the_field_and_change_nothing() {
    let app = spawn_app().await;
    let goblin = goblin(&app).await;
    let sideless = json!({"name": "Wisp", "ruleset": "cepheus-engine", "stats": cepheus(7)});
    let wisp = text(&create_creature(&app, sideless).await["id"]);
    let bad_creatures = [
        (json!({"name": " ", "ruleset": "arrgs", "stats": {}}), 422, "name"),
        (json!({"name": "x".repeat(101), "ruleset": "arrgs", "stats": {}}), 422, "name"),
        (json!({"name": "Goblin", "ruleset": "cepheus-engine", "stats": {"dex": "quick"}}), 422, "stats.dex"),
        (json!({"name": "Goblin", "ruleset": "cepheus-engine", "stats": []}), 422, "stats"),
        (
            json!({"name": "Goblin", "ruleset": "cepheus-engine", "stats": cepheus(7), "notes": "n".repeat(2001)}),
            422,
            "notes",
        ),
        (
            json!({"name": "Goblin", "ruleset": "cepheus-engine", "stats": cepheus(7), "side": ""}),
            422,
            "side",
        ),
        (json!({"name": "Goblin", "ruleset": "chess", "stats": {}}), 400, "ruleset"),
        (json!({"name": "Goblin", "ruleset": "arrgs", "stats": {}, "colour": "green"}), 400, "colour"),
    ];
    for (body, status, field) in bad_creatures {
        app.post_json("/v1/creatures", &body).await.assert_problem(status, Some(field), &body.to_string());
    }
    let patch = app.patch_json(&format!("/v1/creatures/{goblin}"), &json!({"stats": {"str": -99}})).await;
    patch.assert_problem(422, Some("stats.str"), "a patch's stat block is the creature ruleset's");
    for field in ["name", "hidden", "public"] {
        let patch = app.patch_json(&format!("/v1/creatures/{goblin}"), &json!({field: null})).await;
        patch.assert_problem(
            400,
            Some(field),
            "null for a field that cannot be cleared (schemathesis ST201)",
        );
    }
    for (cursor, status) in [("0", 422), ("e30", 422), ("a+b", 400)] {
        let listed = app.get(&format!("/v1/creatures?cursor={cursor}")).await;
        listed.assert_problem(status, Some("cursor"), &format!("cursor {cursor} (schemathesis ST202)"));
    }
    assert_eq!(app.get("/v1/creatures").await.body["total"], json!(2), "no bad creature was kept");

    let encounter = app.create_encounter_id("cepheus-engine", "Ambush").await;
    let arrgs = app.create_encounter_id("arrgs", "Elsewhere").await;
    let before = app.snapshot(&encounter).await;
    let long = "G".repeat(100);
    let bad_adds = [
        (json!({"creature_id": goblin, "count": 0}), 422, "count"),
        (json!({"creature_id": goblin, "count": 51}), 422, "count"),
        (json!({"creature_id": goblin, "count": 2.5}), 400, "count"),
        (json!({"creature_id": goblin, "count": 1, "instances": [{}, {}]}), 422, "instances"),
        (json!({"creature_id": "crt_nope"}), 422, "creature_id"),
        (json!({"creature_id": wisp}), 422, "side"),
        (
            json!({"creature_id": goblin, "count": 2, "instances": [{}, {"stats": {"dex": 99}}]}),
            422,
            "instances[1].stats.dex",
        ),
        (json!({"creature_id": goblin, "instances": [{"stats": [1]}]}), 422, "instances[0].stats"),
        (
            json!({"creature_id": goblin, "count": 2, "instances": [{}, {"name": long + "!"}]}),
            422,
            "instances[1].name",
        ),
    ];
    for (body, status, field) in bad_adds {
        let path = format!("/v1/encounters/{encounter}/combatants/from-creature");
        app.post_json(&path, &body).await.assert_problem(status, Some(field), &body.to_string());
    }
    let wrong_ruleset = app
        .post_json(
            &format!("/v1/encounters/{arrgs}/combatants/from-creature"),
            &json!({"creature_id": goblin}),
        )
        .await;
    wrong_ruleset.assert_problem(422, Some("creature_id"), "a cepheus creature in an arrgs fight");
    assert_eq!(app.snapshot(&encounter).await, before, "no refused add changed the encounter");
}

#[tokio::test]
async fn an_add_that_would_overfill_the_encounter_adds_none() {
    let app = spawn_app().await;
    let goblin = goblin(&app).await;
    let encounter = app.create_encounter_id("cepheus-engine", "Horde").await;
    for _ in 0..3 {
        add_from(&app, &encounter, json!({"creature_id": goblin, "count": 50})).await;
    }
    add_from(&app, &encounter, json!({"creature_id": goblin, "count": 40})).await;
    let before = app.snapshot(&encounter).await;
    let path = format!("/v1/encounters/{encounter}/combatants/from-creature");
    let refused = app.post_json(&path, &json!({"creature_id": goblin, "count": 11})).await;
    refused.assert_problem(422, Some("count"), "190 held, room for 10");
    assert_eq!(app.snapshot(&encounter).await, before);
    let last = add_from(&app, &encounter, json!({"creature_id": goblin, "count": 10})).await;
    assert_eq!(pluck(&last["combatants"], "name").last(), Some(&json!("Goblin 200")));
}

#[tokio::test]
async fn a_retried_create_with_the_same_idempotency_key_keeps_one_creature() {
    let app = spawn_app().await;
    let body = json!({"name": "Goblin", "ruleset": "cepheus-engine", "stats": goblin_stats()});
    let headers = [("Idempotency-Key", "make-goblin-1")];
    let first =
        app.send(Method::POST, "/v1/creatures", Some(&body), &headers).await.expect_status(201, "first");
    let again =
        app.send(Method::POST, "/v1/creatures", Some(&body), &headers).await.expect_status(201, "retry");
    assert_eq!(again.body, first.body);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(app.get("/v1/creatures").await.body["total"], json!(1));
    // Once it is deleted, a retry makes it anew instead of naming a creature that is gone
    // (schemathesis ST302).
    app.delete(&format!("/v1/creatures/{}", text(&first.body["id"]))).await.expect_status(204, "delete");
    let anew =
        app.send(Method::POST, "/v1/creatures", Some(&body), &headers).await.expect_status(201, "anew");
    assert_eq!(anew.header("idempotent-replayed"), None);
    assert_ne!(anew.body["id"], first.body["id"]);
    app.get(&format!("/v1/creatures/{}", text(&anew.body["id"]))).await.expect_status(200, "it is there");
}

#[tokio::test]
async fn a_library_holds_at_most_1000_creatures() {
    let app = spawn_app().await;
    for n in 0..1000 {
        let body = json!({"name": format!("Rat {n}"), "ruleset": "arrgs", "stats": {"agility": 1}});
        let reply = app.post_json("/v1/creatures", &body).await;
        assert_eq!(reply.status, 201, "creature {n}: {}", reply.body);
    }
    let body = json!({"name": "One rat too many", "ruleset": "arrgs", "stats": {"agility": 1}});
    app.post_json("/v1/creatures", &body).await.assert_problem(409, None, "the 1001st creature");
    let listed = app.get("/v1/creatures?name_prefix=one").await.expect_status(200, "list").body;
    assert_eq!(
        (listed["total"].clone(), app.get("/v1/creatures").await.body["total"].clone()),
        (json!(0), json!(1000))
    );
}
