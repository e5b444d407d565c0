//! Prometheus metrics, served as `GET /metrics` in the text exposition format (version 0.0.4).
//!
//! One registry per running application (tests run many in one process, each counting its own):
//! HTTP requests by route pattern, method and status, with a latency histogram; the writer's
//! time per change and its commits' sizes; open event streams; webhook deliveries by outcome
//! and the outbox's depth. Recording costs a few atomic adds per request: every series is a
//! handle resolved once (see `http.rs`), so no label is hashed or allocated on the hot path.

mod endpoint;
mod http;
mod setup;
mod writes;

pub use endpoint::{MetricsListener, MetricsPage, scrape, serve_elsewhere};
pub use http::{HttpSeries, OTHER_ROUTE, RequestTimer};
pub use setup::{expose, record};

use prometheus::{
    Encoder, Histogram, HistogramOpts, IntCounter, IntCounterVec, IntGauge, Opts, Registry, TextEncoder,
};
use std::sync::Arc;
use writes::WriteMetrics;

/// What the exposition says it is (Prometheus text format 0.0.4).
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// What became of one webhook delivery attempt (the `outcome` label).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebhookOutcome {
    /// The receiver answered 2xx.
    Delivered,
    /// The attempt failed (error, timeout, non-2xx) and another is scheduled.
    Retrying,
    /// The receiver asked to slow down (429, e.g. Discord's `retry_after`); another is scheduled.
    RateLimited,
    /// The last attempt failed: the delivery is marked failed.
    Failed,
}

impl WebhookOutcome {
    pub fn label(self) -> &'static str {
        match self {
            Self::Delivered => "delivered",
            Self::Retrying => "retrying",
            Self::RateLimited => "rate_limited",
            Self::Failed => "failed",
        }
    }
}

/// Every metric of one application, registered once.
pub struct Metrics {
    registry: Registry,
    pub http: HttpSeries,
    writes: Arc<WriteMetrics>,
    open_streams: IntGauge,
    webhook_deliveries: [IntCounter; 4],
    outbox_depth: IntGauge,
}

impl Metrics {
    /// Registers every metric; `routes` are the route patterns the app serves (each gets its
    /// series resolved ahead of time).
    pub fn new(routes: impl IntoIterator<Item = String>) -> Result<Self, prometheus::Error> {
        let registry = Registry::new();
        let http = HttpSeries::register(&registry, routes)?;
        let writes = Arc::new(WriteMetrics::register(&registry)?);
        let open_streams = IntGauge::new("skirmish_open_streams", "Event streams open now")?;
        registry.register(Box::new(open_streams.clone()))?;
        let deliveries = IntCounterVec::new(
            Opts::new("skirmish_webhook_deliveries_total", "Webhook delivery attempts, by outcome"),
            &["outcome"],
        )?;
        registry.register(Box::new(deliveries.clone()))?;
        // In the order of `WebhookOutcome`, which indexes them.
        let counter = |outcome: WebhookOutcome| deliveries.get_metric_with_label_values(&[outcome.label()]);
        let webhook_deliveries = [
            counter(WebhookOutcome::Delivered)?,
            counter(WebhookOutcome::Retrying)?,
            counter(WebhookOutcome::RateLimited)?,
            counter(WebhookOutcome::Failed)?,
        ];
        let outbox_depth =
            IntGauge::new("skirmish_webhook_outbox_depth", "Webhook deliveries waiting in the outbox")?;
        registry.register(Box::new(outbox_depth.clone()))?;
        Ok(Self { registry, http, writes, open_streams, webhook_deliveries, outbox_depth })
    }

    /// What the store's writer reports to (see `skirmish_db::WriteObserver`).
    pub fn write_observer(&self) -> Arc<dyn skirmish_db::WriteObserver> {
        self.writes.clone()
    }

    /// Counts one webhook delivery attempt.
    pub fn webhook_delivery(&self, outcome: WebhookOutcome) {
        self.webhook_deliveries[outcome as usize].inc();
    }

    /// Sets the number of deliveries waiting in the outbox.
    pub fn set_outbox_depth(&self, depth: usize) {
        self.outbox_depth.set(i64::try_from(depth).unwrap_or(i64::MAX));
    }

    /// The exposition, with the gauges read now (`open_streams` streams open).
    pub fn render(&self, open_streams: usize) -> Result<String, prometheus::Error> {
        self.open_streams.set(i64::try_from(open_streams).unwrap_or(i64::MAX));
        let mut text = Vec::with_capacity(16 * 1024);
        TextEncoder::new().encode(&self.registry.gather(), &mut text)?;
        String::from_utf8(text).map_err(|error| prometheus::Error::Msg(error.to_string()))
    }
}

/// Histogram buckets for request and write durations, in seconds: 50 µs to 10 s.
pub(crate) fn duration_buckets() -> Vec<f64> {
    vec![
        0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
        5.0, 10.0,
    ]
}

pub(crate) fn histogram(name: &str, help: &str, buckets: Vec<f64>) -> Result<Histogram, prometheus::Error> {
    Histogram::with_opts(HistogramOpts::new(name, help).buckets(buckets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webhook_deliveries_count_by_outcome_and_the_gauges_show_what_was_set() {
        let metrics = Metrics::new(Vec::new()).unwrap();

        metrics.webhook_delivery(WebhookOutcome::Delivered);
        metrics.webhook_delivery(WebhookOutcome::Delivered);
        metrics.webhook_delivery(WebhookOutcome::RateLimited);
        metrics.set_outbox_depth(7);
        let text = metrics.render(3).unwrap();

        assert!(text.contains("skirmish_webhook_deliveries_total{outcome=\"delivered\"} 2\n"), "{text}");
        assert!(text.contains("skirmish_webhook_deliveries_total{outcome=\"rate_limited\"} 1\n"), "{text}");
        assert!(text.contains("skirmish_webhook_deliveries_total{outcome=\"failed\"} 0\n"), "{text}");
        assert!(text.contains("skirmish_webhook_outbox_depth 7\n"), "{text}");
        assert!(text.contains("skirmish_open_streams 3\n"), "{text}");
    }
}
