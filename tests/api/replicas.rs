//! Two servers on one PostgreSQL database, sharing no memory (run by `tests/api_postgres`; on
//! SQLite one server holds the file, so these return at once): no lost update, contiguous logs,
//! one Idempotency-Key applied once, live streams and viewer links across replicas.

use crate::helpers::{TestApp, concurrently, on_postgres, spawn_app, text};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::Duration;

/// Two replicas on one fresh database, or `None` on SQLite.
async fn two_replicas() -> Option<(TestApp, TestApp)> {
    if !on_postgres() {
        return None;
    }
    let first = spawn_app().await;
    let second = first.replica().await;
    Some((first, second))
}

fn cepheus_stats() -> Value {
    json!({"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7})
}

/// Reads an event stream until it has `count` events: their ids (`seq`), in the order sent.
async fn stream_ids(response: reqwest::Response, count: usize) -> Vec<i64> {
    let mut response = response;
    let (mut pending, mut ids) = (String::new(), Vec::new());
    while ids.len() < count {
        let chunk = tokio::time::timeout(Duration::from_secs(10), response.chunk())
            .await
            .unwrap_or_else(|_| panic!("no event within 10 s; got {ids:?}"))
            .unwrap_or_else(|e| panic!("the stream broke: {e}"))
            .unwrap_or_else(|| panic!("the stream ended; got {ids:?}"));
        pending.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = pending.find("\n\n") {
            let block: String = pending.drain(..end + 2).collect();
            if let Some(id) = block.lines().find_map(|line| line.strip_prefix("id: ")) {
                ids.push(id.parse().unwrap_or_else(|e| panic!("id {id:?}: {e}")));
            }
        }
    }
    ids
}

#[tokio::test]
async fn changes_through_both_replicas_lose_nothing_and_keep_the_log_contiguous() {
    let Some((a, b)) = two_replicas().await else { return };
    let encounter = a.create_encounter_id("cepheus-engine", "Shared").await;
    let path = format!("/v1/encounters/{encounter}/combatants");
    let requests = (0..20)
        .map(|n| {
            let via = if n % 2 == 0 { &a } else { &b };
            via.request(Method::POST, &path)
                .json(&json!({"name": format!("c{n}"), "side": "s", "stats": cepheus_stats()}))
        })
        .collect();

    let replies = concurrently(requests).await;

    for reply in &replies {
        assert_eq!(reply.status, 201, "{:?}", reply.body);
    }
    let stored = b.get(&format!("/v1/encounters/{encounter}")).await.body;
    let events = a.get(&format!("/v1/encounters/{encounter}/events?limit=100")).await.body;
    let seqs: Vec<i64> =
        events["events"].as_array().map_or(vec![], |e| e.iter().filter_map(|e| e["seq"].as_i64()).collect());
    let mut versions: Vec<i64> = replies.iter().filter_map(|r| r.body["version"].as_i64()).collect();
    versions.sort_unstable();
    assert_eq!(stored["combatants"].as_array().map(Vec::len), Some(20));
    assert_eq!(stored["version"], 21);
    assert_eq!(versions, (2..=21).collect::<Vec<_>>(), "each change got its own version");
    assert_eq!(seqs, (1..=21).collect::<Vec<_>>(), "one event per change, no gap, no duplicate");
}

#[tokio::test]
async fn one_idempotency_key_sent_to_both_replicas_at_once_is_applied_once() {
    let Some((a, b)) = two_replicas().await else { return };
    let encounter = a.create_encounter_id("cepheus-engine", "Keyed").await;
    let path = format!("/v1/encounters/{encounter}/combatants");
    let body = json!({"name": "Once", "side": "s", "stats": cepheus_stats()});
    let requests = [&a, &b, &a, &b]
        .into_iter()
        .map(|via| via.request(Method::POST, &path).header("Idempotency-Key", "race-1").json(&body))
        .collect();

    let replies = concurrently(requests).await;

    let stored = a.get(&format!("/v1/encounters/{encounter}")).await.body;
    assert_eq!(stored["combatants"].as_array().map(Vec::len), Some(1), "applied once");
    assert_eq!(stored["version"], 2);
    for reply in &replies {
        assert_eq!(reply.status, 201);
        assert_eq!(reply.body, replies[0].body, "every answer is the first one");
    }
}

#[tokio::test]
async fn a_stream_on_one_replica_hears_every_change_made_through_the_other_in_order_once() {
    let Some((a, b)) = two_replicas().await else { return };
    let encounter = a.create_encounter_id("cepheus-engine", "Watched").await;
    let stream_path = format!("/v1/encounters/{encounter}/stream");
    let watching = b.request(Method::GET, &stream_path).send().await.unwrap_or_else(|e| panic!("{e}"));
    let path = format!("/v1/encounters/{encounter}/combatants");

    for n in 0..5 {
        let body = json!({"name": format!("c{n}"), "side": "s", "stats": cepheus_stats()});
        a.post_json(&path, &body).await.expect_status(201, "add through the first replica");
    }
    let heard = stream_ids(watching, 6).await;
    let resumed = b.request(Method::GET, &stream_path).header("Last-Event-ID", "3").send().await;
    let resumed = stream_ids(resumed.unwrap_or_else(|e| panic!("{e}")), 3).await;

    assert_eq!(heard, vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(resumed, vec![4, 5, 6], "Last-Event-ID resumes on the other replica");
}

#[tokio::test]
async fn a_viewer_link_made_on_one_replica_works_on_the_other_and_a_revoke_ends_its_streams_there() {
    let Some((a, b)) = two_replicas().await else { return };
    let encounter = a.create_encounter_id("cepheus-engine", "Viewed").await;
    let created = a.post_json(&format!("/v1/encounters/{encounter}/viewers"), &json!({})).await;
    let created = created.expect_status(201, "a viewer link").body;
    let (token, viewer) = (text(&created["token"]), text(&created["viewer"]["id"]));
    let bearer = format!("Bearer {token}");
    let stream_path = format!("/v1/encounters/{encounter}/stream");
    let mut stream = b
        .request(Method::GET, &stream_path)
        .header("Authorization", &bearer)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stream.status(), 200, "the link made on the first replica works on the second");

    a.delete(&format!("/v1/encounters/{encounter}/viewers/{viewer}")).await.expect_status(204, "revoke");

    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match stream.chunk().await {
                Ok(Some(_)) => continue,
                Ok(None) | Err(_) => return,
            }
        }
    })
    .await;
    let refused = b
        .send(Method::GET, &format!("/v1/encounters/{encounter}"), None, &[("Authorization", &bearer)])
        .await;
    assert!(ended.is_ok(), "the stream on the other replica ends");
    assert_eq!(refused.status, 401);
}
