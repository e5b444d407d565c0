//! The active viewer links, in memory: read from the database on first use, then kept current
//! by this process's creates and revokes (viewer links are made and revoked only over HTTP).
//! A revoke also bumps a counter that open viewer streams watch, so they end at once. The
//! feeds of the links' open streams are kept here too.

use super::feed::ViewerFeeds;
use super::now_unix;
use crate::error::ApiError;
use actix_web::web;
use skirmish_db::{Backend, Store, ViewerGrant, viewer_token_digest};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio::sync::{OnceCell, watch};

#[derive(Default)]
struct Held {
    /// Token digest → grant.
    by_digest: HashMap<String, ViewerGrant>,
    /// Viewer id → token digest.
    by_viewer: HashMap<String, String>,
}

impl Held {
    fn insert(&mut self, digest: String, grant: ViewerGrant) {
        self.by_viewer.insert(grant.viewer_id.clone(), digest.clone());
        self.by_digest.insert(digest, grant);
    }

    fn remove(&mut self, viewer_id: &str) {
        if let Some(digest) = self.by_viewer.remove(viewer_id) {
            self.by_digest.remove(&digest);
        }
    }

    /// Forgets links that have expired (they can never work again).
    fn forget_expired(&mut self, now: i64) {
        let expired: Vec<String> = self
            .by_digest
            .values()
            .filter(|grant| expired(grant, now))
            .map(|grant| grant.viewer_id.clone())
            .collect();
        for viewer_id in expired {
            self.remove(&viewer_id);
        }
    }
}

fn expired(grant: &ViewerGrant, now: i64) -> bool {
    grant.expires_at.is_some_and(|at| now >= at)
}

pub struct ViewerGrants {
    held: OnceCell<Mutex<Held>>,
    revocations: watch::Sender<u64>,
    /// The feeds the links' open streams follow, one per encounter (see `feed.rs`).
    pub feeds: Arc<ViewerFeeds>,
}

impl Default for ViewerGrants {
    fn default() -> Self {
        Self { held: OnceCell::new(), revocations: watch::Sender::new(0), feeds: Arc::default() }
    }
}

fn lock(held: &Mutex<Held>) -> MutexGuard<'_, Held> {
    held.lock().unwrap_or_else(PoisonError::into_inner)
}

impl ViewerGrants {
    /// The active links, read from the database the first time only.
    async fn held(&self, store: &Store) -> Result<&Mutex<Held>, ApiError> {
        self.held
            .get_or_try_init(|| async {
                let store = store.clone();
                let rows = web::block(move || store.active_viewer_grants()).await??;
                let mut held = Held::default();
                for (digest, grant) in rows {
                    held.insert(digest, grant);
                }
                Ok::<_, ApiError>(Mutex::new(held))
            })
            .await
    }

    /// What `token` grants now: `None` if it is unknown, revoked or expired. On PostgreSQL a
    /// token unknown here may have been made through another replica: it is looked up (and kept
    /// if active).
    pub async fn grant_for(&self, store: &Store, token: &str) -> Result<Option<ViewerGrant>, ApiError> {
        let digest = viewer_token_digest(token);
        let known = lock(self.held(store).await?).by_digest.get(&digest).cloned();
        let grant = match known {
            Some(grant) => Some(grant),
            None if store.backend() == Backend::Postgres => {
                let (store, wanted) = (store.clone(), digest.clone());
                let found = web::block(move || store.viewer_grant(&wanted)).await??;
                if let (Some(grant), Some(held)) = (&found, self.held.get()) {
                    lock(held).insert(digest, grant.clone());
                }
                found
            }
            None => None,
        };
        Ok(grant.filter(|grant| !expired(grant, now_unix())))
    }

    /// Whether the link `viewer_id` still works (for open streams; no database read).
    pub fn still_valid(&self, viewer_id: &str) -> bool {
        let Some(held) = self.held.get() else { return false };
        let held = lock(held);
        let grant = held.by_viewer.get(viewer_id).and_then(|digest| held.by_digest.get(digest));
        grant.is_some_and(|grant| !expired(grant, now_unix()))
    }

    /// Call before storing a new link, so the memory cannot miss it.
    pub async fn ready(&self, store: &Store) -> Result<(), ApiError> {
        self.held(store).await.map(|_| ())
    }

    /// A link was stored (after [`ViewerGrants::ready`]).
    pub fn added(&self, token: &str, grant: ViewerGrant) {
        if let Some(held) = self.held.get() {
            let mut held = lock(held);
            held.forget_expired(now_unix());
            held.insert(viewer_token_digest(token), grant);
        }
    }

    /// A link was revoked: it stops working now, and open streams of it end.
    pub fn revoked(&self, viewer_id: &str) {
        if let Some(held) = self.held.get() {
            lock(held).remove(viewer_id);
        }
        self.revocations.send_modify(|count| *count = count.wrapping_add(1));
    }

    /// Changes each time a link is revoked.
    pub fn revocations(&self) -> watch::Receiver<u64> {
        self.revocations.subscribe()
    }
}
