//! The table view: `GET /view/{token}` serves a small self-contained page, which reads the
//! redacted encounter from `/view/{token}/encounter` and follows `/view/{token}/stream` (an
//! `EventSource` cannot send an `Authorization` header, so the token is in the path). The same
//! redacted answers serve `GET /v1/encounters/{id}` and its stream for a `vwr_…` bearer token.

use super::AppState;
use super::stream::{LastEventIdHeader, last_event_id};
use crate::error::{ApiError, Problem};
use crate::live::event_stream;
use crate::viewers::redact::viewer_encounter;
use crate::viewers::{ViewerPump, page};
use crate::wire::{StreamMessage, ViewerEncounterResponse};
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, rt, web};
use skirmish_db::ViewerGrant;
use skirmish_domain::encounter::EncounterId;
use tokio::sync::mpsc;

/// What a viewer's page reads: an event naming a public combatant (with its data), one naming
/// a combatant that is not public (without), then a heartbeat.
const VIEW_STREAM_EXAMPLE: &str = "id: 9\ndata: {\"seq\":9,\"at\":\"2026-11-21T10:00:00.000Z\",\
    \"kind\":\"turn_started\",\"summary\":\"Vasquez's turn\",\"data\":{\"kind\":\"turn_started\",\
    \"combatant_id\":\"cmb_1f2e\",\"name\":\"Vasquez\"}}\n\nid: 11\ndata: {\"seq\":11,\
    \"at\":\"2026-11-21T10:00:05.000Z\",\"kind\":\"turn_started\",\"summary\":\"Goblin's turn\"}\n\n\
    : heartbeat\n\n";

/// Frames a viewer stream holds for a slow client before its pump waits.
const FRAMES_BUFFERED: usize = 64;

/// The grant behind a token in the path, or 404 (an unknown, revoked or expired link is not
/// told apart from a wrong address).
async fn grant_in_path(state: &AppState, token: &str) -> Result<ViewerGrant, ApiError> {
    let grant = match token.starts_with(crate::viewers::VIEWER_TOKEN_PREFIX) {
        true => state.viewers.grant_for(&state.store, token).await?,
        false => None,
    };
    grant.ok_or_else(|| ApiError::NotFound("no such viewer link (revoked or expired links end)".into()))
}

/// The table view page of a viewer link.
///
/// Shows the round, whose turn it is, the turn order with initiative, visible effects with what
/// is left of them and the last few events, updating live from the stream. Its style and script
/// come from this server (`/view-assets/…`, compiled in) under a strict Content-Security-Policy;
/// the page holds no token and no encounter data. An unknown, revoked or expired link answers a
/// plain 404 page.
#[utoipa::path(operation_id = "view_page",
    tag = "viewers",
    security(()),
    params(("token" = String, Path, description = "Viewer token (`vwr_…`)")),
    responses(
        (status = 200, content_type = "text/html", body = String, description = "The table view page",
            example = json!("<!doctype html>\n<html lang=\"en\">…<main>…<ol id=\"turn-order\">…</ol>…</main>…</html>")),
        (status = 404, content_type = "text/html", body = String, description = "Unknown, revoked or expired link"),
        (status = 400, content_type = "application/problem+json", body = Problem, description = "Malformed path"),
    )
)]
#[get("/view/{token}")]
pub async fn view_page(state: web::Data<AppState>, token: web::Path<String>) -> HttpResponse {
    match grant_in_path(&state, &token).await {
        Ok(_) => page::page(),
        Err(ApiError::NotFound(_)) => page::not_found(),
        Err(other) => page::failed(&other),
    }
}

/// The encounter as the viewer link sees it: no hidden combatant, stat blocks and state only
/// for public ones.
#[utoipa::path(operation_id = "view_encounter",
    tag = "viewers",
    security(()),
    params(("token" = String, Path, description = "Viewer token (`vwr_…`)")),
    responses(
        (status = 200, body = ViewerEncounterResponse, headers(("ETag" = String))),
        (status = 404, content_type = "application/problem+json", body = Problem,
            description = "Unknown, revoked or expired link, or the encounter was deleted"),
        (status = 400, content_type = "application/problem+json", body = Problem, description = "Malformed path"),
    )
)]
#[get("/view/{token}/encounter")]
pub async fn view_encounter(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let grant = grant_in_path(&state, &token).await?;
    viewer_encounter_reply(&state, grant).await
}

/// The encounter's events as the viewer link sees them (server-sent events): events naming a
/// hidden combatant are left out, and `data` is left out of events naming a combatant that is
/// not public. Each event is a plain SSE `message` (no `event:` line; the kind is in the JSON), so
/// an `EventSource`'s `onmessage` gets them all. Resumable with `Last-Event-ID`; counts against
/// the stream caps like any stream (the link counts as the key).
#[utoipa::path(operation_id = "view_stream",
    tag = "viewers",
    security(()),
    params(("token" = String, Path, description = "Viewer token (`vwr_…`)"), LastEventIdHeader),
    responses(
        (status = 200, content_type = "text/event-stream", body = StreamMessage,
            description = "A stream of server-sent events; each `data:` is a ViewerEventResponse as JSON",
            example = json!(VIEW_STREAM_EXAMPLE)),
        (status = 404, content_type = "application/problem+json", body = Problem,
            description = "Unknown, revoked or expired link, or the encounter was deleted"),
        (status = 429, content_type = "application/problem+json", body = Problem,
            description = "Too many open streams for this link or in all"),
        (status = 400, content_type = "application/problem+json", body = Problem,
            description = "Malformed path or `Last-Event-ID`"),
    )
)]
#[get("/view/{token}/stream")]
pub async fn view_stream(
    state: web::Data<AppState>,
    token: web::Path<String>,
    request: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let grant = grant_in_path(&state, &token).await?;
    viewer_stream(&state, grant, &request, false).await
}

/// The redacted encounter, with its version as ETag. Never cached by a shared cache.
pub async fn viewer_encounter_reply(state: &AppState, grant: ViewerGrant) -> Result<HttpResponse, ApiError> {
    let (store, id) = (state.store.clone(), EncounterId(grant.encounter_id));
    let stored = web::block(move || store.get(&grant.tenant, &id))
        .await??
        .ok_or_else(|| ApiError::NotFound("encounter not found".into()))?;
    let body = viewer_encounter(stored);
    Ok(HttpResponse::Ok()
        .insert_header(crate::extract::etag(body.version))
        .insert_header((header::CACHE_CONTROL, "private, no-cache"))
        .json(body))
}

/// Opens a viewer's stream: the log after `Last-Event-ID` first, then live events, redacted.
/// `named`: each frame has an `event:` line (as on `/v1`), or none (as the page's `EventSource`
/// wants).
pub async fn viewer_stream(
    state: &AppState,
    grant: ViewerGrant,
    request: &HttpRequest,
    named: bool,
) -> Result<HttpResponse, ApiError> {
    let last = last_event_id(request)?;
    let live = &state.live;
    let permit = live.limits.admit(&grant.viewer_id)?;
    // Subscribed before the log is read: nothing committed in between is missed.
    let feed = state.viewers.feeds.subscribe(&live.hub, &state.store, &grant.tenant, &grant.encounter_id);
    let revocations = state.viewers.revocations();
    let encounter = EncounterId(grant.encounter_id.clone());
    let first = crate::viewers::read_page(state.store.clone(), grant.tenant.clone(), encounter, last)
        .await
        .map_err(|error| ApiError::Internal(error.into()))?
        .ok_or_else(|| ApiError::NotFound("encounter not found".into()))?;
    let (frames, body) = mpsc::channel(FRAMES_BUFFERED);
    let pump = ViewerPump {
        store: state.store.clone(),
        grant,
        grants: state.viewers.clone(),
        revocations,
        last,
        feed,
        permit,
        heartbeat: live.heartbeat,
        frames,
        named,
    };
    rt::spawn(pump.run(first));
    Ok(event_stream(body))
}
