//! Reading the caller's encounter, and its answer to `GET /v1/encounters/{id}` (kept by version:
//! see `rendered.rs`).

use super::state::AppState;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::rendered::Answer;
use crate::reply::to_json;
use crate::wire::EncounterResponse;
use actix_web::web;
use skirmish_db::{Fresh, StoredEncounter};
use skirmish_domain::encounter::EncounterId;
use skirmish_domain::rulesets::RulesetId;

/// Reads the caller's encounter, or 404.
/// On a free reader it reads right here (a WAL read never waits for the writer); only when every
/// reader is busy does it hop to the blocking pool to wait for one.
pub async fn load(state: &AppState, caller: &Caller, id: String) -> Result<StoredEncounter, ApiError> {
    let id = EncounterId(id);
    let found = match state.store.try_get(&caller.tenant, &id) {
        Some(found) => found?,
        None => {
            let store = state.store.clone();
            let tenant = caller.tenant.clone();
            web::block(move || store.get(&tenant, &id)).await??
        }
    };
    found.ok_or_else(|| ApiError::NotFound("encounter not found".into()))
}

/// The ruleset of the caller's encounter `id` (an encounter's ruleset never changes), or 404:
/// read before a change is queued for the writer, so that a stat block the ruleset cannot read
/// is refused without waiting for it.
pub async fn ruleset_of(state: &AppState, caller: &Caller, id: &str) -> Result<RulesetId, ApiError> {
    Ok(load(state, caller, id.to_owned()).await?.encounter.ruleset)
}

/// The answer to `GET` of the caller's encounter `id`: the kept one while it is current, else
/// the encounter read (only if it changed since the kept answer) and rendered again.
pub async fn encounter_answer(state: &AppState, caller: &Caller, id: String) -> Result<Answer, ApiError> {
    let id = EncounterId(id);
    if let Some(answer) = current_kept(state, &caller.tenant, id.as_str()) {
        return Ok(answer);
    }
    let known = state.rendered.version_of(id.as_str());
    let fresh = match state.store.try_get_if_changed(&caller.tenant, &id, known) {
        Some(fresh) => fresh?,
        None => {
            let (store, tenant, id) = (state.store.clone(), caller.tenant.clone(), id.clone());
            web::block(move || store.get_if_changed(&tenant, &id, known)).await??
        }
    };
    match fresh.ok_or_else(|| ApiError::NotFound("encounter not found".into()))? {
        Fresh::Changed(stored) => render_and_keep(state, &caller.tenant, &stored),
        Fresh::Unchanged(version) => match state.rendered.body(id.as_str(), version) {
            Some(answer) => Ok(answer),
            // Another request replaced the kept body meanwhile: read it in full.
            None => render_and_keep(state, &caller.tenant, &load(state, caller, id.0).await?),
        },
    }
}

/// The kept answer for the tenant's encounter `id`, with no SQL, when the store's record of its
/// own commits says the encounter is still at the kept version (see `rendered.rs`).
fn current_kept(state: &AppState, tenant: &str, id: &str) -> Option<Answer> {
    let version = state.store.settled_version(id)?;
    state.rendered.body_of_tenant(id, tenant, version)
}

/// Renders the tenant's encounter as `GET` answers it and keeps the answer for its version.
fn render_and_keep(state: &AppState, tenant: &str, stored: &StoredEncounter) -> Result<Answer, ApiError> {
    let (id, version) = (stored.encounter.id.0.clone(), stored.encounter.version);
    let answer = Answer::new(version, to_json(&EncounterResponse::from(stored))?)
        .map_err(|error| ApiError::Internal(Box::new(error)))?;
    let settled = state.store.settled_version(&id);
    state.rendered.keep(id, tenant, answer.clone(), settled);
    Ok(answer)
}
