//! Ruleset operations on a stored encounter: attacks, damage and declared actions. Each runs in
//! the encounter's transaction; a ruleset that does not implement one answers 501 — never a
//! made-up result.

use super::responses::{AuthErrors, IdempotencyHeader, IfMatchHeader, MutationErrors, NotImplementedError};
use super::rulesets::not_implemented;
use super::{AppState, mutate};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::{ApiJson, IfMatch};
use crate::reply::json_reply;
use crate::wire::{
    DieResponse, OperationResponse, dice_for, events_response, report_json, ruleset_request,
    split_operation_body,
};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, post, web};
use serde_json::Value;
use skirmish_db::{Mutation, StoredResponse};
use skirmish_domain::dice::{Dice, DieRoll};
use skirmish_domain::encounter::{Encounter, Event};
use skirmish_domain::rulesets::adeva_d100::operations as adeva;
use skirmish_domain::rulesets::cepheus_engine::operations as cepheus;
use skirmish_domain::rulesets::{Operation, RulesetId};

/// Runs the encounter's ruleset for `operation` on the request body.
fn perform(
    encounter: &mut Encounter,
    operation: Operation,
    body: Value,
    dice: &mut Dice,
) -> Result<(Vec<Event>, Value), ApiError> {
    match (encounter.ruleset, operation) {
        (RulesetId::CepheusEngine, Operation::Attacks) => {
            let (events, report) = cepheus::attack(encounter, ruleset_request(body)?, dice)?;
            Ok((events, report_json(&report)?))
        }
        (RulesetId::CepheusEngine, Operation::Damage) => {
            let (events, report) = cepheus::damage(encounter, ruleset_request(body)?, dice)?;
            Ok((events, report_json(&report)?))
        }
        (RulesetId::CepheusEngine, Operation::Actions) => {
            let (events, report) = cepheus::act(encounter, ruleset_request(body)?, dice)?;
            Ok((events, report_json(&report)?))
        }
        (RulesetId::AdevaD100, Operation::Attacks) => {
            let (events, report) = adeva::attack(encounter, ruleset_request(body)?, dice)?;
            Ok((events, report_json(&report)?))
        }
        (RulesetId::AdevaD100, Operation::Damage) => {
            let (events, report) = adeva::damage(encounter, ruleset_request(body)?, dice)?;
            Ok((events, report_json(&report)?))
        }
        (RulesetId::AdevaD100, Operation::Actions) => {
            let (events, report) = adeva::act(encounter, ruleset_request(body)?, dice)?;
            Ok((events, report_json(&report)?))
        }
        (ruleset, operation) => Err(not_implemented(ruleset.as_str(), operation)),
    }
}

async fn run(
    state: &AppState,
    caller: &Caller,
    id: String,
    if_match: IfMatch,
    body: Value,
    operation: Operation,
) -> Result<HttpResponse, ApiError> {
    let input = split_operation_body(body)?;
    let mut dice = dice_for(input.seed, input.rolls)?;
    let seed = dice.seed();
    let command = move |encounter: &mut Encounter| {
        let (events, report) = perform(encounter, operation, input.body, &mut dice)?;
        Ok((events, (report, dice.into_rolls())))
    };
    let render = move |mutation: Mutation<(Value, Vec<DieRoll>)>| render(mutation, seed);
    mutate(state, caller, id, if_match, command, render).await
}

fn render(mutation: Mutation<(Value, Vec<DieRoll>)>, seed: u64) -> Result<StoredResponse, ApiError> {
    let (result, dice) = mutation.output;
    let version = mutation.encounter.encounter.version;
    let body = OperationResponse {
        version,
        seed,
        dice: dice.into_iter().map(DieResponse::from).collect(),
        result,
        events: events_response(mutation.events),
    };
    json_reply(StatusCode::OK, &body, Some(version))
}

/// Resolves an attack in the encounter by its ruleset (cepheus-engine: 2D6 + skill + DM against
/// 8+; adeva-d100: d100 roll-under with degrees of success, hits, evasion and soak), every
/// modifier listed, damage applied to the target. arrgs, spycraft2 and lur-asko: 501.
#[utoipa::path(operation_id = "encounter_attack",
    tag = "operations",
    params(("id" = String, Path, description = "Encounter id"), IfMatchHeader, IdempotencyHeader),
    request_body(content = Object, description = "The ruleset's attack, plus optional `seed` and `rolls` (physical dice); see docs/rulesets/<id>.md"),
    responses((status = 200, body = OperationResponse, headers(("ETag" = String))), MutationErrors, NotImplementedError, AuthErrors)
)]
#[post("/v1/encounters/{id}/attacks")]
pub async fn attacks(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    if_match: IfMatch,
    ApiJson(body): ApiJson<Value>,
) -> Result<HttpResponse, ApiError> {
    run(&state, &caller, id.into_inner(), if_match, body, Operation::Attacks).await
}

/// Applies damage in the encounter by its ruleset (cepheus-engine, adeva-d100); the others: 501.
#[utoipa::path(operation_id = "encounter_damage",
    tag = "operations",
    params(("id" = String, Path, description = "Encounter id"), IfMatchHeader, IdempotencyHeader),
    request_body(content = Object, description = "The ruleset's damage, plus optional `seed` and `rolls`"),
    responses((status = 200, body = OperationResponse, headers(("ETag" = String))), MutationErrors, NotImplementedError, AuthErrors)
)]
#[post("/v1/encounters/{id}/damage")]
pub async fn damage(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    if_match: IfMatch,
    ApiJson(body): ApiJson<Value>,
) -> Result<HttpResponse, ApiError> {
    run(&state, &caller, id.into_inner(), if_match, body, Operation::Damage).await
}

/// Other declared actions (reactions, hasten, aim, stance, Leadership, Tactics, grapples,
/// explosions, …) by the encounter's ruleset (cepheus-engine, adeva-d100); the others: 501.
#[utoipa::path(operation_id = "encounter_action",
    tag = "operations",
    params(("id" = String, Path, description = "Encounter id"), IfMatchHeader, IdempotencyHeader),
    request_body(content = Object, description = "The ruleset's action (`{\"action\": ...}`), plus optional `seed` and `rolls`"),
    responses((status = 200, body = OperationResponse, headers(("ETag" = String))), MutationErrors, NotImplementedError, AuthErrors)
)]
#[post("/v1/encounters/{id}/actions")]
pub async fn actions(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    if_match: IfMatch,
    ApiJson(body): ApiJson<Value>,
) -> Result<HttpResponse, ApiError> {
    run(&state, &caller, id.into_inner(), if_match, body, Operation::Actions).await
}
