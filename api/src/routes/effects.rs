use super::responses::{AuthErrors, IdempotencyHeader, IfMatchHeader, MutationErrors};
use crate::app::render_plain;
use crate::app::{AppState, mutate, new_id};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::{ApiJson, IfMatch};
use crate::reply::json_reply;
use crate::wire::{
    AddEffectRequest, EffectMutationResponse, EffectResponse, MutationResponse, event_notices,
};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, delete, post, web};
use skirmish_db::{Mutation, StoredResponse};
use skirmish_domain::encounter::{EffectId, add_effect, remove_effect};

fn render_effect(mutation: Mutation<EffectId>) -> Result<StoredResponse, ApiError> {
    let encounter = &mutation.encounter.encounter;
    let effect = encounter
        .effects
        .iter()
        .find(|e| e.id == mutation.output)
        .cloned()
        .ok_or_else(|| ApiError::NotFound("effect not found".into()))?;
    let body = EffectMutationResponse {
        version: encounter.version,
        effect: EffectResponse::from(effect),
        events: event_notices(mutation.events),
    };
    json_reply(StatusCode::CREATED, &body, Some(encounter.version))
}

/// Puts a condition or effect on the encounter, with its duration.
#[utoipa::path(operation_id = "add_effect", 
    tag = "effects",
    params(("id" = String, Path, description = "Encounter id"), IfMatchHeader, IdempotencyHeader),
    request_body = AddEffectRequest,
    responses((status = 201, body = EffectMutationResponse, headers(("ETag" = String))), MutationErrors, AuthErrors)
)]
#[post("/v1/encounters/{id}/effects")]
pub async fn add(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    if_match: IfMatch,
    ApiJson(request): ApiJson<AddEffectRequest>,
) -> Result<HttpResponse, ApiError> {
    let effect_id = EffectId(new_id("eff"));
    let command = move |encounter: &mut _| {
        Ok((add_effect(encounter, request.into_domain(effect_id.clone()))?, effect_id))
    };
    mutate(&state, &caller, id.into_inner(), if_match, command, render_effect).await
}

/// Ends an effect early.
#[utoipa::path(operation_id = "remove_effect", 
    tag = "effects",
    params(("id" = String, Path, description = "Encounter id"), ("eid" = String, Path, description = "Effect id"), IfMatchHeader),
    responses((status = 200, body = MutationResponse, headers(("ETag" = String))), MutationErrors, AuthErrors)
)]
#[delete("/v1/encounters/{id}/effects/{eid}")]
pub async fn remove(
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<(String, String)>,
    if_match: IfMatch,
) -> Result<HttpResponse, ApiError> {
    let (id, effect_id) = path.into_inner();
    let command = move |encounter: &mut skirmish_domain::encounter::Encounter| {
        Ok((remove_effect(encounter, &EffectId(effect_id))?, ()))
    };
    mutate(&state, &caller, id, if_match, command, render_plain).await
}
