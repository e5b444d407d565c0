use super::responses::{AuthErrors, LastEventIdHeader, ReadErrors};
use crate::app::{AppState, last_event_id, open_stream, open_viewer_stream};
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::viewers::ViewerAccess;
use crate::wire::StreamMessage;
use actix_web::{HttpRequest, HttpResponse, get, web};

/// What a client reads: an event, then a heartbeat while nothing happens.
const STREAM_EXAMPLE: &str = "id: 9\nevent: turn_started\ndata: {\"seq\":9,\"at\":\"2026-11-21T10:00:00.000Z\",\
    \"kind\":\"turn_started\",\"summary\":\"Vasquez's turn\",\"data\":{\"kind\":\"turn_started\",\
    \"combatant_id\":\"cmb_1f2e\",\"name\":\"Vasquez\"}}\n\n: heartbeat\n\n";

/// The encounter's events, live as they are committed (server-sent events).
///
/// A `text/event-stream` that `curl -N` shows as it comes. Each event is `id:` its `seq`, `event:` its `kind`, `data:` the same
/// JSON as the events list returns for it. With `Last-Event-ID: N` the events after `N` are
/// replayed from the log first, then the live ones follow with no gap and no repeat. An idle
/// stream gets a `: heartbeat` comment every 15 s (`SKIRMISH_SSE_HEARTBEAT_MS`). At most 16
/// streams per API key (`SKIRMISH_SSE_MAX_STREAMS_PER_KEY`) and 1024 in all
/// (`SKIRMISH_SSE_MAX_STREAMS`) are open at once; one more gets 429. A stream that falls more
/// than 256 events (`SKIRMISH_SSE_BUFFER`) behind is closed: reconnect with `Last-Event-ID`.
/// Deleting the encounter ends its streams. With a viewer token (`vwr_…`) the stream is the
/// viewer's: events naming hidden combatants are left out, and `data` is left out of events
/// naming combatants that are not public (each `data:` is then a ViewerEventResponse).
#[utoipa::path(operation_id = "stream_events",
    tag = "encounters",
    params(
        ("id" = String, Path, description = "Encounter id"),
        LastEventIdHeader,
    ),
    responses(
        (status = 200, content_type = "text/event-stream", body = StreamMessage,
            description = "A stream of server-sent events; each `data:` is one event as JSON",
            example = json!(STREAM_EXAMPLE)),
        ReadErrors, AuthErrors,
        (status = 429, content_type = "application/problem+json", body = Problem,
            description = "Too many open streams for this API key or in all, or the key's rate limit \
                reached (see Retry-After)"),
    )
)]
#[get("/v1/encounters/{id}/stream")]
pub async fn stream(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    request: HttpRequest,
    viewer: Option<web::ReqData<ViewerAccess>>,
) -> Result<HttpResponse, ApiError> {
    if let Some(viewer) = viewer {
        return open_viewer_stream(&state, viewer.into_inner().0, &request, true).await;
    }
    let last = last_event_id(&request)?;
    open_stream(&state, &caller, id.into_inner(), last).await
}
