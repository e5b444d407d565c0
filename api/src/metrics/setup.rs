//! What the settings make of the metrics at start: whether anything is counted, and where
//! `/metrics` is answered.

use super::{Metrics, MetricsListener, MetricsPage, serve_elsewhere};
use crate::config::{MetricsMode, MetricsSettings};
use crate::listener::ConnectionRules;
use crate::live::LiveStreams;
use actix_web::web;
use skirmish_db::Store;
use std::sync::Arc;

/// Routes served outside the documented ones (see `startup.rs`).
const UNDOCUMENTED_ROUTES: [&str; 2] = ["/docs", "/docs/{_:.*}"];

/// The metrics of a new application (`None` when off), told of every write `store` makes;
/// `patterns` are the served routes' path patterns (the `route` label's values).
pub fn record(
    settings: &MetricsSettings,
    store: &Store,
    patterns: impl Iterator<Item = String>,
) -> Result<Option<Arc<Metrics>>, prometheus::Error> {
    if settings.metrics == MetricsMode::Off {
        return Ok(None);
    }
    let routes = patterns.chain(UNDOCUMENTED_ROUTES.map(str::to_owned));
    let metrics = Arc::new(Metrics::new(routes)?);
    if !store.observe_writes(metrics.write_observer()) {
        log::warn!("the store already reports its writes elsewhere: write metrics stay empty");
    }
    Ok(Some(metrics))
}

/// Where `/metrics` is answered: the main listener's page, and the listener of its own if the
/// settings name an address (held to the main listener's connection `rules`).
pub fn expose(
    settings: &MetricsSettings,
    metrics: Option<&Arc<Metrics>>,
    live: &Arc<LiveStreams>,
    rules: &ConnectionRules,
) -> std::io::Result<(web::Data<MetricsPage>, Option<MetricsListener>)> {
    let Some(metrics) = metrics else { return Ok((web::Data::new(MetricsPage::not_here()), None)) };
    let page = MetricsPage::served(metrics.clone(), live.clone());
    match &settings.metrics_bind {
        None => Ok((web::Data::new(page), None)),
        Some(address) => {
            Ok((web::Data::new(MetricsPage::not_here()), Some(serve_elsewhere(address, page, rules)?)))
        }
    }
}
