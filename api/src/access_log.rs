//! The access log, written by the front door ([`crate::front_door`]) rather than by a middleware
//! of its own (a layer costs every request a boxed future and a body wrapper, even when the log is
//! off): one INFO line per request under the target actix-web's `Logger` uses, so `RUST_LOG`
//! filters it the same way. The line is the request line (a viewer token in a `/view/…` path
//! and any `vwr_…` token in the path or query
//! written as `vwr_…`), the status, the body's size (`-` for a stream) and the time until the
//! answer was ready. Below INFO nothing is formatted.

use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use std::time::Instant;

const TARGET: &str = "actix_web::middleware::logger";

/// A request being logged: its line, and when it arrived.
pub struct AccessLine {
    request: String,
    started: Instant,
}

impl AccessLine {
    /// `None` when INFO is off for the access log's target.
    pub fn start(request: &ServiceRequest) -> Option<Self> {
        if !log::log_enabled!(target: TARGET, log::Level::Info) {
            return None;
        }
        let path = crate::viewers::loggable_path(request.path());
        let query = request
            .uri()
            .query()
            .map(|q| format!("?{}", crate::viewers::loggable_path(q)))
            .unwrap_or_default();
        let request = format!("{} {path}{query} {:?}", request.method(), request.version());
        Some(Self { request, started: Instant::now() })
    }

    pub fn finish(self, served: &Result<ServiceResponse<BoxBody>, actix_web::Error>) {
        let (status, size) = match served {
            Ok(response) => (response.status(), size_of(response.response().body().size())),
            Err(error) => (error.as_response_error().status_code(), "-".to_owned()),
        };
        let ms = self.started.elapsed().as_secs_f64() * 1000.0;
        log::info!(target: TARGET, "{} {} {size} {ms:.6}ms", self.request, status.as_u16());
    }
}

fn size_of(size: BodySize) -> String {
    match size {
        BodySize::None => "0".to_owned(),
        BodySize::Sized(bytes) => bytes.to_string(),
        BodySize::Stream => "-".to_owned(),
    }
}
