//! Hot encounters: the writer keeps the encounters it changed last, as it wrote them, so the next
//! change to one of them reads one number (its stored version) instead of every combatant and
//! effect row. A kept copy is used only when the database holds exactly its version, so a change
//! made elsewhere (another process, a restart, a rolled-back or failed commit) is never missed:
//! every change bumps the version. With the copy goes the number of the encounter's last event
//! (events are appended only by changes, which bump the version), so the next change need not
//! ask for it either. A failed commit forgets everything, so a version that never
//! reached the disk cannot stand in for a later one of the same number.

use super::types::StoredEncounter;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Most encounters kept; past it the memory starts afresh.
const MAX_HOT: usize = 256;

#[derive(Default)]
pub(crate) struct HotEncounters {
    /// Shared with the change that wrote it until that change has rendered its response (see
    /// `encounters.rs`), so keeping one copies nothing inside the writer.
    kept: Mutex<HashMap<String, Kept>>,
}

/// One kept encounter and the `seq` of its last event (0 before its first).
pub(crate) struct Kept {
    pub encounter: Arc<StoredEncounter>,
    pub last_seq: i64,
}

impl HotEncounters {
    fn kept(&self) -> MutexGuard<'_, HashMap<String, Kept>> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The kept copy of `id`, taken out, if it is at `version`.
    pub(crate) fn take(&self, id: &str, version: i64) -> Option<Kept> {
        let mut kept = self.kept();
        let copy = kept.remove(id)?;
        (copy.encounter.encounter.version == version).then_some(copy)
    }

    /// Keeps `encounter` as just written, whose last event is `last_seq` (the caller holds the
    /// writer).
    pub(crate) fn keep(&self, encounter: Arc<StoredEncounter>, last_seq: i64) {
        let mut kept = self.kept();
        if kept.len() >= MAX_HOT {
            kept.clear();
        }
        kept.insert(encounter.encounter.id.0.clone(), Kept { encounter, last_seq });
    }

    pub(crate) fn forget(&self, id: &str) {
        self.kept().remove(id);
    }

    pub(crate) fn forget_all(&self) {
        self.kept().clear();
    }
}
