//! The homes of the ruleset operations later rulesets fill in. Until a ruleset implements one,
//! it answers 501 (after checking the encounter exists) — never a made-up result.

use super::responses::OperationErrors;
use super::rulesets::not_implemented;
use super::{AppState, load};
use crate::auth::Caller;
use crate::error::ApiError;
use actix_web::{HttpResponse, post, web};
use skirmish_domain::rulesets::Operation;

async fn refuse(state: &AppState, caller: &Caller, id: String, operation: Operation) -> ApiError {
    match load(state, caller, id).await {
        Ok(stored) => not_implemented(stored.encounter.ruleset.as_str(), operation),
        Err(error) => error,
    }
}

/// Resolves an attack in the encounter by its ruleset. Not implemented yet: 501.
#[utoipa::path(operation_id = "encounter_attack", 
    tag = "operations",
    params(("id" = String, Path, description = "Encounter id")),
    request_body(content = Object, description = "Ruleset-specific attack"),
    responses(OperationErrors)
)]
#[post("/v1/encounters/{id}/attacks")]
pub async fn attacks(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    Err(refuse(&state, &caller, id.into_inner(), Operation::Attacks).await)
}

/// Applies damage in the encounter by its ruleset. Not implemented yet: 501.
#[utoipa::path(operation_id = "encounter_damage", 
    tag = "operations",
    params(("id" = String, Path, description = "Encounter id")),
    request_body(content = Object, description = "Ruleset-specific damage"),
    responses(OperationErrors)
)]
#[post("/v1/encounters/{id}/damage")]
pub async fn damage(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    Err(refuse(&state, &caller, id.into_inner(), Operation::Damage).await)
}

/// Other declared actions (reactions, aim, delay, …). Not implemented yet: 501.
#[utoipa::path(operation_id = "encounter_action", 
    tag = "operations",
    params(("id" = String, Path, description = "Encounter id")),
    request_body(content = Object, description = "Ruleset-specific action"),
    responses(OperationErrors)
)]
#[post("/v1/encounters/{id}/actions")]
pub async fn actions(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    Err(refuse(&state, &caller, id.into_inner(), Operation::Actions).await)
}
