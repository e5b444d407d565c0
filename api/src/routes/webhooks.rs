//! `/v1/webhooks`: a tenant's subscriptions to its encounters' events, and their deliveries.

use super::responses::{AuthErrors, ReadErrors};
use crate::app::{AppState, new_id};
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::extract::{ApiJson, ApiQuery};
use crate::reply::{json_response, json_with};
use crate::webhooks::destination::check_url;
use crate::webhooks::signing::new_secret;
use crate::wire::{
    CreateWebhookRequest, CreatedWebhookResponse, DeliveriesQuery, DeliveryListResponse, DeliveryResponse,
    MAX_KIND_LEN, MAX_KINDS, WebhookListResponse, WebhookResponse,
};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, delete, get, post, web};
use skirmish_db::{MAX_DELIVERIES_PAGE, MAX_WEBHOOKS_PER_TENANT, NewWebhook};
use utoipa::IntoResponses;

const DEFAULT_PAGE: i64 = 20;

/// Errors of creating a subscription.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
enum CreateErrors {
    #[response(
        status = 400,
        description = "Malformed body; `field` names it",
        content_type = "application/problem+json"
    )]
    BadRequest(Problem),
    #[response(
        status = 409,
        description = "The tenant already holds 25 subscriptions",
        content_type = "application/problem+json"
    )]
    Conflict(Problem),
    #[response(
        status = 422,
        description = "A refused URL (scheme, length, or a loopback/private destination), or too many or too long kinds; `field` names it",
        content_type = "application/problem+json"
    )]
    Invalid(Problem),
}

/// Subscribes a URL to the tenant's events (optionally of some kinds, of one encounter). Each
/// event then gets one delivery, written in the same transaction as the event, posted with
/// Standard Webhooks signature headers and retried with backoff for about 23 h. The answer
/// holds the signing secret: it is shown this once.
#[utoipa::path(operation_id = "create_webhook", tag = "webhooks",
    request_body = CreateWebhookRequest,
    responses((status = 201, body = CreatedWebhookResponse, headers(("Location" = String))), CreateErrors, AuthErrors)
)]
#[post("/v1/webhooks")]
pub async fn create(
    state: web::Data<AppState>,
    caller: Caller,
    ApiJson(request): ApiJson<CreateWebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    check_kinds(&request.kinds)?;
    if request.encounter_id.as_ref().is_some_and(|id| id.is_empty() || id.len() > MAX_KIND_LEN) {
        return Err(ApiError::invalid("encounter_id", format!("must be 1 to {MAX_KIND_LEN} characters")));
    }
    let url = check_url(&request.url, state.webhooks.allow_private)
        .await
        .map_err(|refused| ApiError::invalid("url", refused.to_string()))?;
    let new = NewWebhook {
        id: new_id("wh"),
        tenant: caller.tenant.to_string(),
        url: url.to_string(),
        kinds: request.kinds,
        encounter_id: request.encounter_id,
        format: request.format.as_str().to_owned(),
        secret: new_secret(),
    };
    let store = state.store.clone();
    let (made, secret) =
        web::block(move || store.create_webhook(&new).map(|made| (made, new.secret))).await??;
    let made = made.ok_or_else(|| {
        ApiError::Conflict(format!(
            "a tenant holds at most {MAX_WEBHOOKS_PER_TENANT} subscriptions; delete one first"
        ))
    })?;
    let location = format!("/v1/webhooks/{}", made.id);
    let body = CreatedWebhookResponse { webhook: WebhookResponse::from(made), secret };
    json_with(HttpResponse::Created().insert_header(("Location", location)), &body)
}

fn check_kinds(kinds: &[String]) -> Result<(), ApiError> {
    if kinds.len() > MAX_KINDS {
        return Err(ApiError::invalid("kinds", format!("at most {MAX_KINDS} kinds, got {}", kinds.len())));
    }
    for (n, kind) in kinds.iter().enumerate() {
        let plain = kind.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if kind.is_empty() || kind.len() > MAX_KIND_LEN || !plain {
            let detail =
                format!("an event kind is 1 to {MAX_KIND_LEN} of a-z, 0-9 and _ (e.g. turn_started)");
            return Err(ApiError::invalid(format!("kinds[{n}]"), detail));
        }
    }
    Ok(())
}

/// The tenant's subscriptions, oldest first (at most 25; secrets are never listed).
#[utoipa::path(operation_id = "list_webhooks", tag = "webhooks",
    responses((status = 200, body = WebhookListResponse), AuthErrors))]
#[get("/v1/webhooks")]
pub async fn list(state: web::Data<AppState>, caller: Caller) -> Result<HttpResponse, ApiError> {
    let store = state.store.clone();
    let hooks = web::block(move || store.webhooks(&caller.tenant)).await??;
    let webhooks = hooks.into_iter().map(WebhookResponse::from).collect();
    json_response(StatusCode::OK, &WebhookListResponse { webhooks })
}

/// One of the tenant's subscriptions.
#[utoipa::path(operation_id = "get_webhook", tag = "webhooks",
    params(("id" = String, Path, description = "Subscription id")),
    responses((status = 200, body = WebhookResponse), ReadErrors, AuthErrors))]
#[get("/v1/webhooks/{id}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let store = state.store.clone();
    let hook = web::block(move || store.webhook(&caller.tenant, &id)).await??.ok_or_else(not_found)?;
    json_response(StatusCode::OK, &WebhookResponse::from(hook))
}

/// Deletes a subscription with its deliveries: pending ones are never sent.
#[utoipa::path(operation_id = "delete_webhook", tag = "webhooks",
    params(("id" = String, Path, description = "Subscription id")),
    responses((status = 204, description = "Deleted"), ReadErrors, AuthErrors))]
#[delete("/v1/webhooks/{id}")]
pub async fn delete(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let store = state.store.clone();
    let deleted = web::block(move || store.delete_webhook(&caller.tenant, &id)).await??;
    if deleted { Ok(HttpResponse::NoContent().finish()) } else { Err(not_found()) }
}

/// A subscription's deliveries, oldest first, each with its attempts (time, status code or
/// error) and, while pending, when the next is due.
#[utoipa::path(operation_id = "list_webhook_deliveries", tag = "webhooks",
    params(("id" = String, Path, description = "Subscription id"), DeliveriesQuery),
    responses((status = 200, body = DeliveryListResponse), ReadErrors, AuthErrors))]
#[get("/v1/webhooks/{id}/deliveries")]
pub async fn deliveries(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    ApiQuery(query): ApiQuery<DeliveriesQuery>,
) -> Result<HttpResponse, ApiError> {
    let after = query.after.unwrap_or(0);
    let limit = query.limit.unwrap_or(DEFAULT_PAGE);
    if !(0..=crate::wire::MAX_SEED as i64).contains(&after) {
        return Err(ApiError::bad_request("after", "must be 0 to 2^53 − 1"));
    }
    if !(1..=MAX_DELIVERIES_PAGE).contains(&limit) {
        return Err(ApiError::bad_request("limit", format!("must be 1 to {MAX_DELIVERIES_PAGE}")));
    }
    let store = state.store.clone();
    let found = web::block(move || store.deliveries(&caller.tenant, &id, after, limit))
        .await??
        .ok_or_else(not_found)?;
    let next_after = found.last().map_or(after, |delivery| delivery.n);
    let deliveries = found.into_iter().map(DeliveryResponse::from).collect();
    json_response(StatusCode::OK, &DeliveryListResponse { deliveries, next_after })
}

fn not_found() -> ApiError {
    ApiError::NotFound("webhook not found".into())
}
