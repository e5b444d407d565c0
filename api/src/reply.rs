//! Responses of changes are rendered inside the store's transaction (so an idempotency key can
//! keep them) as a status, a JSON body and headers, then sent as they are — or replayed.

use crate::error::ApiError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use skirmish_db::{Reply, StoredResponse};

/// A JSON response with the encounter's version as its `ETag`.
pub fn json_reply<B: Serialize>(status: StatusCode, body: &B, version: Option<i64>) -> StoredResponse {
    match serde_json::to_string(body) {
        Ok(body) => {
            let mut headers = vec![("Content-Type".to_owned(), "application/json".to_owned())];
            if let Some(version) = version {
                headers.push(("ETag".to_owned(), format!("\"{version}\"")));
            }
            StoredResponse { status: status.as_u16(), body, headers }
        }
        Err(error) => error_reply(ApiError::Internal(Box::new(error))),
    }
}

/// An error as a stored response (never kept for replay: only 2xx are).
pub fn error_reply(error: ApiError) -> StoredResponse {
    let response = error.error_response();
    let status = response.status().as_u16();
    let body = serde_json::to_string(&error.problem()).unwrap_or_default();
    StoredResponse { status, body, headers: vec![("Content-Type".into(), "application/problem+json".into())] }
}

/// Sends a reply; a replay says so in `Idempotent-Replayed: true`.
pub fn send(reply: Reply) -> HttpResponse {
    let status = StatusCode::from_u16(reply.response.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = HttpResponse::build(status);
    for (name, value) in reply.response.headers {
        response.insert_header((name, value));
    }
    if reply.replayed {
        response.insert_header(("Idempotent-Replayed", "true"));
    }
    if status == StatusCode::NO_CONTENT { response.finish() } else { response.body(reply.response.body) }
}
