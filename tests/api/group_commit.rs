//! Group commit: many writers on many encounters at once share transactions, yet each change
//! stands or falls alone — a refused request in the crowd changes nothing and its neighbours
//! all commit, each with its own version and log entry.

use crate::helpers::{concurrently, spawn_app};
use reqwest::Method;
use serde_json::json;

const ENCOUNTERS: usize = 8;
/// 58 requests in all: under the 64 connections one peer may hold.
const JOINS_EACH: usize = 7;

#[tokio::test]
async fn many_writers_on_many_encounters_commit_together_and_the_refused_ones_leave_nothing() {
    let app = spawn_app().await;
    let mut encounters = Vec::new();
    for n in 0..ENCOUNTERS {
        encounters.push(app.create_encounter_id("lur-asko", &format!("Crowd {n}")).await);
    }
    let mut requests = Vec::new();
    for (e, encounter) in encounters.iter().enumerate() {
        for n in 0..JOINS_EACH {
            let body = json!({"name": format!("E{e} extra {n}"), "side": "crowd", "stats": {}});
            requests.push(
                app.request(Method::POST, &format!("/v1/encounters/{encounter}/combatants")).json(&body),
            );
        }
    }
    // Refused inside the writer, in the middle of the crowd: a missing combatant, a stale version.
    let refused_at = [requests.len() / 3, 2 * requests.len() / 3];
    let missing =
        app.request(Method::DELETE, &format!("/v1/encounters/{}/combatants/cmb_missing", encounters[0]));
    let body = json!({"name": "Never", "side": "crowd", "stats": {}});
    let stale = app
        .request(Method::POST, &format!("/v1/encounters/{}/combatants", encounters[1]))
        .header("If-Match", "\"0\"")
        .json(&body);
    requests.insert(refused_at[0], missing);
    requests.insert(refused_at[1], stale);

    let replies = concurrently(requests).await;

    let statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    assert_eq!((statuses[refused_at[0]], statuses[refused_at[1]]), (404, 412), "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), ENCOUNTERS * JOINS_EACH, "{statuses:?}");
    for (e, encounter) in encounters.iter().enumerate() {
        let stored = app.encounter(encounter).await;
        assert_eq!(stored["version"], json!(1 + JOINS_EACH), "encounter {e}");
        let mut names: Vec<String> = stored["combatants"]
            .as_array()
            .unwrap_or_else(|| panic!("combatants of {stored}"))
            .iter()
            .map(|c| c["name"].as_str().unwrap_or_default().to_owned())
            .collect();
        names.sort();
        let expected: Vec<String> = (0..JOINS_EACH).map(|n| format!("E{e} extra {n}")).collect();
        assert_eq!(names, expected, "encounter {e}: every join, nothing of the refused ones");
        let kinds = app.event_kinds(encounter).await;
        assert_eq!(kinds.len(), 1 + JOINS_EACH, "encounter {e}: {kinds:?}");
    }
}
