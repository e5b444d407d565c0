//! Building and running the HTTP server.

use crate::config::Settings;
use crate::error::ApiError;
use crate::extract::MAX_BODY_BYTES;
use crate::openapi::openapi;
use crate::routes::{self, AppState, RouteTable, not_found_or_method_not_allowed};
use actix_web::dev::Server;
use actix_web::middleware::Logger;
use actix_web::{App, HttpResponse, HttpServer, web};
use skirmish_db::{DbError, Store};
use std::net::TcpListener;
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("cannot open the database: {0}")]
    Database(#[from] DbError),
    #[error("cannot listen on {address}: {source}")]
    Bind { address: String, source: std::io::Error },
}

/// A bound, not yet running server.
pub struct Application {
    port: u16,
    server: Server,
}

impl Application {
    /// Opens the database (applying migrations), binds the listener and builds the server.
    pub fn build(settings: &Settings) -> Result<Self, StartupError> {
        let store = Store::open(&settings.database_url)?;
        let bind_error = |source| StartupError::Bind { address: settings.bind.clone(), source };
        let listener = TcpListener::bind(&settings.bind).map_err(bind_error)?;
        let port = listener.local_addr().map_err(bind_error)?.port();
        let spec = openapi();
        let table = web::Data::new(RouteTable::from_openapi(&spec));
        let state = web::Data::new(AppState { store });
        let mut server = HttpServer::new(move || {
            App::new()
                .wrap(Logger::new("%r %s %b %Dms"))
                .app_data(state.clone())
                .app_data(table.clone())
                .app_data(web::PayloadConfig::new(MAX_BODY_BYTES))
                .app_data(
                    web::PathConfig::default()
                        .error_handler(|error, _| ApiError::bad_request("path", error.to_string()).into()),
                )
                .into_utoipa_app()
                .configure(routes::configure)
                .into_app()
                .service(SwaggerUi::new("/docs/{_:.*}").url("/openapi.json", spec.clone()))
                .route("/docs", web::get().to(|| async { redirect("/docs/") }))
                .default_service(web::to(not_found_or_method_not_allowed))
        })
        .listen(listener)
        .map_err(bind_error)?;
        if let Some(workers) = settings.workers {
            server = server.workers(workers.max(1));
        }
        Ok(Self { port, server: server.run() })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves until the process is told to stop (SIGINT/SIGTERM finish in-flight requests).
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }

    /// The running server, for tests that stop it.
    pub fn into_server(self) -> Server {
        self.server
    }
}

fn redirect(to: &'static str) -> HttpResponse {
    HttpResponse::PermanentRedirect().insert_header(("Location", to)).finish()
}
