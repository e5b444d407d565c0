//! When to try a delivery again. Failed attempt n (from 1) waits `base × STEPS[n−1]` (the last
//! step repeating), ±20 % jitter so that retries of many deliveries spread out: at the default
//! base of 5 s that is 5 s, 30 s, 2 min, 10 min, 1 h, 2 h, then every 4 h; with the default 12
//! attempts the last one comes about 23 h after the first, then the delivery is marked failed.
//! A rate-limit answer (429) waits what it asks (`Retry-After`, or Discord's `retry_after`) and
//! does not count as a failure.

use rand::RngExt;
use std::time::Duration;

/// Multiples of the base for each retry after a failure.
const STEPS: [u64; 7] = [1, 6, 24, 120, 720, 1440, 2880];

/// Longest wait a rate-limit answer is obeyed for; longer asks wait this long.
pub const MAX_RATE_LIMIT_WAIT: Duration = Duration::from_secs(3600);

/// Most attempts recorded for one delivery, rate-limit answers included; then it is failed.
pub const MAX_RECORDED_ATTEMPTS: i32 = 50;

/// The wait after failure number `failures` (from 1), before jitter.
pub fn backoff(base: Duration, failures: u32) -> Duration {
    let index = usize::try_from(failures.saturating_sub(1)).unwrap_or(usize::MAX).min(STEPS.len() - 1);
    base.saturating_mul(u32::try_from(STEPS[index]).unwrap_or(u32::MAX))
}

/// `wait` spread by ±20 %.
pub fn jittered(wait: Duration) -> Duration {
    wait.mul_f64(rand::rng().random_range(0.8..=1.2))
}

/// How long a 429 asks to wait: the `Retry-After` header (whole seconds), else Discord's JSON
/// `retry_after` (seconds, with a fraction), else the first backoff step; at most
/// [`MAX_RATE_LIMIT_WAIT`].
pub fn rate_limit_wait(retry_after_header: Option<&str>, body: &[u8], fallback: Duration) -> Duration {
    let from_header = retry_after_header.and_then(|text| text.trim().parse::<f64>().ok());
    let from_body = || serde_json::from_slice::<serde_json::Value>(body).ok()?.get("retry_after")?.as_f64();
    from_header
        .or_else(from_body)
        .filter(|seconds| seconds.is_finite() && *seconds >= 0.0)
        .map_or(fallback, |seconds| Duration::from_secs_f64(seconds.min(MAX_RATE_LIMIT_WAIT.as_secs_f64())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_schedule_is_5s_30s_2min_10min_1h_2h_then_4h() {
        let base = Duration::from_secs(5);
        let minutes = |m: u64| Duration::from_secs(60 * m);
        let waits: Vec<Duration> = (1..=9).map(|n| backoff(base, n)).collect();

        assert_eq!(
            waits,
            [
                Duration::from_secs(5),
                Duration::from_secs(30),
                minutes(2),
                minutes(10),
                minutes(60),
                minutes(120),
                minutes(240),
                minutes(240),
                minutes(240)
            ]
        );
        // 12 attempts: 11 waits, 5+30+120+600+3600+7200 s and five of 4 h = 83,555 s ≈ 23.2 h.
        let total: Duration = (1..=11).map(|n| backoff(base, n)).sum();
        assert_eq!(total, Duration::from_secs(83_555));
    }

    #[test]
    fn jitter_stays_within_twenty_percent() {
        for _ in 0..100 {
            let wait = jittered(Duration::from_secs(100));
            assert!((80.0..=120.0).contains(&wait.as_secs_f64()), "{wait:?}");
        }
    }

    #[test]
    fn a_rate_limit_waits_what_the_header_or_discord_body_asks() {
        let fallback = Duration::from_secs(5);
        let discord = br#"{"message": "You are being rate limited.", "retry_after": 1.5, "global": false}"#;

        assert_eq!(rate_limit_wait(Some("3"), b"", fallback), Duration::from_secs(3));
        assert_eq!(rate_limit_wait(None, discord, fallback), Duration::from_millis(1500));
        assert_eq!(rate_limit_wait(Some("2"), discord, fallback), Duration::from_secs(2));
        assert_eq!(rate_limit_wait(None, b"not json", fallback), fallback);
        assert_eq!(rate_limit_wait(Some("-4"), b"", fallback), fallback);
        assert_eq!(rate_limit_wait(Some("999999"), b"", fallback), MAX_RATE_LIMIT_WAIT);
    }
}
