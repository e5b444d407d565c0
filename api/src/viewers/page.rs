//! The table view page and its two assets, compiled into the binary. The page holds no token,
//! key or encounter data: its script reads the token from its own address and fetches the
//! redacted state. A strict Content-Security-Policy allows only this server's own script,
//! style and connections; `Referrer-Policy: no-referrer` keeps the token out of `Referer`.

use crate::error::ApiError;
use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};

const PAGE: &str = include_str!("assets/table.html");
const STYLE: &str = include_str!("assets/table.css");
const SCRIPT: &str = include_str!("assets/table.js");
const NOT_FOUND: &str = include_str!("assets/not_found.html");

/// Where the assets are served (no token needed: they are the same for everyone).
pub const STYLE_PATH: &str = "/view-assets/table.css";
pub const SCRIPT_PATH: &str = "/view-assets/table.js";

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
    img-src 'self' data:; base-uri 'none'; form-action 'none'";

fn html(status: StatusCode, body: &'static str) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP)))
        .insert_header((header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static("no-store")))
        .insert_header(("X-Robots-Tag", HeaderValue::from_static("noindex")))
        .body(body)
}

/// The table view.
pub fn page() -> HttpResponse {
    html(StatusCode::OK, PAGE)
}

/// The plain page for an unknown, revoked or expired link.
pub fn not_found() -> HttpResponse {
    html(StatusCode::NOT_FOUND, NOT_FOUND)
}

/// The answer when the link could not be checked (logged; no detail shown).
pub fn failed(error: &ApiError) -> HttpResponse {
    log::error!("cannot serve a table view: {error}");
    HttpResponse::ServiceUnavailable()
        .content_type("text/plain; charset=utf-8")
        .insert_header((header::RETRY_AFTER, "5"))
        .body("The table view is unavailable right now; it will retry.")
}

fn asset(content_type: &'static str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=300")))
        .body(body)
}

pub async fn style() -> HttpResponse {
    asset("text/css; charset=utf-8", STYLE)
}

pub async fn script() -> HttpResponse {
    asset("text/javascript; charset=utf-8", SCRIPT)
}
