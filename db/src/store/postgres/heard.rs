//! What a store does with another replica's notice: the live streams and viewer feeds hear of
//! events read from the log by `seq`, deletions close streams, revocations end what they
//! revoke, and memory that a notice makes stale is dropped.

use super::Notice;
use super::listener::Heard;
use crate::connection::ReaderPool;
use crate::rows::EventRow;
use crate::schema::events;
use crate::store::hot::HotEncounters;
use crate::store::keys::KeysKnown;
use crate::store::published::Published;
use crate::store::reads::stored_event;
use crate::store::webhooks::{Subscriptions, tenant_webhooks};
use diesel::prelude::*;
use std::sync::{Arc, OnceLock};

/// Told the id of every viewer link revoked by another replica.
pub(crate) type ViewerRevoked = Arc<OnceLock<Box<dyn Fn(&str) + Send + Sync>>>;

/// The parts of a store a notice touches (no store handle: the listener must not keep the
/// store alive).
pub(crate) struct Remote {
    pub(crate) readers: ReaderPool,
    pub(crate) published: Published,
    pub(crate) hot: Arc<HotEncounters>,
    pub(crate) keys: Arc<KeysKnown>,
    pub(crate) subscriptions: Arc<Subscriptions>,
    pub(crate) viewer_revoked: ViewerRevoked,
}

impl Heard for Remote {
    fn heard(&mut self, notice: Notice) {
        match notice {
            Notice::Appended { encounter, first, last } => self.appended(&encounter, first, last),
            Notice::Deleted { encounter } => {
                self.hot.forget(&encounter);
                self.published.deleted(&encounter);
            }
            Notice::ViewerRevoked { viewer } => {
                if let Some(revoked) = self.viewer_revoked.get() {
                    revoked(&viewer);
                }
            }
            Notice::KeyRevoked => self.keys.forget_owners(),
            Notice::WebhooksChanged { tenant } => self.webhooks_changed(&tenant),
        }
    }

    fn reconnected(&mut self) {
        self.keys.forget_owners();
    }
}

impl Remote {
    /// Hands the events `first..=last` of `encounter`, read from the log, to the streams that
    /// follow it (none read when nobody follows it here).
    fn appended(&self, encounter: &str, first: i64, last: i64) {
        if !self.published.wanted(encounter) {
            return;
        }
        let read = self.readers.get().map_err(|e| e.to_string()).and_then(|mut conn| {
            events::table
                .filter(events::encounter_id.eq(encounter).and(events::seq.between(first, last)))
                .order(events::seq)
                .select(EventRow::as_select())
                .load::<EventRow>(&mut *conn)
                .map_err(|e| e.to_string())
        });
        match read.and_then(|rows| {
            rows.into_iter().map(stored_event).collect::<Result<Vec<_>, _>>().map_err(|e| e.to_string())
        }) {
            Ok(events) => self.published.committed(encounter, &events),
            // The streams find the gap themselves with the next event they hear of.
            Err(error) => {
                log::warn!("cannot read the events another replica appended to {encounter}: {error}")
            }
        }
    }

    /// Reloads the tenant's subscriptions and wakes the deliverer (its deliveries may now be due
    /// here too).
    fn webhooks_changed(&self, tenant: &str) {
        let loaded = self
            .readers
            .get()
            .map_err(crate::error::DbError::from)
            .and_then(|mut conn| tenant_webhooks(&mut conn, tenant));
        match loaded {
            Ok(hooks) => {
                self.subscriptions.replace(tenant, hooks);
                self.subscriptions.wake();
            }
            Err(error) => log::warn!("cannot reload the webhooks of {tenant}: {error}"),
        }
    }
}
