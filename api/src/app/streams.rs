//! Opening an event stream (server-sent events): the log after `Last-Event-ID` first, then the
//! live events, for a key's caller or (redacted) for a viewer link.

use super::state::AppState;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::live::{FrameBody, Pump, REPLAY_PAGE, event_stream};
use crate::viewers::{ViewerStream, ViewerStreamStart, read_page};
use crate::wire::MAX_SEED;
use actix_web::{HttpRequest, HttpResponse, rt, web};
use skirmish_db::ViewerGrant;
use skirmish_domain::encounter::EncounterId;
use tokio::sync::mpsc;

/// Frames a stream holds for a slow client before its pump waits.
const FRAMES_BUFFERED: usize = 64;
const LAST_EVENT_ID: &str = "Last-Event-ID";

/// The `Last-Event-ID` header: the `seq` the client last received (0 when absent).
pub fn last_event_id(request: &HttpRequest) -> Result<i64, ApiError> {
    let Some(value) = request.headers().get(LAST_EVENT_ID) else { return Ok(0) };
    let bad = || ApiError::bad_request(LAST_EVENT_ID, "must be an event's seq: 0 to 2^53 − 1");
    let seq: i64 = value.to_str().map_err(|_| bad())?.trim().parse().map_err(|_| bad())?;
    if !(0..=MAX_SEED as i64).contains(&seq) {
        return Err(bad());
    }
    Ok(seq)
}

/// The caller's stream of encounter `id`, after event `last`.
pub async fn open_stream(
    state: &AppState,
    caller: &Caller,
    id: String,
    last: i64,
) -> Result<HttpResponse, ApiError> {
    let live = &state.live;
    let permit = live.limits.admit(&caller.key)?;
    let revoked = live.revoked.watch();
    let encounter = EncounterId(id);
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
    Ok(event_stream(FrameBody(body)))
}

/// A viewer's stream: the log after `Last-Event-ID` first, then live events, redacted.
/// `named`: each frame has an `event:` line (as on `/v1`), or none (as the page's `EventSource`
/// wants).
pub async fn open_viewer_stream(
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
    let first = read_page(state.store.clone(), grant.tenant.clone(), encounter, last)
        .await
        .map_err(|error| ApiError::Internal(error.into()))?
        .ok_or_else(|| ApiError::NotFound("encounter not found".into()))?;
    let start = ViewerStreamStart {
        store: state.store.clone(),
        grant,
        grants: state.viewers.clone(),
        revocations,
        last,
        feed,
        permit,
        heartbeat: live.heartbeat,
        named,
    };
    // The response body is the stream itself: no task, no hand-off (see `viewers/stream.rs`).
    Ok(event_stream(ViewerStream::new(start, first)))
}
