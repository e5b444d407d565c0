//! HTTP routes, one module per resource. Handlers stay thin: extract, convert, run the domain
//! command inside the store's transaction (on the store's writer thread, awaited), render, respond.

mod advance;
mod archive;
mod combatants;
mod creatures;
mod dice;
mod effects;
mod encounters;
mod events;
mod export;
mod fallback;
mod from_creature;
mod health;
mod initiative;
mod listing;
mod operations;
mod registrar;
mod responses;
mod rulesets;
mod stream;
mod templates;
mod typed_route;
mod undo;
mod view;
mod viewers;
mod webhooks;

pub use fallback::{RouteTable, not_found_or_method_not_allowed};

pub use registrar::{Register, RoutePattern};

use crate::viewers::page;
use actix_web::web;
use operations::{alias, alias_post, inline_alias};
use registrar::PatternsOnly;
use utoipa_actix_web::service_config::ServiceConfig;

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
    routes.add(creatures::list);
    routes.add(creatures::create);
    routes.add(templates::list);
    routes.add(templates::create);
    routes.add(webhooks::list);
    routes.add(webhooks::create);
    typed_route::register_inline(routes);
    routes.add(advance::advance);
    routes.add(undo::undo);
    routes.add(archive::archive);
    routes.add(archive::unarchive);
    routes.add(encounters::delete);
    routes.add(combatants::add);
    routes.add(from_creature::add);
    routes.add(combatants::update);
    routes.add(combatants::remove);
    routes.add(initiative::roll);
    routes.add(effects::add);
    routes.add(effects::remove);
    routes.add(events::list);
    routes.add(export::export);
    routes.add(stream::stream);
    routes.add(viewers::create);
    routes.add(viewers::list);
    routes.add(viewers::revoke);
    routes.add(creatures::get);
    routes.add(creatures::update);
    routes.add(creatures::delete);
    routes.add(templates::get);
    routes.add(templates::delete);
    routes.add(templates::start);
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
