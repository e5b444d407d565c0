//! One server per database file: a server holds an exclusive lock on `<database>-lock` for its
//! whole life, so a second server (another process) on the same file is refused at start. The
//! server may then trust what it recorded of its own commits (see `store/committed.rs`): nobody
//! else changes its encounters. Stores opened in the same process share the lock (and that
//! record), as a restarted server or a test's second handle does.

use crate::error::DbError;
use std::collections::HashMap;
use std::fs::{File, OpenOptions, TryLockError};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};

/// The held lock; released when the last holder drops it (or the process ends).
#[derive(Debug)]
pub struct DatabaseLock {
    _file: File,
}

/// True for a database that lives in memory only (nothing on disk to share or lock).
pub(crate) fn in_memory(path: &str) -> bool {
    path.is_empty() || path == ":memory:" || path.starts_with("file::memory:") || path.contains("mode=memory")
}

/// The lock file of the database file at `path`.
pub fn lock_path(path: &str) -> String {
    format!("{path}-lock")
}

/// Takes (or, in this process, shares) the exclusive lock of the database file at `path`;
/// `None` for an in-memory database. Fails with [`DbError::InUse`] when another process holds it.
pub(crate) fn lock_exclusively(path: &str) -> Result<Option<Arc<DatabaseLock>>, DbError> {
    static HELD: OnceLock<Mutex<HashMap<String, Weak<DatabaseLock>>>> = OnceLock::new();
    if in_memory(path) {
        return Ok(None);
    }
    let lock_file = lock_path(path);
    let mut held = HELD.get_or_init(Mutex::default).lock().unwrap_or_else(PoisonError::into_inner);
    held.retain(|_, lock| lock.strong_count() > 0);
    let key =
        std::fs::canonicalize(&lock_file).map_or_else(|_| lock_file.clone(), |p| p.display().to_string());
    if let Some(lock) = held.get(&key).and_then(Weak::upgrade) {
        return Ok(Some(lock));
    }
    let open_error = |e: std::io::Error| DbError::Lock(format!("cannot open the lock file {lock_file}: {e}"));
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock_file)
        .map_err(open_error)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => return Err(DbError::InUse { database: path.to_owned(), lock_file }),
        Err(TryLockError::Error(e)) => return Err(DbError::Lock(format!("cannot lock {lock_file}: {e}"))),
    }
    // Keyed by the canonical path, which exists now.
    let key = std::fs::canonicalize(&lock_file).map_or(key, |p| p.display().to_string());
    let lock = Arc::new(DatabaseLock { _file: file });
    held.insert(key, Arc::downgrade(&lock));
    Ok(Some(lock))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_of_one_process_share_the_lock_and_an_in_memory_database_needs_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.db").display().to_string();

        let first = lock_exclusively(&path).unwrap().unwrap();
        let second = lock_exclusively(&path).unwrap().unwrap();

        assert!(Arc::ptr_eq(&first, &second));
        assert!(lock_exclusively(":memory:").unwrap().is_none());
        assert!(std::path::Path::new(&lock_path(&path)).exists());
    }
}
