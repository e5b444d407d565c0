//! `/v1/templates`: saved encounter setups, and new encounters started from them.

use super::creatures::name_check;
use super::encounters::render_created;
use super::responses::{AuthErrors, IdempotencyHeader, MutationErrors};
use crate::app::{AppState, load, new_id};
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::extract::{ApiJson, ApiQuery, OptionalJson};
use crate::reply::{json_reply, json_response, send};
use crate::wire::{
    CreateTemplateRequest, EncounterResponse, StartFromTemplateRequest, TemplateListQuery,
    TemplateListResponse, TemplateResponse,
};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, delete, get, post, web};
use skirmish_db::{MAX_TEMPLATES_PER_TENANT, StoredResponse, Template, template_time};
use skirmish_domain::encounter::{CombatantId, EncounterId, encounter_from_setup, setup_combatants};
use utoipa::IntoResponses;

/// Errors of a route that reads, deletes or starts one template.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
enum TemplateErrors {
    #[response(
        status = 404,
        description = "No template with this id",
        content_type = "application/problem+json"
    )]
    NotFound(Problem),
}

/// Errors of keeping a template.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
enum TemplateWriteErrors {
    #[response(
        status = 400,
        description = "Malformed body; `field` names it",
        content_type = "application/problem+json"
    )]
    BadRequest(Problem),
    #[response(
        status = 409,
        description = "You already keep 100 templates",
        content_type = "application/problem+json"
    )]
    Conflict(Problem),
    #[response(status = 413, description = "Body over 64 KiB", content_type = "application/problem+json")]
    PayloadTooLarge(Problem),
    #[response(status = 415, description = "Body is not JSON", content_type = "application/problem+json")]
    UnsupportedMediaType(Problem),
    #[response(
        status = 422,
        description = "No such encounter of yours, or a bad name; `field` names it",
        content_type = "application/problem+json"
    )]
    Invalid(Problem),
}

/// Keeps the setup of one of your encounters as a template: its name, ruleset, options and
/// combatants (names, sides, stat blocks, surprised/hidden/public, the creature each came from),
/// as they are now, without what the fight made of them (initiative, turns, state, effects, the
/// log). At most 100 templates per tenant.
#[utoipa::path(operation_id = "create_template", tag = "templates",
    params(IdempotencyHeader),
    request_body = CreateTemplateRequest,
    responses((status = 201, body = TemplateResponse, headers(("Location" = String))), TemplateWriteErrors, AuthErrors)
)]
#[post("/v1/templates")]
pub async fn create(
    state: web::Data<AppState>,
    caller: Caller,
    ApiJson(request): ApiJson<CreateTemplateRequest>,
) -> Result<HttpResponse, ApiError> {
    if let Some(name) = &request.name {
        name_check("name", name)?;
    }
    let stored = load(&state, &caller, request.encounter_id).await.map_err(|error| match error {
        ApiError::NotFound(_) => ApiError::invalid("encounter_id", "no encounter with this id"),
        other => other,
    })?;
    let encounter = &stored.encounter;
    let template = Template {
        id: new_id("tpl"),
        name: request.name.unwrap_or_else(|| encounter.name.clone()),
        ruleset: encounter.ruleset,
        encounter_name: encounter.name.clone(),
        options: encounter.options.clone(),
        combatants: setup_combatants(encounter),
        created_at: template_time(),
    };
    let (store, key) = (state.store.clone(), caller.idempotency());
    let full = || ApiError::Conflict(format!("a tenant keeps at most {MAX_TEMPLATES_PER_TENANT} templates"));
    let reply = web::block(move || {
        store.create_template(&caller.tenant, &template, key.as_ref(), full, render_template)
    })
    .await??;
    Ok(send(reply))
}

fn render_template(template: &Template) -> Result<StoredResponse, ApiError> {
    let mut reply = json_reply(StatusCode::CREATED, &TemplateResponse::from(template.clone()), None)?;
    reply.headers.push(("Location".into(), format!("/v1/templates/{}", template.id)));
    Ok(reply)
}

/// All your templates (at most 100), in name order ignoring case, optionally of one ruleset.
#[utoipa::path(operation_id = "list_templates", tag = "templates", params(TemplateListQuery),
    responses((status = 200, body = TemplateListResponse),
        (status = 400, description = "Bad query parameter; `field` names it", body = Problem, content_type = "application/problem+json"),
        AuthErrors)
)]
#[get("/v1/templates")]
pub async fn list(
    state: web::Data<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<TemplateListQuery>,
) -> Result<HttpResponse, ApiError> {
    let store = state.store.clone();
    let templates = web::block(move || store.list_templates(&caller.tenant, query.ruleset)).await??;
    let items = templates.into_iter().map(TemplateResponse::from).collect();
    json_response(StatusCode::OK, &TemplateListResponse { items })
}

/// One of your templates.
#[utoipa::path(operation_id = "get_template", tag = "templates",
    params(("template_id" = String, Path, description = "Template id (`tpl_…`)")),
    responses((status = 200, body = TemplateResponse), TemplateErrors, AuthErrors)
)]
#[get("/v1/templates/{template_id}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let template = find(&state, &caller, id.into_inner()).await?;
    json_response(StatusCode::OK, &TemplateResponse::from(template))
}

/// Deletes one of your templates; encounters started from it stay.
#[utoipa::path(operation_id = "delete_template", tag = "templates",
    params(("template_id" = String, Path, description = "Template id (`tpl_…`)")),
    responses((status = 204, description = "Deleted"), TemplateErrors, AuthErrors)
)]
#[delete("/v1/templates/{template_id}")]
pub async fn delete(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let store = state.store.clone();
    if !web::block(move || store.delete_template(&caller.tenant, &id)).await?? {
        return Err(not_found());
    }
    Ok(HttpResponse::NoContent().finish())
}

/// Starts a new encounter (in setup) from a template in one request: the template's ruleset,
/// options and combatants (new ids; each `combatant_added` in the log after `encounter_created`),
/// named as the template says unless `name` is given. Answers as `POST /v1/encounters` does.
#[utoipa::path(operation_id = "start_from_template", tag = "templates",
    params(("template_id" = String, Path, description = "Template id (`tpl_…`)"), IdempotencyHeader),
    request_body(content = Option<StartFromTemplateRequest>, description = "Optional; default: the template's encounter name"),
    responses((status = 201, body = EncounterResponse, headers(("ETag" = String), ("Location" = String))), MutationErrors, AuthErrors)
)]
#[post("/v1/templates/{template_id}/encounters")]
pub async fn start(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    OptionalJson(request): OptionalJson<StartFromTemplateRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = request.unwrap_or_default();
    if let Some(name) = &request.name {
        name_check("name", name)?;
    }
    let template = find(&state, &caller, id.into_inner()).await?;
    let name = request.name.unwrap_or(template.encounter_name);
    let (encounter, events) = encounter_from_setup(
        EncounterId(new_id("enc")),
        template.ruleset,
        name,
        template.options,
        template.combatants,
        || CombatantId(new_id("cmb")),
    )?;
    let key = caller.idempotency();
    let created = state.store.create_async(caller.tenant.to_string(), encounter, events, key, render_created);
    Ok(send(created.await.result?))
}

async fn find(state: &AppState, caller: &Caller, id: String) -> Result<Template, ApiError> {
    let (store, tenant) = (state.store.clone(), caller.tenant.clone());
    web::block(move || store.template(&tenant, &id)).await??.ok_or_else(not_found)
}

fn not_found() -> ApiError {
    ApiError::NotFound("no template with this id".into())
}
