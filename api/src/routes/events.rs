use super::responses::{AuthErrors, ReadErrors};
use crate::app::AppState;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::ApiQuery;
use crate::reply::json_response;
use crate::wire::{EventListResponse, EventsQuery, events_response};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, get, web};
use skirmish_domain::encounter::EncounterId;

const DEFAULT_PAGE: i64 = 100;
const MAX_PAGE: i64 = 1000;

/// The encounter's append-only log: every change and every die, oldest first.
#[utoipa::path(operation_id = "list_events", 
    tag = "encounters",
    params(("id" = String, Path, description = "Encounter id"), EventsQuery),
    responses((status = 200, body = EventListResponse), ReadErrors, AuthErrors)
)]
#[get("/v1/encounters/{id}/events")]
pub async fn list(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    ApiQuery(query): ApiQuery<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let after = query.after.unwrap_or(0);
    let limit = query.limit.unwrap_or(DEFAULT_PAGE);
    if !(0..=crate::wire::MAX_SEED as i64).contains(&after) {
        return Err(ApiError::bad_request("after", "must be 0 to 2^53 − 1"));
    }
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(ApiError::bad_request("limit", format!("must be 1 to {MAX_PAGE}")));
    }
    let store = state.store.clone();
    let events =
        web::block(move || store.events(&caller.tenant, &EncounterId(id.into_inner()), after, limit))
            .await??
            .ok_or_else(|| ApiError::NotFound("encounter not found".into()))?;
    let next_after = events.last().map_or(after, |event| event.seq);
    json_response(StatusCode::OK, &EventListResponse { events: events_response(events), next_after })
}
