//! Ruleset operations, written once against the plug-in traits: every registered [`Command`] gets
//! `POST /v1/encounters/{id}/<ruleset>/<name>` (on a stored encounter, in its transaction) and
//! every [`Stateless`] one also `POST /v1/rulesets/<ruleset>/<name>` (inline stat blocks, nothing
//! stored); `typed_route.rs` registers them. Both answer with the command's one report type. The
//! body is read into the typed request before the writer is taken, so a 422 never waits for it.
//! Both run through `receiving`, where the ruleset says what each combatant named may receive.
//!
//! The older untyped routes (`POST /v1/encounters/{id}/attacks`, …) are gone: they answer 404
//! naming the typed route to use (left out of the spec).

use crate::app::{AppState, idempotent, load, mutate};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::{ApiJson, IfMatch};
use crate::reply::json_reply;
use crate::wire::{InlineOperationResponse, OperationBody, OperationResponse, event_notices};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde_json::Value;
use skirmish_db::{Mutation, StoredResponse};
use skirmish_domain::dice::Dice;
use skirmish_domain::encounter::Encounter;
use skirmish_domain::rulesets::{Command, CommandVisitor, Ruleset, RulesetId, Stateless, Summary, receiving};
use std::future::Future;
use std::pin::Pin;

/// Runs `C` on the caller's stored encounter.
pub async fn stored<C: Command>(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    if_match: IfMatch,
    ApiJson(body): ApiJson<Value>,
) -> Result<HttpResponse, ApiError> {
    run_stored::<C>(state, caller, id.into_inner(), if_match, body).await
}

async fn run_stored<C: Command>(
    state: web::Data<AppState>,
    caller: Caller,
    id: String,
    if_match: IfMatch,
    body: Value,
) -> Result<HttpResponse, ApiError> {
    let OperationBody { request, mut dice, strict } = OperationBody::<C::Request>::read(body)?;
    let seed = dice.seed();
    let command = move |encounter: &mut Encounter| {
        if encounter.ruleset != C::Ruleset::ID {
            return Err(ApiError::Conflict(format!(
                "this is a {} encounter; this route runs {} rules",
                encounter.ruleset,
                C::Ruleset::ID
            )));
        }
        let (events, report) = receiving::run::<C>(encounter, request, &mut dice)?;
        if strict {
            dice.finish_strict()?;
        }
        Ok((events, (report, dice)))
    };
    let render = move |mutation: Mutation<(C::Report, Dice)>| render::<C>(mutation, seed);
    mutate(&state, &caller, id, if_match, command, render).await
}

fn render<C: Command>(mutation: Mutation<(C::Report, Dice)>, seed: u64) -> Result<StoredResponse, ApiError> {
    let (report, dice) = mutation.output;
    let version = mutation.encounter.encounter.version;
    let body = OperationResponse {
        version,
        seed,
        unused_rolls: dice.unused_rolls(),
        dice: dice.into_rolls().into_iter().map(Into::into).collect(),
        summary: report.summary(),
        result: report,
        events: event_notices(mutation.events),
    };
    json_reply(StatusCode::OK, &body, Some(version))
}

/// Runs `C` on inline stat blocks; nothing is stored.
pub async fn inline<C: Stateless>(
    state: web::Data<AppState>,
    caller: Caller,
    ApiJson(body): ApiJson<Value>,
) -> Result<HttpResponse, ApiError> {
    let OperationBody { request, mut dice, strict } = OperationBody::<C::InlineRequest>::read(body)?;
    let compute = move || {
        let report = receiving::run_inline::<C>(request, &mut dice)?;
        if strict {
            dice.finish_strict()?;
        }
        let body = InlineOperationResponse {
            seed: dice.seed(),
            unused_rolls: dice.unused_rolls(),
            dice: dice.into_rolls().into_iter().map(Into::into).collect(),
            summary: report.summary(),
            result: report,
        };
        json_reply(StatusCode::OK, &body, None)
    };
    idempotent(&state, &caller, compute).await
}

type Reply = Pin<Box<dyn Future<Output = Result<HttpResponse, ApiError>>>>;
type Runner = fn(web::Data<AppState>, Caller, String, IfMatch, Value) -> Reply;

/// Finds the stored form of the operation `name` of `ruleset`.
fn find_stored(ruleset: RulesetId, name: &str) -> Option<Runner> {
    struct Find<'a> {
        ruleset: RulesetId,
        name: &'a str,
        found: Option<Runner>,
    }
    impl CommandVisitor for Find<'_> {
        fn command<C: Command>(&mut self) {
            if C::Ruleset::ID == self.ruleset && C::NAME == self.name {
                self.found = Some(|state, caller, id, if_match, body| {
                    Box::pin(run_stored::<C>(state, caller, id, if_match, body))
                });
            }
        }
        fn stateless<C: Stateless>(&mut self) {
            self.command::<C>();
        }
    }
    let mut find = Find { ruleset, name, found: None };
    skirmish_domain::rulesets::for_each_command(&mut find);
    find.found
}

/// `POST` for an alias route, taken only when the last path segment names an operation, so other
/// paths of the same shape fall through to the 404/405 answers.
pub fn alias_post() -> actix_web::Route {
    web::post().guard(actix_web::guard::fn_guard(|context| {
        context.head().uri.path().rsplit('/').next().is_some_and(is_operation_name)
    }))
}

/// `POST /v1/encounters/{id}/{operation}`, the untyped alias of earlier versions, is gone
/// (docs/api-conventions.md): a 404 naming the typed route of the encounter's ruleset, or saying
/// that the ruleset has no such operation.
pub async fn alias(
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, operation) = path.into_inner();
    let ruleset = load(&state, &caller, id.clone()).await?.encounter.ruleset;
    if find_stored(ruleset, &operation).is_none() {
        return Err(not_implemented(ruleset, &operation));
    }
    Err(ApiError::NotFound(format!(
        "the untyped route POST /v1/encounters/{{id}}/{operation} is gone: use POST /v1/encounters/{id}/{ruleset}/{operation}"
    )))
}

/// The untyped alias `POST /v1/rulesets/{ruleset}/{operation}` for a ruleset or an operation that
/// has no typed route: 404 for an unknown ruleset, else 501.
pub async fn inline_alias(
    _caller: Caller,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (ruleset, operation) = path.into_inner();
    let id: RulesetId = ruleset
        .parse()
        .map_err(|error: skirmish_domain::rulesets::UnknownRuleset| ApiError::NotFound(error.to_string()))?;
    Err(not_implemented(id, &operation))
}

/// Whether some ruleset has an operation of this name, or it is one of the three every ruleset
/// will have (attacks, damage, actions).
fn is_operation_name(name: &str) -> bool {
    ["attacks", "damage", "actions"].contains(&name)
        || RulesetId::ALL.iter().any(|ruleset| ruleset.implements(name))
}

/// 501 naming what the ruleset does implement.
fn not_implemented(ruleset: RulesetId, operation: &str) -> ApiError {
    let implemented = ruleset.operations();
    let list = if implemented.is_empty() { "initiative only".to_owned() } else { implemented.join(", ") };
    ApiError::NotImplemented(format!("{operation} is not implemented for {ruleset}; it implements: {list}"))
}
