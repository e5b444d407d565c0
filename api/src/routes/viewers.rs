//! `/v1/encounters/{id}/viewers`: a GM makes, lists and revokes read-only viewer links.

use super::responses::{AuthErrors, MutationErrors, ReadErrors};
use crate::app::{AppState, new_id};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::OptionalJson;
use crate::reply::{json_response, json_with};
use crate::wire::{
    CreateViewerRequest, MAX_VIEWER_LABEL_LEN, VIEWER_EXPIRY_SECONDS, ViewerCreatedResponse,
    ViewerListResponse, ViewerResponse,
};
use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{HttpResponse, delete, get, post, web};
use rand::RngExt;
use skirmish_db::{MAX_VIEWERS_PER_ENCOUNTER, NewViewer, ViewerCreated};
use skirmish_domain::encounter::EncounterId;

/// A fresh viewer token: the prefix and 256 random bits as hex.
fn new_token() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    format!("{}{}", crate::viewers::VIEWER_TOKEN_PREFIX, skirmish_db::hex(&bytes))
}

fn checked(request: &CreateViewerRequest) -> Result<(), ApiError> {
    if let Some(label) = &request.label
        && label.chars().count() > MAX_VIEWER_LABEL_LEN
    {
        return Err(ApiError::invalid("label", format!("at most {MAX_VIEWER_LABEL_LEN} characters")));
    }
    if let Some(seconds) = request.expires_in_seconds
        && !VIEWER_EXPIRY_SECONDS.contains(&seconds)
    {
        let (low, high) = (VIEWER_EXPIRY_SECONDS.start(), VIEWER_EXPIRY_SECONDS.end());
        return Err(ApiError::invalid("expires_in_seconds", format!("must be {low} to {high}")));
    }
    Ok(())
}

/// Makes a read-only viewer link to the encounter: its token (shown only in this answer) reads
/// the encounter and its stream, with hidden combatants left out and stat blocks shown only for
/// public ones, and opens the table view at `view_url`. At most 32 links per encounter.
/// `Idempotency-Key` is not honoured here: a replay would have to store the token.
#[utoipa::path(operation_id = "create_viewer",
    tag = "viewers",
    params(("id" = String, Path, description = "Encounter id")),
    request_body(content = Option<CreateViewerRequest>, description = "Optional; default: no label, no expiry"),
    responses(
        (status = 201, body = ViewerCreatedResponse, headers(("Location" = String))),
        (status = 409, content_type = "application/problem+json", body = crate::error::Problem,
            description = "The encounter already has 32 viewer links"),
        MutationErrors, AuthErrors,
    )
)]
#[post("/v1/encounters/{id}/viewers")]
pub async fn create(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    OptionalJson(request): OptionalJson<CreateViewerRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = request.unwrap_or_default();
    checked(&request)?;
    state.viewers.ready(&state.store).await?;
    let (store, encounter) = (state.store.clone(), EncounterId(id.into_inner()));
    let (viewer_id, token) = (new_id("vwl"), new_token());
    let (write_id, write_token) = (viewer_id.clone(), token.clone());
    let created = web::block(move || {
        let new = NewViewer {
            id: &write_id,
            token: &write_token,
            label: request.label.as_deref(),
            expires_in_seconds: request.expires_in_seconds,
        };
        store.create_viewer(&caller.tenant, &encounter, &new)
    })
    .await??;
    let (info, grant) = match created {
        ViewerCreated::Created(created) => *created,
        ViewerCreated::NoEncounter => return Err(ApiError::NotFound("encounter not found".into())),
        ViewerCreated::TooMany => {
            let detail = format!("an encounter holds at most {MAX_VIEWERS_PER_ENCOUNTER} viewer links");
            return Err(ApiError::Conflict(detail));
        }
    };
    state.viewers.added(&token, grant);
    let location = format!("/v1/encounters/{}/viewers/{viewer_id}", info.encounter_id);
    let body = ViewerCreatedResponse { viewer: info.into(), view_url: format!("/view/{token}"), token };
    let mut created = HttpResponse::Created();
    created.insert_header((header::LOCATION, location)).insert_header((header::CACHE_CONTROL, "no-store"));
    json_with(&mut created, &body)
}

/// The encounter's viewer links, oldest first, revoked ones included (never their tokens).
#[utoipa::path(operation_id = "list_viewers",
    tag = "viewers",
    params(("id" = String, Path, description = "Encounter id")),
    responses((status = 200, body = ViewerListResponse), ReadErrors, AuthErrors)
)]
#[get("/v1/encounters/{id}/viewers")]
pub async fn list(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let (store, encounter) = (state.store.clone(), EncounterId(id.into_inner()));
    let list = web::block(move || store.list_viewers(&caller.tenant, &encounter))
        .await??
        .ok_or_else(|| ApiError::NotFound("encounter not found".into()))?;
    let items = list.into_iter().map(ViewerResponse::from).collect();
    json_response(StatusCode::OK, &ViewerListResponse { items })
}

/// Revokes a viewer link: its token is refused (401) from now on and its open streams end.
#[utoipa::path(operation_id = "revoke_viewer",
    tag = "viewers",
    params(
        ("id" = String, Path, description = "Encounter id"),
        ("viewer_id" = String, Path, description = "Viewer link id (`vwl_…`)"),
    ),
    responses((status = 204, description = "Revoked"), ReadErrors, AuthErrors)
)]
#[delete("/v1/encounters/{id}/viewers/{viewer_id}")]
pub async fn revoke(
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (encounter, viewer_id) = path.into_inner();
    state.viewers.ready(&state.store).await?;
    let (store, revoke_id) = (state.store.clone(), viewer_id.clone());
    let revoked =
        web::block(move || store.revoke_viewer(&caller.tenant, &EncounterId(encounter), &revoke_id))
            .await??;
    if !revoked {
        return Err(ApiError::NotFound("no active viewer link with this id on this encounter".into()));
    }
    state.viewers.revoked(&viewer_id);
    Ok(HttpResponse::NoContent().finish())
}
