//! Per-key rate limiting: a burst, then the configured pace; 429 with `Retry-After` beyond it.
//! Open mode, which has no keys, is never limited.

use crate::helpers::{AsKey, Reply, spawn_app_with};
use reqwest::Method;
use serde_json::json;
use std::time::{Duration, Instant};

/// Sets the pace (requests per minute) and the burst.
fn limit(per_minute: u32, burst: u32) -> impl FnOnce(&mut skirmish_api::Settings) {
    move |settings| {
        settings.rate_limit.rate_limit_per_minute = per_minute;
        settings.rate_limit.rate_limit_burst = burst;
    }
}

/// Asserts a 429 problem; returns its `Retry-After` in seconds.
#[track_caller]
fn assert_rate_limited(reply: &Reply, case: &str) -> u64 {
    reply.assert_problem(429, None, case);
    assert_eq!(reply.body["type"], json!("urn:skirmish:problem:rate-limited"), "{case}");
    let retry_after = reply.header("retry-after").unwrap_or_else(|| panic!("{case}: no Retry-After"));
    let seconds: u64 = retry_after.parse().unwrap_or_else(|_| panic!("{case}: Retry-After {retry_after:?}"));
    assert_eq!(
        reply.body["detail"],
        json!(format!("too many requests for this API key; retry in {seconds} s"))
    );
    seconds
}

async fn list(who: &AsKey<'_>) -> Reply {
    who.get("/v1/encounters").await
}

#[tokio::test]
async fn the_request_after_a_burst_of_three_is_refused_with_429_and_retry_after() {
    // 6 a minute is one every 10 s, so the test does not depend on how fast it runs.
    let (app, keys) = spawn_app_with(&["alpha"], limit(6, 3)).await;
    let alpha = app.with_key(&keys[0]);
    let start = Instant::now();

    let burst = [list(&alpha).await, list(&alpha).await, list(&alpha).await];
    let fourth = list(&alpha).await;
    let elapsed = start.elapsed();
    let fifth = list(&alpha).await;

    assert_eq!(burst.map(|r| r.status), [200, 200, 200]);
    let retry_after = assert_rate_limited(&fourth, "the fourth request");
    // The next token is due 10 s after the first request, less the time spent since.
    assert!((1..=10).contains(&retry_after), "Retry-After {retry_after}");
    if elapsed < Duration::from_secs(1) {
        assert_eq!(retry_after, 10, "within the first second the wait rounds up to 10 s");
    }
    assert_rate_limited(&fifth, "the fifth request");
}

#[tokio::test]
async fn at_sixty_a_minute_the_fourth_quick_request_waits_one_second() {
    let (app, keys) = spawn_app_with(&["alpha"], limit(60, 3)).await;
    let alpha = app.with_key(&keys[0]);
    let start = Instant::now();

    let burst = [list(&alpha).await, list(&alpha).await, list(&alpha).await];
    let fourth = list(&alpha).await;

    assert_eq!(burst.map(|r| r.status), [200, 200, 200]);
    // A token comes back each second; only a badly stalled machine takes that long for four.
    if start.elapsed() < Duration::from_millis(900) {
        assert_eq!(assert_rate_limited(&fourth, "the fourth request"), 1);
    }
}

#[tokio::test]
async fn the_bucket_refills_at_the_configured_pace() {
    let (app, keys) = spawn_app_with(&["alpha"], limit(60, 1)).await;
    let alpha = app.with_key(&keys[0]);

    assert_eq!(list(&alpha).await.status, 200);
    let refused = list(&alpha).await;
    let retry_after = assert_rate_limited(&refused, "the second request");
    tokio::time::sleep(Duration::from_secs(retry_after) + Duration::from_millis(50)).await;
    let refilled = list(&alpha).await;

    assert_eq!(retry_after, 1);
    assert_eq!(refilled.status, 200, "one token back after Retry-After: {}", refilled.body);
}

#[tokio::test]
async fn each_key_has_its_own_bucket() {
    let (app, keys) = spawn_app_with(&["alpha", "alpha", "beta"], limit(6, 2)).await;
    let (first, second, beta) = (app.with_key(&keys[0]), app.with_key(&keys[1]), app.with_key(&keys[2]));

    let spent = [list(&first).await.status, list(&first).await.status, list(&first).await.status];
    let others = [
        list(&second).await.status,
        list(&second).await.status,
        list(&beta).await.status,
        list(&beta).await.status,
    ];

    assert_eq!(spent, [200, 200, 429]);
    assert_eq!(others, [200, 200, 200, 200], "another key, even of the same tenant, has its own burst");
}

#[tokio::test]
async fn a_rate_limited_change_is_not_applied() {
    let (app, keys) = spawn_app_with(&["alpha", "alpha"], limit(6, 2)).await;
    let (writer, reader) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let encounter = writer.create_encounter_id("lur-asko", "Throttled").await;
    writer.add_combatant(&encounter, "Aro", "a", json!({})).await;

    let body = json!({"name": "Bel", "side": "b", "stats": {}});
    let refused = writer.post_json(&format!("/v1/encounters/{encounter}/combatants"), &body).await;

    assert_rate_limited(&refused, "the third change");
    let stored = reader.encounter(&encounter).await;
    assert_eq!(stored["version"], json!(2));
    assert_eq!(reader.events(&encounter).await.len(), 2);
}

#[tokio::test]
async fn refused_keys_get_401_not_429_and_use_no_real_keys_tokens() {
    let (app, keys) = spawn_app_with(&["alpha"], limit(6, 1)).await;

    for _ in 0..5 {
        let reply =
            app.send(Method::GET, "/v1/encounters", None, &[("Authorization", "Bearer sk_wrong")]).await;
        reply.assert_problem(401, None, "an unknown key");
    }
    for _ in 0..3 {
        app.get("/v1/encounters").await.assert_problem(401, None, "no key");
    }

    assert_eq!(list(&app.with_key(&keys[0])).await.status, 200, "the real key's burst is intact");
}

#[tokio::test]
async fn open_mode_is_never_rate_limited() {
    let (app, _) = spawn_app_with(&[], limit(60, 1)).await;

    let mut statuses = Vec::new();
    for n in 0..20 {
        let body = json!({"ruleset": "arrgs", "name": format!("Open {n}")});
        statuses.push(app.post_json("/v1/encounters", &body).await.status);
        statuses.push(app.get("/v1/encounters").await.status);
    }

    assert_eq!(statuses, [[201, 200]; 20].concat());
}

#[tokio::test]
async fn a_pace_of_zero_turns_rate_limiting_off() {
    let (app, keys) = spawn_app_with(&["alpha"], limit(0, 1)).await;
    let alpha = app.with_key(&keys[0]);

    let mut statuses = Vec::new();
    for _ in 0..20 {
        statuses.push(list(&alpha).await.status);
    }

    assert_eq!(statuses, [200; 20]);
}

#[tokio::test]
async fn concurrent_requests_beyond_the_burst_are_refused() {
    let (app, keys) = spawn_app_with(&["alpha"], limit(6, 5)).await;
    let alpha = app.with_key(&keys[0]);
    let requests = (0..12).map(|_| alpha.request(Method::GET, "/v1/encounters")).collect();

    let replies = crate::helpers::concurrently(requests).await;

    let mut statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [[200; 5].as_slice(), [429; 7].as_slice()].concat());
}
