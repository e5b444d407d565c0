//! Request extractors whose failures are problem+json errors naming the field at fault.

use crate::auth::{BodyDigest, IDEMPOTENCY_KEY, sha256_hex};
use crate::error::ApiError;
use actix_web::dev::Payload;
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::{FromRequest, HttpMessage, HttpRequest, web};
use serde::de::DeserializeOwned;
use skirmish_domain::rulesets::{RulesetId, RulesetOptions, StatBlock};
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// Largest request body accepted, in bytes.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// How long a request body may take to arrive once its headers have (app data; 10 s when unset).
/// A body still incomplete then is answered 408 and the connection closed, so a client that
/// sends part of a body and goes silent holds nothing for long.
#[derive(Debug, Clone, Copy)]
pub struct BodyTimeout(pub Duration);

impl Default for BodyTimeout {
    fn default() -> Self {
        Self(Duration::from_secs(10))
    }
}

/// A JSON body. Errors name the JSON path of the bad value (`combatants[0].stats.dex`);
/// bodies over [`MAX_BODY_BYTES`] get 413; non-JSON content types, charsets other than UTF-8
/// and compressed bodies get 415.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for ApiJson<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(request: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = read_body(request, payload);
        Box::pin(async move { parse_json(&body.await?).map(ApiJson) })
    }
}

/// A JSON body that may be left out altogether (then `None`); when present it is held to the
/// same rules as [`ApiJson`].
pub struct OptionalJson<T>(pub Option<T>);

impl<T: DeserializeOwned + 'static> FromRequest for OptionalJson<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(request: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = read_body(request, payload);
        Box::pin(async move {
            match body.await {
                Ok(bytes) if is_absent(&bytes) => Ok(OptionalJson(None)),
                Ok(bytes) => parse_json(&bytes).map(|value| OptionalJson(Some(value))),
                Err(error) => Err(error),
            }
        })
    }
}

/// An empty body (or only white space) stands for "no body"; JSON `null` is a body, and is
/// refused like any other that is not the operation's object (the spec publishes the object).
fn is_absent(bytes: &[u8]) -> bool {
    bytes.trim_ascii().is_empty()
}

/// Reads the body within [`MAX_BODY_BYTES`], refusing content codings (415 naming
/// `Content-Encoding`) and, when there is a body, non-JSON content types or charsets other than
/// UTF-8 (415 naming `Content-Type`); when the request carries an `Idempotency-Key`, leaves a
/// digest of its canonical form in the request for the key's fingerprint (only then: it parses
/// the body a second time).
fn read_body(
    request: &HttpRequest,
    payload: &mut Payload,
) -> impl Future<Output = Result<web::Bytes, ApiError>> + use<> {
    let encoding = identity_encoding(request);
    let content_type = json_content_type(request);
    let timeout = request.app_data::<BodyTimeout>().copied().unwrap_or_default().0;
    let keyed = request.headers().contains_key(IDEMPOTENCY_KEY);
    let body = web::Bytes::from_request(request, payload);
    let request = keyed.then(|| request.clone());
    async move {
        encoding?;
        let bytes = actix_web::rt::time::timeout(timeout, body)
            .await
            .map_err(|_| ApiError::RequestTimeout { after_ms: timeout.as_millis() })?
            .map_err(body_error)?;
        if !bytes.iter().all(u8::is_ascii_whitespace) {
            content_type?;
        }
        if let Some(request) = request {
            request.extensions_mut().insert(BodyDigest(sha256_hex(&canonical_json(&bytes))));
        }
        Ok(bytes)
    }
}

/// The body as compact JSON with every object's keys in order (serde_json's map keeps its keys
/// sorted), so that whitespace and key order do not make one request two; a body that is not
/// JSON is kept as it came.
pub fn canonical_json(bytes: &[u8]) -> Vec<u8> {
    serde_json::from_slice::<serde_json::Value>(bytes)
        .and_then(|value| serde_json::to_vec(&value))
        .unwrap_or_else(|_| bytes.to_vec())
}

/// No `Content-Encoding`, or only `identity`: the server decodes no compressed bodies. Every
/// `Content-Encoding` header counts (a second one lists more codings, RFC 9110 §5.3), and one
/// that is not text is refused too.
fn identity_encoding(request: &HttpRequest) -> Result<(), ApiError> {
    for value in request.headers().get_all(header::CONTENT_ENCODING) {
        let text = value.to_str().unwrap_or("(not text)");
        if !text.split(',').all(|coding| coding.trim().eq_ignore_ascii_case("identity")) {
            return Err(ApiError::UnsupportedMediaType {
                field: "Content-Encoding",
                detail: format!("the server does not decode '{}'; send the body uncompressed", text.trim()),
            });
        }
    }
    Ok(())
}

/// JSON, any `+json` type, or no content type at all (curl users forget it); UTF-8 only.
fn json_content_type(request: &HttpRequest) -> Result<(), ApiError> {
    let refuse = |detail: String| ApiError::UnsupportedMediaType { field: "Content-Type", detail };
    let Some(value) = request.headers().get(header::CONTENT_TYPE) else { return Ok(()) };
    let text = value.to_str().unwrap_or_default();
    let mut parts = text.split(';');
    let mime = parts.next().unwrap_or_default().trim();
    if !(mime.eq_ignore_ascii_case("application/json") || is_json_suffixed(mime)) {
        return Err(refuse("send the body as application/json".into()));
    }
    for (name, charset) in parts.filter_map(|param| param.split_once('=')) {
        let charset = charset.trim().trim_matches('"');
        let utf8 = charset.eq_ignore_ascii_case("utf-8") || charset.eq_ignore_ascii_case("utf8");
        if name.trim().eq_ignore_ascii_case("charset") && !utf8 {
            return Err(refuse(format!("charset '{charset}' is not read; send the body as UTF-8")));
        }
    }
    Ok(())
}

/// `application/<anything>+json`, in any case (compared in place: no lowercase copy).
fn is_json_suffixed(mime: &str) -> bool {
    const TYPE: &str = "application/";
    const SUFFIX: &str = "+json";
    let head = mime.get(..TYPE.len());
    let tail = mime.len().checked_sub(SUFFIX.len()).and_then(|start| mime.get(start..));
    head.is_some_and(|head| head.eq_ignore_ascii_case(TYPE))
        && tail.is_some_and(|tail| tail.eq_ignore_ascii_case(SUFFIX))
}

fn body_error(error: actix_web::Error) -> ApiError {
    match error.as_error::<PayloadError>() {
        Some(PayloadError::Overflow) => ApiError::PayloadTooLarge { limit: MAX_BODY_BYTES },
        _ => ApiError::bad_request("body", format!("could not read the request body: {error}")),
    }
}

/// Parses JSON text, naming the path of the first bad value. A body that parses is read once,
/// without tracking the path; only a bad one is read again, tracking it to name the field.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        None => return Err(ApiError::bad_request("body", "a JSON body is required")),
        Some(b'{') => {}
        Some(_) => return Err(ApiError::bad_request("body", "the body must be a JSON object")),
    }
    if let Ok(value) = serde_json::from_slice(bytes) {
        return Ok(value);
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let field = field_name(&error.path().to_string());
        ApiError::bad_request(field, error.into_inner().to_string())
    })?;
    deserializer.end().map_err(|error| ApiError::bad_request("body", error.to_string()))?;
    Ok(value)
}

/// Reads an encounter's ruleset settings from JSON, naming `options.path` of a bad value.
pub fn options_from_json(ruleset: RulesetId, value: serde_json::Value) -> Result<RulesetOptions, ApiError> {
    if !value.is_object() {
        return Err(ApiError::invalid("options", "must be a JSON object"));
    }
    let mut track = serde_path_to_error::Track::new();
    let deserializer = serde_path_to_error::Deserializer::new(value, &mut track);
    let options = ruleset.deserialize_options(deserializer).map_err(|error| {
        let path = track.path().to_string();
        let field = if path == "." { "options".to_owned() } else { format!("options.{path}") };
        ApiError::invalid(field, format!("{error} (settings of a {ruleset} encounter)"))
    })?;
    options.validate()?;
    Ok(options)
}

/// Reads a ruleset's stat block from JSON, naming `field.path` of the bad value.
pub fn stats_from_json(
    ruleset: RulesetId,
    field: &str,
    value: serde_json::Value,
) -> Result<StatBlock, ApiError> {
    if !value.is_object() {
        return Err(ApiError::invalid(field, format!("a {ruleset} stat block must be a JSON object")));
    }
    let mut track = serde_path_to_error::Track::new();
    let deserializer = serde_path_to_error::Deserializer::new(value, &mut track);
    ruleset.deserialize_stats(deserializer).map_err(|error| {
        let path = track.path().to_string();
        let field = if path == "." { field.to_owned() } else { format!("{field}.{path}") };
        ApiError::invalid(field, format!("{error} (a {ruleset} stat block)"))
    })
}

fn field_name(path: &str) -> String {
    if path == "." { "body".into() } else { path.into() }
}

/// The version a client expects, from `If-Match` (`"3"`, `W/"3"` or `3`; `*` matches any).
pub struct IfMatch(pub Option<i64>);

impl FromRequest for IfMatch {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(parse_if_match(request.headers().get(header::IF_MATCH)).map(IfMatch))
    }
}

fn parse_if_match(value: Option<&header::HeaderValue>) -> Result<Option<i64>, ApiError> {
    let Some(value) = value else { return Ok(None) };
    let text = value.to_str().unwrap_or_default().trim();
    if text == "*" {
        return Ok(None);
    }
    let bare = text.trim_start_matches("W/").trim_matches('"');
    bare.parse::<i64>().map(Some).map_err(|_| {
        ApiError::bad_request(
            "If-Match",
            format!("expected an encounter version such as \"3\", got '{text}'"),
        )
    })
}

/// The `ETag` of an encounter version.
pub fn etag(version: i64) -> (header::HeaderName, String) {
    (header::ETAG, format!("\"{version}\""))
}

/// Query parameters. Errors name the parameter at fault.
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned> FromRequest for ApiQuery<T> {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let pairs = form_urlencoded::parse(request.query_string().as_bytes());
        let deserializer = serde_urlencoded::Deserializer::new(pairs);
        let parsed = serde_path_to_error::deserialize(deserializer).map(ApiQuery).map_err(|error| {
            let field = error.path().to_string();
            let field = if field == "." { "query".to_owned() } else { field };
            ApiError::bad_request(field, error.into_inner().to_string())
        });
        std::future::ready(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::is_json_suffixed;

    #[test]
    fn json_suffixed_types_are_recognised_in_any_case() {
        assert!(is_json_suffixed("application/problem+json"));
        assert!(is_json_suffixed("Application/Merge-Patch+JSON"));
        assert!(is_json_suffixed("application/+json"));
        assert!(!is_json_suffixed("application/json"));
        assert!(!is_json_suffixed("text/x+json"));
        assert!(!is_json_suffixed("application/xml"));
        assert!(!is_json_suffixed("+json"));
        assert!(!is_json_suffixed(""));
    }
}
