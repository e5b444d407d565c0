//! One listener connection per store on PostgreSQL: `LISTEN skirmish`, polled every
//! [`POLL`], each notice from another replica handed to [`Heard`] (which wakes the live streams
//! and the viewer feeds, and drops what memory it invalidates). A lost connection is opened
//! again; notices sent meanwhile are lost, which costs latency only (see `mod.rs`). The thread
//! ends once the store's last clone is gone.

use super::{CHANNEL, Notice};
use crate::backend::DbConnection;
use diesel::{Connection, PgConnection, RunQueryDsl};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

/// How often the connection is asked for notifications (each ask reads the socket, no query).
const POLL: Duration = Duration::from_millis(10);
/// How long to wait before opening a lost connection again.
const RECONNECT: Duration = Duration::from_millis(500);

/// What the listener does with a notice from another replica.
pub(crate) trait Heard: Send + 'static {
    fn heard(&mut self, notice: Notice);
    /// Called after the connection was opened again: notices may have been missed.
    fn reconnected(&mut self) {}
}

/// Stops the listener thread when dropped (held by every clone of the store).
pub(crate) struct Listening {
    stop: Arc<AtomicBool>,
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
    }
}

/// Starts listening on `url` for the notices of stores other than `origin`.
pub(crate) fn listen(url: &str, origin: String, heard: impl Heard) -> std::io::Result<Listening> {
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let url = url.to_owned();
    thread::Builder::new()
        .name("skirmish-listener".into())
        .spawn(move || run(&url, &origin, &stopped, heard))?;
    Ok(Listening { stop })
}

fn run(url: &str, origin: &str, stop: &AtomicBool, mut heard: impl Heard) {
    let mut first = true;
    while !stop.load(Ordering::Acquire) {
        let Some(mut conn) = connect(url) else {
            thread::sleep(RECONNECT);
            continue;
        };
        if !std::mem::take(&mut first) {
            heard.reconnected();
        }
        while !stop.load(Ordering::Acquire) {
            if !drain(&mut conn, origin, &mut heard) {
                log::warn!("the PostgreSQL listener connection was lost; opening it again");
                break;
            }
            thread::sleep(POLL);
        }
    }
}

fn connect(url: &str) -> Option<PgConnection> {
    let mut conn = PgConnection::establish(url)
        .map_err(|error| log::warn!("cannot open the PostgreSQL listener connection: {error}"))
        .ok()?;
    diesel::sql_query(format!("LISTEN {CHANNEL}")).execute(&mut conn).ok()?;
    Some(conn)
}

/// Hands every notification received so far to `heard`; false if the connection broke.
fn drain(conn: &mut PgConnection, origin: &str, heard: &mut impl Heard) -> bool {
    for received in conn.notifications_iter() {
        let Ok(notification) = received else { return false };
        match Notice::parse(&notification.payload) {
            Some((from, _)) if from == origin => {}
            Some((_, notice)) => heard.heard(notice),
            None => log::warn!("an unreadable notification on {CHANNEL}: {:?}", notification.payload),
        }
    }
    true
}

/// A listener is only for PostgreSQL.
pub(crate) fn wanted(conn: &DbConnection) -> bool {
    matches!(conn, DbConnection::Pg(_))
}
