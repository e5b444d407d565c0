//! HTTP routes, one module per resource. Handlers stay thin: extract, convert, run the domain
//! command inside the store's transaction (on the store's writer thread, awaited), render, respond.

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
mod stream;
mod typed_route;
mod undo;
mod view;
mod viewers;
mod webhooks;

pub use fallback::{RouteTable, not_found_or_method_not_allowed};
use operations::{alias as operation_alias, alias_post, inline_alias as inline_operation_alias};

use crate::auth::Caller;
use crate::config::StreamSettings;
use crate::error::ApiError;
use crate::extract::IfMatch;
use crate::live::LiveStreams;
use crate::rendered::RenderedEncounters;
use crate::reply::send;
use crate::viewers::{ViewerGrants, page};
use crate::webhooks::Webhooks;
use actix_web::dev::HttpServiceFactory;
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{HttpResponse, web};
use rand::RngExt;
use skirmish_db::{
    IdempotencyKey, MutateError, Mutation, Reply, Store, StoredEncounter, StoredResponse, WriteTiming,
    Written,
};
use skirmish_domain::encounter::{Encounter, EncounterId, Event};
use std::future::Future;
use std::sync::Arc;
use typed_route::TypedRoute;
use utoipa::openapi::path::HttpMethod;
use utoipa_actix_web::OpenApiFactory;
use utoipa_actix_web::service_config::ServiceConfig;

/// Shared by every handler.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    /// Bodies of `GET /v1/encounters/{id}`, by version.
    pub rendered: Arc<RenderedEncounters>,
    /// Open event streams and the hub that feeds them.
    pub live: Arc<LiveStreams>,
    /// The active viewer links, in memory.
    pub viewers: Arc<ViewerGrants>,
    /// The webhook deliverer and its destination rule.
    pub webhooks: Arc<Webhooks>,
}

impl AppState {
    pub fn new(store: Store, streams: &StreamSettings, webhooks: Webhooks) -> Self {
        let live = Arc::new(LiveStreams::new(&store, streams));
        Self { store, rendered: Arc::default(), live, viewers: Arc::default(), webhooks: Arc::new(webhooks) }
    }
}

/// Somewhere the routes go: the served app, the OpenAPI document, or the table of paths.
pub trait Register {
    fn add<F: HttpServiceFactory + OpenApiFactory + RoutePattern + 'static>(&mut self, factory: F);
}

impl Register for ServiceConfig<'_> {
    fn add<F: HttpServiceFactory + OpenApiFactory + RoutePattern + 'static>(&mut self, factory: F) {
        self.service(factory);
    }
}

impl Register for web::ServiceConfig {
    fn add<F: HttpServiceFactory + OpenApiFactory + RoutePattern + 'static>(&mut self, factory: F) {
        self.service(factory);
    }
}

/// A route's path pattern and methods, known without building its OpenAPI operation.
pub trait RoutePattern {
    fn pattern(&self) -> (String, Vec<HttpMethod>);
}

impl<T: utoipa::Path> RoutePattern for T {
    fn pattern(&self) -> (String, Vec<HttpMethod>) {
        (T::path(), T::methods())
    }
}

impl RoutePattern for TypedRoute {
    fn pattern(&self) -> (String, Vec<HttpMethod>) {
        let (path, method) = TypedRoute::pattern(self);
        (path.to_owned(), vec![method])
    }
}

/// Collects only the paths and their methods, for the 404/405 answers and the metrics' route
/// labels. No OpenAPI operation is built: building them all at start left ~2 MB of freed but
/// resident heap behind (idle RSS 22.2 → 19.9 MB on a profiling build).
#[derive(Default)]
struct PatternsOnly(Vec<(String, Vec<HttpMethod>)>);

impl Register for PatternsOnly {
    fn add<F: HttpServiceFactory + OpenApiFactory + RoutePattern + 'static>(&mut self, factory: F) {
        self.0.push(factory.pattern());
    }
}

/// Every documented route, wherever it goes. actix tries routes in this order (within each part
/// of the served app: see [`serve`]), matching a fixed
/// path by comparing it but a path with a `{parameter}` by running its regex, so the fixed paths
/// come first (but for the encounter read), then the parameterised ones in order of use.
fn register(routes: &mut impl Register) {
    // Each route tried costs a request about 200 instructions (more for a regex), so the hottest
    // come first: the health check, the dice roll, then the most read route, whose regex fails
    // fast (a literal prefix) on the less used fixed paths after it, and on the stateless
    // operations' fixed paths, which a GET would otherwise compare one by one.
    routes.add(health::healthz);
    routes.add(dice::roll);
    routes.add(encounters::get);
    routes.add(crate::metrics::scrape);
    routes.add(rulesets::list);
    routes.add(encounters::list);
    routes.add(encounters::create);
    routes.add(webhooks::list);
    routes.add(webhooks::create);
    operations::register_inline(routes);
    routes.add(advance::advance);
    routes.add(undo::undo);
    routes.add(encounters::delete);
    routes.add(combatants::add);
    routes.add(combatants::update);
    routes.add(combatants::remove);
    routes.add(initiative::roll);
    routes.add(effects::add);
    routes.add(effects::remove);
    routes.add(events::list);
    routes.add(stream::stream);
    routes.add(viewers::create);
    routes.add(viewers::list);
    routes.add(viewers::revoke);
    routes.add(webhooks::get);
    routes.add(webhooks::delete);
    routes.add(webhooks::deliveries);
    operations::register_stored(routes);
    routes.add(view::view_page);
    routes.add(view::view_encounter);
    routes.add(view::view_stream);
}

/// Registers every documented route in the OpenAPI builder (see `openapi.rs`).
pub fn configure(config: &mut ServiceConfig) {
    register(config);
}

/// Registers every documented route in the served app, and the untyped operation aliases. No
/// schema is built here: the OpenAPI document is built once, on its first request.
///
/// actix tries an app's routes one by one (~200 instructions each, a regex for a `{parameter}`),
/// so the routes under `/v1/rulesets/` and under `/v1/encounters/` each sit in a scope of their
/// own, entered on one prefix comparison: a request tries the health check and the dice roll, the
/// stateless operations' scope, the encounter read (the most used route: in front of its scope,
/// whose own layer would cost it ~600 instructions), the encounters' scope, then the rest. A
/// scope that matches no route of its own answers with the app's default service, as the app
/// would: every path under its prefix is in it. The viewer page's assets come last (no
/// documented route matches them).
pub fn serve(config: &mut web::ServiceConfig) {
    register(&mut Part::Front.of(config));
    config.service(scope(RULESET_PATHS, |config| {
        register(&mut Part::Rulesets.of(config));
        config.route("/v1/rulesets/{ruleset}/{operation}", alias_post().to(inline_operation_alias));
    }));
    register(&mut Part::EncounterRead.of(config));
    config.service(scope(ENCOUNTER_PATHS, |config| {
        register(&mut Part::Encounters.of(config));
        config.route("/v1/encounters/{id}/{operation}", alias_post().to(operation_alias));
    }));
    register(&mut Part::Rest.of(config));
    config.route(page::STYLE_PATH, web::get().to(page::style));
    config.route(page::SCRIPT_PATH, web::get().to(page::script));
}

/// Every path of a stored encounter (but its list and creation, `/v1/encounters`).
const ENCOUNTER_PATHS: &str = "/v1/encounters/";
/// The encounter read's path (its other methods are in the encounters' scope).
const ENCOUNTER_READ: &str = "/v1/encounters/{id}";
/// Every stateless operation (but the list of rulesets, `/v1/rulesets`).
const RULESET_PATHS: &str = "/v1/rulesets/";
/// The hottest fixed paths, tried before the scopes.
const FRONT_PATHS: [&str; 2] = ["/healthz", "/v1/dice/roll"];

/// A scope holding the routes whose paths start with `prefix`, written in full. Its own pattern
/// is empty (it strips nothing), so the patterns matched and the metrics' route labels stay the
/// full paths; a guard admits only paths under `prefix`.
fn scope(prefix: &'static str, configure: impl FnOnce(&mut web::ServiceConfig)) -> actix_web::Scope {
    web::scope("").guard(PathUnder(prefix)).configure(configure)
}

/// Admits requests whose path starts with the prefix.
struct PathUnder(&'static str);

impl actix_web::guard::Guard for PathUnder {
    fn check(&self, context: &actix_web::guard::GuardContext<'_>) -> bool {
        context.head().uri.path().starts_with(self.0)
    }
}

/// Which part of the served app a route goes to (see [`serve`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Part {
    Front,
    EncounterRead,
    Encounters,
    Rulesets,
    Rest,
}

impl Part {
    fn holding(pattern: &str) -> Self {
        if FRONT_PATHS.contains(&pattern) {
            Part::Front
        } else if pattern == ENCOUNTER_READ {
            Part::EncounterRead
        } else if pattern.starts_with(ENCOUNTER_PATHS) {
            Part::Encounters
        } else if pattern.starts_with(RULESET_PATHS) {
            Part::Rulesets
        } else {
            Part::Rest
        }
    }

    fn of(self, config: &mut web::ServiceConfig) -> OnlyPart<'_> {
        OnlyPart { part: self, config }
    }
}

/// Registers only the routes of one part, in the order [`register`] gives them.
struct OnlyPart<'a> {
    part: Part,
    config: &'a mut web::ServiceConfig,
}

impl Register for OnlyPart<'_> {
    fn add<F: HttpServiceFactory + OpenApiFactory + RoutePattern + 'static>(&mut self, factory: F) {
        if Part::holding(&factory.pattern().0) == self.part {
            self.config.service(factory);
        }
    }
}

/// The documented paths and their methods.
pub fn route_table() -> RouteTable {
    let mut patterns = PatternsOnly::default();
    register(&mut patterns);
    RouteTable::from_patterns(patterns.0)
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
    let write = move |store: &Store, tenant, key| {
        store.mutate_async(tenant, EncounterId(id), if_match.0, key, command, render)
    };
    change(state, caller, write).await
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_route_goes_to_the_part_of_the_app_its_path_names() {
        let part = Part::holding;
        assert_eq!(part("/healthz"), Part::Front);
        assert_eq!(part("/v1/dice/roll"), Part::Front);
        assert_eq!(part("/v1/rulesets/cepheus-engine/attacks"), Part::Rulesets);
        assert_eq!(part("/v1/encounters/{id}"), Part::EncounterRead);
        assert_eq!(part("/v1/encounters/{id}/advance"), Part::Encounters);
        assert_eq!(part("/v1/encounters/{id}/cepheus-engine/attacks"), Part::Encounters);
        assert_eq!(part("/v1/encounters"), Part::Rest);
        assert_eq!(part("/v1/rulesets"), Part::Rest);
        assert_eq!(part("/v1/webhooks/{id}"), Part::Rest);
    }
}
