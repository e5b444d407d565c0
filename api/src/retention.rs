//! Retention of ended encounters (`SKIRMISH_RETENTION_ENDED_SECONDS`, off by default): a task
//! that now and then deletes the ended, unarchived encounters that ended longer ago than that,
//! logging how many. Replicas on one PostgreSQL database may all run it: each sweep takes rows
//! no other sweep holds (see `Store::delete_ended_before`).

use crate::config::RetentionSettings;
use skirmish_db::{Store, now_ms, utc_text};
use std::sync::{Arc, Weak};
use std::time::Duration;

/// The longest retention accepted: 100 years.
pub const MAX_RETENTION_SECONDS: u64 = 100 * 365 * 86_400;
/// Sweeps are this far apart at most, and at least a second.
const MAX_SWEEP_INTERVAL: Duration = Duration::from_secs(60);

/// Starts the sweeps for `store` on the current runtime unless retention is off; they stop once
/// the returned guard (held by the app) is dropped.
pub fn start(store: &Store, settings: &RetentionSettings) -> Option<Arc<()>> {
    let seconds = settings.retention_ended_seconds;
    if seconds == 0 {
        return None;
    }
    let alive = Arc::new(());
    log::info!("retention: ended encounters are deleted {seconds} s after they end (archived ones are kept)");
    tokio::spawn(sweep(store.clone(), seconds, Arc::downgrade(&alive)));
    Some(alive)
}

/// Every interval (half the retention, 1 to 60 s) deletes what is due, until `alive` is gone.
async fn sweep(store: Store, seconds: u64, alive: Weak<()>) {
    let interval = Duration::from_secs(seconds / 2).clamp(Duration::from_secs(1), MAX_SWEEP_INTERVAL);
    let keep_ms = i64::try_from(seconds.saturating_mul(1000)).unwrap_or(i64::MAX);
    loop {
        tokio::time::sleep(interval).await;
        if alive.strong_count() == 0 {
            return;
        }
        let cutoff = utc_text(now_ms().saturating_sub(keep_ms).max(0));
        let store = store.clone();
        let swept = cutoff.clone();
        match tokio::task::spawn_blocking(move || store.delete_ended_before(&swept)).await {
            Ok(Ok(0)) => log::debug!("retention: no ended encounter ended before {cutoff}"),
            Ok(Ok(deleted)) => {
                log::info!("retention: deleted {deleted} ended encounters ended before {cutoff}")
            }
            Ok(Err(error)) => log::warn!("retention: the sweep failed (tried again later): {error}"),
            Err(error) => log::warn!("retention: the sweep stopped (tried again later): {error}"),
        }
    }
}
