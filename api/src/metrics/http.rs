//! Requests by route pattern, method and status, and their latency.
//!
//! The `route` label is the pattern actix matched (`/v1/encounters/{id}`), never the raw path,
//! and `other` when no route matched; the method is one of the standard ones or `other`. So the
//! label sets are bounded by the routes the app serves. Every series of a known route is a handle
//! kept in a table built at start and filled on first use: recording a request is a lookup by
//! pattern, a few comparisons and atomic adds — no label hashing and no lock.

use super::duration_buckets;
use actix_web::body::BoxBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, StatusCode};
use prometheus::{Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, Opts, Registry};
use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The `route` label of a request that matched no route.
pub const OTHER_ROUTE: &str = "other";
const METHODS: [&str; 8] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "other"];
/// Statuses whose counters are kept as handles (sorted); any other is looked up by label.
const STATUSES: [u16; 20] =
    [200, 201, 204, 304, 400, 401, 403, 404, 405, 406, 408, 409, 412, 413, 415, 422, 428, 429, 500, 503];

pub struct HttpSeries {
    requests: IntCounterVec,
    durations: HistogramVec,
    /// Route pattern → index in `names` (the last name is [`OTHER_ROUTE`]).
    routes: HashMap<Box<str>, usize>,
    names: Vec<Box<str>>,
    /// One per route and method, route-major.
    series: Vec<RouteMethod>,
}

/// The series of one route and method, resolved on first use.
#[derive(Default)]
struct RouteMethod {
    duration: OnceLock<Histogram>,
    by_status: [OnceLock<IntCounter>; STATUSES.len()],
}

impl HttpSeries {
    pub fn register(
        registry: &Registry,
        patterns: impl IntoIterator<Item = String>,
    ) -> Result<Self, prometheus::Error> {
        let requests = IntCounterVec::new(
            Opts::new(
                "skirmish_http_requests_total",
                "HTTP requests answered, by route pattern, method and status",
            ),
            &["route", "method", "status"],
        )?;
        let durations = HistogramVec::new(
            HistogramOpts::new(
                "skirmish_http_request_duration_seconds",
                "Time from a request's arrival until its response head was ready, by route pattern and method",
            )
            .buckets(duration_buckets()),
            &["route", "method"],
        )?;
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(durations.clone()))?;
        let mut names: Vec<Box<str>> = patterns.into_iter().map(String::into_boxed_str).collect();
        names.sort();
        names.dedup();
        names.retain(|name| &**name != OTHER_ROUTE);
        names.push(OTHER_ROUTE.into());
        let routes = names.iter().enumerate().map(|(index, name)| (name.clone(), index)).collect();
        let series = std::iter::repeat_with(RouteMethod::default).take(names.len() * METHODS.len()).collect();
        Ok(Self { requests, durations, routes, names, series })
    }

    /// Counts one answered request: `route` the matched pattern (`None`: no route matched).
    pub fn record(&self, route: Option<&str>, method: usize, status: StatusCode, elapsed: Duration) {
        let route = route.unwrap_or(OTHER_ROUTE);
        let Some(&index) = self.routes.get(route) else {
            // A pattern the table does not know (none is expected): still bounded, as it comes
            // from the app's routes; looked up by its labels.
            return self.record_by_labels(route, METHODS[method], status, elapsed.as_secs_f64());
        };
        self.record_at(index, method, status, elapsed);
    }

    fn record_at(&self, index: usize, method: usize, status: StatusCode, elapsed: Duration) {
        let seconds = elapsed.as_secs_f64();
        let series = &self.series[index * METHODS.len() + method];
        let name = &self.names[index];
        if let Some(histogram) = resolve(&series.duration, || {
            self.durations.get_metric_with_label_values(&[&**name, METHODS[method]])
        }) {
            histogram.observe(seconds);
        }
        let labels = [&**name, METHODS[method], status.as_str()];
        match STATUSES.binary_search(&status.as_u16()) {
            Ok(slot) => {
                let make = || self.requests.get_metric_with_label_values(&labels);
                if let Some(counter) = resolve(&series.by_status[slot], make) {
                    counter.inc();
                }
            }
            Err(_) => {
                if let Ok(counter) = self.requests.get_metric_with_label_values(&labels) {
                    counter.inc();
                }
            }
        }
    }

    fn record_by_labels(&self, route: &str, method: &str, status: StatusCode, seconds: f64) {
        if let Ok(histogram) = self.durations.get_metric_with_label_values(&[route, method]) {
            histogram.observe(seconds);
        }
        if let Ok(counter) = self.requests.get_metric_with_label_values(&[route, method, status.as_str()]) {
            counter.inc();
        }
    }
}

/// The handle in `slot`, made by `make` the first time.
fn resolve<M>(slot: &OnceLock<M>, make: impl FnOnce() -> Result<M, prometheus::Error>) -> Option<&M> {
    if let Some(handle) = slot.get() {
        return Some(handle);
    }
    match make() {
        Ok(handle) => Some(slot.get_or_init(|| handle)),
        Err(error) => {
            log::error!("cannot resolve a metric series: {error}");
            None
        }
    }
}

/// A request being served: when it arrived and its method's place in the label table.
pub struct RequestTimer {
    started: Instant,
    method: usize,
}

impl RequestTimer {
    pub fn start(request: &ServiceRequest) -> Self {
        Self { started: Instant::now(), method: method_index(request.method()) }
    }

    /// Records the request's outcome: a response (its route is the one actix matched) or an
    /// error that escaped the handler (a panic: counted under [`OTHER_ROUTE`]).
    pub fn finish(self, series: &HttpSeries, served: &Result<ServiceResponse<BoxBody>, actix_web::Error>) {
        let elapsed = self.started.elapsed();
        match served {
            Ok(response) => {
                let route = response.request().match_pattern();
                series.record(route.as_deref(), self.method, response.status(), elapsed);
            }
            Err(error) => series.record(None, self.method, error.as_response_error().status_code(), elapsed),
        }
    }
}

fn method_index(method: &Method) -> usize {
    match *method {
        Method::GET => 0,
        Method::POST => 1,
        Method::PUT => 2,
        Method::PATCH => 3,
        Method::DELETE => 4,
        Method::HEAD => 5,
        Method::OPTIONS => 6,
        _ => 7,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series() -> (Registry, HttpSeries) {
        let registry = Registry::new();
        let routes = ["/healthz".to_owned(), "/v1/encounters/{id}".to_owned()];
        let series = HttpSeries::register(&registry, routes).unwrap();
        (registry, series)
    }

    fn exposition(registry: &Registry) -> String {
        let mut text = Vec::new();
        prometheus::Encoder::encode(&prometheus::TextEncoder::new(), &registry.gather(), &mut text).unwrap();
        String::from_utf8(text).unwrap()
    }

    #[test]
    fn requests_count_by_pattern_method_and_status_and_unknown_ones_fall_back_to_labels() {
        let (registry, series) = series();
        let ms = Duration::from_millis(3);

        series.record(Some("/v1/encounters/{id}"), 0, StatusCode::OK, ms);
        series.record(Some("/v1/encounters/{id}"), 0, StatusCode::OK, ms);
        series.record(Some("/v1/encounters/{id}"), 4, StatusCode::NOT_FOUND, ms);
        series.record(None, 7, StatusCode::IM_A_TEAPOT, ms);
        series.record(Some("/unlisted/{x}"), 1, StatusCode::CREATED, ms);
        let text = exposition(&registry);

        let count = |labels: &str| format!("skirmish_http_requests_total{{{labels}}} ");
        assert!(
            text.contains(&(count("method=\"GET\",route=\"/v1/encounters/{id}\",status=\"200\"") + "2\n")),
            "{text}"
        );
        assert!(
            text.contains(&(count("method=\"DELETE\",route=\"/v1/encounters/{id}\",status=\"404\"") + "1\n"))
        );
        assert!(text.contains(&(count("method=\"other\",route=\"other\",status=\"418\"") + "1\n")), "{text}");
        assert!(text.contains(&(count("method=\"POST\",route=\"/unlisted/{x}\",status=\"201\"") + "1\n")));
        assert!(text.contains(
            "skirmish_http_request_duration_seconds_bucket{method=\"GET\",route=\"/v1/encounters/{id}\",le=\"0.005\"} 2\n"
        ));
        assert!(!text.contains("/healthz"), "a route never requested has no series: {text}");
    }

    #[test]
    fn methods_outside_the_standard_ones_share_one_label() {
        let odd = Method::from_bytes(b"BREW").unwrap();
        assert_eq!(METHODS[method_index(&odd)], "other");
        assert_eq!(METHODS[method_index(&Method::PATCH)], "PATCH");
        assert!(STATUSES.is_sorted(), "looked up by binary search");
    }
}
