//! The state every handler shares.

use crate::config::StreamSettings;
use crate::live::LiveStreams;
use crate::rendered::RenderedEncounters;
use crate::viewers::ViewerGrants;
use crate::webhooks::Webhooks;
use skirmish_db::Store;
use std::sync::Arc;

/// Shared by every handler.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    /// Bodies of `GET /v1/encounters/{id}`, by version.
    pub rendered: Arc<RenderedEncounters>,
    /// Open event streams and the hub that feeds them.
    pub live: Arc<LiveStreams>,
    /// The active viewer links, in memory.
    pub viewers: Arc<ViewerGrants>,
    /// The webhook deliverer and its destination rule.
    pub webhooks: Arc<Webhooks>,
}

impl AppState {
    pub fn new(store: Store, streams: &StreamSettings, webhooks: Webhooks) -> Self {
        let live = Arc::new(LiveStreams::new(&store, streams));
        let viewers = Arc::<ViewerGrants>::default();
        // A link revoked through another replica (PostgreSQL) stops working here too, and its
        // open streams here end.
        let revoked = Arc::downgrade(&viewers);
        store.when_viewer_revoked_elsewhere(move |viewer_id| {
            if let Some(viewers) = revoked.upgrade() {
                viewers.revoked(viewer_id);
            }
        });
        Self { store, rendered: Arc::default(), live, viewers, webhooks: Arc::new(webhooks) }
    }
}
