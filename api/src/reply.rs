//! Responses of changes are rendered inside the store's transaction (so an idempotency key can
//! keep them) as a status, a JSON body and headers, then sent as they are — or replayed.

use crate::error::ApiError;
use crate::wire::JsonText;
use actix_web::HttpResponse;
use actix_web::http::header::HeaderValue;
use actix_web::http::{StatusCode, header};
use actix_web::web::Bytes;
use serde::Serialize;
use skirmish_db::{Reply, StoredResponse};

/// A JSON response with the encounter's version as its `ETag`.
pub fn json_reply<B: Serialize>(
    status: StatusCode,
    body: &B,
    version: Option<i64>,
) -> Result<StoredResponse, ApiError> {
    let mut bytes = Vec::with_capacity(1024);
    serde_json::to_writer(&mut bytes, body).map_err(|error| ApiError::Internal(Box::new(error)))?;
    // serde_json writes UTF-8 only.
    let body = String::from_utf8(bytes).map_err(|error| ApiError::Internal(Box::new(error)))?;
    Ok(json_text_reply(status, body, version))
}

/// A response whose JSON body is already written (see `wire::JsonText`).
pub fn written_reply(
    status: StatusCode,
    body: serde_json::Result<JsonText>,
) -> Result<StoredResponse, ApiError> {
    let body = body.map_err(|error| ApiError::Internal(Box::new(error)))?;
    Ok(json_text_reply(status, body.into_string(), None))
}

fn json_text_reply(status: StatusCode, body: String, version: Option<i64>) -> StoredResponse {
    let mut headers = vec![("Content-Type".to_owned(), "application/json".to_owned())];
    if let Some(version) = version {
        headers.push(("ETag".to_owned(), format!("\"{version}\"")));
    }
    StoredResponse { status: status.as_u16(), body, headers }
}

const JSON: HeaderValue = HeaderValue::from_static("application/json");

/// A 200 answer whose JSON body is made already, for the hottest reads: built straight rather
/// than through `HttpResponse`'s builder, with a content type that needs no parsing.
pub fn json_ok(body: Bytes) -> HttpResponse {
    let mut response = HttpResponse::with_body(StatusCode::OK, body).map_into_boxed_body();
    response.headers_mut().insert(header::CONTENT_TYPE, JSON);
    response
}

/// Sends a reply; a replay says so in `Idempotent-Replayed: true`. The JSON content type is sent
/// as a ready-made value (no copy, no check of its text).
pub fn send(reply: Reply) -> HttpResponse {
    let status = StatusCode::from_u16(reply.response.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = HttpResponse::build(status);
    for (name, value) in reply.response.headers {
        match known_header(&name) {
            Some(name) if name == header::CONTENT_TYPE && value == "application/json" => {
                response.insert_header((name, JSON))
            }
            Some(name) => response.insert_header((name, value)),
            None => response.insert_header((name, value)),
        };
    }
    if reply.replayed {
        response.insert_header(("Idempotent-Replayed", "true"));
    }
    if status == StatusCode::NO_CONTENT { response.finish() } else { response.body(reply.response.body) }
}

/// The headers replies carry, named without parsing the name again.
fn known_header(name: &str) -> Option<header::HeaderName> {
    match name {
        "Content-Type" => Some(header::CONTENT_TYPE),
        "ETag" => Some(header::ETAG),
        "Location" => Some(header::LOCATION),
        _ => None,
    }
}
