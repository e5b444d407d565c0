//! Per-key rate limiting: a token bucket for each API key, refilled continuously.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Requests per minute and the burst allowed above that pace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateLimit {
    pub per_minute: u32,
    pub burst: u32,
}

#[derive(Debug)]
struct Bucket {
    tokens: f64,
    refilled: Instant,
}

/// Buckets keyed by API key id. The map grows only with the keys that exist.
#[derive(Debug)]
pub struct RateLimiter {
    limit: RateLimit,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl RateLimiter {
    pub fn new(limit: RateLimit) -> Self {
        Self { limit, buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes a token for `key`, or says how long until one is free.
    pub fn check(&self, key: &str) -> Result<(), Duration> {
        self.check_at(key, Instant::now())
    }

    fn check_at(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let capacity = f64::from(self.limit.burst.max(1));
        let per_second = f64::from(self.limit.per_minute) / 60.0;
        let mut buckets = self.buckets.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let bucket = buckets.entry(key.to_owned()).or_insert(Bucket { tokens: capacity, refilled: now });
        let elapsed = now.saturating_duration_since(bucket.refilled).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * per_second).min(capacity);
        bucket.refilled = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            return Ok(());
        }
        if per_second <= 0.0 {
            return Err(Duration::from_secs(60));
        }
        Err(Duration::from_secs_f64((1.0 - bucket.tokens) / per_second))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_allowed_then_the_pace_is_enforced() {
        // 60 per minute = 1 per second, burst 3.
        let limiter = RateLimiter::new(RateLimit { per_minute: 60, burst: 3 });
        let start = Instant::now();
        for _ in 0..3 {
            assert_eq!(limiter.check_at("k", start), Ok(()));
        }
        let wait = limiter.check_at("k", start).unwrap_err();
        assert!((wait.as_secs_f64() - 1.0).abs() < 1e-9, "one token per second: wait 1 s, got {wait:?}");
        assert_eq!(limiter.check_at("k", start + Duration::from_millis(1000)), Ok(()));
        assert_eq!(limiter.check_at("other", start), Ok(()), "each key has its own bucket");
    }
}
