//! Changing an encounter (or answering a POST that stores nothing) through the store's writer,
//! honouring `If-Match` and `Idempotency-Key`.

use super::state::AppState;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::IfMatch;
use crate::reply::{json_reply, send};
use crate::wire::{MutationResponse, event_notices};
use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{HttpResponse, web};
use rand::RngExt;
use skirmish_db::{
    IdempotencyKey, MutateError, Mutation, Reply, Store, StoredResponse, WriteTiming, Written,
};
use skirmish_domain::encounter::{Encounter, EncounterId, EncounterStatus, Event};
use std::future::Future;

/// A fresh id such as `cmb_3f9a0c…`: a prefix naming the kind and 64 random bits.
pub fn new_id(prefix: &str) -> String {
    format!("{prefix}_{:016x}", rand::rng().random::<u64>())
}

/// Runs `command` on the caller's encounter in one transaction, honouring `If-Match` and
/// `Idempotency-Key`, and sends what `render` makes of the result. Every change of an encounter
/// but undo comes here, so this is where an ended encounter is read-only: `command` does not run
/// and the answer is 409 (undo may still take back the end: see `routes/undo.rs`).
pub async fn mutate<T: Send + 'static>(
    state: &AppState,
    caller: &Caller,
    id: String,
    if_match: IfMatch,
    command: impl FnOnce(&mut Encounter) -> Result<(Vec<Event>, T), ApiError> + Send + 'static,
    render: impl FnOnce(Mutation<T>) -> Result<StoredResponse, ApiError> + Send + 'static,
) -> Result<HttpResponse, ApiError> {
    let command = move |encounter: &mut Encounter| {
        if encounter.status == EncounterStatus::Ended {
            return Err(ApiError::Conflict(ENDED.into()));
        }
        command(encounter)
    };
    let write = move |store: &Store, tenant, key| {
        store.mutate_async(tenant, EncounterId(id), if_match.0, key, command, render)
    };
    change(state, caller, write).await
}

/// Why a change of an ended encounter is refused.
pub const ENDED: &str = "the encounter has ended: it is read-only (undo can take back its end)";

/// Awaits `write` (a store change for the caller's tenant, under the request's idempotency key,
/// run by the store's writer thread: no thread waits for it here) and sends its reply with its
/// `Server-Timing`.
pub async fn change<F>(
    state: &AppState,
    caller: &Caller,
    write: impl FnOnce(&Store, String, Option<IdempotencyKey>) -> F,
) -> Result<HttpResponse, ApiError>
where
    F: Future<Output = Written<Result<Reply, MutateError<ApiError>>>>,
{
    let written = write(&state.store, caller.tenant.to_string(), caller.idempotency()).await;
    let mut response = send(written.result?);
    if let Some(timing) = written.timing {
        response.headers_mut().insert(SERVER_TIMING, server_timing(timing));
    }
    Ok(response)
}

const SERVER_TIMING: HeaderName = HeaderName::from_static("server-timing");

/// `Server-Timing` (W3C) of a stored change, in milliseconds: `queue` waiting for the writer,
/// `work` the change in its transaction (load, rules, writes; rendering too when an idempotency
/// key keeps the response), `commit` until the transaction holding it was durably on disk.
fn server_timing(timing: WriteTiming) -> HeaderValue {
    let ms = |duration: std::time::Duration| duration.as_secs_f64() * 1000.0;
    let text = format!(
        "queue;dur={:.3}, work;dur={:.3}, commit;dur={:.3}",
        ms(timing.queued),
        ms(timing.work),
        ms(timing.durable)
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("work"))
}

/// The answer of a change that returns only the new version and its events.
pub fn render_plain(mutation: Mutation<()>) -> Result<StoredResponse, ApiError> {
    let version = mutation.encounter.encounter.version;
    let body = MutationResponse { version, events: event_notices(mutation.events) };
    json_reply(StatusCode::OK, &body, Some(version))
}

/// Runs `compute` (a POST that stores nothing) honouring `Idempotency-Key`, and sends its reply.
/// Without a key nothing blocks, so it runs right here rather than on the blocking pool; with
/// one, the store's writer keeps the reply for retries.
pub async fn idempotent(
    state: &AppState,
    caller: &Caller,
    compute: impl FnOnce() -> Result<StoredResponse, ApiError> + Send + 'static,
) -> Result<HttpResponse, ApiError> {
    let Some(key) = caller.idempotency() else {
        return Ok(send(Reply { response: compute()?, replayed: false }));
    };
    let store = state.store.clone();
    let tenant = caller.tenant.clone();
    let reply = web::block(move || store.idempotent(&tenant, Some(&key), compute)).await??;
    Ok(send(reply))
}
