//! Whoever watches the writer (the service's metrics): told of each change's timing once the
//! transaction holding it settled, and of each commit's size. Called on the writer's thread, so
//! an observer must be quick (an atomic add, a histogram bucket).

use super::writer::WriteTiming;
use std::sync::{Arc, OnceLock};

/// Hears how long each write took and how many changes each commit held.
pub trait WriteObserver: Send + Sync {
    /// A change finished: its queue wait, its work and its wait for the durable commit.
    fn wrote(&self, timing: &WriteTiming);
    /// A transaction holding `changes` changes was committed (or its commit failed).
    fn committed(&self, changes: usize);
}

/// The one observer a store (and its clones) tells, once set.
#[derive(Clone, Default)]
pub(crate) struct Observed(Arc<OnceLock<Arc<dyn WriteObserver>>>);

impl Observed {
    /// Sets the observer; false if one was set already.
    pub(crate) fn set(&self, observer: Arc<dyn WriteObserver>) -> bool {
        self.0.set(observer).is_ok()
    }

    pub(crate) fn wrote(&self, timing: &WriteTiming) {
        if let Some(observer) = self.0.get() {
            observer.wrote(timing);
        }
    }

    pub(crate) fn committed(&self, changes: usize) {
        if let Some(observer) = self.0.get() {
            observer.committed(changes);
        }
    }
}
