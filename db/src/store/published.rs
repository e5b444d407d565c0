//! Committed changes, told to whoever listens (the live event streams): a change's events are
//! handed over only once the transaction holding them is durably committed, so a listener never
//! sees a change that was rolled back. Changes committed together may be told in any order; a
//! listener that needs them in order fills a gap from the log (everything up to a told event is
//! committed by then).

use super::types::StoredEvent;
use std::sync::{Arc, OnceLock};

/// Hears about every committed change to an encounter's log.
pub trait EventSink: Send + Sync {
    /// Whether anybody listens to `encounter` now (so that its events are worth copying).
    fn listens(&self, encounter: &str) -> bool;
    /// `events` were appended to `encounter`'s log and are durably committed.
    fn committed(&self, encounter: &str, events: &[StoredEvent]);
    /// `encounter` was deleted (its log with it).
    fn deleted(&self, encounter: &str);
}

/// The one sink a store (and its clones) tells, once set.
#[derive(Clone, Default)]
pub(crate) struct Published(Arc<OnceLock<Arc<dyn EventSink>>>);

impl Published {
    /// Sets the sink; false if one was set already.
    pub(crate) fn set(&self, sink: Arc<dyn EventSink>) -> bool {
        self.0.set(sink).is_ok()
    }

    /// Whether anybody listens to `encounter` (so that its events are worth copying).
    pub(crate) fn wanted(&self, encounter: &str) -> bool {
        self.0.get().is_some_and(|sink| sink.listens(encounter))
    }

    pub(crate) fn committed(&self, encounter: &str, events: &[StoredEvent]) {
        if let (Some(sink), false) = (self.0.get(), events.is_empty()) {
            sink.committed(encounter, events);
        }
    }

    pub(crate) fn deleted(&self, encounter: &str) {
        if let Some(sink) = self.0.get() {
            sink.deleted(encounter);
        }
    }
}
