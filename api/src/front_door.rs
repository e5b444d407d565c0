//! The one middleware every request passes, in order: the path made the one the router matches
//! ([`crate::request_path`]), the per-peer connection cap
//! ([`crate::connections`]), then, guarded against panics ([`crate::panics`]), authentication
//! ([`crate::auth`]) and the route, all timed and counted for the metrics ([`crate::metrics`])
//! unless they are off, and written to the access log ([`crate::access_log`]) when INFO is on.
//! One middleware rather than five: each layer costs a boxed future and a dynamic call per
//! request.

use crate::access_log::AccessLine;
use crate::auth::admit;
use crate::connections::over_limit;
use crate::metrics::{Metrics, RequestTimer};
use crate::panics::guarded;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web;
use std::ops::ControlFlow;

pub async fn front_door(
    mut request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let normalised = crate::request_path::normalise(&mut request);
    let access = AccessLine::start(&request);
    let metrics = request.app_data::<web::Data<Metrics>>().cloned();
    let served = match (normalised, metrics) {
        (Err(error), _) => Ok(request.error_response(error).map_into_boxed_body()),
        (Ok(()), None) => admit_and_serve(request, next).await,
        (Ok(()), Some(metrics)) => {
            let timer = RequestTimer::start(&request);
            let served = admit_and_serve(request, next).await;
            timer.finish(&metrics.http, &served);
            served
        }
    };
    if let Some(access) = access {
        access.finish(&served);
    }
    served
}

async fn admit_and_serve(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let request = match over_limit(request) {
        ControlFlow::Continue(request) => request,
        ControlFlow::Break(refused) => return Ok(refused),
    };
    guarded(async move {
        match admit(request).await {
            ControlFlow::Continue(request) => {
                next.call(request).await.map(ServiceResponse::map_into_boxed_body)
            }
            ControlFlow::Break(refused) => Ok(refused),
        }
    })
    .await
}
