//! Responses and headers shared by many routes, for the OpenAPI document. Every `/v1` route
//! lists [`AuthErrors`] beside its own errors.

use crate::error::Problem;
use utoipa::IntoResponses;

/// Errors of a route that changes an encounter.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
pub enum MutationErrors {
    #[response(
        status = 400,
        description = "Malformed body, query or header; `field` names it",
        content_type = "application/problem+json"
    )]
    BadRequest(Problem),
    #[response(
        status = 404,
        description = "Encounter, combatant or effect not found",
        content_type = "application/problem+json"
    )]
    NotFound(Problem),
    #[response(
        status = 409,
        description = "Not possible in the encounter's current state",
        content_type = "application/problem+json"
    )]
    Conflict(Problem),
    #[response(
        status = 412,
        description = "`If-Match` names an older version; nothing changed",
        content_type = "application/problem+json"
    )]
    PreconditionFailed(Problem),
    #[response(status = 413, description = "Body over 64 KiB", content_type = "application/problem+json")]
    PayloadTooLarge(Problem),
    #[response(status = 415, description = "Body is not JSON", content_type = "application/problem+json")]
    UnsupportedMediaType(Problem),
    #[response(
        status = 422,
        description = "A value breaks a rule or a bound; `field` names it",
        content_type = "application/problem+json"
    )]
    Invalid(Problem),
}

/// Errors of a route that reads an encounter.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
pub enum ReadErrors {
    #[response(
        status = 400,
        description = "Bad query parameter; `field` names it",
        content_type = "application/problem+json"
    )]
    BadRequest(Problem),
    #[response(status = 404, description = "Encounter not found", content_type = "application/problem+json")]
    NotFound(Problem),
}

/// Errors of a route that only rolls dice.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
pub enum DiceErrors {
    #[response(
        status = 400,
        description = "Malformed body; `field` names it",
        content_type = "application/problem+json"
    )]
    BadRequest(Problem),
    #[response(status = 413, description = "Body over 64 KiB", content_type = "application/problem+json")]
    PayloadTooLarge(Problem),
    #[response(status = 415, description = "Body is not JSON", content_type = "application/problem+json")]
    UnsupportedMediaType(Problem),
    #[response(
        status = 422,
        description = "Bad expression, seed or scripted roll; `field` names it",
        content_type = "application/problem+json"
    )]
    Invalid(Problem),
}

/// Errors of a ruleset operation that is not built yet.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
pub enum OperationErrors {
    #[response(
        status = 404,
        description = "Unknown encounter or ruleset",
        content_type = "application/problem+json"
    )]
    NotFound(Problem),
    #[response(status = 413, description = "Body over 64 KiB", content_type = "application/problem+json")]
    PayloadTooLarge(Problem),
    #[response(
        status = 501,
        description = "This ruleset does not implement the operation yet",
        content_type = "application/problem+json"
    )]
    NotImplemented(Problem),
}

/// Errors of a route that only needs a valid key.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
pub enum AuthErrors {
    #[response(
        status = 401,
        description = "Missing, unknown or revoked API key",
        content_type = "application/problem+json"
    )]
    Unauthorized(Problem),
    #[response(
        status = 403,
        description = "A viewer token (`vwr_…`) may only GET its encounter and its stream",
        content_type = "application/problem+json"
    )]
    Forbidden(Problem),
    #[response(
        status = 429,
        description = "Rate limit for this API key reached; see Retry-After",
        content_type = "application/problem+json"
    )]
    TooManyRequests(Problem),
}

/// The answer of a ruleset operation a ruleset does not implement.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
pub enum NotImplementedError {
    #[response(
        status = 501,
        description = "This ruleset does not implement the operation yet",
        content_type = "application/problem+json"
    )]
    NotImplemented(Problem),
}

/// `If-Match`, for routes that change an encounter.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
pub struct IfMatchHeader {
    /// Act only if the encounter is at this version: `"3"` (as in the ETag), `3`, `W/"3"` or `*`.
    #[param(rename = "If-Match", nullable = false, pattern = r#"^(\*|(W/)?"?-?[0-9]{1,18}"?)$"#)]
    if_match: Option<String>,
}

/// `Idempotency-Key`, for POST routes.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
pub struct IdempotencyHeader {
    /// Retry safely: the first response is replayed (1–255 visible ASCII characters).
    #[param(
        rename = "Idempotency-Key",
        nullable = false,
        min_length = 1,
        max_length = 255,
        pattern = r"^[\x21-\x7E]+$"
    )]
    idempotency_key: Option<String>,
}

/// `Last-Event-ID`, which an `EventSource` sends by itself when it reconnects.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
pub struct LastEventIdHeader {
    /// The last `seq` received: only later events are sent (the missed ones first, from the log).
    #[param(rename = "Last-Event-ID", nullable = false, minimum = 0, maximum = 9007199254740991_i64)]
    last_event_id: Option<i64>,
}
