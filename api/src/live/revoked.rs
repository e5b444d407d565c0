//! Streams end with their key. A stream's API key is checked when it opens, like any request;
//! while streams are open, one task per process reads which keys are revoked every
//! [`KEYS_RECHECK`] (the staleness every request accepts of another process's revoke) and tells
//! the streams, and a stream whose key is among them ends. With no stream open it reads nothing.

use skirmish_db::{KEYS_RECHECK, Store};
use std::collections::HashSet;
use std::sync::{Arc, OnceLock, Weak};
use tokio::sync::watch;

/// The ids of revoked API keys, as last read.
pub type Revoked = Arc<HashSet<String>>;

pub struct RevokedKeys {
    store: Store,
    revoked: Arc<watch::Sender<Revoked>>,
    started: OnceLock<()>,
}

impl RevokedKeys {
    pub fn new(store: &Store) -> Self {
        Self {
            store: store.clone(),
            revoked: Arc::new(watch::Sender::new(Revoked::default())),
            started: OnceLock::new(),
        }
    }

    /// What a stream watches; the first call starts the task that keeps it current (on the
    /// running runtime), which stops once this is dropped.
    pub fn watch(&self) -> watch::Receiver<Revoked> {
        self.started.get_or_init(|| {
            tokio::spawn(keep_current(self.store.clone(), Arc::downgrade(&self.revoked)));
        });
        self.revoked.subscribe()
    }
}

/// Whether `key` is among the revoked ones.
pub fn is_revoked(revoked: &watch::Receiver<Revoked>, key: &str) -> bool {
    revoked.borrow().contains(key)
}

async fn keep_current(store: Store, revoked: Weak<watch::Sender<Revoked>>) {
    loop {
        tokio::time::sleep(KEYS_RECHECK).await;
        let Some(sender) = revoked.upgrade() else { return };
        if sender.receiver_count() == 0 {
            continue;
        }
        let reader = store.clone();
        let keys = match tokio::task::spawn_blocking(move || reader.list_keys()).await {
            Ok(Ok(keys)) => keys,
            Ok(Err(error)) => {
                log::error!("open streams: cannot read the API keys: {error}");
                continue;
            }
            Err(error) => {
                log::error!("open streams: the API key read failed: {error}");
                continue;
            }
        };
        let now: HashSet<String> =
            keys.into_iter().filter(|key| key.revoked_at.is_some()).map(|key| key.id).collect();
        sender.send_if_modified(|known| {
            let changed = **known != now;
            if changed {
                *known = Arc::new(now);
            }
            changed
        });
    }
}
