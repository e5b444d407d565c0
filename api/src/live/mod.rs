//! Live event streams: each committed event pushed to the encounter's open streams
//! (server-sent events), resumable from the log, ending with their API key (`revoked.rs`). See `routes/stream.rs` for the route.

mod body;
mod frames;
mod hub;
mod limits;
mod pump;
mod revoked;

pub use body::{FrameBody, event_stream};
pub use frames::{HEARTBEAT, event_frame};
pub use hub::{Hub, LiveEvent, Subscription};
pub use limits::{StreamLimits, StreamPermit};
pub use pump::{Pump, REPLAY_PAGE};
pub use revoked::{Revoked, RevokedKeys, is_revoked};

use crate::config::StreamSettings;
use skirmish_db::Store;
use std::sync::Arc;
use std::time::Duration;

/// Everything the stream route shares: the hub the store publishes to, the caps on open
/// streams, and the heartbeat period.
pub struct LiveStreams {
    pub hub: Arc<Hub>,
    pub limits: StreamLimits,
    pub heartbeat: Duration,
    /// Which API keys are revoked, for the streams opened with them.
    pub revoked: RevokedKeys,
}

impl LiveStreams {
    /// A hub that `store` tells of every committed change from now on.
    pub fn new(store: &Store, settings: &StreamSettings) -> Self {
        let hub = Arc::new(Hub::new(settings.sse_buffer));
        if !store.publish_to(hub.clone()) {
            log::warn!("the store already publishes elsewhere: streams will only replay the log");
        }
        Self {
            hub,
            limits: StreamLimits::new(settings.sse_max_streams_per_key, settings.sse_max_streams),
            heartbeat: Duration::from_millis(settings.sse_heartbeat_ms.max(1)),
            revoked: RevokedKeys::new(store),
        }
    }
}
