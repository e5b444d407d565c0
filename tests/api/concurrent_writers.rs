//! No lost updates: concurrent changes to one encounter apply one after another, each with its
//! own version and its own place in the log; If-Match lets exactly one of several racers win.

use crate::helpers::{Reply, cepheus, concurrently, spawn_app, spawn_app_with_keys, text};
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::BTreeMap;

fn version(reply: &Reply) -> i64 {
    reply.body["version"].as_i64().unwrap_or_else(|| panic!("no version in {}", reply.body))
}

#[tokio::test]
async fn twenty_concurrent_writers_without_if_match_are_all_applied_in_sequence() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Crowd").await;
    let path = format!("/v1/encounters/{encounter}/combatants");
    let requests = (0..20)
        .map(|n| {
            let body = json!({"name": format!("Extra {n}"), "side": "crowd", "stats": {}});
            app.request(Method::POST, &path).json(&body)
        })
        .collect();

    let replies = concurrently(requests).await;

    assert!(
        replies.iter().all(|r| r.status == 201),
        "{:?}",
        replies.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    let mut versions: Vec<i64> = replies.iter().map(version).collect();
    versions.sort_unstable();
    assert_eq!(versions, (2..=21).collect::<Vec<_>>(), "one version each, none skipped or shared");
    for reply in &replies {
        let v = version(reply);
        assert_eq!(reply.etag(), Some(format!("\"{v}\"").as_str()));
        let events = reply.body["events"].as_array().unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(
            (events[0]["seq"].clone(), events[0]["kind"].clone()),
            (json!(v), json!("combatant_added"))
        );
    }
    let stored = app.encounter(&encounter).await;
    assert_eq!(stored["version"], json!(21));
    let log = app.events(&encounter).await;
    let seqs: Vec<Value> = log.iter().map(|e| e["seq"].clone()).collect();
    assert_eq!(seqs, (1..=21).map(|n| json!(n)).collect::<Vec<_>>(), "seq 1..21 without gaps");
    // The combatants stand in the order their changes were applied.
    let by_version: BTreeMap<i64, Value> =
        replies.iter().map(|r| (version(r), r.body["combatant"]["name"].clone())).collect();
    let names: Vec<Value> =
        stored["combatants"].as_array().unwrap().iter().map(|c| c["name"].clone()).collect();
    assert_eq!(names, by_version.into_values().collect::<Vec<_>>());
}

#[tokio::test]
async fn two_concurrent_writers_with_the_same_if_match_get_one_success_and_one_412() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Race").await;
    let path = format!("/v1/encounters/{encounter}/combatants");
    let requests = ["Ash", "Kane"]
        .into_iter()
        .map(|name| {
            let body = json!({"name": name, "side": "crew", "stats": cepheus(7)});
            app.request(Method::POST, &path).header("If-Match", "\"1\"").json(&body)
        })
        .collect();

    let replies = concurrently(requests).await;

    let mut statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [201, 412]);
    let winner = replies.iter().find(|r| r.status == 201).unwrap();
    let loser = replies.iter().find(|r| r.status == 412).unwrap();
    loser.assert_problem(412, Some("If-Match"), "the loser");
    assert_eq!(loser.body["current_version"], json!(2));
    let stored = app.encounter(&encounter).await;
    assert_eq!(stored["version"], json!(2));
    let names: Vec<Value> =
        stored["combatants"].as_array().unwrap().iter().map(|c| c["name"].clone()).collect();
    assert_eq!(names, [winner.body["combatant"]["name"].clone()]);
    assert_eq!(app.event_kinds(&encounter).await, ["encounter_created", "combatant_added"]);
}

#[tokio::test]
async fn concurrent_changes_of_different_kinds_each_get_their_own_version_and_log_entries() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Mixed").await;
    let ash = app.add_combatant(&encounter, "Ash", "crew", cepheus(7)).await;
    let base = format!("/v1/encounters/{encounter}");
    let mut requests = Vec::new();
    for n in 0..5 {
        let join = json!({"name": format!("Crew {n}"), "side": "crew", "stats": cepheus(7)});
        requests.push(app.request(Method::POST, &format!("{base}/combatants")).json(&join));
        let effect = json!({"name": format!("effect {n}"), "ends": {"ends": "end_of_round"}});
        requests.push(app.request(Method::POST, &format!("{base}/effects")).json(&effect));
        let rename = json!({"name": format!("Ash {n}")});
        requests.push(app.request(Method::PATCH, &format!("{base}/combatants/{ash}")).json(&rename));
    }

    let replies = concurrently(requests).await;

    assert!(
        replies.iter().all(|r| matches!(r.status, 200 | 201)),
        "{:?}",
        replies.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    let mut versions: Vec<i64> = replies.iter().map(version).collect();
    versions.sort_unstable();
    assert_eq!(versions, (3..=17).collect::<Vec<_>>());
    let log = app.events(&encounter).await;
    let seqs: Vec<Value> = log.iter().map(|e| e["seq"].clone()).collect();
    assert_eq!(seqs, (1..=log.len()).map(|n| json!(n)).collect::<Vec<_>>(), "no gaps");
    for reply in &replies {
        for event in reply.body["events"].as_array().unwrap() {
            let seq = event["seq"].as_u64().unwrap() as usize;
            for field in ["seq", "at", "kind", "summary"] {
                assert_eq!(
                    log[seq - 1][field],
                    event[field],
                    "each reply's events are the log's, at their places"
                );
            }
        }
    }
    let stored = app.encounter(&encounter).await;
    assert_eq!(stored["version"], json!(17));
    assert_eq!(stored["combatants"].as_array().unwrap().len(), 6);
    assert_eq!(stored["effects"].as_array().unwrap().len(), 5);
    let last_rename = replies
        .iter()
        .filter(|r| r.body["combatant"]["id"] == json!(ash))
        .max_by_key(|r| version(r))
        .unwrap();
    assert_eq!(
        stored["combatants"][0]["name"], last_rename.body["combatant"]["name"],
        "the last rename stands"
    );
}

#[tokio::test]
async fn concurrent_deletes_of_one_encounter_succeed_once() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Doomed").await;
    let path = format!("/v1/encounters/{encounter}");
    let requests = (0..5).map(|_| app.request(Method::DELETE, &path)).collect();

    let replies = concurrently(requests).await;

    let mut statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [204, 404, 404, 404, 404]);
    assert_eq!(app.get(&path).await.status, 404);
}

#[tokio::test]
async fn concurrent_creates_by_two_tenants_stay_apart() {
    let (app, keys) = spawn_app_with_keys(&["alpha", "beta"]).await;
    let mut requests = Vec::new();
    for n in 0..10 {
        for key in &keys {
            let body = json!({"ruleset": "arrgs", "name": format!("{} {n}", key.tenant)});
            requests.push(app.with_key(key).request(Method::POST, "/v1/encounters").json(&body));
        }
    }

    let replies = concurrently(requests).await;

    assert!(replies.iter().all(|r| r.status == 201));
    for key in &keys {
        let list = app.with_key(key).get("/v1/encounters?limit=100").await.body;
        assert_eq!(list["total"], json!(10), "{}", key.tenant);
        let mut names: Vec<String> =
            list["items"].as_array().unwrap().iter().map(|e| text(&e["name"])).collect();
        names.sort();
        let mut expected: Vec<String> = (0..10).map(|n| format!("{} {n}", key.tenant)).collect();
        expected.sort();
        assert_eq!(names, expected, "{}", key.tenant);
    }
}
