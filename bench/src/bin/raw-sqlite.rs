//! Raw durable commits: one 2 KB row per transaction, in a loop, with the service's own pragmas
//! (WAL, `synchronous = FULL`), for a bounded time. Prints commits per second and the p99 commit
//! time. Usage: `raw-sqlite DATABASE_FILE [SECONDS (default 5, at most 60)]`.
//!
//! The write-ahead log is warmed first, as a running service's is: one transaction larger than
//! the auto-checkpoint threshold (1000 pages), so that the measured commits overwrite a log file
//! that already has its size. Appending to a fresh log instead changes the file's size on every
//! commit, which makes each fsync also commit file-system metadata and can cost ten times more.

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::sql_types::Text;
use std::time::{Duration, Instant};

const ROW_BYTES: usize = 2048;
/// Rows of the warm-up transaction: more pages than the 1000-page auto-checkpoint threshold.
const WARM_UP_ROWS: usize = 1200;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: raw-sqlite DATABASE_FILE [SECONDS]")?;
    let seconds: u64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(5).clamp(1, 60);
    let mut conn = SqliteConnection::establish(&path)?;
    conn.batch_execute(skirmish_db::PRAGMAS)?;
    conn.batch_execute("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, data TEXT NOT NULL)")?;
    let row = "x".repeat(ROW_BYTES);
    let insert = || diesel::sql_query("INSERT INTO rows (data) VALUES (?)").bind::<Text, _>(&row);
    conn.immediate_transaction(|conn| (0..WARM_UP_ROWS).try_for_each(|_| insert().execute(conn).map(drop)))?;
    let (start, limit) = (Instant::now(), Duration::from_secs(seconds));
    let mut times = Vec::new();
    while start.elapsed() < limit {
        let begun = Instant::now();
        conn.immediate_transaction(|conn| insert().execute(conn))?;
        times.push(begun.elapsed());
    }
    let rate = times.len() as f64 / start.elapsed().as_secs_f64();
    times.sort_unstable();
    let p99 = times.get(times.len() * 99 / 100).copied().unwrap_or_default();
    println!("commits/s {rate:.0} p99 {:.2}ms", p99.as_secs_f64() * 1000.0);
    Ok(())
}
