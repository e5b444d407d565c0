//! Three replicas, twenty clients, fifty changes each on five encounters: nothing lost, versions
//! and logs contiguous, every stream on every replica hearing each event once and in order; and
//! the same with one replica SIGKILLed in the middle and started again.

use crate::cluster::Cluster;
use crate::load::{Outcome, Plan, wait_for};
use crate::streams::{Heard, follow};
use crate::verify::check;
use reqwest::Method;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;

const REPLICAS: usize = 3;
const CLIENTS: usize = 20;
const CHANGES: usize = 50;
const ENCOUNTERS: usize = 5;

/// Longest the whole load may take (far above what it needs; a hung replica fails the test).
const LOAD_WITHIN: Duration = Duration::from_secs(300);

/// Events each encounter's log ends with: its creation and one per change.
fn last_seq() -> i64 {
    i64::try_from(1 + CLIENTS * CHANGES / ENCOUNTERS).unwrap_or(i64::MAX)
}

async fn encounters(cluster: &Cluster) -> Vec<String> {
    let mut ids = Vec::new();
    for n in 0..ENCOUNTERS {
        ids.push(cluster.create_encounter(n % REPLICAS, &format!("Load {n}")).await);
    }
    ids
}

/// A follower on each of `replicas` for each encounter: (replica, encounter index, task).
fn followers(
    cluster: &Cluster,
    replicas: &[usize],
    ids: &[String],
) -> Vec<(usize, usize, JoinHandle<Heard>)> {
    let mut all = Vec::new();
    for &replica in replicas {
        for (index, id) in ids.iter().enumerate() {
            let task = tokio::spawn(follow(cluster.address(replica), id.clone(), last_seq(), LOAD_WITHIN));
            all.push((replica, index, task));
        }
    }
    all
}

/// Waits for every follower; asserts each heard `1..=last` exactly once, in order; prints the
/// figures.
async fn every_stream_heard_every_event_once(followers: Vec<(usize, usize, JoinHandle<Heard>)>) {
    let expected: Vec<i64> = (1..=last_seq()).collect();
    for (replica, index, task) in followers {
        let heard = task.await.unwrap_or_else(|e| panic!("a follower failed: {e}"));
        println!(
            "stream of encounter {index} on replica {replica}: {} events, {} reconnects",
            heard.ids.len(),
            heard.reconnects
        );
        assert_eq!(heard.ids, expected, "replica {replica}, encounter {index}: each event once, in order");
    }
}

fn per_replica(outcome: &Outcome) -> Vec<usize> {
    (0..REPLICAS).map(|r| outcome.acks.iter().filter(|ack| ack.replica == r).count()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_replicas_lose_no_update_and_every_stream_hears_each_event_once_in_order() {
    let Some(cluster) = Cluster::start(REPLICAS, &[]).await else { return };
    let ids = encounters(&cluster).await;
    let streams = followers(&cluster, &[0, 1, 2], &ids);
    let plan = Plan {
        clients: CLIENTS,
        changes: CHANGES,
        encounters: ids,
        replicas: cluster.addresses(),
        keyed: false,
    };

    let started = Instant::now();
    let outcome = tokio::time::timeout(LOAD_WITHIN, plan.run(Arc::default())).await;
    let outcome = outcome.unwrap_or_else(|_| panic!("the load did not end within {LOAD_WITHIN:?}"));
    let took = started.elapsed();
    let figures = check(&cluster, &[0, 1, 2], &plan, &outcome).await;

    println!(
        "3 replicas, {CLIENTS} clients x {CHANGES} changes on {ENCOUNTERS} encounters: sent {}, acknowledged {}, \
         lost {}, duplicated {}, answered by replica {:?}, in {took:.2?}",
        figures.sent,
        figures.acknowledged,
        figures.lost,
        figures.duplicated,
        per_replica(&outcome)
    );
    assert_eq!(outcome.failures, Vec::<String>::new(), "every change answered 201");
    assert_eq!((figures.acknowledged, figures.lost, figures.duplicated), (CLIENTS * CHANGES, 0, 0));
    assert_eq!(outcome.unanswered(), Vec::<String>::new(), "no replica failed to answer");
    every_stream_heard_every_event_once(streams).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_replica_killed_mid_load_loses_no_acknowledged_change_and_serves_again_after_a_restart() {
    let Some(mut cluster) = Cluster::start(REPLICAS, &[]).await else { return };
    let ids = encounters(&cluster).await;
    let streams = followers(&cluster, &[0, 2], &ids);
    let plan = Plan {
        clients: CLIENTS,
        changes: CHANGES,
        encounters: ids.clone(),
        replicas: cluster.addresses(),
        keyed: true,
    };
    let acked = Arc::new(AtomicUsize::new(0));
    let load = tokio::spawn({
        let (plan, acked) = (plan.clone(), acked.clone());
        async move { plan.run(acked).await }
    });

    assert!(wait_for(&acked, 300, &load, LOAD_WITHIN).await, "300 changes acknowledged in time");
    let at_kill = acked.load(Ordering::SeqCst);
    cluster.kill(1);
    let mut survivors_answered = 0;
    for replica in [0, 2] {
        let (status, _) =
            cluster.send(replica, Method::GET, &format!("/v1/encounters/{}", ids[0]), None).await;
        survivors_answered += usize::from(status == 200);
    }
    assert!(wait_for(&acked, at_kill + 200, &load, LOAD_WITHIN).await, "the load goes on without replica 1");
    let while_down = acked.load(Ordering::SeqCst) - at_kill;
    let restart = cluster.restart(1).await;
    let outcome = tokio::time::timeout(LOAD_WITHIN, load).await;
    let outcome =
        outcome.unwrap_or_else(|_| panic!("the load did not end")).unwrap_or_else(|e| panic!("{e}"));
    let figures = check(&cluster, &[0, 1, 2], &plan, &outcome).await;
    let after = cluster.create_encounter(1, "After the restart").await;
    let (added, _) = cluster
        .send(
            1,
            Method::POST,
            &format!("/v1/encounters/{after}/combatants"),
            Some(&crate::cluster::combatant("Late")),
        )
        .await;

    println!(
        "SIGKILL of replica 1 after {at_kill} acknowledgements: sent {}, acknowledged {}, lost {}, duplicated {}, \
         applied without an answer {}, retried on another replica {}, acknowledged while it was down {while_down}, \
         answered by replica {:?}, restarted on its port in {restart:.2?}",
        figures.sent,
        figures.acknowledged,
        figures.lost,
        figures.duplicated,
        figures.unacknowledged_present,
        outcome.retried(),
        per_replica(&outcome)
    );
    assert_eq!(outcome.failures, Vec::<String>::new(), "every change answered 201 at last");
    assert_eq!((figures.acknowledged, figures.lost, figures.duplicated), (CLIENTS * CHANGES, 0, 0));
    assert_eq!(figures.unacknowledged_present, 0, "a retry with its Idempotency-Key acknowledged each");
    assert_eq!(survivors_answered, 2, "the other replicas answer while one is dead");
    assert_eq!(added, 201, "the restarted replica takes changes");
    every_stream_heard_every_event_once(streams).await;
}
