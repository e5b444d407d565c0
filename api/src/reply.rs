//! JSON answers, written by serde_json. A change's answer is rendered as a status, a JSON body
//! and headers (so an idempotency key can keep it inside the store's transaction), then sent as
//! it is — or replayed. A body that cannot be written is a logged 500, never a partial answer.

use crate::error::ApiError;
use actix_web::http::StatusCode;
use actix_web::http::header::ContentType;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, HttpResponseBuilder};
use serde::Serialize;
use skirmish_db::{Reply, StoredResponse};

/// A JSON answer with the encounter's version as its `ETag`, to keep or send (see [`send`]).
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

/// A JSON answer sent as it is.
pub fn json_response<B: Serialize>(status: StatusCode, body: &B) -> Result<HttpResponse, ApiError> {
    json_with(&mut HttpResponse::build(status), body)
}

/// A JSON answer sent as it is, with what `response` holds already (its status and headers).
pub fn json_with<B: Serialize>(
    response: &mut HttpResponseBuilder,
    body: &B,
) -> Result<HttpResponse, ApiError> {
    Ok(response.content_type(ContentType::json()).body(to_json(body)?))
}

/// `body` as JSON bytes.
pub fn to_json<B: Serialize>(body: &B) -> Result<Bytes, ApiError> {
    serde_json::to_vec(body).map(Bytes::from).map_err(|error| ApiError::Internal(Box::new(error)))
}

/// A 200 answer whose JSON body is written already.
pub fn json_ok(body: Bytes) -> HttpResponse {
    HttpResponse::Ok().content_type(ContentType::json()).body(body)
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

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::ResponseError;

    /// A body serde cannot write (as a report with a non-string map key would be).
    struct Unwritable;

    impl Serialize for Unwritable {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("cannot be written"))
        }
    }

    #[test]
    fn an_answer_that_cannot_be_written_is_a_500_never_a_partial_or_null_body() {
        let kept = json_reply(StatusCode::OK, &Unwritable, Some(3)).map(|reply| reply.body);
        let sent = json_response(StatusCode::OK, &Unwritable).map(|response| response.status());

        for error in [kept.err(), sent.err()] {
            let error = error.expect("an error, not an answer");
            assert!(matches!(error, ApiError::Internal(_)), "{error:?}");
            assert_eq!(error.status_code(), StatusCode::INTERNAL_SERVER_ERROR);
        }
    }
}
