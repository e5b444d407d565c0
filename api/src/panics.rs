//! A panic while handling a request (a bug, or an arithmetic overflow stopped by
//! `overflow-checks`) becomes a clean 500 problem+json instead of a dropped connection. Inside
//! a write, the store rolls the change back (see `skirmish_db::DbError::Panicked`); here the
//! handler's own future is guarded.

use crate::error::ApiError;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

/// Middleware: answers 500 (and logs the panic at ERROR) when the rest of the chain panics.
pub async fn catch_panics(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    guarded(next.call(request)).await
}

/// Awaits the rest of the chain, turning a panic into a 500 (see [`catch_panics`]).
pub async fn guarded<B: MessageBody + 'static>(
    rest: impl Future<Output = Result<ServiceResponse<B>, actix_web::Error>>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    match CatchUnwind(std::pin::pin!(rest)).await {
        Ok(result) => result.map(ServiceResponse::map_into_boxed_body),
        // The request went down with the panic; actix renders the error as its response.
        Err(message) => {
            Err(ApiError::Internal(format!("a request handler panicked: {message}").into()).into())
        }
    }
}

/// A future that turns a panic while polling into `Err(message)`.
struct CatchUnwind<'a, F>(Pin<&'a mut F>);

impl<F: Future> Future for CatchUnwind<'_, F> {
    type Output = Result<F::Output, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = self.0.as_mut();
        match catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(panic_message(payload.as_ref()))),
        }
    }
}

/// The text a panic was raised with, when it is one.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with no message".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test as web_test;
    use actix_web::{App, HttpResponse, ResponseError, middleware, web};
    use serde_json::{Value, json};
    use skirmish_db::{Mutation, Store, StoredResponse};
    use skirmish_domain::encounter::{Encounter, EncounterError, EncounterId, Event};
    use skirmish_domain::rulesets::RulesetId;

    async fn boom() -> HttpResponse {
        panic!("attempt to add with overflow")
    }

    #[actix_web::test]
    async fn a_panicking_handler_answers_500_problem_json_and_the_next_request_is_served() {
        let app = web_test::init_service(
            App::new()
                .wrap(middleware::from_fn(catch_panics))
                .route("/boom", web::get().to(boom))
                .route("/fine", web::get().to(|| async { HttpResponse::Ok().finish() })),
        )
        .await;

        let request = web_test::TestRequest::get().uri("/boom").to_request();
        let boom = web_test::try_call_service(&app, request).await.map(|_| ()).unwrap_err();
        let response = boom.error_response();
        let status = response.status().as_u16();
        let content_type = response.headers().get("content-type").unwrap().to_str().unwrap().to_owned();
        let body: Value = serde_json::from_slice(
            &actix_web::body::to_bytes(response.into_body()).await.unwrap_or_default(),
        )
        .unwrap();
        let fine = web_test::call_service(&app, web_test::TestRequest::get().uri("/fine").to_request()).await;

        assert_eq!((status, content_type.as_str()), (500, "application/problem+json"));
        assert_eq!(body["type"], json!("urn:skirmish:problem:internal"));
        assert_eq!(body["detail"], json!("the server failed to handle this request; it has been logged"));
        assert_eq!(fine.status().as_u16(), 200);
    }

    fn version_body(mutation: Mutation<()>) -> Result<StoredResponse, EncounterError> {
        let body = mutation.encounter.encounter.version.to_string();
        Ok(StoredResponse { status: 200, body, headers: vec![] })
    }

    #[test]
    fn a_panic_inside_a_stored_change_rolls_back_answers_500_and_later_changes_still_work() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("p.db").to_str().unwrap()).unwrap();
        let id = EncounterId("enc_1".into());
        let encounter = Encounter::new(id.clone(), RulesetId::LurAsko, "Bridge".into());
        store.create("t", &encounter, &[], None, version_body).unwrap();

        let overflowing = |encounter: &mut Encounter| -> Result<(Vec<Event>, ()), EncounterError> {
            encounter.name = "half-applied".into();
            panic!("attempt to negate with overflow")
        };
        let error =
            ApiError::from(store.mutate("t", &id, None, None, overflowing, version_body).unwrap_err());
        let renamed = |encounter: &mut Encounter| -> Result<(Vec<Event>, ()), EncounterError> {
            encounter.name = "Renamed".into();
            Ok((vec![], ()))
        };
        let later = store.mutate("t", &id, None, None, renamed, version_body).unwrap();

        assert_eq!(error.status_code().as_u16(), 500);
        assert_eq!(error.problem().detail, "the server failed to handle this request; it has been logged");
        assert_eq!(later.response.body, "2", "the panicked change did not bump the version");
        assert_eq!(store.get("t", &id).unwrap().unwrap().encounter.name, "Renamed");
    }
}
