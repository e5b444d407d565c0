//! One `Idempotency-Key` sent to two replicas at the same moment: applied once, and both
//! answers the same (the second replica waits for the first's commit, then replays its answer).

use crate::cluster::{Cluster, combatant};
use crate::verify::stored;
use serde_json::Value;

/// Races run, each with its own key.
const RACES: usize = 10;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_idempotency_key_raced_on_two_replicas_is_applied_once_with_one_answer() {
    let Some(cluster) = Cluster::start(2, &[]).await else { return };
    let id = cluster.create_encounter(0, "Raced").await;
    let path = format!("/v1/encounters/{id}/combatants");
    let mut answers: Vec<[(u16, Value); 2]> = Vec::new();

    for race in 0..RACES {
        let send = |replica: usize| {
            let request = cluster
                .client
                .post(format!("{}{path}", cluster.address(replica)))
                .header("Idempotency-Key", format!("race-{race}"))
                .json(&combatant(&format!("k{race:02}")));
            tokio::spawn(async move {
                let response = request.send().await.unwrap_or_else(|e| panic!("race {race}: {e}"));
                let status = response.status().as_u16();
                (status, response.json::<Value>().await.unwrap_or(Value::Null))
            })
        };
        let (first, second) = (send(0), send(1));
        let first = first.await.unwrap_or_else(|e| panic!("{e}"));
        let second = second.await.unwrap_or_else(|e| panic!("{e}"));
        answers.push([first, second]);
    }
    let on_first = stored(&cluster, 0, &id).await;
    let on_second = stored(&cluster, 1, &id).await;

    let same = answers.iter().filter(|[a, b]| a == b).count();
    println!(
        "Idempotency-Key raced on 2 replicas {RACES} times: {same} pairs of identical answers, {} combatants \
         stored, version {}",
        on_first.names.len(),
        on_first.version
    );
    for (race, [a, b]) in answers.iter().enumerate() {
        assert_eq!(a.0, 201, "race {race}: {}", a.1);
        assert_eq!(a, b, "race {race}: both replicas give the same answer");
    }
    let names: Vec<String> = (0..RACES).map(|race| format!("k{race:02}")).collect();
    assert_eq!(on_first.names, names, "each key applied once");
    assert_eq!(on_first.version, 1 + i64::try_from(RACES).unwrap_or(0));
    assert_eq!(on_first.seqs, (1..=on_first.version).collect::<Vec<_>>(), "the log is contiguous");
    assert_eq!(on_first, on_second, "both replicas read the same");
}
