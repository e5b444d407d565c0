//! What every route shares: the application's state and the helpers that read and change an
//! encounter through the store. Routes import this module; it imports no route.

mod read;
mod streams;
mod viewing;
mod write;

pub use read::{encounter_answer, load, ruleset_of};
pub use streams::{last_event_id, open_stream, open_viewer_stream};
pub use viewing::{grant_in_path, viewer_encounter};
pub use write::{change, idempotent, mutate, new_id, render_plain};

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
        Self { store, rendered: Arc::default(), live, viewers: Arc::default(), webhooks: Arc::new(webhooks) }
    }
}
