//! One error shape for every failure: RFC 9457 problem details (`application/problem+json`),
//! naming the offending field where there is one.

use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use skirmish_db::{DbError, MutateError};
use skirmish_domain::dice::{DiceError, DiceExprError};
use skirmish_domain::encounter::EncounterError;
use skirmish_domain::rulesets::RuleError;
use utoipa::ToSchema;

/// The body of every error response.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:skirmish:problem:invalid-field",
    "title": "Invalid field",
    "status": 422,
    "detail": "rolls[1]: 7 is not a possible result of a d6 (expected 1..=6)",
    "field": "rolls[1]"
}))]
pub struct Problem {
    /// A URN naming the kind of problem.
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    /// What went wrong, for a human.
    pub detail: String,
    /// The request field (JSON path, query parameter or header) at fault, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The encounter's current version (412 responses only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<i64>,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Malformed input: bad JSON, wrong types, unknown fields, bad query or header.
    #[error("{field}: {detail}")]
    BadRequest { field: String, detail: String },
    /// Well-formed input that breaks a rule or a bound.
    #[error("{field}: {detail}")]
    Invalid { field: String, detail: String },
    #[error("{0}")]
    Unauthorized(String),
    #[error("too many requests for this API key; retry in {retry_after} s")]
    TooManyRequests { retry_after: u64 },
    #[error("{0}")]
    TooManyStreams(String),
    /// A connection over the per-peer or the total cap (see `connections.rs`): why.
    #[error("{0}")]
    TooManyConnections(String),
    #[error("the request body did not arrive within {after_ms} ms")]
    RequestTimeout { after_ms: u128 },
    /// A credential that may not use this route (a viewer token on anything but its reads).
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// The combatant `field` names may not receive what the request delivers (409): the one rule
    /// for the dead (`skirmish_domain::rulesets::receiving`).
    #[error("{detail}")]
    Refused { field: String, detail: String },
    #[error("the encounter is at version {current}, not {expected}")]
    PreconditionFailed { expected: i64, current: i64 },
    #[error("the request body is larger than {limit} bytes")]
    PayloadTooLarge { limit: usize },
    /// A body in a media type, charset or content coding the server does not read; `field` is
    /// the header at fault (`Content-Type` or `Content-Encoding`).
    #[error("{detail}")]
    UnsupportedMediaType { field: &'static str, detail: String },
    #[error("{0}")]
    NotImplemented(String),
    #[error("{method} is not allowed here; allowed: {allowed}")]
    MethodNotAllowed { method: String, allowed: String },
    /// The server's fault; details go to the log, never to the client.
    #[error("internal error")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl ApiError {
    pub fn bad_request(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::BadRequest { field: field.into(), detail: detail.into() }
    }

    pub fn invalid(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::Invalid { field: field.into(), detail: detail.into() }
    }

    fn kind_and_title(&self) -> (&'static str, &'static str) {
        match self {
            Self::BadRequest { .. } => ("bad-request", "Malformed request"),
            Self::Invalid { .. } => ("invalid-field", "Invalid field"),
            Self::Unauthorized(_) => ("unauthorized", "Missing, unknown or revoked API key"),
            Self::TooManyRequests { .. } => ("rate-limited", "Too many requests"),
            Self::TooManyConnections(_) => ("too-many-connections", "Too many connections"),
            Self::TooManyStreams(_) => ("too-many-streams", "Too many open streams"),
            Self::RequestTimeout { .. } => ("request-timeout", "Request body too slow"),
            Self::Forbidden(_) => ("forbidden", "Not allowed with this credential"),
            Self::NotFound(_) => ("not-found", "Not found"),
            Self::Conflict(_) => ("conflict", "Not possible in the current state"),
            Self::Refused { .. } => ("refused", "Not possible for this combatant in its state"),
            Self::PreconditionFailed { .. } => ("stale-version", "Stale version"),
            Self::PayloadTooLarge { .. } => ("payload-too-large", "Request body too large"),
            Self::UnsupportedMediaType { .. } => ("unsupported-media-type", "Unsupported media type"),
            Self::NotImplemented(_) => ("not-implemented", "Not implemented for this ruleset"),
            Self::MethodNotAllowed { .. } => ("method-not-allowed", "Method not allowed"),
            Self::Internal(_) => ("internal", "Internal server error"),
        }
    }

    pub fn problem(&self) -> Problem {
        let (kind, title) = self.kind_and_title();
        let (detail, field) = match self {
            Self::BadRequest { field, detail }
            | Self::Invalid { field, detail }
            | Self::Refused { field, detail } => (detail.clone(), Some(field.clone())),
            Self::UnsupportedMediaType { field, detail } => (detail.clone(), Some((*field).to_owned())),
            Self::PreconditionFailed { .. } => (self.to_string(), Some("If-Match".to_owned())),
            Self::Internal(_) => {
                ("the server failed to handle this request; it has been logged".into(), None)
            }
            other => (other.to_string(), None),
        };
        let current_version = match self {
            Self::PreconditionFailed { current, .. } => Some(*current),
            _ => None,
        };
        Problem {
            kind: format!("urn:skirmish:problem:{kind}"),
            title: title.into(),
            status: self.status_code().as_u16(),
            detail,
            field,
            current_version,
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::BadRequest { .. } => StatusCode::BAD_REQUEST,
            Self::Invalid { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::TooManyConnections(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::TooManyStreams(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::RequestTimeout { .. } => StatusCode::REQUEST_TIMEOUT,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) | Self::Refused { .. } => StatusCode::CONFLICT,
            Self::PreconditionFailed { .. } => StatusCode::PRECONDITION_FAILED,
            Self::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::NotImplemented(_) => StatusCode::NOT_IMPLEMENTED,
            Self::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let Self::Internal(source) = self {
            log::error!("internal error: {source}");
        }
        let mut response = HttpResponse::build(self.status_code());
        response.insert_header((header::CONTENT_TYPE, "application/problem+json"));
        match self {
            Self::MethodNotAllowed { allowed, .. } => {
                response.insert_header((header::ALLOW, allowed.clone()));
            }
            Self::Unauthorized(_) => {
                response.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
            }
            Self::TooManyRequests { retry_after } => {
                response.insert_header((header::RETRY_AFTER, retry_after.to_string()));
            }
            // The rest of a slow body, or a connection over its peer's cap, is not worth keeping.
            Self::RequestTimeout { .. } => {
                response.force_close();
            }
            Self::TooManyConnections(_) => {
                response.insert_header((header::RETRY_AFTER, "1")).force_close();
            }
            _ => {}
        }
        response.json(self.problem())
    }
}

impl From<std::convert::Infallible> for ApiError {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

impl From<DbError> for ApiError {
    fn from(error: DbError) -> Self {
        Self::Internal(Box::new(error))
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(error: actix_web::error::BlockingError) -> Self {
        Self::Internal(Box::new(error))
    }
}

impl From<EncounterError> for ApiError {
    fn from(error: EncounterError) -> Self {
        match error {
            EncounterError::Invalid { field, message } => Self::Invalid { field, detail: message },
            EncounterError::UnknownCombatant(id) => {
                Self::NotFound(format!("combatant '{id}' is not in this encounter"))
            }
            EncounterError::UnknownEffect(id) => {
                Self::NotFound(format!("effect '{id}' is not on this encounter"))
            }
            EncounterError::Conflict(message) => Self::Conflict(message),
            EncounterError::Refused { field, message } => Self::Refused { field, detail: message },
            EncounterError::Dice(dice) => dice.into(),
        }
    }
}

impl From<RuleError> for ApiError {
    fn from(error: RuleError) -> Self {
        match error {
            RuleError::Invalid { field, message } => Self::Invalid { field, detail: message },
            RuleError::Refused { field, message } => Self::Refused { field, detail: message },
            RuleError::Dice(dice) => dice.into(),
        }
    }
}

impl From<DiceError> for ApiError {
    fn from(error: DiceError) -> Self {
        let field = match &error {
            DiceError::ScriptedOutOfRange { index, .. } => format!("rolls[{index}]"),
            DiceError::TooManyScripted { .. }
            | DiceError::ScriptedExhausted { .. }
            | DiceError::ScriptedUnused { .. } => "rolls".into(),
            DiceError::BadSides { .. } => "expression".into(),
        };
        Self::Invalid { field, detail: error.to_string() }
    }
}

impl From<DiceExprError> for ApiError {
    fn from(error: DiceExprError) -> Self {
        match error {
            DiceExprError::Dice(dice) => dice.into(),
            other => Self::invalid("expression", other.to_string()),
        }
    }
}

impl<E: Into<ApiError>> From<MutateError<E>> for ApiError {
    fn from(error: MutateError<E>) -> Self {
        match error {
            MutateError::NotFound => Self::NotFound("encounter not found".into()),
            MutateError::VersionMismatch { expected, current } => {
                Self::PreconditionFailed { expected, current }
            }
            MutateError::IdempotencyMismatch => {
                Self::invalid("Idempotency-Key", "this key was already used with a different request")
            }
            MutateError::Domain(inner) => inner.into(),
            MutateError::Db(db) => db.into(),
        }
    }
}
