//! The load: clients each making a fixed number of changes (adding a combatant named after the
//! client and the change), spread over the replicas and the encounters. A change whose request
//! is not answered (its replica was killed) is sent again to the next replica, with the same
//! `Idempotency-Key` when the plan says so: that is how a client of several replicas retries.

use crate::cluster::{combatant, http_client};
use reqwest::Client;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;

/// Sends of one change at most (the first and its retries).
const MAX_SENDS: usize = 8;

/// Pause before a retry.
const RETRY_PAUSE: Duration = Duration::from_millis(100);

/// What to send.
#[derive(Clone)]
pub struct Plan {
    pub clients: usize,
    pub changes: usize,
    /// Encounter ids; change `n` of client `c` goes to encounter `(c + n) % len`.
    pub encounters: Vec<String>,
    /// Replica addresses; change `n` of client `c` goes first to `(c * changes + n) % len`.
    pub replicas: Vec<String>,
    /// Send each change with its own `Idempotency-Key`, so a retry cannot apply it twice.
    pub keyed: bool,
}

/// A change the server acknowledged (2xx).
#[derive(Debug, Clone)]
pub struct Ack {
    pub encounter: usize,
    pub name: String,
    /// The replica that answered.
    pub replica: usize,
    pub version: i64,
    /// The `seq` of the change's one event.
    pub seq: i64,
    /// Why each earlier send of it went unanswered (empty when the first was answered).
    pub unanswered: Vec<String>,
}

/// What the load came to.
#[derive(Debug, Default)]
pub struct Outcome {
    pub acks: Vec<Ack>,
    /// Changes answered with anything but 2xx, or never answered: what and why.
    pub failures: Vec<String>,
}

impl Outcome {
    /// Changes sent more than once (their first send was not answered).
    pub fn retried(&self) -> usize {
        self.acks.iter().filter(|ack| !ack.unanswered.is_empty()).count()
    }

    /// Why sends went unanswered, one line each.
    pub fn unanswered(&self) -> Vec<String> {
        self.acks
            .iter()
            .flat_map(|ack| ack.unanswered.iter().map(|why| format!("{}: {why}", ack.name)))
            .collect()
    }
}

impl Plan {
    /// The name of change `n` of client `c`.
    pub fn name(client: usize, n: usize) -> String {
        format!("c{client:02}-{n:02}")
    }

    /// The names sent to encounter `index`, sorted.
    pub fn names_for(&self, index: usize) -> Vec<String> {
        let mut names: Vec<String> = (0..self.clients)
            .flat_map(|c| (0..self.changes).map(move |n| (c, n)))
            .filter(|(c, n)| (c + n) % self.encounters.len() == index)
            .map(|(c, n)| Self::name(c, n))
            .collect();
        names.sort();
        names
    }

    /// Runs every client at once; `acked` counts acknowledgements as they come (to act in the
    /// middle of the load).
    pub async fn run(&self, acked: Arc<AtomicUsize>) -> Outcome {
        let tasks: Vec<_> = (0..self.clients)
            .map(|client| tokio::spawn(self.clone().client(client, acked.clone())))
            .collect();
        let mut outcome = Outcome::default();
        for task in tasks {
            let one = task.await.unwrap_or_else(|e| panic!("a client task failed: {e}"));
            outcome.acks.extend(one.acks);
            outcome.failures.extend(one.failures);
        }
        outcome
    }

    async fn client(self, client: usize, acked: Arc<AtomicUsize>) -> Outcome {
        let http = http_client(Some(Duration::from_secs(60)));
        let mut outcome = Outcome::default();
        for n in 0..self.changes {
            match self.change(&http, client, n).await {
                Ok(ack) => {
                    outcome.acks.push(ack);
                    acked.fetch_add(1, Ordering::SeqCst);
                }
                Err(why) => outcome.failures.push(why),
            }
        }
        outcome
    }

    /// One change, sent until a replica answers (at most [`MAX_SENDS`] times).
    async fn change(&self, http: &Client, client: usize, n: usize) -> Result<Ack, String> {
        let encounter = (client + n) % self.encounters.len();
        let name = Self::name(client, n);
        let first = (client * self.changes + n) % self.replicas.len();
        let path = format!("/v1/encounters/{}/combatants", self.encounters[encounter]);
        let mut unanswered = Vec::new();
        for send in 0..MAX_SENDS {
            let replica = (first + send) % self.replicas.len();
            let mut request = http.post(format!("{}{path}", self.replicas[replica])).json(&combatant(&name));
            if self.keyed {
                request = request.header("Idempotency-Key", format!("change-{name}"));
            }
            let response = match request.send().await {
                Ok(response) => response,
                Err(error) => {
                    unanswered.push(format!("replica {replica}: {error:?}"));
                    tokio::time::sleep(RETRY_PAUSE).await;
                    continue;
                }
            };
            let status = response.status().as_u16();
            let body: serde_json::Value = response.json().await.unwrap_or_default();
            if status != 201 {
                return Err(format!("{name} on replica {replica}: {status} {body}"));
            }
            let version = body["version"].as_i64().ok_or_else(|| format!("{name}: no version in {body}"))?;
            let seq =
                body["events"][0]["seq"].as_i64().ok_or_else(|| format!("{name}: no event in {body}"))?;
            return Ok(Ack { encounter, name, replica, version, seq, unanswered });
        }
        Err(format!("{name}: never answered: {unanswered:?}"))
    }
}

/// Polls `acked` until it reaches `target` (or the load ended); false if `within` ran out.
pub async fn wait_for(
    acked: &AtomicUsize,
    target: usize,
    load: &JoinHandle<Outcome>,
    within: Duration,
) -> bool {
    let started = Instant::now();
    while started.elapsed() < within {
        if acked.load(Ordering::SeqCst) >= target || load.is_finished() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}
