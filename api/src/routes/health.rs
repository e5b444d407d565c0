use crate::error::ApiError;
use crate::routes::AppState;
use actix_web::{HttpResponse, get, web};
use serde::Serialize;
use std::sync::OnceLock;
use utoipa::ToSchema;

#[derive(Serialize, ToSchema)]
#[schema(example = json!({"status": "ok", "version": "0.1.0"}))]
pub struct Health {
    /// `ok` when the service and its database answer.
    pub status: String,
    pub version: String,
}

/// Liveness and database check.
#[utoipa::path(operation_id = "health", tag = "service", security(()), responses((status = 200, body = Health)))]
#[get("/healthz")]
pub async fn healthz(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    // `SELECT 1` on a free reader touches no table and never waits: no trip to the blocking
    // pool unless every reader is busy.
    match state.store.try_ping() {
        Some(answer) => answer?,
        None => {
            let store = state.store.clone();
            web::block(move || store.ping()).await??
        }
    }
    Ok(HttpResponse::Ok().content_type("application/json").body(healthy()))
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
