//! Raw durable commits on PostgreSQL: one 2 KB row per transaction (`BEGIN; INSERT; COMMIT`),
//! in a loop on each of CONNECTIONS connections at once, for a bounded time, with the server's
//! own settings (`synchronous_commit` as configured, `on` by default). Prints commits per second
//! over all connections and the p99 commit time. What the service's PostgreSQL leg is measured
//! against in `scripts/bench.sh`: the same server, the same concurrency as wrk's `-c`.
//!
//! Usage: `raw-postgres URL [CONNECTIONS (default 32, at most 128)] [SECONDS (default 5, at
//! most 60)]`. Creates the table `raw_rows` in the database at URL if missing.

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::sql_types::Text;
use std::thread;
use std::time::{Duration, Instant};

const ROW_BYTES: usize = 2048;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let url = args.next().ok_or("usage: raw-postgres URL [CONNECTIONS] [SECONDS]")?;
    let connections: usize = args.next().map(|s| s.parse()).transpose()?.unwrap_or(32).clamp(1, 128);
    let seconds: u64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(5).clamp(1, 60);
    PgConnection::establish(&url)?.batch_execute(
        "CREATE TABLE IF NOT EXISTS raw_rows (id BIGSERIAL PRIMARY KEY, data TEXT NOT NULL)",
    )?;
    // Every connection is open before the clock starts, as a service's are.
    let opened = (0..connections).map(|_| PgConnection::establish(&url)).collect::<Result<Vec<_>, _>>()?;
    let limit = Duration::from_secs(seconds);
    let start = Instant::now();
    let workers: Vec<_> =
        opened.into_iter().map(|conn| thread::spawn(move || commit_for(conn, start, limit))).collect();
    let mut times = Vec::new();
    for worker in workers {
        times.extend(worker.join().map_err(|_| "a committing thread panicked")??);
    }
    let rate = times.len() as f64 / start.elapsed().as_secs_f64();
    times.sort_unstable();
    let p99 = times.get(times.len() * 99 / 100).copied().unwrap_or_default();
    println!("commits/s {rate:.0} p99 {:.2}ms", p99.as_secs_f64() * 1000.0);
    Ok(())
}

/// Commits one row per transaction on `conn` until `limit` after `start`; each commit's time.
fn commit_for(mut conn: PgConnection, start: Instant, limit: Duration) -> Result<Vec<Duration>, String> {
    let row = "x".repeat(ROW_BYTES);
    let mut times = Vec::new();
    while start.elapsed() < limit {
        let begun = Instant::now();
        conn.transaction(|conn| {
            diesel::sql_query("INSERT INTO raw_rows (data) VALUES ($1)").bind::<Text, _>(&row).execute(conn)
        })
        .map_err(|error| error.to_string())?;
        times.push(begun.elapsed());
    }
    Ok(times)
}
