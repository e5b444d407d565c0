use super::responses::{AuthErrors, IdempotencyHeader, MutationErrors, ReadErrors};
use crate::app::{AppState, encounter_answer, new_id, viewer_encounter};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::{ApiJson, ApiQuery, options_from_json};
use crate::reply::{json_ok, json_reply, json_response, send};
use crate::viewers::ViewerAccess;
use crate::wire::{CreateEncounterRequest, EncounterListResponse, EncounterResponse, PageQuery};
use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{HttpResponse, delete, get, post, web};
use skirmish_db::Mutation;
use skirmish_domain::encounter::{Encounter, EncounterId, Event, MAX_NAME_LEN};

/// Default and largest page of the encounter list.
const DEFAULT_PAGE: i64 = 20;
const MAX_PAGE: i64 = 100;

/// Lists the caller's encounters, oldest first, a page at a time.
#[utoipa::path(operation_id = "list_encounters", tag = "encounters", params(PageQuery), responses((status = 200, body = EncounterListResponse), ReadErrors, AuthErrors))]
#[get("/v1/encounters")]
pub async fn list(
    state: web::Data<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = query.limit.unwrap_or(DEFAULT_PAGE);
    let offset = query.offset.unwrap_or(0);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(ApiError::bad_request("limit", format!("must be 1 to {MAX_PAGE}")));
    }
    if !(0..=crate::wire::MAX_SEED as i64).contains(&offset) {
        return Err(ApiError::bad_request("offset", "must be 0 to 2^53 − 1"));
    }
    let store = state.store.clone();
    let page = web::block(move || store.list(&caller.tenant, limit, offset)).await??;
    let shown = page.encounters.len() as i64;
    let next_offset = (offset + shown < page.total).then_some(offset + shown);
    let items = page.encounters.iter().map(EncounterResponse::from).collect();
    let body = EncounterListResponse { items, total: page.total, limit, offset, next_offset };
    json_response(StatusCode::OK, &body)
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
    let length = request.name.chars().count();
    if request.name.trim().is_empty() || length > MAX_NAME_LEN {
        return Err(ApiError::invalid(
            "name",
            format!("must be 1 to {MAX_NAME_LEN} characters and not blank"),
        ));
    }
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

fn render_created(mutation: Mutation<()>) -> Result<skirmish_db::StoredResponse, ApiError> {
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
