//! Settings from the command line and the environment (`SKIRMISH_…`), with defaults.

use clap::Args;

#[derive(Debug, Clone, Args)]
pub struct Settings {
    /// Address to listen on. Tests use 127.0.0.1:0 (any free port).
    #[arg(long, env = "SKIRMISH_BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// SQLite database: a file path, `sqlite://path` or `sqlite:path`. Created if missing.
    #[arg(long, env = "SKIRMISH_DATABASE_URL", default_value = "skirmish.db")]
    pub database_url: String,
    /// HTTP worker threads (default: one per core).
    #[arg(long, env = "SKIRMISH_WORKERS")]
    pub workers: Option<usize>,
}
