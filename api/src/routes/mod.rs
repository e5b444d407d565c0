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

use crate::viewers::page;
use actix_web::dev::HttpServiceFactory;
use actix_web::web;
use operations::{alias, alias_post, inline_alias};
use typed_route::TypedRoute;
use utoipa::openapi::path::HttpMethod;
use utoipa_actix_web::OpenApiFactory;
use utoipa_actix_web::service_config::ServiceConfig;

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

/// Every documented route, wherever it goes. actix tries routes in this order, matching a fixed
/// path by comparing it and a path with a `{parameter}` by its regex.
pub(crate) fn register(routes: &mut impl Register) {
    routes.add(health::healthz);
    routes.add(dice::roll);
    routes.add(encounters::get);
    routes.add(crate::metrics::scrape);
    routes.add(rulesets::list);
    routes.add(encounters::list);
    routes.add(encounters::create);
    routes.add(webhooks::list);
    routes.add(webhooks::create);
    typed_route::register_inline(routes);
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
    typed_route::register_stored(routes);
    routes.add(view::view_page);
    routes.add(view::view_encounter);
    routes.add(view::view_stream);
}

/// Registers every documented route in the OpenAPI builder (see `openapi.rs`).
pub fn configure(config: &mut ServiceConfig) {
    register(config);
}

/// Registers every documented route in the served app, then the untyped operation aliases and
/// the viewer page's assets. No schema is built here: the OpenAPI document is built once, on its
/// first request.
pub fn serve(config: &mut web::ServiceConfig) {
    register(config);
    config.route("/v1/rulesets/{ruleset}/{operation}", alias_post().to(inline_alias));
    config.route("/v1/encounters/{id}/{operation}", alias_post().to(alias));
    config.route(page::STYLE_PATH, web::get().to(page::style));
    config.route(page::SCRIPT_PATH, web::get().to(page::script));
}

/// The documented paths and their methods.
pub fn route_table() -> RouteTable {
    let mut patterns = PatternsOnly::default();
    register(&mut patterns);
    RouteTable::from_patterns(patterns.0)
}
