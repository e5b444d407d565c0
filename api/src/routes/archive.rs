//! Archiving an ended encounter (issue 29 item 4): it leaves the default list (`archived=true`
//! lists it) and retention keeps it. Not a change of the fight: its version, state and log stay.

use super::responses::{AuthErrors, ReadErrors};
use crate::app::AppState;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::reply::json_response;
use crate::wire::EncounterArchiveResponse;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, post, web};
use skirmish_db::Archived;
use skirmish_domain::encounter::EncounterId;

/// Archives an ended encounter (again: no change, the first time stays). 409 unless it has
/// ended.
#[utoipa::path(operation_id = "archive_encounter",
    tag = "encounters",
    params(("id" = String, Path, description = "Encounter id")),
    responses((status = 200, body = EncounterArchiveResponse), (status = 409, description = "The encounter has not ended", body = Problem, content_type = "application/problem+json"), ReadErrors, AuthErrors)
)]
#[post("/v1/encounters/{id}/archive")]
pub async fn archive(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    set(state, caller, id.into_inner(), true).await
}

/// Takes an encounter out of the archive (one not archived: no change).
#[utoipa::path(operation_id = "unarchive_encounter",
    tag = "encounters",
    params(("id" = String, Path, description = "Encounter id")),
    responses((status = 200, body = EncounterArchiveResponse), (status = 409, description = "The encounter has not ended", body = Problem, content_type = "application/problem+json"), ReadErrors, AuthErrors)
)]
#[post("/v1/encounters/{id}/unarchive")]
pub async fn unarchive(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    set(state, caller, id.into_inner(), false).await
}

async fn set(
    state: web::Data<AppState>,
    caller: Caller,
    id: String,
    archiving: bool,
) -> Result<HttpResponse, ApiError> {
    let store = state.store.clone();
    let encounter = EncounterId(id.clone());
    let found = web::block(move || store.set_archived(&caller.tenant, &encounter, archiving)).await??;
    match found.ok_or_else(|| ApiError::NotFound("encounter not found".into()))? {
        Archived::Done(archived_at) => {
            let body = EncounterArchiveResponse { id, archived: archived_at.is_some(), archived_at };
            json_response(StatusCode::OK, &body)
        }
        Archived::NotEnded(status) => {
            Err(ApiError::Conflict(format!("only an ended encounter is archived: this one is in {status}")))
        }
    }
}
