use super::AppState;
use super::responses::{AuthErrors, ReadErrors};
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::live::{Pump, REPLAY_PAGE, event_stream};
use crate::viewers::ViewerAccess;
use crate::wire::{MAX_SEED, StreamMessage};
use actix_web::{HttpRequest, HttpResponse, get, rt, web};
use skirmish_domain::encounter::EncounterId;
use tokio::sync::mpsc;

/// Frames a stream holds for a slow client before its pump waits.
const FRAMES_BUFFERED: usize = 64;
const LAST_EVENT_ID: &str = "Last-Event-ID";
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
        return super::view::viewer_stream(&state, viewer.into_inner().0, &request, true).await;
    }
    let last = last_event_id(&request)?;
    let live = &state.live;
    let permit = live.limits.admit(&caller.key)?;
    let revoked = live.revoked.watch();
    let encounter = EncounterId(id.into_inner());
    // Subscribed before the log is read: nothing committed in between is missed.
    let subscription = live.hub.subscribe(encounter.as_str());
    let (store, tenant, read_id) = (state.store.clone(), caller.tenant.clone(), encounter.clone());
    let first = web::block(move || store.events(&tenant, &read_id, last, REPLAY_PAGE))
        .await??
        .ok_or_else(|| ApiError::NotFound("encounter not found".into()))?;
    let (frames, body) = mpsc::channel(FRAMES_BUFFERED);
    let pump = Pump {
        store: state.store.clone(),
        tenant: caller.tenant.to_string(),
        encounter,
        last,
        subscription,
        permit,
        heartbeat: live.heartbeat,
        frames,
        key: caller.key.clone(),
        revoked,
    };
    rt::spawn(pump.run(first));
    Ok(event_stream(body))
}

/// `Last-Event-ID`, which an `EventSource` sends by itself when it reconnects.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
#[allow(dead_code, reason = "only read by the OpenAPI derive")]
pub struct LastEventIdHeader {
    /// The last `seq` received: only later events are sent (the missed ones first, from the log).
    #[param(rename = "Last-Event-ID", nullable = false, minimum = 0, maximum = 9007199254740991_i64)]
    last_event_id: Option<i64>,
}

/// The `Last-Event-ID` header: the `seq` the client last received (0 when absent).
pub(super) fn last_event_id(request: &HttpRequest) -> Result<i64, ApiError> {
    let Some(value) = request.headers().get(LAST_EVENT_ID) else { return Ok(0) };
    let bad = || ApiError::bad_request(LAST_EVENT_ID, "must be an event's seq: 0 to 2^53 − 1");
    let seq: i64 = value.to_str().map_err(|_| bad())?.trim().parse().map_err(|_| bad())?;
    if !(0..=MAX_SEED as i64).contains(&seq) {
        return Err(bad());
    }
    Ok(seq)
}
