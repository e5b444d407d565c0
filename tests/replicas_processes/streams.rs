//! An SSE client of one replica: reads `GET /v1/encounters/{id}/stream` until it has the event
//! with a given `seq`, keeping every `id:` in the order received. A stream the server closes (a
//! reader that fell too far behind) is opened again with `Last-Event-ID`, as a browser would.

use crate::cluster::http_client;
use std::time::{Duration, Instant};

/// Reconnections one follower may make.
const MAX_RECONNECTS: usize = 20;

/// What one stream delivered.
#[derive(Debug)]
pub struct Heard {
    /// Every event id received, in order (duplicates kept, to be found).
    pub ids: Vec<i64>,
    /// Times the stream was opened again with `Last-Event-ID`.
    pub reconnects: usize,
}

/// Follows encounter `id` on the replica at `address` until event `last` arrived or `within`
/// ran out (then returns what it heard: the caller's assertion says what is missing).
pub async fn follow(address: String, id: String, last: i64, within: Duration) -> Heard {
    let client = http_client(None);
    let deadline = Instant::now() + within;
    let mut heard = Heard { ids: Vec::new(), reconnects: 0 };
    while heard.reconnects <= MAX_RECONNECTS && Instant::now() < deadline {
        let mut request = client.get(format!("{address}/v1/encounters/{id}/stream"));
        if let Some(seen) = heard.ids.last() {
            request = request.header("Last-Event-ID", seen.to_string());
        }
        let opened = tokio::time::timeout_at(deadline.into(), request.send()).await;
        if let Ok(Ok(response)) = opened {
            assert_eq!(response.status(), 200, "open the stream of {id} on {address}");
            read(response, &mut heard.ids, last, deadline).await;
        }
        if heard.ids.last().is_some_and(|seen| *seen >= last) {
            break;
        }
        heard.reconnects += 1;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    heard
}

/// Reads one opened stream into `ids` until `last`, its end, or the deadline.
async fn read(mut response: reqwest::Response, ids: &mut Vec<i64>, last: i64, deadline: Instant) {
    let mut pending = String::new();
    while ids.last().is_none_or(|seen| *seen < last) {
        let chunk = match tokio::time::timeout_at(deadline.into(), response.chunk()).await {
            Ok(Ok(Some(chunk))) => chunk,
            _ => return,
        };
        pending.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = pending.find("\n\n") {
            let block: String = pending.drain(..end + 2).collect();
            if let Some(id) = block.lines().find_map(|line| line.strip_prefix("id: ")) {
                ids.push(id.parse().unwrap_or_else(|e| panic!("event id {id:?}: {e}")));
            }
        }
    }
}
