use super::listing;
use super::responses::{AuthErrors, IdempotencyHeader, MutationErrors, ReadErrors};
use crate::app::{AppState, encounter_answer, new_id, viewer_encounter};
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::extract::{ApiJson, ApiQuery, options_from_json};
use crate::reply::{json_ok, json_reply, json_response, send};
use crate::viewers::ViewerAccess;
use crate::wire::{CreateEncounterRequest, EncounterListQuery, EncounterListResponse, EncounterResponse};
use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{HttpResponse, delete, get, post, web};
use skirmish_db::Mutation;
use skirmish_domain::encounter::{Encounter, EncounterId, Event, validate_name};

/// Lists the caller's encounters, newest first, a page at a time, filtered by status, ruleset,
/// name and archived. Page with `cursor` (the `next_cursor` of the page before); `offset` still
/// works.
#[utoipa::path(operation_id = "list_encounters", tag = "encounters", params(EncounterListQuery), responses((status = 200, body = EncounterListResponse), (status = 422, description = "Well-formed parameters that cannot hold together: `cursor` with `offset`, or a cursor no list handed out", body = Problem, content_type = "application/problem+json"), ReadErrors, AuthErrors))]
#[get("/v1/encounters")]
pub async fn list(
    state: web::Data<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<EncounterListQuery>,
) -> Result<HttpResponse, ApiError> {
    let asked = listing::Asked::try_from(query)?;
    let store = state.store.clone();
    let (filter, start, limit) = (asked.filter.clone(), asked.start, asked.limit);
    let page = web::block(move || store.list(&caller.tenant, &filter, start, limit)).await??;
    json_response(StatusCode::OK, &asked.answer(page))
}

/// Creates an encounter in setup.
#[utoipa::path(operation_id = "create_encounter", 
    tag = "encounters",
    params(IdempotencyHeader),
    request_body = CreateEncounterRequest,
    responses((status = 201, body = EncounterResponse, headers(("ETag" = String), ("Location" = String))), MutationErrors, AuthErrors)
)]
#[post("/v1/encounters")]
pub async fn create(
    state: web::Data<AppState>,
    caller: Caller,
    ApiJson(request): ApiJson<CreateEncounterRequest>,
) -> Result<HttpResponse, ApiError> {
    validate_name("name", &request.name)?;
    let mut encounter = Encounter::new(EncounterId(new_id("enc")), request.ruleset, request.name);
    if let Some(options) = request.options {
        encounter.options = options_from_json(encounter.ruleset, options)?;
    }
    let created =
        Event::EncounterCreated { name: encounter.name.clone(), ruleset: encounter.ruleset.to_string() };
    let key = caller.idempotency();
    let created =
        state.store.create_async(caller.tenant.to_string(), encounter, vec![created], key, render_created);
    Ok(send(created.await.result?))
}

pub(super) fn render_created(mutation: Mutation<()>) -> Result<skirmish_db::StoredResponse, ApiError> {
    let stored = &mutation.encounter;
    let (version, location) = (stored.encounter.version, format!("/v1/encounters/{}", stored.encounter.id));
    let mut reply = json_reply(StatusCode::CREATED, &EncounterResponse::from(&**stored), Some(version))?;
    reply.headers.push(("Location".into(), location));
    Ok(reply)
}

/// One encounter with its combatants, turn order and effects. With a viewer token (`vwr_…`) the
/// answer is a ViewerEncounterResponse: hidden combatants left out, stat blocks and state only
/// for public ones.
#[utoipa::path(operation_id = "get_encounter", 
    tag = "encounters",
    params(("id" = String, Path, description = "Encounter id")),
    responses((status = 200, body = EncounterResponse, headers(("ETag" = String))), ReadErrors, AuthErrors)
)]
#[get("/v1/encounters/{id}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    viewer: Option<web::ReqData<ViewerAccess>>,
) -> Result<HttpResponse, ApiError> {
    if let Some(viewer) = viewer {
        return viewer_encounter(&state, viewer.into_inner().0).await;
    }
    let answer = encounter_answer(&state, &caller, id.into_inner()).await?;
    let mut response = json_ok(answer.json);
    response.headers_mut().insert(header::ETAG, answer.etag);
    Ok(response)
}

/// Deletes an encounter and its event log.
#[utoipa::path(operation_id = "delete_encounter", 
    tag = "encounters",
    params(("id" = String, Path, description = "Encounter id")),
    responses((status = 204, description = "Deleted"), ReadErrors, AuthErrors)
)]
#[delete("/v1/encounters/{id}")]
pub async fn delete(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let store = state.store.clone();
    let deleted = web::block(move || store.delete(&caller.tenant, &EncounterId(id.into_inner()))).await??;
    if deleted {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(ApiError::NotFound("encounter not found".into()))
    }
}
