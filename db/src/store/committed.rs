//! The latest durably committed version of each encounter a writer changed, so a read can tell
//! with no SQL that a body it keeps for a version is still current.
//!
//! The writer marks the encounters of a transaction as committing before its `COMMIT` (while it
//! holds SQLite's write lock) and records their new versions after the commit, before any change
//! in it is answered: a reader that could already see a new version in SQL finds its encounter
//! marked, never an older version recorded. A failed or abandoned commit forgets everything.
//!
//! Every store of one database file in this process shares one record (see
//! [`CommittedVersions::for_path`]); other processes are kept off the file while a server runs
//! (see `exclusive.rs`). The record is bounded and may forget: an encounter not in it is simply
//! read with SQL, so correctness never depends on it being complete.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, Weak};

/// Most encounters recorded; past it the record starts afresh.
const MAX_RECORDED: usize = 16_384;

/// The version recorded for a deleted encounter: later than any version it had.
pub const DELETED: i64 = i64::MAX;

/// One encounter changed by a transaction: its id and its version after it ([`DELETED`] if
/// the transaction deleted it).
pub(crate) type Changed = (String, i64);

#[derive(Default)]
pub(crate) struct CommittedVersions {
    record: Mutex<Record>,
}

#[derive(Default)]
struct Record {
    /// Bumped whenever the record is cleared: a commit marked before a clear records nothing.
    generation: u64,
    latest: HashMap<String, Latest>,
}

#[derive(Default)]
struct Latest {
    version: i64,
    /// Transactions changing the encounter that are committing now.
    committing: u32,
}

impl CommittedVersions {
    /// The record shared by every store of the database file at `path` in this process (a fresh
    /// one for an in-memory database, which no other store can see).
    pub(crate) fn for_path(path: &str) -> Arc<Self> {
        static SHARED: OnceLock<Mutex<HashMap<String, Weak<CommittedVersions>>>> = OnceLock::new();
        if crate::exclusive::in_memory(path) {
            return Arc::default();
        }
        let key = std::fs::canonicalize(path).map_or_else(|_| path.to_owned(), |p| p.display().to_string());
        let mut shared = SHARED.get_or_init(Mutex::default).lock().unwrap_or_else(PoisonError::into_inner);
        shared.retain(|_, record| record.strong_count() > 0);
        if let Some(record) = shared.get(&key).and_then(Weak::upgrade) {
            return record;
        }
        let record = Arc::<Self>::default();
        shared.insert(key, Arc::downgrade(&record));
        record
    }

    fn record(&self) -> MutexGuard<'_, Record> {
        self.record.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The latest committed version of `id` when no commit changing it is under way ([`DELETED`]
    /// once deleted); `None` when unknown or committing.
    pub(crate) fn settled(&self, id: &str) -> Option<i64> {
        let record = self.record();
        let latest = record.latest.get(id)?;
        (latest.committing == 0).then_some(latest.version)
    }

    /// Marks `changed` as committing (call it just before `COMMIT`, in the transaction); returns
    /// the generation to hand to [`CommittedVersions::committed`].
    pub(crate) fn committing(&self, changed: &[Changed]) -> u64 {
        let mut record = self.record();
        if record.latest.len() + changed.len() > MAX_RECORDED {
            record.clear();
        }
        for (id, _) in changed {
            record.latest.entry(id.clone()).or_default().committing += 1;
        }
        record.generation
    }

    /// Records the versions of `changed`, durably committed, unless the record was cleared since
    /// they were marked at `generation`.
    pub(crate) fn committed(&self, generation: u64, changed: &[Changed]) {
        let mut record = self.record();
        if record.generation != generation {
            return;
        }
        for (id, version) in changed {
            if let Some(latest) = record.latest.get_mut(id) {
                latest.committing = latest.committing.saturating_sub(1);
                // Another store of the file may have recorded a later commit first.
                latest.version = latest.version.max(*version);
            }
        }
    }

    /// Forgets everything (a commit failed: what it changed is unknown).
    pub(crate) fn forget_all(&self) {
        self.record().clear();
    }
}

impl Record {
    fn clear(&mut self) {
        self.latest.clear();
        self.generation += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changed(id: &str, version: i64) -> Vec<Changed> {
        vec![(id.to_owned(), version)]
    }

    #[test]
    fn a_version_is_settled_only_once_its_commit_is_recorded() {
        let record = CommittedVersions::default();
        let generation = record.committing(&changed("enc_1", 1));
        let while_committing = record.settled("enc_1");
        record.committed(generation, &changed("enc_1", 1));

        assert_eq!(while_committing, None);
        assert_eq!(record.settled("enc_1"), Some(1));
        assert_eq!(record.settled("enc_2"), None, "never changed here");
    }

    #[test]
    fn a_later_commit_recorded_first_is_not_replaced_by_an_earlier_one() {
        let record = CommittedVersions::default();
        let first = record.committing(&changed("enc_1", 2));
        let second = record.committing(&changed("enc_1", 3));
        record.committed(second, &changed("enc_1", 3));
        let one_still_committing = record.settled("enc_1");
        record.committed(first, &changed("enc_1", 2));

        assert_eq!(one_still_committing, None);
        assert_eq!(record.settled("enc_1"), Some(3));
    }

    #[test]
    fn a_commit_marked_before_the_record_was_forgotten_records_nothing() {
        let record = CommittedVersions::default();
        let generation = record.committing(&changed("enc_1", 4));
        record.forget_all();
        record.committed(generation, &changed("enc_1", 4));

        assert_eq!(record.settled("enc_1"), None);
    }

    #[test]
    fn a_deletion_is_later_than_any_version() {
        let record = CommittedVersions::default();
        let generation = record.committing(&[("enc_1".to_owned(), 5), ("enc_1".to_owned(), DELETED)]);
        record.committed(generation, &[("enc_1".to_owned(), DELETED), ("enc_1".to_owned(), 5)]);

        assert_eq!(record.settled("enc_1"), Some(DELETED));
    }
}
