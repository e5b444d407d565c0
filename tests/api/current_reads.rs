//! Reads of one encounter answered from the body the server keeps, with no SQL, when its record
//! of its own commits says the kept version is current: a read right after a change's 2xx shows
//! exactly that change, a reader never goes back to an older version, a kept body is never shown
//! to another tenant, and a second server on the same database file (which could change it
//! behind the first one's back) is refused at start.

use crate::binary::{Binary, free_port};
use crate::helpers::{Reply, spawn_app, spawn_app_with_keys, temp_db};
use reqwest::{Client, Method};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

async fn send(client: &Client, method: Method, url: &str, body: Option<&Value>) -> Reply {
    let mut request = client.request(method.clone(), url);
    if let Some(body) = body {
        request = request.json(body);
    }
    let response = request.send().await.unwrap_or_else(|e| panic!("{method} {url} was not answered: {e}"));
    Reply::read(response).await
}

/// The version a reply says it is at, checked against its ETag.
#[track_caller]
fn version_with_etag(reply: &Reply, what: &str) -> i64 {
    let version =
        reply.body["version"].as_i64().unwrap_or_else(|| panic!("{what}: no version in {}", reply.body));
    assert_eq!(
        reply.etag(),
        Some(format!("\"{version}\"").as_str()),
        "{what}: the ETag is the body's version"
    );
    version
}

/// Adds `rounds` combatants to `encounter` one after another, reading the encounter right after
/// each 2xx; returns the last read.
async fn change_and_read(client: Client, address: String, encounter: String, rounds: usize) -> Value {
    let url = format!("{address}/v1/encounters/{encounter}");
    let mut last = Value::Null;
    for round in 0..rounds {
        let body = json!({"name": format!("{encounter} #{round}"), "side": "crowd", "stats": {}});
        let added = send(&client, Method::POST, &format!("{url}/combatants"), Some(&body)).await;
        let added = added.expect_status(201, "add a combatant");
        let written = version_with_etag(&added, "the change");

        let read = send(&client, Method::GET, &url, None).await.expect_status(200, "read after the change");

        assert_eq!(version_with_etag(&read, "the read"), written, "{encounter}: the read shows the change");
        let names: Vec<Value> =
            read.body["combatants"].as_array().into_iter().flatten().map(|c| c["name"].clone()).collect();
        let expected: Vec<Value> = (0..=round).map(|n| json!(format!("{encounter} #{n}"))).collect();
        assert_eq!(names, expected, "{encounter}: every combatant added so far, in order");
        last = read.body;
    }
    last
}

#[tokio::test]
async fn each_client_reads_exactly_its_own_change_while_others_change_theirs() {
    let app = spawn_app().await;
    let mut encounters = Vec::new();
    for n in 0..4 {
        let id = app.create_encounter_id("lur-asko", &format!("Table {n}")).await;
        app.encounter(&id).await; // the body is kept from here on
        encounters.push(id);
    }

    let clients: Vec<_> = encounters
        .iter()
        .map(|id| tokio::spawn(change_and_read(app.client.clone(), app.address.clone(), id.clone(), 8)))
        .collect();
    let mut warm = Vec::new();
    for client in clients {
        warm.push(client.await.unwrap_or_else(|e| panic!("a client failed: {e}")));
    }
    let app = app.restart().await;

    for (id, warm) in encounters.iter().zip(&warm) {
        assert_eq!(warm["version"], json!(9), "{id}: created, then eight changes");
        assert_eq!(&app.encounter(id).await, warm, "{id}: the kept body is what a fresh server renders");
    }
}

#[tokio::test]
async fn a_reader_racing_a_writer_never_sees_an_older_version_or_a_mixed_body() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Race").await;
    let url = format!("{}/v1/encounters/{encounter}", app.address);
    let writing = Arc::new(AtomicBool::new(true));
    let readers: Vec<_> = (0..3)
        .map(|_| {
            let (client, url, writing) = (app.client.clone(), url.clone(), writing.clone());
            tokio::spawn(async move {
                let mut seen = Vec::new();
                while writing.load(Ordering::SeqCst) && seen.len() < 2_000 {
                    let read = send(&client, Method::GET, &url, None).await.expect_status(200, "read");
                    let version = version_with_etag(&read, "a racing read");
                    let combatants = read.body["combatants"].as_array().map_or(0, Vec::len);
                    assert_eq!(combatants as i64, version - 1, "one combatant per change after the create");
                    seen.push(version);
                }
                seen
            })
        })
        .collect();

    for n in 0..30 {
        let body = json!({"name": format!("Extra {n}"), "side": "crowd", "stats": {}});
        let added = send(&app.client, Method::POST, &format!("{url}/combatants"), Some(&body)).await;
        added.expect_status(201, "add a combatant");
    }
    writing.store(false, Ordering::SeqCst);

    for reader in readers {
        let seen = reader.await.unwrap_or_else(|e| panic!("a reader failed: {e}"));
        assert!(seen.windows(2).all(|pair| pair[0] <= pair[1]), "a reader went back: {seen:?}");
    }
    assert_eq!(app.encounter(&encounter).await["version"], json!(31));
}

#[tokio::test]
async fn a_kept_body_is_never_shown_to_another_tenant() {
    let (app, keys) = spawn_app_with_keys(&["alpha", "beta"]).await;
    let (alpha, beta) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let encounter = alpha.create_encounter_id("lur-asko", "Alpha's table").await;
    let path = format!("/v1/encounters/{encounter}");
    alpha.encounter(&encounter).await;
    alpha.encounter(&encounter).await;

    let other = beta.get(&path).await;
    let own = alpha.get(&path).await;

    other.assert_problem(404, None, "another tenant's encounter");
    assert_eq!((own.status, own.body["name"].clone()), (200, json!("Alpha's table")));
}

#[tokio::test]
async fn a_read_after_a_delete_is_404_even_with_the_body_kept() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Gone").await;
    let path = format!("/v1/encounters/{encounter}");
    app.encounter(&encounter).await;
    app.encounter(&encounter).await;

    app.delete(&path).await.expect_status(204, "delete");
    let after = app.get(&path).await;

    after.assert_problem(404, None, "a deleted encounter");
}

#[tokio::test]
async fn a_read_after_an_undo_shows_the_state_put_back() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Undo").await;
    app.add_combatant(&encounter, "Extra", "crowd", json!({})).await;
    let before_undo = app.encounter(&encounter).await;

    let undone = app.send(Method::POST, &format!("/v1/encounters/{encounter}/undo"), None, &[]).await;
    undone.expect_status(200, "undo");
    let after = app.get(&format!("/v1/encounters/{encounter}")).await.expect_status(200, "read");

    assert_eq!(before_undo["combatants"].as_array().map(Vec::len), Some(1));
    assert_eq!(version_with_etag(&after, "the read after the undo"), 3, "the undo is a change too");
    assert_eq!(after.body["combatants"], json!([]), "the state of version 1 is back");
}

/// `skirmish serve` on the SQLite file `db` and `port`, not waited for.
fn serve(db: &std::path::Path, port: u16) -> Binary {
    let env = [("SKIRMISH_DATABASE_URL", db.display().to_string()), ("RUST_LOG", "error".to_owned())];
    Binary::spawn(port, &env)
}

#[tokio::test]
async fn a_second_server_on_the_same_database_file_is_refused_at_start() {
    let (_dir, db) = temp_db();
    let mut first = serve(&db, free_port());
    let first_up = first.answers().await;

    let mut second = serve(&db, free_port());
    let refused = second.exit("the second server").await;
    let said = second.log();
    let first_still_up = first.answers().await;
    first.kill();
    let mut third = serve(&db, free_port());
    let third_up = third.answers().await;
    third.kill();

    assert!(first_up, "the first server started");
    assert!(!refused.success(), "the second server must not start: {refused:?}");
    assert!(said.contains(&db.display().to_string()) && said.contains("in use"), "names the file: {said}");
    assert!(first_still_up, "the first server carries on");
    assert!(third_up, "once the first server stopped, another may use the file");
}
