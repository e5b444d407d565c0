//! Viewer links: read-only, encounter-scoped tokens (`vwr_…`). The active ones are held in
//! memory (read from the database once, then kept current by this process's creates and
//! revokes), so checking a token reads nothing. See `redact.rs` for what a viewer sees,
//! `stream.rs`, `feed.rs`, `channel.rs` and `wave.rs` for its stream, `routes/viewers.rs` and `routes/view.rs` for the routes.

mod channel;
mod feed;
mod grants;
pub mod page;
pub mod redact;
mod stream;
mod wave;

pub use feed::ViewerFeeds;
pub use grants::ViewerGrants;
pub use stream::{ViewerStream, ViewerStreamStart, read_page};
pub use wave::ViewerWave;

use crate::error::ApiError;
use actix_web::http::Method;
use actix_web::{HttpRequest, web};
use skirmish_db::{Store, ViewerGrant};

/// The prefix of every viewer token; a bearer token with it is never looked up as an API key.
pub const VIEWER_TOKEN_PREFIX: &str = "vwr_";

/// A request made with a viewer token, left in its extensions by the authentication middleware.
#[derive(Debug, Clone)]
pub struct ViewerAccess(pub ViewerGrant);

/// The grant behind a `vwr_…` bearer token, if the request is one it allows: `GET` of its own
/// encounter or that encounter's stream. Another encounter is 404 (as for another tenant's);
/// every other route is 403; an unknown, revoked or expired token is 401.
pub async fn authorize(request: &HttpRequest, store: &Store, token: &str) -> Result<ViewerGrant, ApiError> {
    let grants = request
        .app_data::<web::Data<ViewerGrants>>()
        .ok_or_else(|| ApiError::Internal("viewer links are not configured".into()))?;
    let grant = grants
        .grant_for(store, token)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("the viewer link is unknown, revoked or expired".into()))?;
    check_route(request.method(), request.path(), &grant.encounter_id)?;
    Ok(grant)
}

/// Whether a viewer of `encounter` may send `method` to `path`.
fn check_route(method: &Method, path: &str, encounter: &str) -> Result<(), ApiError> {
    let target = path.strip_prefix("/v1/encounters/").and_then(|rest| {
        let (id, tail) = rest.split_once('/').unwrap_or((rest, ""));
        (!id.is_empty() && matches!(tail, "" | "stream")).then_some(id)
    });
    match target {
        Some(id) if method == Method::GET && id == encounter => Ok(()),
        Some(_) if method == Method::GET => Err(ApiError::NotFound("encounter not found".into())),
        _ => Err(ApiError::Forbidden(
            "a viewer link may only read its encounter (GET /v1/encounters/{id}) and its stream \
             (GET /v1/encounters/{id}/stream)"
                .into(),
        )),
    }
}

/// `text` (a request's path or query) as the log may show it: the segment after `/view/` and
/// every `vwr_…` token anywhere (a percent-encoded path is decoded by the front door first, see
/// `request_path.rs`) written as `vwr_…`.
pub fn loggable_path(text: &str) -> std::borrow::Cow<'_, str> {
    let text = match text.strip_prefix("/view/") {
        Some(rest) => {
            let tail = rest.find('/').map_or("", |at| &rest[at..]);
            std::borrow::Cow::Owned(format!("/view/{VIEWER_TOKEN_PREFIX}…{tail}"))
        }
        None => std::borrow::Cow::Borrowed(text),
    };
    if !text.contains(VIEWER_TOKEN_PREFIX) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_ref();
    while let Some(at) = rest.find(VIEWER_TOKEN_PREFIX) {
        out.push_str(&rest[..at + VIEWER_TOKEN_PREFIX.len()]);
        let token = &rest[at + VIEWER_TOKEN_PREFIX.len()..];
        let end =
            token.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')).unwrap_or(token.len());
        if end > 0 && !token.starts_with('…') {
            out.push('…');
        }
        rest = &token[end..];
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// The current time in Unix seconds.
pub fn now_unix() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since.as_secs()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_path_is_logged_without_its_token() {
        assert_eq!(loggable_path("/view/vwr_secret/stream"), "/view/vwr_…/stream");
        assert_eq!(loggable_path("/view/vwr_secret"), "/view/vwr_…");
        assert_eq!(loggable_path("/v1/encounters/enc_a"), "/v1/encounters/enc_a");
        assert_eq!(loggable_path("/x/vwr_secret/y?t=vwr_other&n=1"), "/x/vwr_…/y?t=vwr_…&n=1");
        assert_eq!(loggable_path("/view%2Fvwr_secret"), "/view%2Fvwr_…");
    }

    #[test]
    fn a_viewer_may_only_get_its_encounter_and_its_stream() {
        let allowed = [(Method::GET, "/v1/encounters/enc_a"), (Method::GET, "/v1/encounters/enc_a/stream")];
        let not_found = [(Method::GET, "/v1/encounters/enc_b"), (Method::GET, "/v1/encounters/enc_b/stream")];
        let forbidden = [
            (Method::POST, "/v1/encounters/enc_a/advance"),
            (Method::DELETE, "/v1/encounters/enc_a"),
            (Method::GET, "/v1/encounters/enc_a/events"),
            (Method::GET, "/v1/encounters/enc_a/viewers"),
            (Method::GET, "/v1/encounters"),
            (Method::HEAD, "/v1/encounters/enc_a"),
            (Method::POST, "/v1/dice/roll"),
        ];
        for (method, path) in allowed {
            assert!(check_route(&method, path, "enc_a").is_ok(), "{method} {path}");
        }
        for (method, path) in not_found {
            assert!(matches!(check_route(&method, path, "enc_a"), Err(ApiError::NotFound(_))), "{path}");
        }
        for (method, path) in forbidden {
            assert!(matches!(check_route(&method, path, "enc_a"), Err(ApiError::Forbidden(_))), "{path}");
        }
    }
}
