//! `GET /metrics`: on the main listener (the default), on a listener of its own
//! (`--metrics-bind`), or nowhere (`--metrics off`: 404, like any unknown path). Not behind API
//! keys: it names no tenant, no encounter and no key, only route patterns and counts.

use super::{CONTENT_TYPE, Metrics};
use crate::error::{ApiError, Problem};
use crate::listener::{ConnectionRules, Signals};
use crate::live::LiveStreams;
use actix_web::dev::Server;
use actix_web::{App, HttpRequest, HttpResponse, get, web};
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;

/// What `/metrics` answers on one listener.
pub struct MetricsPage {
    served: Option<(Arc<Metrics>, Arc<LiveStreams>)>,
}

impl MetricsPage {
    /// The exposition of `metrics`, with the open streams of `live`.
    pub fn served(metrics: Arc<Metrics>, live: Arc<LiveStreams>) -> Self {
        Self { served: Some((metrics, live)) }
    }

    /// 404: metrics are off, or served on another listener.
    pub fn not_here() -> Self {
        Self { served: None }
    }
}

const EXAMPLE: &str = "# HELP skirmish_open_streams Event streams open now\n# TYPE skirmish_open_streams gauge\n\
    skirmish_open_streams 2\n# TYPE skirmish_http_requests_total counter\n\
    skirmish_http_requests_total{method=\"GET\",route=\"/v1/encounters/{id}\",status=\"200\"} 41\n";

/// Service metrics in the Prometheus text format.
///
/// Requests by route pattern, method and status, latency and write-transaction histograms,
/// commit sizes, open event streams, webhook deliveries by outcome and the outbox's depth (see
/// the README's Metrics section). Needs no API key. Served here unless `SKIRMISH_METRICS=off`
/// (then 404) or `SKIRMISH_METRICS_BIND` gives it a listener of its own (then 404 here).
#[utoipa::path(operation_id = "metrics", tag = "service", security(()),
    responses(
        (status = 200, content_type = "text/plain", body = String,
            description = "Prometheus text exposition format 0.0.4", example = json!(EXAMPLE)),
        (status = 404, content_type = "application/problem+json", body = Problem,
            description = "Metrics are off, or served on their own address"),
    )
)]
#[get("/metrics")]
pub async fn scrape(page: web::Data<MetricsPage>, request: HttpRequest) -> Result<HttpResponse, ApiError> {
    let Some((metrics, live)) = &page.served else { return Err(no_route(&request)) };
    let text = metrics.render(live.limits.open()).map_err(|error| ApiError::Internal(Box::new(error)))?;
    Ok(HttpResponse::Ok().content_type(CONTENT_TYPE).body(text))
}

/// The same 404 as any unknown path.
fn no_route(request: &HttpRequest) -> ApiError {
    ApiError::NotFound(format!("no route for {}", request.path()))
}

/// A listener of its own for `/metrics`, running.
pub struct MetricsListener {
    pub address: SocketAddr,
    pub server: Server,
}

/// Serves only `/metrics` on `address` (one worker; everything else is 404), its connections
/// held to the main listener's `rules`: the same caps (a place taken here is one fewer there) and
/// the same write timeout. It ignores signals: the application stops it once the main server has
/// stopped.
pub fn serve_elsewhere(
    address: &str,
    page: MetricsPage,
    rules: &ConnectionRules,
) -> std::io::Result<MetricsListener> {
    let listener = TcpListener::bind(address)?;
    let address = listener.local_addr()?;
    let page = web::Data::new(page);
    let app = move || {
        App::new().app_data(page.clone()).service(scrape).default_service(web::to(
            |request: HttpRequest| async move { Err::<HttpResponse, _>(no_route(&request)) },
        ))
    };
    let rules = ConnectionRules { workers: Some(1), ..rules.clone() };
    let server = crate::listener::serve(listener, app, rules, Signals::Ignored)?;
    Ok(MetricsListener { address, server })
}
