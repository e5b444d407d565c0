//! Who is calling: the tenant behind the `Authorization: Bearer` key (or the open-mode tenant
//! when the server has no keys and listens on loopback only), the per-key rate limit, and the
//! request's `Idempotency-Key`. API keys never reach the log.

use crate::error::ApiError;
use crate::rate_limit::RateLimiter;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::header::HeaderName;
use actix_web::http::{Method, header};
use actix_web::middleware::Next;
use actix_web::{FromRequest, HttpMessage, HttpRequest, web};
use sha2::{Digest, Sha256};
use skirmish_db::{IdempotencyKey, Store};
use std::future::{Ready, ready};
use std::ops::ControlFlow;
use std::sync::{Arc, OnceLock};

/// The tenant that owns everything made without keys (open mode). A key created for this tenant
/// keeps access to those encounters once keys are switched on.
pub const OPEN_TENANT: &str = "default";
/// Longest `Idempotency-Key` accepted.
pub const MAX_IDEMPOTENCY_KEY_LEN: usize = 255;

/// How requests are authenticated.
pub struct AuthSettings {
    pub store: Store,
    /// The server listens on loopback only, so it may run open while no key exists.
    pub loopback_only: bool,
    /// `None` disables rate limiting.
    pub limiter: Option<RateLimiter>,
}

/// The digest of a request body, left in the request's extensions by the JSON extractor.
#[derive(Debug, Clone)]
pub struct BodyDigest(pub String);

pub fn sha256_hex(bytes: &[u8]) -> String {
    skirmish_db::hex(&Sha256::digest(bytes))
}

/// The header that makes a POST safe to retry: named by a constant, as looking a header up by
/// text parses the name first (~650 instructions a lookup).
pub const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

/// The tenant a request acts for and the key it presented, set by [`authenticate`]. Shared
/// text: handing it to each request's [`Caller`] copies no string.
#[derive(Debug, Clone)]
struct Tenant {
    tenant: Arc<str>,
    key: Arc<str>,
}

impl Tenant {
    fn new(tenant: impl Into<Arc<str>>, key: impl Into<Arc<str>>) -> Self {
        Self { tenant: tenant.into(), key: key.into() }
    }

    /// The tenant of open mode, made once.
    fn open() -> Self {
        static OPEN: OnceLock<Tenant> = OnceLock::new();
        OPEN.get_or_init(|| Tenant::new(OPEN_TENANT, OPEN_KEY)).clone()
    }
}

/// What stands for the key in open mode, where requests present none.
pub const OPEN_KEY: &str = "open";

/// Middleware for every `/v1` route: resolves the tenant (or answers 401/429) before any
/// extractor reads the body or other headers, so an unauthenticated request learns nothing else.
pub async fn authenticate(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    match admit(request).await {
        ControlFlow::Continue(request) => next.call(request).await.map(ServiceResponse::map_into_boxed_body),
        ControlFlow::Break(refused) => Ok(refused),
    }
}

/// The request back, its tenant resolved (nothing to do off `/v1`), or the 401/429 to send.
pub async fn admit(request: ServiceRequest) -> ControlFlow<ServiceResponse<BoxBody>, ServiceRequest> {
    if !request.path().starts_with("/v1/") {
        return ControlFlow::Continue(request);
    }
    let Some(settings) = request.app_data::<web::Data<AuthSettings>>() else {
        let error = ApiError::Internal("authentication is not configured".into());
        return ControlFlow::Break(request.error_response(error).map_into_boxed_body());
    };
    match tenant_of(request.request(), settings).await {
        Ok(tenant) => {
            request.extensions_mut().insert(tenant);
            ControlFlow::Continue(request)
        }
        Err(error) => ControlFlow::Break(request.error_response(error).map_into_boxed_body()),
    }
}

async fn tenant_of(request: &HttpRequest, settings: &AuthSettings) -> Result<Tenant, ApiError> {
    let presented = bearer_token(request)?;
    // The store is cloned only to be moved to the blocking pool, when memory does not know.
    let store = &settings.store;
    let Some(secret) = presented else {
        // Known in memory (see `Store::keys_known`); the database is read at most once per
        // `KEYS_RECHECK` while no key exists, on the blocking pool.
        let keys_exist = match store.keys_known() {
            Some(known) => known,
            None => {
                let store = store.clone();
                web::block(move || store.has_keys()).await??
            }
        };
        if keys_exist || !settings.loopback_only {
            return Err(ApiError::Unauthorized("send an API key: Authorization: Bearer <key>".into()));
        }
        return Ok(Tenant::open());
    };
    if secret.starts_with(crate::viewers::VIEWER_TOKEN_PREFIX) {
        let grant = crate::viewers::authorize(request, &settings.store, &secret).await?;
        if let Some(limiter) = &settings.limiter {
            limiter
                .check(&grant.viewer_id)
                .map_err(|wait| ApiError::TooManyRequests { retry_after: wait.as_secs() + 1 })?;
        }
        let tenant = Tenant::new(grant.tenant.as_str(), grant.viewer_id.as_str());
        request.extensions_mut().insert(crate::viewers::ViewerAccess(grant));
        return Ok(tenant);
    }
    // Known in memory for a recently seen active key (see `Store::known_key_owner`).
    let owner = match store.known_key_owner(&secret) {
        Some(owner) => Some(owner),
        None => {
            let store = store.clone();
            web::block(move || store.key_owner(&secret)).await??
        }
    };
    let owner = owner.ok_or_else(|| ApiError::Unauthorized("the API key is unknown or revoked".into()))?;
    if let Some(limiter) = &settings.limiter {
        limiter
            .check(&owner.key_id)
            .map_err(|wait| ApiError::TooManyRequests { retry_after: wait.as_secs() + 1 })?;
    }
    Ok(Tenant::new(owner.tenant, owner.key_id))
}

/// The caller of a `/v1` route: its tenant (from [`authenticate`]) and idempotency key.
pub struct Caller {
    pub tenant: Arc<str>,
    /// The id of the API key presented ([`OPEN_KEY`] in open mode).
    pub key: Arc<str>,
    idempotency_key: Option<String>,
    request: HttpRequest,
}

impl Caller {
    /// The idempotency key with a fingerprint of this request (method, path, query, body),
    /// for POSTs that carry `Idempotency-Key`.
    pub fn idempotency(&self) -> Option<IdempotencyKey> {
        let key = self.idempotency_key.clone()?;
        let body = self.request.extensions().get::<BodyDigest>().map(|d| d.0.clone()).unwrap_or_default();
        let uri = self.request.uri();
        let query = uri.query().unwrap_or_default();
        let fingerprint =
            sha256_hex(format!("{} {}?{query} {body}", self.request.method(), uri.path()).as_bytes());
        Some(IdempotencyKey { key, fingerprint })
    }
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let caller = || {
            let Tenant { tenant, key } = request.extensions().get::<Tenant>().cloned().ok_or_else(|| {
                ApiError::Internal("no tenant: the authentication middleware did not run".into())
            })?;
            Ok(Caller { tenant, key, idempotency_key: idempotency_key(request)?, request: request.clone() })
        };
        ready(caller())
    }
}

fn bearer_token(request: &HttpRequest) -> Result<Option<String>, ApiError> {
    let Some(value) = request.headers().get(header::AUTHORIZATION) else { return Ok(None) };
    let text = value.to_str().unwrap_or_default().trim();
    let (scheme, token) = text.split_once(' ').unwrap_or((text, ""));
    if !scheme.eq_ignore_ascii_case("bearer") || token.trim().is_empty() {
        return Err(ApiError::Unauthorized("expected Authorization: Bearer <key>".into()));
    }
    Ok(Some(token.trim().to_owned()))
}

fn idempotency_key(request: &HttpRequest) -> Result<Option<String>, ApiError> {
    let Some(value) = request.headers().get(IDEMPOTENCY_KEY) else { return Ok(None) };
    if request.method() != Method::POST {
        return Ok(None);
    }
    let text = value.to_str().unwrap_or_default();
    let visible = text.bytes().all(|b| b.is_ascii_graphic());
    if text.is_empty() || text.len() > MAX_IDEMPOTENCY_KEY_LEN || !visible {
        let detail = format!("must be 1 to {MAX_IDEMPOTENCY_KEY_LEN} visible ASCII characters");
        return Err(ApiError::bad_request("Idempotency-Key", detail));
    }
    Ok(Some(text.to_owned()))
}
