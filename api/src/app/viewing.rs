//! What a viewer link reads: the grant behind a token in a path, and the redacted encounter.

use super::state::AppState;
use crate::error::ApiError;
use crate::reply::json_with;
use crate::viewers::VIEWER_TOKEN_PREFIX;
use crate::viewers::redact::viewer_encounter as redacted;
use actix_web::http::header;
use actix_web::{HttpResponse, web};
use skirmish_db::ViewerGrant;
use skirmish_domain::encounter::EncounterId;

/// The grant behind a token in the path, or 404 (an unknown, revoked or expired link is not
/// told apart from a wrong address).
pub async fn grant_in_path(state: &AppState, token: &str) -> Result<ViewerGrant, ApiError> {
    let grant = match token.starts_with(VIEWER_TOKEN_PREFIX) {
        true => state.viewers.grant_for(&state.store, token).await?,
        false => None,
    };
    grant.ok_or_else(|| ApiError::NotFound("no such viewer link (revoked or expired links end)".into()))
}

/// The redacted encounter, with its version as ETag. Never cached by a shared cache.
pub async fn viewer_encounter(state: &AppState, grant: ViewerGrant) -> Result<HttpResponse, ApiError> {
    let (store, id) = (state.store.clone(), EncounterId(grant.encounter_id));
    let stored = web::block(move || store.get(&grant.tenant, &id))
        .await??
        .ok_or_else(|| ApiError::NotFound("encounter not found".into()))?;
    let body = redacted(stored);
    let mut ok = HttpResponse::Ok();
    ok.insert_header(crate::extract::etag(body.version))
        .insert_header((header::CACHE_CONTROL, "private, no-cache"));
    json_with(&mut ok, &body)
}
