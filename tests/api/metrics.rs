//! GET /metrics: the Prometheus text format, counted by route pattern; off, or on a listener of
//! its own.

use crate::helpers::{Reply, TestApp, loopback_settings, spawn_app, spawn_app_with, temp_db};
use reqwest::Method;
use serde_json::json;
use skirmish_api::Application;
use skirmish_api::config::MetricsMode;
use std::collections::BTreeMap;
use std::time::Duration;

/// One sample of the exposition: its metric name and labels.
type Series = (String, BTreeMap<String, String>);

/// The exposition's samples (comments skipped), by name and labels.
fn parse(text: &str) -> BTreeMap<Series, f64> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| {
            let (series, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("no value in {line:?}"));
            let value: f64 = value.parse().unwrap_or_else(|e| panic!("value in {line:?}: {e}"));
            let (name, labels) = series.split_once('{').unwrap_or((series, "}"));
            let labels = labels.strip_suffix('}').unwrap_or_else(|| panic!("labels in {line:?}"));
            let labels = labels
                .split("\",")
                .filter(|pair| !pair.is_empty())
                .map(|pair| {
                    let (key, value) = pair.split_once("=\"").unwrap_or_else(|| panic!("label {pair:?}"));
                    (key.to_owned(), value.trim_end_matches('"').to_owned())
                })
                .collect();
            ((name.to_owned(), labels), value)
        })
        .collect()
}

/// The samples of one scrape.
struct Scrape {
    text: String,
    samples: BTreeMap<Series, f64>,
}

impl Scrape {
    async fn of(client: &reqwest::Client, base: &str) -> Self {
        let response = client.get(format!("{base}/metrics")).send().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(response.status(), 200, "GET /metrics");
        let content_type = response.headers()["content-type"].to_str().unwrap_or_default().to_owned();
        assert_eq!(content_type, "text/plain; version=0.0.4; charset=utf-8");
        let text = response.text().await.unwrap_or_else(|e| panic!("{e}"));
        Self { samples: parse(&text), text }
    }

    /// The sample `name{labels}`, 0 when absent (a series appears on first use).
    fn value(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        let labels = labels.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        self.samples.get(&(name.to_owned(), labels)).copied().unwrap_or(0.0)
    }

    fn requests(&self, route: &str, method: &str, status: &str) -> f64 {
        self.value(
            "skirmish_http_requests_total",
            &[("method", method), ("route", route), ("status", status)],
        )
    }

    /// The `le` bounds and counts of a histogram's buckets for these labels, lowest bound first.
    fn buckets(&self, name: &str, labels: &[(&str, &str)]) -> Vec<(String, f64)> {
        let bucket = format!("{name}_bucket");
        let bound = |le: &str| if le == "+Inf" { f64::INFINITY } else { le.parse().unwrap_or(f64::NAN) };
        let mut buckets: Vec<(String, f64)> = self
            .samples
            .iter()
            .filter(|((sample, sample_labels), _)| {
                *sample == bucket
                    && labels.iter().all(|(k, v)| sample_labels.get(*k).map(String::as_str) == Some(*v))
            })
            .map(|((_, sample_labels), count)| (sample_labels["le"].clone(), *count))
            .collect();
        buckets.sort_by(|(a, _), (b, _)| bound(a).total_cmp(&bound(b)));
        buckets
    }
}

async fn scrape(app: &TestApp) -> Scrape {
    Scrape::of(&app.client, &app.address).await
}

#[tokio::test]
async fn requests_are_counted_by_route_pattern_method_and_status_with_latency_histograms() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Counted").await;
    for _ in 0..3 {
        app.get(&format!("/v1/encounters/{encounter}")).await.expect_status(200, "the encounter");
    }
    for _ in 0..2 {
        app.get("/v1/encounters/enc_missing").await.expect_status(404, "an unknown encounter");
    }
    app.get("/no/such/route").await.expect_status(404, "no route");
    app.send(Method::DELETE, "/healthz", None, &[]).await.expect_status(405, "DELETE /healthz");

    let first = scrape(&app).await;
    let second = scrape(&app).await;

    let route = "/v1/encounters/{id}";
    assert_eq!(first.requests("/v1/encounters", "POST", "201"), 1.0, "{}", first.text);
    assert_eq!(first.requests(route, "GET", "200"), 3.0, "{}", first.text);
    assert_eq!(first.requests(route, "GET", "404"), 2.0);
    assert_eq!(first.requests("other", "GET", "404"), 1.0, "an unmatched path counts as `other`");
    assert_eq!(first.requests("/healthz", "DELETE", "405"), 1.0);
    assert_eq!(first.requests("/metrics", "GET", "200"), 0.0, "a scrape is counted once answered");
    assert_eq!(second.requests("/metrics", "GET", "200"), 1.0);
    assert!(!first.text.contains(&encounter) && !first.text.contains("enc_missing"), "never a raw path");
    assert!(!first.text.contains("/no/such/route"));

    let labels = [("route", route), ("method", "GET")];
    let buckets = first.buckets("skirmish_http_request_duration_seconds", &labels);
    let bounds: Vec<&str> = buckets.iter().map(|(le, _)| le.as_str()).collect();
    assert_eq!(bounds.first(), Some(&"0.00005"), "{bounds:?}");
    assert_eq!(bounds.last(), Some(&"+Inf"));
    assert_eq!(bounds.len(), 18, "17 bounds from 50 µs to 10 s, then +Inf: {bounds:?}");
    assert!(buckets.windows(2).all(|pair| pair[0].1 <= pair[1].1), "cumulative: {buckets:?}");
    assert_eq!(buckets.last().map(|(_, count)| *count), Some(5.0), "every GET of the encounter");
    assert_eq!(first.value("skirmish_http_request_duration_seconds_count", &labels), 5.0);
}

#[tokio::test]
async fn each_stored_change_is_timed_and_each_commit_sized() {
    let app = spawn_app().await;
    let before = scrape(&app).await;
    let encounter = app.create_encounter_id("cepheus-engine", "Written").await;
    app.add_combatant(&encounter, "Vasquez", "marines", crate::helpers::cepheus(10)).await;
    app.roll_initiative(&encounter, json!({"rolls": [6, 6]})).await;

    let after = scrape(&app).await;

    let changes = |scrape: &Scrape| scrape.value("skirmish_write_transaction_seconds_count", &[]);
    assert_eq!(changes(&before), 0.0, "{}", before.text);
    assert_eq!(changes(&after), 3.0, "create, add, initiative: {}", after.text);
    let buckets = after.buckets("skirmish_write_transaction_seconds", &[]);
    assert_eq!(buckets.last().map(|(_, count)| *count), Some(3.0));
    // One change at a time: each commit held one.
    assert_eq!(after.value("skirmish_write_batch_size_count", &[]), 3.0);
    assert_eq!(after.value("skirmish_write_batch_size_sum", &[]), 3.0);
    assert_eq!(after.buckets("skirmish_write_batch_size", &[]).first(), Some(&("1".to_owned(), 3.0)));
}

#[tokio::test]
async fn the_open_streams_gauge_counts_a_stream_while_it_is_open() {
    // The server notices a closed stream when it next writes to it: a short heartbeat.
    let (app, _) = spawn_app_with(&[], |settings| settings.streams.sse_heartbeat_ms = 50).await;
    let encounter = app.create_encounter_id("cepheus-engine", "Watched").await;
    let idle = scrape(&app).await;

    let stream = app.request(Method::GET, &format!("/v1/encounters/{encounter}/stream")).send().await;
    let stream = stream.unwrap_or_else(|e| panic!("cannot open the stream: {e}"));
    assert_eq!(stream.status(), 200);
    let open = scrape(&app).await;
    drop(stream);
    let closed = gauge_within(&app, "skirmish_open_streams", 0.0, Duration::from_secs(10)).await;

    assert_eq!(idle.value("skirmish_open_streams", &[]), 0.0, "{}", idle.text);
    assert_eq!(open.value("skirmish_open_streams", &[]), 1.0, "{}", open.text);
    assert!(closed, "the gauge falls back to 0 once the stream is closed");
    assert_eq!(open.requests("/v1/encounters/{id}/stream", "GET", "200"), 1.0, "{}", open.text);
}

/// Scrapes until the gauge `name` reads `value`, for at most `within`.
async fn gauge_within(app: &TestApp, name: &str, value: f64, within: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + within;
    while tokio::time::Instant::now() < deadline {
        if scrape(app).await.value(name, &[]) == value {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

#[tokio::test]
async fn metrics_off_answers_404_like_any_unknown_path() {
    let (app, _) = spawn_app_with(&[], |settings| settings.metrics.metrics = MetricsMode::Off).await;

    let metrics = app.get("/metrics").await;
    let health = app.get("/healthz").await;

    metrics.assert_problem(404, None, "metrics off");
    assert_eq!(metrics.body["detail"].as_str(), Some("no route for /metrics"));
    assert_eq!(health.status, 200, "the rest is served as ever");
}

#[tokio::test]
async fn metrics_on_their_own_address_are_served_there_and_not_on_the_main_listener() {
    let (_dir, db_path) = temp_db();
    let mut settings = loopback_settings(&db_path);
    settings.metrics.metrics_bind = Some("127.0.0.1:0".into());
    let app = Application::build(&settings).unwrap_or_else(|e| panic!("cannot build the app: {e}"));
    let main = format!("http://127.0.0.1:{}", app.port());
    let metrics = format!("http://{}", app.metrics_address().unwrap_or_else(|| panic!("no metrics address")));
    let (server, metrics_server) = app.into_servers();
    let metrics_server = metrics_server.unwrap_or_else(|| panic!("no metrics listener"));
    let handles = [server.handle(), metrics_server.handle()];
    tokio::spawn(server);
    tokio::spawn(metrics_server);
    let client = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(30)).build().unwrap();
    let get = |url: String| {
        let client = client.clone();
        async move { Reply::read(client.get(url).send().await.unwrap_or_else(|e| panic!("{e}"))).await }
    };

    let health = get(format!("{main}/healthz")).await;
    let on_main = get(format!("{main}/metrics")).await;
    let elsewhere = Scrape::of(&client, &metrics).await;
    let only_metrics = get(format!("{metrics}/healthz")).await;

    assert_eq!(health.status, 200);
    on_main.assert_problem(404, None, "the main listener has no /metrics");
    assert_eq!(elsewhere.requests("/healthz", "GET", "200"), 1.0, "{}", elsewhere.text);
    assert_eq!(elsewhere.requests("/metrics", "GET", "404"), 1.0, "the main listener's 404 is counted");
    only_metrics.assert_problem(404, None, "the metrics listener serves nothing else");
    drop(client);
    for handle in handles {
        handle.stop(true).await;
    }
}
