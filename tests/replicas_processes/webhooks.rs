//! Webhooks across replicas while replicas are killed: a receiver on 127.0.0.1 gets every
//! delivery id (at least once; a repeat is legitimate after a kill and is counted), each with a
//! valid signature. The first replica is killed while the receiver holds its request, so its
//! lease must run out and another replica send the same `webhook-id`; a second replica is killed
//! in the middle of a load. The lease is shortened to [`LEASE_MS`] (`SKIRMISH_WEBHOOKS_LEASE_MS`).

use crate::cluster::Cluster;
use crate::load::{Plan, wait_for};
use crate::verify::stored;
use crate::webhook_receiver::{Received, Receiver, plain, signature_is_valid};
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The lease: short, so the test waits seconds, not the default minute.
const LEASE_MS: u64 = 5_000;

/// Longest the receiver holds the first request, and the test waits for any one step.
const STEP_WITHIN: Duration = Duration::from_secs(60);

/// A receiver that holds its first request until `gate` opens (telling `held` its id); every
/// request is answered 204.
fn gated_receiver(held: Arc<Mutex<Option<String>>>, gate: Arc<AtomicBool>) -> Receiver {
    Receiver::start(move |n, received| {
        if n == 0 {
            *held.lock().unwrap_or_else(PoisonError::into_inner) =
                Some(received.header("webhook-id").to_owned());
            let started = Instant::now();
            while !gate.load(Ordering::SeqCst) && started.elapsed() < STEP_WITHIN {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        plain(204, "")
    })
}

async fn eventually<T>(what: &str, mut probe: impl AsyncFnMut() -> Option<T>) -> T {
    let started = Instant::now();
    for _ in 0..3000 {
        if let Some(found) = probe().await {
            return found;
        }
        assert!(started.elapsed() < STEP_WITHIN, "{what}: not within {STEP_WITHIN:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{what}: never");
}

/// The subscription's deliveries (one page of up to 100) once all `count` are delivered.
async fn all_delivered(cluster: &Cluster, via: usize, hook: &str, count: usize) -> Vec<Value> {
    eventually("every delivery delivered", async || {
        let path = format!("/v1/webhooks/{hook}/deliveries?limit=100");
        let (status, page) = cluster.send(via, Method::GET, &path, None).await;
        assert_eq!(status, 200, "{page}");
        let listed = page["deliveries"].as_array().cloned().unwrap_or_default();
        let done = listed.len() == count && listed.iter().all(|d| d["status"] == "delivered");
        done.then_some(listed)
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_webhook_delivery_arrives_while_replicas_are_killed_repeats_counted() {
    let (held, gate) = (Arc::new(Mutex::new(None)), Arc::new(AtomicBool::new(false)));
    let receiver = gated_receiver(held.clone(), gate.clone());
    let env = [
        ("SKIRMISH_WEBHOOKS_ALLOW_PRIVATE", "true".to_owned()),
        ("SKIRMISH_WEBHOOKS_LEASE_MS", LEASE_MS.to_string()),
        ("SKIRMISH_WEBHOOKS_TIMEOUT_MS", "2000".to_owned()),
        ("SKIRMISH_WEBHOOKS_RETRY_BASE_MS", "100".to_owned()),
    ];
    let Some(mut cluster) = Cluster::start(1, &env).await else { return };
    let (status, hook) =
        cluster.send(0, Method::POST, "/v1/webhooks", Some(&json!({"url": receiver.url}))).await;
    assert_eq!(status, 201, "{hook}");
    let (hook_id, secret) =
        (hook["id"].as_str().unwrap_or_default(), hook["secret"].as_str().unwrap_or_default());

    // Replica 0, alone, takes the first delivery and dies while the receiver holds it.
    let id = cluster.create_encounter(0, "Hooked").await;
    let held_id = eventually("the first delivery arrives", async || {
        held.lock().unwrap_or_else(PoisonError::into_inner).clone()
    })
    .await;
    for n in 0..4 {
        let path = format!("/v1/encounters/{id}/combatants");
        let body = crate::cluster::combatant(&format!("early-{n}"));
        assert_eq!(cluster.send(0, Method::POST, &path, Some(&body)).await.0, 201);
    }
    cluster.kill(0);
    let killed_at = Instant::now();
    gate.store(true, Ordering::SeqCst);

    // Two more replicas carry a load; one of them is killed in its middle, the first restarted.
    let (b, c) = (cluster.add().await, cluster.add().await);
    let plan = Plan {
        clients: 4,
        changes: 15,
        encounters: vec![id.clone()],
        replicas: vec![cluster.address(b), cluster.address(c)],
        keyed: true,
    };
    let acked = Arc::new(AtomicUsize::new(0));
    let load = tokio::spawn({
        let (plan, acked) = (plan.clone(), acked.clone());
        async move { plan.run(acked).await }
    });
    assert!(wait_for(&acked, 20, &load, STEP_WITHIN).await, "20 changes acknowledged");
    cluster.kill(b);
    cluster.restart(0).await;
    let outcome = load.await.unwrap_or_else(|e| panic!("the load failed: {e}"));
    cluster.restart(b).await;
    let events = stored(&cluster, c, &id).await.seqs.len();
    let listed = all_delivered(&cluster, c, hook_id, events).await;
    let received = receiver.received();

    let mut by_id: BTreeMap<String, Vec<&Received>> = BTreeMap::new();
    for request in &received {
        by_id.entry(request.header("webhook-id").to_owned()).or_default().push(request);
    }
    let repeated: Vec<(&String, usize)> =
        by_id.iter().filter(|(_, all)| all.len() > 1).map(|(id, all)| (id, all.len())).collect();
    let takeover = by_id.get(&held_id).and_then(|all| all.get(1)).map(|second| second.at - killed_at);
    println!(
        "webhooks over 3 replicas, 2 SIGKILLed, lease {LEASE_MS} ms: {} deliveries listed, {} ids received, \
         {} requests, {} ids repeated {repeated:?}; the held delivery sent again by another replica {takeover:.2?} \
         after the kill; {} changes acknowledged",
        listed.len(),
        by_id.len(),
        received.len(),
        repeated.len(),
        outcome.acks.len()
    );
    let listed_ids: BTreeSet<String> =
        listed.iter().map(|d| d["id"].as_str().unwrap_or_default().to_owned()).collect();
    let received_ids: BTreeSet<String> = by_id.keys().cloned().collect();
    let seqs: BTreeSet<i64> =
        by_id.values().map(|all| all[0].json()["data"]["seq"].as_i64().unwrap_or(0)).collect();
    assert_eq!(outcome.failures, Vec::<String>::new(), "every change answered 201 at last");
    assert_eq!(outcome.acks.len(), 60);
    assert_eq!(events, 65, "the creation, 4 early changes and 60 more");
    assert_eq!(received_ids, listed_ids, "every delivery id reached the receiver");
    assert_eq!(seqs, (1..=65).collect::<BTreeSet<_>>(), "one delivery per event");
    assert!(
        by_id.get(&held_id).is_some_and(|all| all.len() >= 2),
        "the held delivery was sent again, same id"
    );
    assert!(received.iter().all(|request| signature_is_valid(secret, request)), "every request signed");
}
