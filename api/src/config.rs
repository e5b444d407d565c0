//! Settings from the command line and the environment (`SKIRMISH_…`), with defaults.

use clap::Args;
use std::path::PathBuf;

/// Where the server listens unless told otherwise.
pub const DEFAULT_BIND: &str = "127.0.0.1:8080";
/// The database unless told otherwise: a file in the working directory.
pub const DEFAULT_DATABASE_URL: &str = "skirmish.db";

#[derive(Debug, Clone, Args)]
pub struct Settings {
    /// Address to listen on. Tests use 127.0.0.1:0 (any free port).
    #[arg(long, env = "SKIRMISH_BIND", default_value = DEFAULT_BIND)]
    pub bind: String,
    /// Database: a SQLite file path, `sqlite://path` or `sqlite:path` (created if missing; one
    /// server per file), or `postgres://…` / `postgresql://…` (any number of servers).
    #[arg(long, env = "SKIRMISH_DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    pub database_url: String,
    /// Writer connections a server may open on PostgreSQL, 1 to 32 (opened as concurrent
    /// changes need them): changes to that many encounters commit at once. SQLite has one.
    #[arg(long, env = "SKIRMISH_PG_WRITERS", default_value_t = skirmish_db::PG_WRITERS_DEFAULT,
        value_parser = pg_writers)]
    pub pg_writers: usize,
    /// HTTP worker threads (default: one per core).
    #[arg(long, env = "SKIRMISH_WORKERS")]
    pub workers: Option<usize>,
    #[command(flatten)]
    pub rate_limit: RateLimitSettings,
    #[command(flatten)]
    pub connections: ConnectionSettings,
    #[command(flatten)]
    pub api_key: ApiKeySettings,
    #[command(flatten)]
    pub streams: StreamSettings,
    #[command(flatten)]
    pub metrics: MetricsSettings,
    #[command(flatten)]
    pub webhooks: WebhookSettings,
    #[command(flatten)]
    pub retention: RetentionSettings,
}

impl Settings {
    /// Defaults with the given address and database: what tests use.
    pub fn new(bind: impl Into<String>, database_url: impl Into<String>) -> Self {
        Self {
            bind: bind.into(),
            database_url: database_url.into(),
            pg_writers: skirmish_db::PG_WRITERS_DEFAULT,
            workers: Some(1),
            rate_limit: RateLimitSettings { rate_limit_per_minute: 600, rate_limit_burst: 60 },
            connections: ConnectionSettings {
                body_timeout_ms: 10_000,
                max_connections_per_peer: 64,
                max_connections: None,
                write_timeout_ms: 10_000,
            },
            api_key: ApiKeySettings::default(),
            streams: StreamSettings::default(),
            metrics: MetricsSettings::default(),
            webhooks: WebhookSettings::default(),
            retention: RetentionSettings::default(),
        }
    }
}

/// `--pg-writers`: a whole number from 1 to [`skirmish_db::PG_WRITERS_MAX`].
fn pg_writers(text: &str) -> Result<usize, String> {
    let most = skirmish_db::PG_WRITERS_MAX;
    text.parse()
        .ok()
        .filter(|n| (1..=most).contains(n))
        .ok_or_else(|| format!("a whole number from 1 to {most}"))
}

/// Rate limiting per API key (off in open mode, where there are no keys).
#[derive(Debug, Clone, Args)]
pub struct RateLimitSettings {
    /// Requests per minute per API key; 0 turns rate limiting off.
    #[arg(long, env = "SKIRMISH_RATE_LIMIT_PER_MINUTE", default_value_t = 600)]
    pub rate_limit_per_minute: u32,
    /// Requests a key may make at once above that pace.
    #[arg(long, env = "SKIRMISH_RATE_LIMIT_BURST", default_value_t = 60)]
    pub rate_limit_burst: u32,
}

/// What clients may hold: time to send a body, time to read an answer, connections at once
/// (see `connections.rs`).
#[derive(Debug, Clone, Args)]
pub struct ConnectionSettings {
    /// Milliseconds a request body may take to arrive once its headers have; then 408 and the
    /// connection is closed.
    #[arg(long, env = "SKIRMISH_BODY_TIMEOUT_MS", default_value_t = 10_000)]
    pub body_timeout_ms: u64,
    /// Connections one peer address may hold open at once; a request on one more gets 429 and
    /// its connection is closed. 0 turns the cap off.
    #[arg(long, env = "SKIRMISH_MAX_CONNECTIONS_PER_PEER", default_value_t = 64)]
    pub max_connections_per_peer: usize,
    /// Connections open at once in all (past half of them, each peer gets a fair share); one
    /// more gets 429 and is closed. Default: the process's open-file limit less 128. 0 turns the
    /// cap off.
    #[arg(long, env = "SKIRMISH_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,
    /// Milliseconds an answer may wait for its client to read any of it; then the connection
    /// is closed (a stream's too).
    #[arg(long, env = "SKIRMISH_WRITE_TIMEOUT_MS", default_value_t = 10_000)]
    pub write_timeout_ms: u64,
}

/// An API key supplied by the operator at start (a container's first run, say): stored as its
/// SHA-256 digest, so that the server can listen beyond loopback from the start.
#[derive(Debug, Clone, Default, Args)]
pub struct ApiKeySettings {
    /// An API key to accept (32–255 visible ASCII characters). Prefer the environment or a file:
    /// a command line is visible to other users of the machine.
    #[arg(long, env = "SKIRMISH_API_KEY", hide_env_values = true)]
    pub api_key: Option<String>,
    /// A file holding that key (e.g. a Docker secret); surrounding whitespace is ignored.
    #[arg(long, env = "SKIRMISH_API_KEY_FILE")]
    pub api_key_file: Option<PathBuf>,
    /// The tenant that key acts for (default `default`, the tenant of open mode).
    #[arg(long, env = "SKIRMISH_API_KEY_TENANT")]
    pub api_key_tenant: Option<String>,
}

/// Live event streams (`GET /v1/encounters/{id}/stream`): how many may be open, how far a reader
/// may fall behind, how often an idle one hears a heartbeat.
#[derive(Debug, Clone, Args)]
pub struct StreamSettings {
    /// Streams one API key may hold open at once; one more gets 429.
    #[arg(long, env = "SKIRMISH_SSE_MAX_STREAMS_PER_KEY", default_value_t = 16)]
    pub sse_max_streams_per_key: usize,
    /// Streams open at once in all; one more gets 429.
    #[arg(long, env = "SKIRMISH_SSE_MAX_STREAMS", default_value_t = 1024)]
    pub sse_max_streams: usize,
    /// Events a stream may fall behind the live ones before it is closed (its client resumes
    /// with `Last-Event-ID`).
    #[arg(long, env = "SKIRMISH_SSE_BUFFER", default_value_t = 256)]
    pub sse_buffer: usize,
    /// Milliseconds between heartbeat comments on an idle stream.
    #[arg(long, env = "SKIRMISH_SSE_HEARTBEAT_MS", default_value_t = 15_000)]
    pub sse_heartbeat_ms: u64,
}

impl Default for StreamSettings {
    fn default() -> Self {
        Self { sse_max_streams_per_key: 16, sse_max_streams: 1024, sse_buffer: 256, sse_heartbeat_ms: 15_000 }
    }
}

/// `GET /metrics` (Prometheus): served on the main listener, on a listener of its own, or not at
/// all.
#[derive(Debug, Clone, Default, Args)]
pub struct MetricsSettings {
    /// `on`: count requests and writes and serve `GET /metrics`; `off`: count nothing, 404.
    #[arg(long, env = "SKIRMISH_METRICS", value_enum, default_value_t = MetricsMode::On)]
    pub metrics: MetricsMode,
    /// An address of its own for `/metrics` (e.g. 127.0.0.1:9090); then the main listener answers
    /// it with 404.
    #[arg(long, env = "SKIRMISH_METRICS_BIND")]
    pub metrics_bind: Option<String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum MetricsMode {
    #[default]
    On,
    Off,
}

/// Webhook deliveries (`/v1/webhooks`): which destinations may be reached, how long a request
/// may take, how retries are spaced.
#[derive(Debug, Clone, Args)]
pub struct WebhookSettings {
    /// Deliver to loopback, private, link-local and unique-local addresses too (self-hosting on
    /// one machine or a LAN). Off by default: such destinations are refused at creation and at
    /// every send.
    #[arg(long, env = "SKIRMISH_WEBHOOKS_ALLOW_PRIVATE", default_value_t = false, action = clap::ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    pub webhooks_allow_private: bool,
    /// Milliseconds of the first retry delay; later ones are multiples of it (5 s, 30 s, 2 min,
    /// 10 min, 1 h, 2 h, then every 4 h at the default 5000).
    #[arg(long, env = "SKIRMISH_WEBHOOKS_RETRY_BASE_MS", default_value_t = 5_000)]
    pub webhooks_retry_base_ms: u64,
    /// Failed attempts after which a delivery is marked failed (12: about 23 h at the default
    /// base). Rate-limit answers (429) do not count.
    #[arg(long, env = "SKIRMISH_WEBHOOKS_MAX_ATTEMPTS", default_value_t = 12)]
    pub webhooks_max_attempts: u32,
    /// Milliseconds one delivery request may take in all (connecting included).
    #[arg(long, env = "SKIRMISH_WEBHOOKS_TIMEOUT_MS", default_value_t = 10_000)]
    pub webhooks_timeout_ms: u64,
    /// Milliseconds a replica (PostgreSQL) holds the deliveries it took before another replica
    /// may send them, from 1000 to 3600000 (keep it well above the timeout). SQLite has no
    /// leases.
    #[arg(long, env = "SKIRMISH_WEBHOOKS_LEASE_MS", default_value_t = skirmish_db::LEASE_MS,
        value_parser = clap::value_parser!(i64).range(skirmish_db::MIN_LEASE_MS..=skirmish_db::MAX_LEASE_MS))]
    pub webhooks_lease_ms: i64,
}

impl Default for WebhookSettings {
    fn default() -> Self {
        Self {
            webhooks_allow_private: false,
            webhooks_retry_base_ms: 5_000,
            webhooks_max_attempts: 12,
            webhooks_timeout_ms: 10_000,
            webhooks_lease_ms: skirmish_db::LEASE_MS,
        }
    }
}

/// How long ended encounters are kept (see `retention.rs`).
#[derive(Debug, Clone, Default, Args)]
pub struct RetentionSettings {
    /// Seconds an ended encounter is kept after its end (its last change: an ended encounter
    /// cannot change); then it is deleted with its log, undo history and viewer links. Archived
    /// encounters are kept. 0 (the default) keeps every encounter; at most 100 years.
    #[arg(long, env = "SKIRMISH_RETENTION_ENDED_SECONDS", default_value_t = 0,
        value_parser = clap::value_parser!(u64).range(0..=crate::retention::MAX_RETENTION_SECONDS))]
    pub retention_ended_seconds: u64,
}
