//! Webhooks delivered by the server: destination rules, signing, retry schedule, the standard
//! and Discord bodies, and the background deliverer. Subscriptions and the outbox are stored by
//! `skirmish_db` (`store/webhooks.rs`, `store/outbox.rs`); routes are in `routes/webhooks.rs`.

pub mod deliverer;
pub mod destination;
pub mod discord;
pub mod payload;
pub mod response_body;
pub mod schedule;
pub mod signing;

use crate::config::WebhookSettings;
use crate::metrics::Metrics;
use deliverer::Deliverer;
use skirmish_db::Store;
use std::sync::Arc;
use tokio::sync::Notify;

/// What the routes share: the destination rule, and the running deliverer (which stops once
/// this is dropped with the app).
pub struct Webhooks {
    pub allow_private: bool,
    wake: Arc<Notify>,
    _alive: Arc<()>,
}

impl Webhooks {
    /// Starts the deliverer for `store` on the current runtime; the store wakes it after every
    /// commit that wrote deliveries.
    pub fn start(
        store: &Store,
        settings: &WebhookSettings,
        metrics: Option<Arc<Metrics>>,
    ) -> Result<Self, reqwest::Error> {
        let deliverer = Arc::new(Deliverer::new(store.clone(), settings, metrics)?);
        let wake = deliverer.wake.clone();
        let woken = wake.clone();
        if !store.wake_deliverer_with(move || woken.notify_one()) {
            log::warn!("the store already wakes another deliverer: this one polls");
        }
        let alive = Arc::new(());
        tokio::spawn(deliverer.run(Arc::downgrade(&alive)));
        Ok(Self { allow_private: settings.webhooks_allow_private, wake, _alive: alive })
    }
}

impl Drop for Webhooks {
    fn drop(&mut self) {
        // Lets the deliverer see at once that its app is gone.
        self.wake.notify_one();
    }
}
