//! Building and running the HTTP server.

use crate::app::AppState;
use crate::auth::{AuthSettings, OPEN_TENANT};
use crate::config::Settings;
use crate::connections::{PeerConnections, default_total, open_file_limit};
use crate::error::ApiError;
use crate::extract::{BodyTimeout, MAX_BODY_BYTES};
use crate::front_door::front_door;
use crate::listener::{ConnectionRules, Signals};
use crate::metrics::MetricsListener;
use crate::openapi::serve_openapi;
use crate::rate_limit::{RateLimit, RateLimiter};
use crate::routes::{self, not_found_or_method_not_allowed};
use crate::webhooks::Webhooks;
use actix_web::dev::Server;
use actix_web::middleware;
use actix_web::{App, HttpResponse, web};
use skirmish_db::{DbError, Store};
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::time::Duration;
use utoipa_swagger_ui::{Config, SwaggerUi};

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("cannot open the database: {0}")]
    Database(#[from] DbError),
    #[error("cannot listen on {address}: {source}")]
    Bind { address: String, source: std::io::Error },
    #[error("cannot use the supplied API key: {0}")]
    ApiKey(String),
    #[error(
        "refusing to serve on {address} with no API keys: anyone could use it. Create a key with \
         `skirmish keys create --tenant NAME` or supply one in SKIRMISH_API_KEY / SKIRMISH_API_KEY_FILE, \
         or bind to 127.0.0.1 to run open on this machine only"
    )]
    OpenModeNotLoopback { address: String },
    #[error("cannot set up the metrics: {0}")]
    Metrics(#[from] prometheus::Error),
    #[error("cannot start the webhook deliverer: {0}")]
    Webhooks(String),
}

/// A bound, not yet running server.
pub struct Application {
    address: SocketAddr,
    server: Server,
    /// `/metrics` on a listener of its own (`--metrics-bind`).
    metrics: Option<MetricsListener>,
}

impl Application {
    /// Opens the database (applying migrations) holding its file exclusively (a server in another
    /// process on the same file is refused), binds the listener and builds the server.
    pub fn build(settings: &Settings) -> Result<Self, StartupError> {
        let store = Store::open_exclusive_with(&settings.database_url, settings.pg_writers)?;
        let bind_error = |source| StartupError::Bind { address: settings.bind.clone(), source };
        let loopback_only = resolves_to_loopback(&settings.bind).map_err(bind_error)?;
        let auth = web::Data::new(auth_settings(&store, settings, loopback_only)?);
        let listener = TcpListener::bind(&settings.bind).map_err(bind_error)?;
        let address = listener.local_addr().map_err(bind_error)?;
        let table = web::Data::new(routes::route_table());
        let metrics = crate::metrics::record(&settings.metrics, &store, table.patterns())?;
        let webhooks = Webhooks::start(&store, &settings.webhooks, metrics.clone())
            .map_err(|e| StartupError::Webhooks(e.to_string()))?;
        // Sweeps until the server (holding this in its app factory) is dropped.
        let retention = crate::retention::start(&store, &settings.retention);
        let state = web::Data::new(AppState::new(store, &settings.streams, webhooks));
        let connections = &settings.connections;
        let total = connections.max_connections.unwrap_or_else(|| default_total(open_file_limit()));
        let rules = ConnectionRules {
            peers: PeerConnections::new(connections.max_connections_per_peer, total),
            write_timeout: Duration::from_millis(connections.write_timeout_ms.max(1)),
            workers: settings.workers,
        };
        let (metrics_page, metrics_listener) =
            crate::metrics::expose(&settings.metrics, metrics.as_ref(), &state.live, &rules).map_err(
                |source| StartupError::Bind {
                    address: settings.metrics.metrics_bind.clone().unwrap_or_default(),
                    source,
                },
            )?;
        let metrics = metrics.map(web::Data::from);
        let viewers = web::Data::from(state.viewers.clone());
        let body_timeout = BodyTimeout(Duration::from_millis(settings.connections.body_timeout_ms));
        let app = move || {
            let _sweeping = &retention;
            App::new()
                .wrap(middleware::from_fn(front_door))
                .app_data(state.clone())
                .app_data(viewers.clone())
                .app_data(table.clone())
                .app_data(auth.clone())
                .app_data(metrics_page.clone())
                .configure(|config| {
                    if let Some(metrics) = &metrics {
                        config.app_data(metrics.clone());
                    }
                })
                .app_data(web::PayloadConfig::new(MAX_BODY_BYTES))
                .app_data(body_timeout)
                .app_data(
                    web::PathConfig::default()
                        .error_handler(|error, _| ApiError::bad_request("path", error.to_string()).into()),
                )
                .configure(routes::serve)
                .route("/openapi.json", web::get().to(serve_openapi))
                .service(SwaggerUi::new("/docs/{_:.*}").config(Config::from("/openapi.json")))
                .route("/docs", web::get().to(|| async { redirect("/docs/") }))
                .default_service(web::to(not_found_or_method_not_allowed))
        };
        let server = crate::listener::serve(listener, app, rules, Signals::Handled).map_err(bind_error)?;
        Ok(Self { address, server, metrics: metrics_listener })
    }

    pub fn port(&self) -> u16 {
        self.address.port()
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The address of `/metrics`'s own listener, when it has one.
    pub fn metrics_address(&self) -> Option<SocketAddr> {
        self.metrics.as_ref().map(|listener| listener.address)
    }

    /// Serves until the process is told to stop. SIGTERM stops gracefully: in-flight requests
    /// finish (30 s at most). SIGINT (Ctrl-C) and SIGQUIT stop at once. The metrics listener, if
    /// any, stops after the main one.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let (server, metrics) = self.into_servers();
        let metrics = metrics.map(|metrics| {
            let handle = metrics.handle();
            tokio::spawn(metrics);
            handle
        });
        let served = server.await;
        if let Some(metrics) = metrics {
            metrics.stop(true).await;
        }
        served
    }

    /// The running server, for tests that stop it. A metrics listener of its own keeps running
    /// until the process ends (see [`Application::into_servers`]).
    pub fn into_server(self) -> Server {
        let (server, metrics) = self.into_servers();
        if let Some(metrics) = metrics {
            tokio::spawn(metrics);
        }
        server
    }

    /// The running main server and the metrics listener's, if it has one.
    pub fn into_servers(self) -> (Server, Option<Server>) {
        (self.server, self.metrics.map(|listener| listener.server))
    }
}

/// Secure by default: with no API key the server runs open (every request acts as the
/// `default` tenant) only while it listens on loopback, and says so. A key supplied in the
/// settings is stored first, so it counts.
fn auth_settings(
    store: &Store,
    settings: &Settings,
    loopback_only: bool,
) -> Result<AuthSettings, StartupError> {
    crate::keys::provision(store, &settings.api_key).map_err(StartupError::ApiKey)?;
    if !store.has_keys()? {
        if !loopback_only {
            return Err(StartupError::OpenModeNotLoopback { address: settings.bind.clone() });
        }
        log::warn!(
            "open mode: no API keys exist, so requests need none and act as tenant '{OPEN_TENANT}' \
             (allowed on loopback only). Create one with `skirmish keys create --tenant NAME`."
        );
    }
    let limits = &settings.rate_limit;
    let limiter = (limits.rate_limit_per_minute > 0).then(|| {
        RateLimiter::new(RateLimit {
            per_minute: limits.rate_limit_per_minute,
            burst: limits.rate_limit_burst,
        })
    });
    Ok(AuthSettings { store: store.clone(), loopback_only, limiter })
}

/// Whether every address the bind setting names is a loopback one. Checked before binding, so
/// a refused open-mode start never listens beyond this machine.
fn resolves_to_loopback(bind: &str) -> std::io::Result<bool> {
    let mut addresses = bind.to_socket_addrs()?.peekable();
    if addresses.peek().is_none() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "the address resolves to nothing"));
    }
    Ok(addresses.all(|address| address.ip().is_loopback()))
}

fn redirect(to: &'static str) -> HttpResponse {
    HttpResponse::PermanentRedirect().insert_header(("Location", to)).finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wildcard_settings(dir: &tempfile::TempDir) -> (Store, Settings) {
        let url = dir.path().join("s.db").display().to_string();
        (Store::open(&url).unwrap(), Settings::new("0.0.0.0:8080", url))
    }

    #[test]
    fn a_wildcard_address_with_no_key_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (store, settings) = wildcard_settings(&dir);
        let loopback_only = resolves_to_loopback(&settings.bind).unwrap();

        let refused = auth_settings(&store, &settings, loopback_only).err();

        assert!(!loopback_only);
        assert!(matches!(refused, Some(StartupError::OpenModeNotLoopback { .. })), "{refused:?}");
    }

    #[test]
    fn a_wildcard_address_with_a_key_from_the_environment_starts_and_stores_only_its_digest() {
        let dir = tempfile::tempdir().unwrap();
        let (store, mut settings) = wildcard_settings(&dir);
        let secret = "0123456789abcdef0123456789abcdef-first-run";
        settings.api_key.api_key = Some(secret.to_owned());
        settings.api_key.api_key_tenant = Some("guild".to_owned());

        let auth = auth_settings(&store, &settings, false).unwrap();
        let again = auth_settings(&store, &settings, false);

        assert!(!auth.loopback_only);
        assert!(again.is_ok(), "the same key at the next start changes nothing");
        assert_eq!(store.key_owner(secret).unwrap().map(|owner| owner.tenant), Some("guild".to_owned()));
        assert_eq!(store.list_keys().unwrap().len(), 1);
        let files =
            std::fs::read_dir(dir.path()).unwrap().map(|entry| std::fs::read(entry.unwrap().path()).unwrap());
        let plain =
            files.into_iter().any(|raw| raw.windows(secret.len()).any(|window| window == secret.as_bytes()));
        assert!(!plain, "only the key's digest is on disk (database and WAL)");
    }
}
