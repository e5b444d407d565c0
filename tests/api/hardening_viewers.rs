//! Hardening, round two (issue 30, item 11): an encounter's viewer streams follow one feed that
//! reads and renders each wave of events once. Many streams of one encounter, through the page's
//! path and as a bearer, each receive every event a viewer may see once, in order, the same
//! bytes as the others, and nothing naming a hidden combatant. (What the feed saves is measured
//! by `MODE=viewers scripts/stream-load.sh`.)

use crate::helpers::{TestApp, spawn_app_with, text};
use reqwest::Method;
use serde_json::json;
use std::time::Duration;

/// Reads `response` until its text holds `marker`; everything read so far.
async fn read_until(response: &mut reqwest::Response, mut seen: String, marker: &str) -> String {
    while !seen.contains(marker) {
        let chunk = tokio::time::timeout(Duration::from_secs(10), response.chunk()).await;
        let chunk = chunk.unwrap_or_else(|_| panic!("no {marker:?} within 10 s; read {seen}"));
        let chunk = chunk.unwrap_or_else(|e| panic!("{e}")).unwrap_or_else(|| panic!("ended: {seen}"));
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    seen
}

async fn open(app: &TestApp, path: &str, bearer: Option<&str>) -> reqwest::Response {
    let mut request = app.request(Method::GET, path);
    if let Some(token) = bearer {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    let response = request.send().await.unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(response.status(), 200, "{path}");
    response
}

/// The `id:` values of a stream's text, in order.
fn ids(text: &str) -> Vec<i64> {
    text.lines().filter_map(|line| line.strip_prefix("id: ")).map(|id| id.parse().unwrap_or(-1)).collect()
}

#[tokio::test]
async fn many_viewer_streams_of_one_encounter_get_every_event_once_and_the_same_bytes() {
    let (app, _) = spawn_app_with(&[], |settings| settings.connections.max_connections_per_peer = 256).await;
    let encounter = app.create_encounter_id("lur-asko", "Watched").await;
    app.add_combatant(&encounter, "Shown", "a", json!({})).await;
    let lurker = app.add_combatant(&encounter, "Lurker", "b", json!({})).await;
    let hide = json!({"hidden": true});
    app.patch_json(&format!("/v1/encounters/{encounter}/combatants/{lurker}"), &hide)
        .await
        .expect_status(200, "hide");
    let mut streams = Vec::new();
    for _ in 0..4 {
        let link = app.post_json(&format!("/v1/encounters/{encounter}/viewers"), &json!({})).await;
        let token = text(&link.expect_status(201, "a viewer link").body["token"]);
        for _ in 0..4 {
            streams.push((false, open(&app, &format!("/view/{token}/stream"), None).await));
        }
        for _ in 0..2 {
            streams
                .push((true, open(&app, &format!("/v1/encounters/{encounter}/stream"), Some(&token)).await));
        }
    }
    let mut replayed = Vec::new();
    for (named, response) in &mut streams {
        replayed.push((*named, read_until(response, String::new(), "Shown joins").await));
    }

    for n in 0..12 {
        app.add_combatant(&encounter, &format!("Extra{n}"), "a", json!({})).await;
        let rename = json!({"name": format!("Lurker{n}")});
        app.patch_json(&format!("/v1/encounters/{encounter}/combatants/{lurker}"), &rename).await;
    }
    app.add_combatant(&encounter, "Last", "a", json!({})).await;
    let mut live = Vec::new();
    for ((named, response), (_, before)) in streams.iter_mut().zip(replayed) {
        let read = read_until(response, before.clone(), "Last joins").await;
        live.push((*named, read[before.len()..].to_owned(), read));
    }

    let (plain, named): (Vec<_>, Vec<_>) = live.iter().partition(|(named, ..)| !named);
    assert_eq!((plain.len(), named.len()), (16, 8));
    for group in [&plain, &named] {
        let whole: Vec<&String> = group.iter().map(|(_, _, whole)| whole).collect();
        assert!(whole.windows(2).all(|pair| pair[0] == pair[1]), "every stream of a kind has the same bytes");
    }
    let (_, _, text) = plain[0];
    let seqs = ids(text);
    assert!(seqs.windows(2).all(|pair| pair[0] < pair[1]), "in order, none twice: {seqs:?}");
    assert_eq!(text.matches("joins the fight").count(), 14, "Shown, 12 extras and Last: {text}");
    assert!(!text.contains("Lurker"), "nothing naming the hidden combatant: {text}");
    assert!(
        !text.contains("event: ") && named[0].2.contains("event: "),
        "the page's form has no event lines"
    );
}
