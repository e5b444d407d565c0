//! Ruleset operations, written once against the plug-in traits: every registered [`Command`] gets
//! `POST /v1/encounters/{id}/<ruleset>/<name>` (on a stored encounter, in its transaction) and
//! every [`Stateless`] one also `POST /v1/rulesets/<ruleset>/<name>` (inline stat blocks, nothing
//! stored). Both answer with the command's one report type. The body is parsed into the typed
//! request before the writer is taken, so a 422 never waits for the lock.
//!
//! The older untyped routes (`POST /v1/encounters/{id}/attacks`, …) stay as aliases for curl
//! scripts: they dispatch on the stored encounter's ruleset and are left out of the spec.

use super::typed_route::TypedRoute;
use super::{AppState, Register, idempotent, load, mutate};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::{ApiJson, IfMatch, JsonBytes, parse_json};
use crate::reply::{json_ok, json_reply, written_reply};
use crate::wire::{
    DiceOptions, DieResponse, InlineAnswer, JsonText, OperationInput, OperationResponse, dice_for,
    event_notices, read_dice_fields, read_typed, ruleset_request, split_operation_body,
};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::de::DeserializeOwned;
use serde_json::Value;
use skirmish_db::{Mutation, StoredResponse};
use skirmish_domain::dice::Dice;
use skirmish_domain::encounter::Encounter;
use skirmish_domain::rulesets::{Command, CommandVisitor, Ruleset, RulesetId, Stateless, Summary};
use std::future::Future;
use std::pin::Pin;

/// The typed request and the dice of an operation body.
struct Parsed<T> {
    request: T,
    dice: Dice,
    strict: bool,
}

/// Reads an operation body: straight into the typed request when it reads cleanly, else through
/// a `Value`, the path whose errors name the field at fault.
fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<Parsed<T>, ApiError> {
    match read_typed::<T>(bytes) {
        Some((request, fields)) => with_dice(request, read_dice_fields(fields)?),
        None => parse_value(parse_json(bytes)?),
    }
}

fn parse_value<T: DeserializeOwned>(body: Value) -> Result<Parsed<T>, ApiError> {
    let OperationInput { seed, rolls, strict_rolls, body } = split_operation_body(body)?;
    with_dice(ruleset_request(body)?, DiceOptions { seed, rolls, strict_rolls })
}

fn with_dice<T>(request: T, options: DiceOptions) -> Result<Parsed<T>, ApiError> {
    let DiceOptions { seed, rolls, strict_rolls: strict } = options;
    Ok(Parsed { request, dice: dice_for(seed, rolls, strict)?, strict })
}

/// Runs `C` on the caller's stored encounter.
pub async fn stored<C: Command>(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    if_match: IfMatch,
    JsonBytes(body): JsonBytes,
) -> Result<HttpResponse, ApiError> {
    run_stored::<C>(state, caller, id.into_inner(), if_match, parse(&body)).await
}

async fn run_stored<C: Command>(
    state: web::Data<AppState>,
    caller: Caller,
    id: String,
    if_match: IfMatch,
    parsed: Result<Parsed<C::Request>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Parsed { request, mut dice, strict } = parsed?;
    let seed = dice.seed();
    let command = move |encounter: &mut Encounter| {
        if encounter.ruleset != C::Ruleset::ID {
            return Err(ApiError::Conflict(format!(
                "this is a {} encounter; this route runs {} rules",
                encounter.ruleset,
                C::Ruleset::ID
            )));
        }
        let (events, report) = C::run(encounter, request, &mut dice)?;
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
    JsonBytes(body): JsonBytes,
) -> Result<HttpResponse, ApiError> {
    if !caller.has_idempotency_key() {
        // Nothing to keep for a retry: answered here, with no stored response in between.
        let answer = answer_inline::<C>(parse(&body)?)?;
        return Ok(json_ok(answer.into_string().into()));
    }
    let parsed = parse::<C::InlineRequest>(&body)?;
    let compute = move || written_reply(StatusCode::OK, Ok(answer_inline::<C>(parsed)?));
    idempotent(&state, &caller, compute).await
}

/// The rules run on a parsed inline body, and the answer written from the report where it lies.
fn answer_inline<C: Stateless>(parsed: Parsed<C::InlineRequest>) -> Result<JsonText, ApiError> {
    let Parsed { request, mut dice, strict } = parsed;
    let report = C::run_inline(request, &mut dice)?;
    if strict {
        dice.finish_strict()?;
    }
    let (seed, unused_rolls) = (dice.seed(), dice.unused_rolls());
    let dice: Vec<DieResponse> = dice.into_rolls().into_iter().map(Into::into).collect();
    let summary = report.summary();
    let answer =
        InlineAnswer { seed, dice: &dice, unused_rolls: &unused_rolls, summary: &summary, result: &report };
    answer.write_json().map_err(|error| ApiError::Internal(Box::new(error)))
}

/// Registers the typed stored route of every registered operation (documented in the spec).
pub fn register_stored(routes: &mut impl Register) {
    struct Visit<'a, R>(&'a mut R);
    impl<R: Register> CommandVisitor for Visit<'_, R> {
        fn command<C: Command>(&mut self) {
            self.0.add(TypedRoute::stored::<C>());
        }
        fn stateless<C: Stateless>(&mut self) {
            self.command::<C>();
        }
    }
    skirmish_domain::rulesets::for_each_command(&mut Visit(routes));
}

/// Registers the typed stateless route of every operation that has one (documented in the spec).
/// Every ruleset's attacks come first, the busiest of them: actix tries a scope's routes in
/// order, each one ~200 instructions.
pub fn register_inline(routes: &mut impl Register) {
    struct Collect(Vec<(bool, TypedRoute)>);
    impl CommandVisitor for Collect {
        fn command<C: Command>(&mut self) {}
        fn stateless<C: Stateless>(&mut self) {
            self.0.push((C::NAME != "attacks", TypedRoute::inline::<C>()));
        }
    }
    let mut collected = Collect(Vec::new());
    skirmish_domain::rulesets::for_each_command(&mut collected);
    collected.0.sort_by_key(|(later, _)| *later);
    for (_, route) in collected.0 {
        routes.add(route);
    }
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
                    Box::pin(run_stored::<C>(state, caller, id, if_match, parse_value(body)))
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

/// The untyped alias `POST /v1/encounters/{id}/{operation}`: runs the operation of the stored
/// encounter's ruleset, or answers 501 when that ruleset has no such operation.
pub async fn alias(
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<(String, String)>,
    if_match: IfMatch,
    ApiJson(body): ApiJson<Value>,
) -> Result<HttpResponse, ApiError> {
    let (id, operation) = path.into_inner();
    let ruleset = load(&state, &caller, id.clone()).await?.encounter.ruleset;
    let run = find_stored(ruleset, &operation).ok_or_else(|| not_implemented(ruleset, &operation))?;
    run(state, caller, id, if_match, body).await
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
pub fn is_operation_name(name: &str) -> bool {
    ["attacks", "damage", "actions"].contains(&name)
        || RulesetId::ALL.iter().any(|ruleset| ruleset.implements(name))
}

/// 501 naming what the ruleset does implement.
pub fn not_implemented(ruleset: RulesetId, operation: &str) -> ApiError {
    let implemented = ruleset.operations();
    let list = if implemented.is_empty() { "initiative only".to_owned() } else { implemented.join(", ") };
    ApiError::NotImplemented(format!("{operation} is not implemented for {ruleset}; it implements: {list}"))
}
