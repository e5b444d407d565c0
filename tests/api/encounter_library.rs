//! Finding, ending and keeping encounters (issue 29 item 4): the list's filters, newest-first
//! order and cursor; an ended encounter read-only; archiving; retention.

use crate::helpers::{
    TestApp, cepheus, on_postgres, pluck, spawn_app, spawn_app_with, spawn_app_with_keys, text,
};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::Duration;

/// Every page of `query` (which holds `limit`), followed by `next_cursor`, with `between`
/// run after each page.
async fn walk(app: &TestApp, query: &str, mut between: impl AsyncFnMut()) -> Vec<Value> {
    let mut seen = Vec::new();
    let mut page = app.get(&format!("/v1/encounters?{query}")).await.expect_status(200, "first page").body;
    for _ in 0..100 {
        seen.extend(pluck(&page["items"], "id"));
        let Some(cursor) = page["next_cursor"].as_str() else { return seen };
        between().await;
        page =
            app.get(&format!("/v1/encounters?{query}&cursor={cursor}")).await.expect_status(200, "page").body;
        assert_eq!(page["offset"], json!(0), "a cursor page has no offset");
        assert_eq!(page["next_offset"], Value::Null);
    }
    panic!("the walk never ended");
}

/// A Cepheus Engine encounter with two combatants (one with an effect on it), ended.
async fn ended_fight(app: &TestApp) -> (String, String, String, String) {
    let encounter = app.create_encounter_id("cepheus-engine", "Over").await;
    let vasquez = app.add_combatant(&encounter, "Vasquez", "crew", cepheus(8)).await;
    let rook = app.add_combatant(&encounter, "Rook", "pirates", cepheus(7)).await;
    let effect = app.add_effect(&encounter, json!({"name": "pinned", "target_id": rook, "ends": {"ends": "end_of_turn", "combatant_id": rook}})).await;
    app.advance(&encounter, "end_encounter").await;
    (encounter, vasquez, rook, effect)
}

#[tokio::test]
async fn the_list_is_newest_first_and_a_cursor_walk_holds_each_encounter_once_though_more_are_created() {
    let app = spawn_app().await;
    let mut created = Vec::new();
    for n in 1..=7 {
        created.push(json!(app.create_encounter_id("arrgs", &format!("Fight {n}")).await));
    }
    let mut later = 0;

    let seen = walk(&app, "limit=3", async || {
        later += 1;
        app.create_encounter_id("arrgs", &format!("Later {later}")).await;
    })
    .await;

    created.reverse();
    assert_eq!(seen, created, "newest first, no encounter skipped or repeated, none created meanwhile");
    let fresh = app.get("/v1/encounters?limit=2").await.body;
    assert_eq!(pluck(&fresh["items"], "name"), [json!("Later 2"), json!("Later 1")]);
    assert_eq!((fresh["total"].clone(), fresh["next_offset"].clone()), (json!(9), json!(2)));
    assert!(fresh["next_cursor"].is_string(), "{fresh}");
}

#[tokio::test]
async fn the_list_filters_by_status_ruleset_and_name_ignoring_case() {
    let app = spawn_app().await;
    let setup = app.create_encounter_id("cepheus-engine", "Goblin Cave").await;
    let active = app.create_encounter_id("cepheus-engine", "THE GOBLINS RETURN").await;
    app.add_combatant(&active, "Vasquez", "crew", cepheus(8)).await;
    app.roll_initiative(&active, json!({"seed": 1})).await;
    app.advance(&active, "next_turn").await;
    let ended = app.create_encounter_id("arrgs", "Orc pass").await;
    app.advance(&ended, "end_encounter").await;
    let percent = app.create_encounter_id("arrgs", "100% goblin_free").await;
    let ids = |body: &Value| pluck(&body["items"], "id");
    let cases = [
        ("status=setup", vec![&percent, &setup]),
        ("status=active", vec![&active]),
        ("status=ended", vec![&ended]),
        ("ruleset=cepheus-engine", vec![&active, &setup]),
        ("ruleset=arrgs", vec![&percent, &ended]),
        ("name=gOBLIN", vec![&percent, &active, &setup]),
        ("name=goblin&status=setup&ruleset=cepheus-engine", vec![&setup]),
        ("name=0%25", vec![&percent]),
        ("name=n_f", vec![&percent]),
        ("name=%25", vec![&percent]),
        ("name=dragon", vec![]),
        ("ruleset=lur-asko", vec![]),
    ];

    for (query, expected) in cases {
        let body = app.get(&format!("/v1/encounters?{query}")).await.expect_status(200, query).body;
        let expected: Vec<Value> = expected.into_iter().map(|id| json!(id)).collect();
        assert_eq!(ids(&body), expected, "{query}");
        assert_eq!(body["total"], json!(expected.len()), "{query}: total");
    }
}

#[tokio::test]
async fn bad_list_parameters_are_refused_naming_the_parameter() {
    let app = spawn_app().await;
    app.create_encounter_id("arrgs", "One").await;
    let long_name = "n".repeat(101);
    let cases = [
        ("limit=101".to_owned(), "limit"),
        ("cursor=garbage".to_owned(), "cursor"),
        ("cursor=p".to_owned(), "cursor"),
        ("cursor=p-5".to_owned(), "cursor"),
        ("cursor=pffffffffffffffffff".to_owned(), "cursor"),
        ("status=paused".to_owned(), "status"),
        ("ruleset=chess".to_owned(), "ruleset"),
        ("archived=maybe".to_owned(), "archived"),
        ("name=".to_owned(), "name"),
        (format!("name={long_name}"), "name"),
    ];

    for (query, field) in cases {
        let reply = app.get(&format!("/v1/encounters?{query}")).await;
        reply.assert_problem(400, Some(field), &query);
    }
    // On the cursor pattern, but no list hands it out (position 0, past the largest): 422.
    for query in ["cursor=p0", "cursor=p8000000000000000"] {
        app.get(&format!("/v1/encounters?{query}")).await.assert_problem(422, Some("cursor"), query);
    }
    // Both well-formed, but contradicting each other: 422 naming the one to drop.
    let both = app.get("/v1/encounters?cursor=p1&offset=2").await;
    both.assert_problem(422, Some("offset"), "cursor with offset");
}

#[tokio::test]
async fn another_tenants_encounters_are_never_listed_archived_or_found() {
    let (app, keys) = spawn_app_with_keys(&["alpha", "beta"]).await;
    let (alpha, beta) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let mine = alpha.create_encounter_id("arrgs", "Goblins of alpha").await;
    let theirs = beta.create_encounter_id("arrgs", "Goblins of beta").await;
    beta.post_json(&format!("/v1/encounters/{theirs}/advance"), &json!({"to": "end_encounter"})).await;

    for query in ["", "?name=goblins", "?status=ended", "?archived=true", "?ruleset=arrgs"] {
        let body = alpha.get(&format!("/v1/encounters{query}")).await.expect_status(200, query).body;
        let listed = pluck(&body["items"], "id");
        assert!(!listed.contains(&json!(theirs)), "{query}: {body}");
        assert_eq!(listed.contains(&json!(mine)), !query.contains("ended") && !query.contains("archived"));
    }
    let archive = alpha.post_json(&format!("/v1/encounters/{theirs}/archive"), &json!({})).await;
    archive.assert_problem(404, None, "archive another tenant's encounter");
    let listed = beta.get("/v1/encounters?archived=true").await.body;
    assert_eq!(listed["total"], json!(0), "still not archived: {listed}");
}

#[tokio::test]
async fn every_change_of_an_ended_encounter_is_refused_with_409_and_changes_nothing() {
    let app = spawn_app().await;
    let (encounter, vasquez, rook, effect) = ended_fight(&app).await;
    let base = format!("/v1/encounters/{encounter}");
    let before = app.snapshot(&encounter).await;
    let attack = json!({"attacker_id": vasquez, "target_id": rook, "rolls": [4, 3, 2, 3, 1],
                        "weapon": {"weapon_type": "rifle", "damage_dice": 3}, "distance_m": 20});
    let cases = [
        (
            Method::POST,
            format!("{base}/combatants"),
            Some(json!({"name": "Late", "side": "crew", "stats": cepheus(7)})),
        ),
        (Method::PATCH, format!("{base}/combatants/{rook}"), Some(json!({"name": "Rook the Second"}))),
        (Method::DELETE, format!("{base}/combatants/{rook}"), None),
        (Method::POST, format!("{base}/initiative"), Some(json!({"seed": 3}))),
        (Method::POST, format!("{base}/advance"), Some(json!({"to": "next_turn"}))),
        (Method::POST, format!("{base}/advance"), Some(json!({"to": "end_encounter"}))),
        (
            Method::POST,
            format!("{base}/effects"),
            Some(
                json!({"name": "dazed", "target_id": vasquez, "ends": {"ends": "end_of_turn", "combatant_id": vasquez}}),
            ),
        ),
        (Method::DELETE, format!("{base}/effects/{effect}"), None),
        (Method::POST, format!("{base}/cepheus-engine/attacks"), Some(attack)),
        (
            Method::POST,
            format!("{base}/cepheus-engine/damage"),
            Some(json!({"target_id": rook, "damage": 3})),
        ),
        (
            Method::POST,
            format!("{base}/cepheus-engine/actions"),
            Some(json!({"action": "hasten", "combatant_id": rook})),
        ),
    ];

    for (method, path, body) in cases {
        let case = format!("{method} {path}");
        let reply = app.send(method, &path, body.as_ref(), &[]).await;
        reply.assert_problem(409, None, &case);
        assert!(text(&reply.body["detail"]).contains("the encounter has ended"), "{case}: {}", reply.body);
    }
    assert_eq!(app.snapshot(&encounter).await, before, "nothing changed");
}

#[tokio::test]
async fn undo_takes_back_the_end_unless_the_encounter_is_archived() {
    let app = spawn_app().await;
    let (encounter, _, rook, _) = ended_fight(&app).await;
    let base = format!("/v1/encounters/{encounter}");
    app.post_json(&format!("{base}/archive"), &json!({})).await.expect_status(200, "archive");
    let before = app.snapshot(&encounter).await;

    let archived = app.post_json(&format!("{base}/undo"), &json!({})).await;
    archived.assert_problem(409, None, "undo while archived");
    assert_eq!(app.snapshot(&encounter).await, before, "nothing changed");
    app.post_json(&format!("{base}/unarchive"), &json!({})).await.expect_status(200, "unarchive");
    let undone = app.post_json(&format!("{base}/undo"), &json!({})).await.expect_status(200, "undo").body;

    assert_eq!(undone["encounter"]["status"], json!("setup"), "{undone}");
    let renamed = app.patch_json(&format!("{base}/combatants/{rook}"), &json!({"name": "Rook II"})).await;
    assert_eq!(renamed.status, 200, "changes work again: {}", renamed.body);
}

#[tokio::test]
async fn an_archived_encounter_leaves_the_default_list_and_comes_back_unarchived() {
    let app = spawn_app().await;
    let running = app.create_encounter_id("arrgs", "Still going").await;
    let (ended, ..) = ended_fight(&app).await;
    let version = app.encounter(&ended).await["version"].clone();

    let refused = app.post_json(&format!("/v1/encounters/{running}/archive"), &json!({})).await;
    let archived = app.post_json(&format!("/v1/encounters/{ended}/archive"), &json!({})).await;
    let again = app.post_json(&format!("/v1/encounters/{ended}/archive"), &json!({})).await;
    let default = app.get("/v1/encounters").await.body;
    let only_archived = app.get("/v1/encounters?archived=true").await.body;
    let shown = app.get("/v1/encounters?archived=false").await.body;

    refused.assert_problem(409, None, "archive a running encounter");
    assert_eq!((archived.status, archived.body["archived"].clone()), (200, json!(true)), "{}", archived.body);
    assert!(archived.body["archived_at"].is_string());
    assert_eq!(again.body, archived.body, "archiving twice keeps the first time");
    assert_eq!(pluck(&default["items"], "id"), [json!(running)]);
    assert_eq!(pluck(&shown["items"], "id"), [json!(running)]);
    assert_eq!(pluck(&only_archived["items"], "id"), [json!(ended)]);
    assert_eq!(app.encounter(&ended).await["version"], version, "archiving is not a change of the fight");
    let unarchived = app.post_json(&format!("/v1/encounters/{ended}/unarchive"), &json!({})).await;
    assert_eq!(unarchived.body, json!({"id": ended, "archived": false, "archived_at": null}));
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(2));
    let missing = app.post_json("/v1/encounters/enc_missing/archive", &json!({})).await;
    missing.assert_problem(404, None, "archive a missing encounter");
}

/// Waits (at most 30 s) until `encounter` is gone.
async fn until_deleted(app: &TestApp, encounter: &str) {
    for _ in 0..300 {
        if app.get(&format!("/v1/encounters/{encounter}")).await.status == 404 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("retention never deleted {encounter}");
}

#[tokio::test]
async fn retention_deletes_ended_encounters_and_keeps_archived_and_running_ones() {
    let (app, _) = spawn_app_with(&[], |settings| settings.retention.retention_ended_seconds = 1).await;
    let (kept, ..) = ended_fight(&app).await;
    app.post_json(&format!("/v1/encounters/{kept}/archive"), &json!({})).await.expect_status(200, "archive");
    let running = app.create_encounter_id("arrgs", "Still going").await;
    let (gone, ..) = ended_fight(&app).await;

    until_deleted(&app, &gone).await;

    app.get(&format!("/v1/encounters/{gone}/events")).await.assert_problem(404, None, "its log");
    app.encounter(&kept).await;
    app.encounter(&running).await;
    let listed = app.get("/v1/encounters?status=ended").await.body;
    assert_eq!(listed["total"], json!(0), "{listed}");
}

#[tokio::test]
async fn replicas_sweeping_at_once_delete_each_ended_encounter_once() {
    if !on_postgres() {
        return;
    }
    let (app, _) = spawn_app_with(&[], |settings| settings.retention.retention_ended_seconds = 1).await;
    let replica = app.replica().await;
    let mut ended = Vec::new();
    for n in 0..6 {
        let encounter = app.create_encounter_id("arrgs", &format!("Fight {n}")).await;
        replica.advance(&encounter, "end_encounter").await;
        ended.push(encounter);
    }

    for encounter in &ended {
        until_deleted(&app, encounter).await;
    }

    assert_eq!(replica.get("/v1/encounters").await.body["total"], json!(0));
}
