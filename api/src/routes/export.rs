//! `GET /v1/encounters/{id}/export`: an encounter with its whole log, to keep or carry.

use super::responses::{AuthErrors, ReadErrors};
use crate::app::AppState;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::reply::json_with;
use crate::wire::{
    EXPORT_FORMAT, EXPORT_FORMAT_VERSION, EncounterExport, EncounterResponse, MAX_EXPORT_EVENTS,
    events_response,
};
use actix_web::http::header;
use actix_web::{HttpResponse, get, web};
use skirmish_db::{WithLog, utc_text};
use skirmish_domain::encounter::EncounterId;

/// One JSON document holding the encounter (as `GET` answers it) and its whole event log (as
/// `GET …/events` lists it), read in one snapshot, with its format and format version. At most
/// 100 000 events; a longer log is a 409 (page it with `GET …/events`).
#[utoipa::path(operation_id = "export_encounter", tag = "encounters",
    params(("id" = String, Path, description = "Encounter id")),
    responses(
        (status = 200, body = EncounterExport, headers(("Content-Disposition" = String))),
        (status = 409, content_type = "application/problem+json", body = Problem,
            description = "The log holds more than 100 000 events"),
        ReadErrors, AuthErrors,
    )
)]
#[get("/v1/encounters/{id}/export")]
pub async fn export(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let (store, id) = (state.store.clone(), EncounterId(id.into_inner()));
    let read_id = id.clone();
    let found = web::block(move || store.encounter_with_log(&caller.tenant, &read_id, MAX_EXPORT_EVENTS))
        .await??
        .ok_or_else(|| ApiError::NotFound("encounter not found".into()))?;
    let (encounter, events) = match found {
        WithLog::Read(encounter, events) => (encounter, events),
        WithLog::TooLong(held) => {
            let detail = format!(
                "the log holds {held} events, more than {MAX_EXPORT_EVENTS} export in one document: page it with GET …/events"
            );
            return Err(ApiError::Conflict(detail));
        }
    };
    let document = EncounterExport {
        format: EXPORT_FORMAT.into(),
        format_version: EXPORT_FORMAT_VERSION,
        exported_at: utc_text(skirmish_db::now_ms()),
        encounter: EncounterResponse::from(&*encounter),
        events: events_response(events),
    };
    let attachment = format!("attachment; filename=\"{id}.json\"");
    json_with(HttpResponse::Ok().insert_header((header::CONTENT_DISPOSITION, attachment)), &document)
}
