//! `/v1/creatures`: the tenant's creature library (stat blocks kept to add combatants from).

use super::responses::{AuthErrors, IdempotencyHeader};
use crate::app::{AppState, new_id};
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::extract::{ApiJson, ApiQuery, stats_from_json};
use crate::reply::{json_reply, json_response, send};
use crate::wire::{
    CreateCreatureRequest, CreatureListQuery, CreatureListResponse, CreatureResponse, PatchCreatureRequest,
};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, delete, get, patch, post, web};
use skirmish_db::{Creature, CreaturePatch, MAX_CREATURES_PER_TENANT, NewCreature, StoredResponse};
use utoipa::IntoResponses;

mod checks;

pub use checks::{
    creature_response, name as name_check, ruleset_of as ruleset_of_creature, stats_of as stats_of_creature,
};

/// Errors of a route that reads or deletes one creature.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
enum CreatureErrors {
    #[response(
        status = 404,
        description = "No creature with this id in your library",
        content_type = "application/problem+json"
    )]
    NotFound(Problem),
}

/// Errors of creating or changing a creature.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
enum CreatureWriteErrors {
    #[response(
        status = 400,
        description = "Malformed body; `field` names it",
        content_type = "application/problem+json"
    )]
    BadRequest(Problem),
    #[response(
        status = 404,
        description = "No creature with this id in your library",
        content_type = "application/problem+json"
    )]
    NotFound(Problem),
    #[response(
        status = 409,
        description = "The library already holds 1000 creatures",
        content_type = "application/problem+json"
    )]
    Conflict(Problem),
    #[response(status = 413, description = "Body over 64 KiB", content_type = "application/problem+json")]
    PayloadTooLarge(Problem),
    #[response(status = 415, description = "Body is not JSON", content_type = "application/problem+json")]
    UnsupportedMediaType(Problem),
    #[response(
        status = 422,
        description = "A value breaks a bound, or the stat block is not one of the ruleset's; `field` names it",
        content_type = "application/problem+json"
    )]
    Invalid(Problem),
}

/// Keeps a creature in your library: a name, a ruleset, its stat block and defaults for the
/// combatants added from it (`POST /v1/encounters/{id}/combatants/from-creature`). At most
/// 1000 creatures per tenant.
#[utoipa::path(operation_id = "create_creature", tag = "creatures",
    params(IdempotencyHeader),
    request_body = CreateCreatureRequest,
    responses((status = 201, body = CreatureResponse, headers(("Location" = String))), CreatureWriteErrors, AuthErrors)
)]
#[post("/v1/creatures")]
pub async fn create(
    state: web::Data<AppState>,
    caller: Caller,
    ApiJson(request): ApiJson<CreateCreatureRequest>,
) -> Result<HttpResponse, ApiError> {
    checks::name("name", &request.name)?;
    if let Some(side) = &request.side {
        checks::name("side", side)?;
    }
    checks::notes(request.notes.as_deref())?;
    let stats = stats_from_json(request.ruleset, "stats", request.stats)?;
    let new = NewCreature {
        id: new_id("crt"),
        ruleset: request.ruleset.to_string(),
        name: request.name,
        stats: checks::stats_text(&stats)?,
        side: request.side,
        notes: request.notes,
        hidden: request.hidden,
        public: request.public,
    };
    let (store, key) = (state.store.clone(), caller.idempotency());
    let full = || ApiError::Conflict(format!("a library holds at most {MAX_CREATURES_PER_TENANT} creatures"));
    let reply =
        web::block(move || store.create_creature(&caller.tenant, &new, key.as_ref(), full, render_created))
            .await??;
    Ok(send(reply))
}

fn render_created(creature: &Creature) -> Result<StoredResponse, ApiError> {
    let mut reply = json_reply(StatusCode::CREATED, &creature_response(creature.clone())?, None)?;
    reply.headers.push(("Location".into(), format!("/v1/creatures/{}", creature.id)));
    Ok(reply)
}

/// Your library, in name order ignoring case (then by id), a page at a time, filtered by
/// ruleset and the start of the name. Page with `cursor` (the `next_cursor` of the page before).
#[utoipa::path(operation_id = "list_creatures", tag = "creatures", params(CreatureListQuery),
    responses((status = 200, body = CreatureListResponse),
        (status = 400, description = "Bad query parameter; `field` names it", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A cursor no list handed out", body = Problem, content_type = "application/problem+json"),
        AuthErrors)
)]
#[get("/v1/creatures")]
pub async fn list(
    state: web::Data<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<CreatureListQuery>,
) -> Result<HttpResponse, ApiError> {
    let asked = checks::Listing::try_from(query)?;
    let store = state.store.clone();
    let (filter, after, limit) = (asked.filter.clone(), asked.after.clone(), asked.limit);
    let page =
        web::block(move || store.list_creatures(&caller.tenant, &filter, after.as_ref(), limit)).await??;
    json_response(StatusCode::OK, &asked.answer(page)?)
}

/// One creature of your library.
#[utoipa::path(operation_id = "get_creature", tag = "creatures",
    params(("creature_id" = String, Path, description = "Creature id (`crt_…`)")),
    responses((status = 200, body = CreatureResponse), CreatureErrors, AuthErrors)
)]
#[get("/v1/creatures/{creature_id}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let store = state.store.clone();
    let found = web::block(move || store.creature(&caller.tenant, &id)).await??;
    json_response(StatusCode::OK, &creature_response(found.ok_or_else(not_found)?)?)
}

/// Changes a creature of your library. Combatants added from it before keep what they were
/// added with.
#[utoipa::path(operation_id = "update_creature", tag = "creatures",
    params(("creature_id" = String, Path, description = "Creature id (`crt_…`)")),
    request_body = PatchCreatureRequest,
    responses((status = 200, body = CreatureResponse), CreatureWriteErrors, AuthErrors)
)]
#[patch("/v1/creatures/{creature_id}")]
pub async fn update(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    ApiJson(request): ApiJson<PatchCreatureRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    if let Some(name) = &request.name {
        checks::name("name", name)?;
    }
    if let Some(Some(side)) = &request.side {
        checks::name("side", side)?;
    }
    checks::notes(request.notes.as_ref().and_then(Option::as_deref))?;
    let stats = match request.stats {
        Some(value) => {
            let (store, tenant, id) = (state.store.clone(), caller.tenant.clone(), id.clone());
            let creature = web::block(move || store.creature(&tenant, &id)).await??.ok_or_else(not_found)?;
            let ruleset = checks::ruleset_of(&creature)?;
            Some(checks::stats_text(&stats_from_json(ruleset, "stats", value)?)?)
        }
        None => None,
    };
    let patch = CreaturePatch {
        name: request.name,
        stats,
        side: request.side,
        notes: request.notes,
        hidden: request.hidden,
        public: request.public,
    };
    let store = state.store.clone();
    let updated = web::block(move || store.update_creature(&caller.tenant, &id, &patch)).await??;
    json_response(StatusCode::OK, &creature_response(updated.ok_or_else(not_found)?)?)
}

/// Deletes a creature of your library. Combatants added from it stay as they are.
#[utoipa::path(operation_id = "delete_creature", tag = "creatures",
    params(("creature_id" = String, Path, description = "Creature id (`crt_…`)")),
    responses((status = 204, description = "Deleted"), CreatureErrors, AuthErrors)
)]
#[delete("/v1/creatures/{creature_id}")]
pub async fn delete(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let store = state.store.clone();
    if !web::block(move || store.delete_creature(&caller.tenant, &id)).await?? {
        return Err(not_found());
    }
    Ok(HttpResponse::NoContent().finish())
}

fn not_found() -> ApiError {
    ApiError::NotFound("no creature with this id in your library".into())
}
