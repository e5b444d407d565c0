use super::responses::MutationErrors;
use super::{AppState, mutate, new_id};
use crate::error::ApiError;
use crate::extract::{ApiJson, IfMatch, etag};
use crate::wire::{
    AddEffectRequest, EffectMutationResponse, EffectResponse, MutationResponse, events_response,
};
use actix_web::{HttpResponse, delete, post, web};
use skirmish_domain::encounter::{EffectId, add_effect, remove_effect};

/// Puts a condition or effect on the encounter, with its duration.
#[utoipa::path(
    tag = "effects",
    params(("id" = String, Path, description = "Encounter id"),
           ("If-Match" = Option<String>, Header, description = "Act only if the encounter is at this version")),
    request_body = AddEffectRequest,
    responses((status = 201, body = EffectMutationResponse, headers(("ETag" = String))), MutationErrors)
)]
#[post("/v1/encounters/{id}/effects")]
pub async fn add(
    state: web::Data<AppState>,
    id: web::Path<String>,
    if_match: IfMatch,
    ApiJson(request): ApiJson<AddEffectRequest>,
) -> Result<HttpResponse, ApiError> {
    let effect_id = EffectId(new_id("eff"));
    let mutation = mutate(&state, id.into_inner(), if_match, move |encounter| {
        Ok((add_effect(encounter, request.into_domain(effect_id.clone()))?, effect_id))
    })
    .await?;
    let encounter = mutation.encounter.encounter;
    let effect = encounter
        .effects
        .into_iter()
        .find(|e| e.id == mutation.output)
        .ok_or_else(|| ApiError::NotFound("effect not found".into()))?;
    Ok(HttpResponse::Created().insert_header(etag(encounter.version)).json(EffectMutationResponse {
        version: encounter.version,
        effect: EffectResponse::from(effect),
        events: events_response(mutation.events),
    }))
}

/// Ends an effect early.
#[utoipa::path(
    tag = "effects",
    params(("id" = String, Path, description = "Encounter id"), ("eid" = String, Path, description = "Effect id"),
           ("If-Match" = Option<String>, Header, description = "Act only if the encounter is at this version")),
    responses((status = 200, body = MutationResponse, headers(("ETag" = String))), MutationErrors)
)]
#[delete("/v1/encounters/{id}/effects/{eid}")]
pub async fn remove(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    if_match: IfMatch,
) -> Result<HttpResponse, ApiError> {
    let (id, effect_id) = path.into_inner();
    let mutation = mutate(&state, id, if_match, move |encounter| {
        Ok((remove_effect(encounter, &EffectId(effect_id))?, ()))
    })
    .await?;
    let version = mutation.encounter.encounter.version;
    Ok(HttpResponse::Ok()
        .insert_header(etag(version))
        .json(MutationResponse { version, events: events_response(mutation.events) }))
}
