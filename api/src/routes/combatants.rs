use super::responses::{AuthErrors, IdempotencyHeader, IfMatchHeader, MutationErrors};
use crate::app::render_plain;
use crate::app::{AppState, mutate, new_id, ruleset_of};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::{ApiJson, IfMatch, stats_from_json};
use crate::reply::json_reply;
use crate::wire::{
    AddCombatantRequest, CombatantMutationResponse, CombatantResponse, MutationResponse,
    PatchCombatantRequest, event_notices,
};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, delete, patch, post, web};
use skirmish_db::{Mutation, StoredResponse};
use skirmish_domain::encounter::{
    CombatantId, CombatantPatch, Encounter, Flags, NewCombatant, Origin, add_combatant_from,
    remove_combatant, update_combatant,
};

fn render_combatant(mutation: Mutation<CombatantId>, status: StatusCode) -> Result<StoredResponse, ApiError> {
    let encounter = &mutation.encounter.encounter;
    let combatant = encounter
        .combatants
        .iter()
        .find(|c| c.id == mutation.output)
        .ok_or_else(|| ApiError::NotFound("combatant not found".into()))?;
    let body = CombatantMutationResponse {
        version: encounter.version,
        combatant: CombatantResponse::new(encounter, combatant),
        events: event_notices(mutation.events),
    };
    json_reply(status, &body, Some(encounter.version))
}

/// Adds a combatant with its ruleset's stat block.
#[utoipa::path(operation_id = "add_combatant", 
    tag = "combatants",
    params(("id" = String, Path, description = "Encounter id"), IfMatchHeader, IdempotencyHeader),
    request_body = AddCombatantRequest,
    responses((status = 201, body = CombatantMutationResponse, headers(("ETag" = String))), MutationErrors, AuthErrors)
)]
#[post("/v1/encounters/{id}/combatants")]
pub async fn add(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    if_match: IfMatch,
    ApiJson(request): ApiJson<AddCombatantRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let combatant_id = CombatantId(new_id("cmb"));
    let new = NewCombatant {
        id: combatant_id.clone(),
        stats: stats_from_json(ruleset_of(&state, &caller, &id).await?, "stats", request.stats)?,
        name: request.name,
        side: request.side,
        flags: Flags {
            surprised: request.surprised,
            defeated: false,
            hidden: request.hidden,
            public: request.public,
        },
    };
    let origin = Origin { creature_id: None, group: request.group };
    let command =
        move |encounter: &mut Encounter| Ok((add_combatant_from(encounter, new, origin)?, combatant_id));
    let render = |mutation| render_combatant(mutation, StatusCode::CREATED);
    mutate(&state, &caller, id, if_match, command, render).await
}

/// Changes a combatant's name, side, stat block or flags.
#[utoipa::path(operation_id = "update_combatant", 
    tag = "combatants",
    params(("id" = String, Path, description = "Encounter id"), ("cid" = String, Path, description = "Combatant id"), IfMatchHeader),
    request_body = PatchCombatantRequest,
    responses((status = 200, body = CombatantMutationResponse, headers(("ETag" = String))), MutationErrors, AuthErrors)
)]
#[patch("/v1/encounters/{id}/combatants/{cid}")]
pub async fn update(
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<(String, String)>,
    if_match: IfMatch,
    ApiJson(request): ApiJson<PatchCombatantRequest>,
) -> Result<HttpResponse, ApiError> {
    let (id, combatant_id) = path.into_inner();
    let combatant_id = CombatantId(combatant_id);
    let stats = match request.stats {
        Some(value) => Some(stats_from_json(ruleset_of(&state, &caller, &id).await?, "stats", value)?),
        None => None,
    };
    let patch = CombatantPatch {
        name: request.name,
        side: request.side,
        stats,
        surprised: request.surprised,
        defeated: request.defeated,
        hidden: request.hidden,
        public: request.public,
        group: request.group,
    };
    let command = move |encounter: &mut Encounter| {
        Ok((update_combatant(encounter, &combatant_id, patch)?, combatant_id))
    };
    let render = |mutation| render_combatant(mutation, StatusCode::OK);
    mutate(&state, &caller, id, if_match, command, render).await
}

/// Removes a combatant; effects that name it end.
#[utoipa::path(operation_id = "remove_combatant", 
    tag = "combatants",
    params(("id" = String, Path, description = "Encounter id"), ("cid" = String, Path, description = "Combatant id"), IfMatchHeader),
    responses((status = 200, body = MutationResponse, headers(("ETag" = String))), MutationErrors, AuthErrors)
)]
#[delete("/v1/encounters/{id}/combatants/{cid}")]
pub async fn remove(
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<(String, String)>,
    if_match: IfMatch,
) -> Result<HttpResponse, ApiError> {
    let (id, combatant_id) = path.into_inner();
    let command =
        move |encounter: &mut Encounter| Ok((remove_combatant(encounter, &CombatantId(combatant_id))?, ()));
    mutate(&state, &caller, id, if_match, command, render_plain).await
}
