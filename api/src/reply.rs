//! Responses of changes are rendered inside the store's transaction (so an idempotency key can
//! keep them) as a status, a JSON body and headers, then sent as they are — or replayed.

use crate::error::ApiError;
use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use serde::Serialize;
use skirmish_db::{Reply, StoredResponse};

/// A JSON response with the encounter's version as its `ETag`.
pub fn json_reply<B: Serialize>(
    status: StatusCode,
    body: &B,
    version: Option<i64>,
) -> Result<StoredResponse, ApiError> {
    let body = serde_json::to_string(body).map_err(|error| ApiError::Internal(Box::new(error)))?;
    let mut headers = vec![("Content-Type".to_owned(), "application/json".to_owned())];
    if let Some(version) = version {
        headers.push(("ETag".to_owned(), format!("\"{version}\"")));
    }
    Ok(StoredResponse { status: status.as_u16(), body, headers })
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
