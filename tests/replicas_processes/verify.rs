//! What the database holds after a load, read back through every running replica, against what
//! the load was told: every acknowledged change present once, versions and logs contiguous.

use crate::cluster::Cluster;
use crate::load::{Outcome, Plan};
use reqwest::Method;

/// One encounter as stored, read through one replica.
#[derive(Debug, PartialEq)]
pub struct Stored {
    pub version: i64,
    /// Combatant names, sorted.
    pub names: Vec<String>,
    /// Every `seq` of the log, in the order listed.
    pub seqs: Vec<i64>,
    /// The log's summaries by position.
    pub summaries: Vec<String>,
}

/// Reads encounter `id` and its whole log (pages of 1000) through replica `index`.
pub async fn stored(cluster: &Cluster, index: usize, id: &str) -> Stored {
    let (status, encounter) = cluster.send(index, Method::GET, &format!("/v1/encounters/{id}"), None).await;
    assert_eq!(status, 200, "read {id} on replica {index}: {encounter}");
    let mut names: Vec<String> = encounter["combatants"]
        .as_array()
        .unwrap_or_else(|| panic!("no combatants in {encounter}"))
        .iter()
        .map(|c| c["name"].as_str().unwrap_or_default().to_owned())
        .collect();
    names.sort();
    let (mut seqs, mut summaries, mut after) = (Vec::new(), Vec::new(), 0);
    for _ in 0..100 {
        let path = format!("/v1/encounters/{id}/events?after={after}&limit=1000");
        let (status, page) = cluster.send(index, Method::GET, &path, None).await;
        assert_eq!(status, 200, "read the log of {id} on replica {index}: {page}");
        let events = page["events"].as_array().cloned().unwrap_or_default();
        if events.is_empty() {
            break;
        }
        for event in &events {
            seqs.push(event["seq"].as_i64().unwrap_or(-1));
            summaries.push(event["summary"].as_str().unwrap_or_default().to_owned());
        }
        after = page["next_after"].as_i64().unwrap_or_else(|| panic!("no next_after in {page}"));
    }
    let version = encounter["version"].as_i64().unwrap_or_else(|| panic!("no version in {encounter}"));
    Stored { version, names, seqs, summaries }
}

/// The figures of one load, checked: per encounter the names sent, acknowledged and stored.
#[derive(Debug, Default)]
pub struct Figures {
    pub sent: usize,
    pub acknowledged: usize,
    /// Acknowledged changes missing from the stored encounter.
    pub lost: usize,
    /// Names stored more than once.
    pub duplicated: usize,
    /// Changes stored that were never acknowledged (sent, answer lost).
    pub unacknowledged_present: usize,
}

/// Checks every encounter of `plan` through each of `readers` (running replicas): the same
/// answer from each; versions `2..=version` given once each to the acknowledged changes; the log
/// `1..=version` with no gap or duplicate, each acknowledged change's event at its `seq`; every
/// acknowledged name stored exactly once. Panics on the first breach; the figures otherwise.
pub async fn check(cluster: &Cluster, readers: &[usize], plan: &Plan, outcome: &Outcome) -> Figures {
    let mut figures = Figures { sent: plan.clients * plan.changes, ..Figures::default() };
    figures.acknowledged = outcome.acks.len();
    for (index, id) in plan.encounters.iter().enumerate() {
        let first = stored(cluster, readers[0], id).await;
        for reader in &readers[1..] {
            assert_eq!(
                stored(cluster, *reader, id).await,
                first,
                "replica {reader} reads {id} as the others"
            );
        }
        let acks: Vec<_> = outcome.acks.iter().filter(|ack| ack.encounter == index).collect();
        let mut versions: Vec<i64> = acks.iter().map(|ack| ack.version).collect();
        versions.sort_unstable();
        versions.dedup();
        assert_eq!(versions.len(), acks.len(), "{id}: two acknowledgements share a version");
        assert!(versions.iter().all(|v| (2..=first.version).contains(v)), "{id}: versions {versions:?}");
        let expected_log: Vec<i64> = (1..=first.version).collect();
        assert_eq!(first.seqs, expected_log, "{id}: one event per version, no gap, no duplicate");
        for ack in &acks {
            let summary = usize::try_from(ack.seq - 1).ok().and_then(|at| first.summaries.get(at));
            let wanted = format!("{} joins the fight (s)", ack.name);
            assert_eq!(summary, Some(&wanted), "{id}: the event at seq {} is {}'s", ack.seq, ack.name);
        }
        let mut distinct = first.names.clone();
        distinct.dedup();
        figures.duplicated += first.names.len() - distinct.len();
        figures.lost += acks.iter().filter(|ack| distinct.binary_search(&ack.name).is_err()).count();
        figures.unacknowledged_present += first.names.len() - acks.len().min(first.names.len());
        let sent = plan.names_for(index);
        assert!(first.names.iter().all(|name| sent.binary_search(name).is_ok()), "{id}: only names sent");
        assert_eq!(
            first.version,
            1 + i64::try_from(first.names.len()).unwrap_or(0),
            "{id}: a version per change"
        );
    }
    figures
}
