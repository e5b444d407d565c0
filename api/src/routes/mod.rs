//! HTTP routes, one module per resource. Handlers stay thin: extract, convert, run the domain
//! command inside the store's transaction (on the blocking pool), render, respond.

mod advance;
mod combatants;
mod dice;
mod effects;
mod encounters;
mod events;
mod fallback;
mod health;
mod initiative;
mod operations;
mod responses;
mod rulesets;
mod typed_route;

pub use fallback::{RouteTable, not_found_or_method_not_allowed};
pub use operations::{alias as operation_alias, alias_post, inline_alias as inline_operation_alias};

use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::IfMatch;
use crate::reply::send;
use actix_web::{HttpResponse, web};
use rand::RngExt;
use skirmish_db::{Mutation, Reply, Store, StoredEncounter, StoredResponse};
use skirmish_domain::encounter::{Encounter, EncounterId, Event};
use utoipa_actix_web::service_config::ServiceConfig;

/// Shared by every handler.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
}

/// Registers every documented route.
pub fn configure(config: &mut ServiceConfig) {
    config
        .service(health::healthz)
        .service(dice::roll)
        .service(rulesets::list)
        .service(encounters::list)
        .service(encounters::create)
        .service(encounters::get)
        .service(encounters::delete)
        .service(combatants::add)
        .service(combatants::update)
        .service(combatants::remove)
        .service(initiative::roll)
        .service(advance::advance)
        .service(effects::add)
        .service(effects::remove)
        .service(events::list)
        .configure(operations::configure);
}

/// A fresh id such as `cmb_3f9a0c…`: a prefix naming the kind and 64 random bits.
pub fn new_id(prefix: &str) -> String {
    format!("{prefix}_{:016x}", rand::rng().random::<u64>())
}

/// Runs `command` on the caller's encounter in one transaction, honouring `If-Match` and
/// `Idempotency-Key`, and sends what `render` makes of the result.
pub async fn mutate<T: Send + 'static>(
    state: &AppState,
    caller: &Caller,
    id: String,
    if_match: IfMatch,
    command: impl FnOnce(&mut Encounter) -> Result<(Vec<Event>, T), ApiError> + Send + 'static,
    render: impl FnOnce(Mutation<T>) -> Result<StoredResponse, ApiError> + Send + 'static,
) -> Result<HttpResponse, ApiError> {
    let store = state.store.clone();
    let (tenant, key) = (caller.tenant.clone(), caller.idempotency());
    let reply = web::block(move || {
        store.mutate(&tenant, &EncounterId(id), if_match.0, key.as_ref(), command, render)
    })
    .await??;
    Ok(send(reply))
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

/// Reads the caller's encounter, or 404.
pub async fn load(state: &AppState, caller: &Caller, id: String) -> Result<StoredEncounter, ApiError> {
    let store = state.store.clone();
    let tenant = caller.tenant.clone();
    web::block(move || store.get(&tenant, &EncounterId(id)))
        .await??
        .ok_or_else(|| ApiError::NotFound("encounter not found".into()))
}
