//! The Skirmish HTTP service: actix-web routes over the domain and the SQLite store, with an
//! OpenAPI document generated from the routes.

pub mod access_log;
pub mod app;
pub mod auth;
pub mod cli;
pub mod config;
pub mod connections;
pub mod error;
pub mod extract;
pub mod front_door;
pub mod healthcheck;
pub mod keys;
pub mod listener;
pub mod live;
pub mod logging;
pub mod metrics;
pub mod openapi;
pub mod panics;
pub mod rate_limit;
pub mod rendered;
pub mod reply;
pub mod request_path;
pub mod retention;
pub mod routes;
pub mod startup;
pub mod viewers;
pub mod webhooks;
pub mod wire;
pub mod write_timeout;

pub use config::Settings;
pub use startup::{Application, StartupError};
