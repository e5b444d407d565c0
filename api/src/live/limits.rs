//! Caps on open streams, per API key and in total: a stream holds a permit for as long as it is
//! open, and a request beyond either cap is refused (429) before anything is read.

use crate::error::ApiError;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

#[derive(Default)]
struct Open {
    total: usize,
    by_key: HashMap<String, usize>,
}

pub struct StreamLimits {
    per_key: usize,
    total: usize,
    open: Arc<Mutex<Open>>,
}

impl StreamLimits {
    pub fn new(per_key: usize, total: usize) -> Self {
        Self { per_key, total, open: Arc::default() }
    }

    /// A permit for one more stream of `key`, or 429 naming the cap reached.
    pub fn admit(&self, key: &str) -> Result<StreamPermit, ApiError> {
        let mut open = lock(&self.open);
        let of_key = open.by_key.get(key).copied().unwrap_or(0);
        if of_key >= self.per_key {
            let detail = format!("this API key already holds {} open streams; close one first", self.per_key);
            return Err(ApiError::TooManyStreams(detail));
        }
        if open.total >= self.total {
            let detail = format!("the server already holds {} open streams; retry later", self.total);
            return Err(ApiError::TooManyStreams(detail));
        }
        open.total += 1;
        open.by_key.insert(key.to_owned(), of_key + 1);
        Ok(StreamPermit { open: self.open.clone(), key: key.to_owned() })
    }

    /// Streams open now.
    pub fn open(&self) -> usize {
        lock(&self.open).total
    }
}

fn lock(open: &Mutex<Open>) -> MutexGuard<'_, Open> {
    open.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One open stream; dropping it frees its place.
pub struct StreamPermit {
    open: Arc<Mutex<Open>>,
    key: String,
}

impl Drop for StreamPermit {
    fn drop(&mut self) {
        let mut open = lock(&self.open);
        open.total = open.total.saturating_sub(1);
        if let Some(count) = open.by_key.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.by_key.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_has_its_own_cap_under_the_total_and_a_closed_stream_frees_its_place() {
        let limits = StreamLimits::new(2, 3);

        let a1 = limits.admit("a").unwrap();
        let _a2 = limits.admit("a").unwrap();
        let a3 = limits.admit("a");
        let _b1 = limits.admit("b").unwrap();
        let b2 = limits.admit("b");
        drop(a1);
        let b3 = limits.admit("b");

        assert!(matches!(a3, Err(ApiError::TooManyStreams(ref m)) if m.contains("API key")));
        assert!(matches!(b2, Err(ApiError::TooManyStreams(ref m)) if m.contains("server")));
        assert!(b3.is_ok(), "a's closed stream made room");
        assert_eq!(limits.open(), 3);
    }
}
