use super::combatants::render_plain;
use super::responses::MutationErrors;
use super::{AppState, mutate, new_id};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::{ApiJson, IfMatch};
use crate::reply::json_reply;
use crate::wire::{
    AddEffectRequest, EffectMutationResponse, EffectResponse, MutationResponse, events_response,
};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, delete, post, web};
use skirmish_db::{Mutation, StoredResponse};
use skirmish_domain::encounter::{EffectId, add_effect, remove_effect};

fn render_effect(mutation: Mutation<EffectId>) -> Result<StoredResponse, ApiError> {
    let encounter = mutation.encounter.encounter;
    let effect = encounter
        .effects
        .into_iter()
        .find(|e| e.id == mutation.output)
        .ok_or_else(|| ApiError::NotFound("effect not found".into()))?;
    let body = EffectMutationResponse {
        version: encounter.version,
        effect: EffectResponse::from(effect),
        events: events_response(mutation.events),
    };
    json_reply(StatusCode::CREATED, &body, Some(encounter.version))
}

/// Puts a condition or effect on the encounter, with its duration.
#[utoipa::path(operation_id = "add_effect", 
    tag = "effects",
    params(("id" = String, Path, description = "Encounter id"),
           ("If-Match" = Option<String>, Header, nullable = false, pattern = r#"^(\*|(W/)?"?-?[0-9]{1,18}"?)$"#, description = "Act only if the encounter is at this version: `\"3\"` (as in the ETag), `3`, `W/\"3\"` or `*`"),
           ("Idempotency-Key" = Option<String>, Header, nullable = false, min_length = 1, max_length = 255, pattern = r"^[\x21-\x7E]+$", description = "Retry safely: the first response is replayed (1–255 visible ASCII characters)")),
    request_body = AddEffectRequest,
    responses((status = 201, body = EffectMutationResponse, headers(("ETag" = String))), MutationErrors)
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
    params(("id" = String, Path, description = "Encounter id"), ("eid" = String, Path, description = "Effect id"),
           ("If-Match" = Option<String>, Header, nullable = false, pattern = r#"^(\*|(W/)?"?-?[0-9]{1,18}"?)$"#, description = "Act only if the encounter is at this version: `\"3\"` (as in the ETag), `3`, `W/\"3\"` or `*`")),
    responses((status = 200, body = MutationResponse, headers(("ETag" = String))), MutationErrors)
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
