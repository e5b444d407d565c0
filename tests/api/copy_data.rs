//! `skirmish copy-data` end to end: a SQLite database filled through the API is copied into a
//! fresh PostgreSQL database by the binary, and a server on the copy answers every GET (lists,
//! encounters, event logs, viewer links, webhooks) exactly as the server on the original did.
//! Skipped (loudly) without a PostgreSQL server, except with CI=true.

use crate::helpers::{TestApp, skirmish_binary, spawn_app_on, spawn_app_with, temp_db};
use reqwest::Method;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A library creature, encounters with combatants (two from the creature), an undo, a viewer link and a webhook, made over HTTP; answers the
/// GET paths to compare.
async fn fill(app: &TestApp) -> Vec<String> {
    let hook = json!({"url": "http://127.0.0.1:9/hook", "kinds": ["encounter_created"]});
    app.post_json("/v1/webhooks", &hook).await.expect_status(201, "create a webhook");
    let wolf = json!({"name": "Wolf", "ruleset": "lur-asko", "stats": {}, "side": "pack", "notes": "hungry"});
    let wolf = app.post_json("/v1/creatures", &wolf).await.expect_status(201, "create a creature").body;
    let wolf = wolf["id"].as_str().unwrap_or_default().to_owned();
    let mut paths = vec!["/v1/encounters?limit=100".to_owned(), "/v1/webhooks".to_owned()];
    paths.extend(["/v1/creatures".to_owned(), format!("/v1/creatures/{wolf}"), "/v1/templates".to_owned()]);
    for name in ["Bridge", "Ford", "Keep"] {
        let encounter = app.create_encounter_id("lur-asko", name).await;
        for combatant in ["Ash", "Birch"] {
            app.add_combatant(&encounter, combatant, "side", json!({})).await;
        }
        let wolves = json!({"creature_id": wolf, "count": 2});
        let from = format!("/v1/encounters/{encounter}/combatants/from-creature");
        app.post_json(&from, &wolves).await.expect_status(201, "add combatants from the creature");
        app.add_effect(&encounter, json!({"name": "prone", "ends": {"ends": "end_of_round"}})).await;
        let undo = format!("/v1/encounters/{encounter}/undo");
        let key = [("Idempotency-Key", name)];
        let undone = app.send(Method::POST, &undo, Some(&json!({})), &key).await;
        undone.expect_status(200, "undo the last change");
        let kept = json!({"encounter_id": encounter, "name": format!("{name} setup")});
        let template = app.post_json("/v1/templates", &kept).await.expect_status(201, "keep a template").body;
        paths.push(format!("/v1/templates/{}", template["id"].as_str().unwrap_or_default()));
        let viewers = format!("/v1/encounters/{encounter}/viewers");
        app.post_json(&viewers, &json!({"label": name})).await.expect_status(201, "create a viewer link");
        paths.extend([
            format!("/v1/encounters/{encounter}"),
            format!("/v1/encounters/{encounter}/events?limit=100"),
            viewers,
        ]);
    }
    paths
}

/// The SQLite database at `path` (with its write-ahead log) copied to a new directory: this
/// process's stopped server may still hold the original's lock, which `copy-data` respects.
fn file_copy(path: &Path) -> (tempfile::TempDir, String) {
    let (dir, copy) = temp_db();
    for suffix in ["", "-wal", "-shm"] {
        let from = PathBuf::from(format!("{}{suffix}", path.display()));
        if from.exists() {
            let to = format!("{}{suffix}", copy.display());
            std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("cannot copy {}: {e}", from.display()));
        }
    }
    (dir, copy.display().to_string())
}

/// An event as a stream sends it: its id (seq), its kind and its data (the listed event).
type Frame = (i64, String, Value);

/// Each encounter's event log, as the original server listed it, in stream frames.
fn logs(answers: &[(String, u16, Value)]) -> Vec<Vec<Frame>> {
    let listed = answers.iter().filter(|(path, _, _)| path.ends_with("/events?limit=100"));
    let frame = |event: &Value| (event["seq"].as_i64().unwrap_or(-1), text(&event["kind"]), event.clone());
    listed
        .map(|(_, _, body)| {
            body["events"].as_array().map(|l| l.iter().map(frame).collect()).unwrap_or_default()
        })
        .collect()
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_owned()
}

/// Parses one event block (`id:`, `event:`, `data:` lines).
fn parse(block: &str) -> Frame {
    let field = |name: &str| {
        block.lines().find_map(|line| line.strip_prefix(name)).map(str::trim).unwrap_or_default().to_owned()
    };
    let data = serde_json::from_str(&field("data:")).unwrap_or_else(|e| panic!("data in {block:?}: {e}"));
    (field("id:").parse().unwrap_or(-1), field("event:"), data)
}

/// The first `count` event frames the encounter's stream replays (heartbeat comments left out).
async fn replayed(app: &TestApp, encounter: &str, count: usize) -> Vec<Frame> {
    let path = format!("/v1/encounters/{encounter}/stream");
    let mut response = app.request(Method::GET, &path).send().await.unwrap_or_else(|e| panic!("{e}"));
    let mut text = String::new();
    let read = async {
        while text.split("\n\n").filter(|block| block.contains("id:")).count() < count
            || !text.ends_with("\n\n")
        {
            let chunk = response.chunk().await.unwrap_or_else(|e| panic!("{e}")).unwrap_or_default();
            text.push_str(&String::from_utf8_lossy(&chunk));
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(20), read)
        .await
        .unwrap_or_else(|_| panic!("the stream of {encounter} did not replay {count} events"));
    let mut frames: Vec<Frame> = text.split("\n\n").filter(|b| b.contains("id:")).map(parse).collect();
    frames.truncate(count);
    frames
}

async fn answers(app: &TestApp, paths: &[String]) -> Vec<(String, u16, Value)> {
    let mut answers = Vec::new();
    for path in paths {
        let reply = app.get(path).await;
        answers.push((path.clone(), reply.status, reply.body));
    }
    answers
}

/// Each encounter's replayed stream, as many frames as its event log (read from `answers`).
async fn streams(app: &TestApp, answers: &[(String, u16, Value)]) -> Vec<Vec<Frame>> {
    let mut streams = Vec::new();
    for (path, _, body) in answers.iter().filter(|(path, _, _)| path.ends_with("/events?limit=100")) {
        let encounter = path.trim_start_matches("/v1/encounters/").trim_end_matches("/events?limit=100");
        let count = body["events"].as_array().map_or(0, Vec::len);
        streams.push(replayed(app, encounter, count).await);
    }
    streams
}

#[tokio::test]
async fn a_server_on_the_copy_answers_every_get_as_the_original_did() {
    let Some(server) = skirmish_db::test_server() else { return };
    let target = skirmish_db::ScratchDatabase::create_empty(&server)
        .unwrap_or_else(|e| panic!("cannot create an empty database: {e}"));
    let (app, _) = spawn_app_with(&[], |settings| settings.webhooks.webhooks_allow_private = true).await;
    let paths = fill(&app).await;
    let before = answers(&app, &paths).await;
    let original = app.stop().await;
    let (_dir, source) = file_copy(&original.path);

    let output = Command::new(skirmish_binary())
        .args(["copy-data", "--from", &source, "--to", &target.url])
        .output()
        .unwrap_or_else(|e| panic!("cannot run skirmish copy-data: {e}"));
    let again = Command::new(skirmish_binary())
        .args(["copy-data", "--from", &source, "--to", &target.url])
        .output()
        .unwrap_or_else(|e| panic!("cannot run skirmish copy-data: {e}"));
    let copy = spawn_app_on(&target.url).await;
    let after = answers(&copy, &paths).await;
    let streams_after = streams(&copy, &before).await;

    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "copy-data failed: {}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("  events: 21 rows"), "{stdout}");
    assert!(stdout.contains("  creatures: 1 rows"), "{stdout}");
    assert!(stdout.contains("  templates: 3 rows"), "{stdout}");
    assert!(stdout.contains("tables into"), "{stdout}");
    assert!(!again.status.success(), "a second copy into the now non-empty target is refused");
    assert!(String::from_utf8_lossy(&again.stderr).contains("--into-non-empty"));
    assert!(before.iter().all(|(_, status, _)| *status == 200), "{before:?}");
    assert_eq!(after, before);
    let logged = logs(&before);
    assert_eq!(streams_after, logged, "the copy's streams replay the original's logs");
    assert_eq!(logged.iter().map(Vec::len).sum::<usize>(), 21);
}

#[test]
fn a_missing_file_or_a_bad_url_fails_with_a_clear_message() {
    let (_dir, missing) = temp_db();
    let run = |from: &str, to: &str| {
        let output = Command::new(skirmish_binary())
            .args(["copy-data", "--from", from, "--to", to])
            .output()
            .unwrap_or_else(|e| panic!("cannot run skirmish copy-data: {e}"));
        (output.status.success(), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let from = missing.display().to_string();

    let no_file = run(&from, "postgres://postgres@127.0.0.1:5432/postgres");
    let not_postgres = run(&from, "mysql://127.0.0.1/db");

    assert!(!no_file.0 && no_file.1.contains("there is no SQLite database file at"), "{no_file:?}");
    assert!(!not_postgres.0 && not_postgres.1.contains("--to must be a postgres://"), "{not_postgres:?}");
    assert!(!missing.exists(), "no file is created");
}
