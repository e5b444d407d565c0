use super::responses::{AuthErrors, IdempotencyHeader, IfMatchHeader, MutationErrors};
use crate::app::{AppState, change};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::{IfMatch, OptionalJson};
use crate::reply::json_reply;
use crate::wire::{EncounterResponse, UndoRequest, UndoResponse, event_notices};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, post, web};
use skirmish_db::{HISTORY_DEPTH, Mutation, StoredResponse, UndoRefused, Undone};
use skirmish_domain::encounter::EncounterId;

/// Puts the encounter back to the state it had before its last change, or at `to_version` (at
/// most 50 versions back), as a new version: an old ETag stays stale, and the log keeps every
/// event and gains an `undone` one. Undoing a roll restores the state, not the dice: doing the
/// action again rolls again unless the same seed or rolls are sent.
#[utoipa::path(operation_id = "undo_encounter",
    tag = "encounters",
    params(("id" = String, Path, description = "Encounter id"), IfMatchHeader, IdempotencyHeader),
    request_body(content = Option<UndoRequest>, description = "Optional; default: the version before the current one"),
    responses((status = 200, body = UndoResponse, headers(("ETag" = String))), MutationErrors, AuthErrors)
)]
#[post("/v1/encounters/{id}/undo")]
pub async fn undo(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    if_match: IfMatch,
    OptionalJson(request): OptionalJson<UndoRequest>,
) -> Result<HttpResponse, ApiError> {
    let to_version = request.unwrap_or_default().to_version.map(|v| i64::from(v.get()));
    let id = EncounterId(id.into_inner());
    let write = move |store: &skirmish_db::Store, tenant, key| {
        store.undo_async(tenant, id, to_version, if_match.0, key, render)
    };
    change(&state, &caller, write).await
}

impl From<UndoRefused> for ApiError {
    fn from(why: UndoRefused) -> Self {
        match why {
            UndoRefused::NothingToUndo { .. } | UndoRefused::Archived => Self::Conflict(why.to_string()),
            UndoRefused::NotEarlier { .. } | UndoRefused::TooOld { .. } => {
                Self::invalid("to_version", why.to_string())
            }
        }
    }
}

fn render(mutation: Mutation<Undone>) -> Result<StoredResponse, ApiError> {
    let Undone { from_version, to_version } = mutation.output;
    let version = mutation.encounter.encounter.version;
    let body = UndoResponse {
        version,
        from_version,
        to_version,
        encounter: EncounterResponse::from(&*mutation.encounter),
        events: event_notices(mutation.events),
    };
    json_reply(StatusCode::OK, &body, Some(version))
}

/// The depth the API documents (`UndoRequest::to_version`) is the store's.
const _: () = assert!(HISTORY_DEPTH == 50);
