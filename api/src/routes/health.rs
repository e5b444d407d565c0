use crate::app::AppState;
use crate::error::ApiError;
use crate::reply::json_ok;
use actix_web::{HttpResponse, get, web};
use serde::Serialize;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use utoipa::ToSchema;

#[derive(Serialize, ToSchema)]
#[schema(example = json!({"status": "ok", "version": "0.1.0"}))]
pub struct Health {
    /// `ok` when the service and its database answer.
    pub status: String,
    pub version: String,
}

/// Liveness and database check (the database is asked at most every 250 ms; between checks
/// the last passed check stands).
#[utoipa::path(operation_id = "health", tag = "service", security(()), responses((status = 200, body = Health)))]
#[get("/healthz")]
pub async fn healthz(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    if !RECENT_CHECK.passed_lately() {
        check_database(&state).await?;
        RECENT_CHECK.passed_now();
    }
    Ok(json_ok(healthy()))
}

/// `SELECT 1` on a free reader touches no table and never waits: no trip to the blocking pool
/// unless every reader is busy.
async fn check_database(state: &AppState) -> Result<(), ApiError> {
    match state.store.try_ping() {
        Some(answer) => Ok(answer?),
        None => {
            let store = state.store.clone();
            Ok(web::block(move || store.ping()).await??)
        }
    }
}

/// How long a passed database check stands: probes polling `/healthz` many times a second
/// share one check, and a failing database is reported within this time.
const CHECK_STANDS_FOR: Duration = Duration::from_millis(250);

static RECENT_CHECK: RecentCheck = RecentCheck { passed_at_ms: AtomicU64::new(0) };

/// When the database check last passed, in milliseconds after [`epoch`] (0: not yet).
struct RecentCheck {
    passed_at_ms: AtomicU64,
}

impl RecentCheck {
    fn passed_lately(&self) -> bool {
        let passed = self.passed_at_ms.load(Ordering::Relaxed);
        passed != 0 && since_epoch_ms().saturating_sub(passed) < CHECK_STANDS_FOR.as_millis() as u64
    }

    fn passed_now(&self) {
        self.passed_at_ms.store(since_epoch_ms().max(1), Ordering::Relaxed);
    }
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn since_epoch_ms() -> u64 {
    u64::try_from(epoch().elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// The body of a healthy answer, serialised once.
fn healthy() -> web::Bytes {
    static BODY: OnceLock<web::Bytes> = OnceLock::new();
    let body = BODY.get_or_init(|| {
        let health = Health { status: "ok".into(), version: env!("CARGO_PKG_VERSION").into() };
        serde_json::to_vec(&health).map(web::Bytes::from).unwrap_or_default()
    });
    body.clone()
}
