use super::AppState;
use super::responses::{AuthErrors, DiceErrors, IdempotencyHeader, OperationErrors};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::ApiJson;
use crate::reply::{json_reply, send};
use crate::wire::{
    DieResponse, InlineOperationResponse, dice_for, report_json, ruleset_request, split_operation_body,
};
use crate::wire::{RulesetResponse, ruleset_name};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, get, post, web};
use serde_json::Value;
use serde_json::json;
use skirmish_domain::rulesets::UnknownRuleset;
use skirmish_domain::rulesets::adeva_d100::operations as adeva;
use skirmish_domain::rulesets::cepheus_engine::operations as cepheus;
use skirmish_domain::rulesets::{Operation, RulesetId};

fn operation_name(operation: Operation) -> &'static str {
    match operation {
        Operation::Initiative => "initiative",
        Operation::Attacks => "attacks",
        Operation::Damage => "damage",
        Operation::Actions => "actions",
    }
}

/// How each ruleset reaches initiative and breaks ties, and an example stat block.
fn describe(id: RulesetId) -> (&'static str, &'static str, serde_json::Value) {
    match id {
        RulesetId::AdevaD100 => (
            "1d10 + Agility Bonus (tens digit of Ag)",
            "higher Agility, then a 1d10 roll-off (re-rolling ties)",
            json!({"ws": 35, "bs": 40, "s": 30, "t": 35, "ag": 34, "int": 30, "per": 32, "wp": 30, "fel": 28}),
        ),
        RulesetId::Arrgs => (
            "the Initiative score from the stat block (or a fixed value), counted down",
            "higher Agility, then a 1d20 roll-off (re-rolling ties)",
            json!({"agility": 14, "initiative": 12}),
        ),
        RulesetId::Spycraft2 => (
            "1d20 + Initiative bonus",
            "higher Initiative bonus, then a 1d20 roll-off (re-rolling ties)",
            json!({"initiative_bonus": 4}),
        ),
        RulesetId::CepheusEngine => (
            "2D6 + DEX DM; in an ambush the aware take an automatic 12 + DEX DM",
            "higher DEX; still tied → same slot, acting simultaneously",
            json!({"str": 7, "dex": 9, "end": 8, "int": 7, "edu": 8, "soc": 6}),
        ),
        RulesetId::LurAsko => (
            "no formula in the rule text: send a fixed value per combatant",
            "combatants on the same value keep the order they joined in",
            json!({}),
        ),
    }
}

/// The rule systems Skirmish runs, with the operations each implements.
#[utoipa::path(operation_id = "list_rulesets", tag = "rulesets", responses((status = 200, body = Vec<RulesetResponse>), AuthErrors))]
#[get("/v1/rulesets")]
pub async fn list(_caller: Caller) -> HttpResponse {
    let rulesets: Vec<RulesetResponse> = RulesetId::ALL
        .into_iter()
        .map(|id| {
            let (initiative, tie_break, stats_example) = describe(id);
            RulesetResponse {
                id: ruleset_name(id),
                name: id.name().into(),
                source_text: id.source_text(),
                operations: id.operations().iter().map(|op| operation_name(*op).to_owned()).collect(),
                initiative: initiative.into(),
                tie_break: tie_break.into(),
                stats_example,
            }
        })
        .collect();
    HttpResponse::Ok().json(rulesets)
}

/// Answers 404 for an unknown ruleset, else 501 unless it implements the operation.
pub fn not_implemented(ruleset: &str, operation: Operation) -> ApiError {
    match ruleset.parse::<RulesetId>() {
        Err(unknown) => ApiError::NotFound(unknown.to_string()),
        Ok(id) => ApiError::NotImplemented(format!(
            "{} is not implemented for {id} yet; this ruleset implements: {}",
            operation_name(operation),
            id.operations().iter().map(|op| operation_name(*op)).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// A stateless operation: the ruleset's request with inline stat blocks; nothing is stored.
async fn inline(
    state: &AppState,
    caller: &Caller,
    ruleset: &str,
    body: Value,
    operation: Operation,
) -> Result<HttpResponse, ApiError> {
    let id: RulesetId =
        ruleset.parse().map_err(|unknown: UnknownRuleset| ApiError::NotFound(unknown.to_string()))?;
    if !id.implements(operation) {
        return Err(not_implemented(ruleset, operation));
    }
    let input = split_operation_body(body)?;
    let mut dice = dice_for(input.seed, input.rolls)?;
    let compute = move || -> Result<_, ApiError> {
        let result = match (id, operation) {
            (RulesetId::CepheusEngine, Operation::Attacks) => {
                report_json(&cepheus::attack_inline(ruleset_request(input.body)?, &mut dice)?)?
            }
            (RulesetId::CepheusEngine, Operation::Damage) => {
                report_json(&cepheus::damage_inline(ruleset_request(input.body)?, &mut dice)?)?
            }
            (RulesetId::AdevaD100, Operation::Attacks) => {
                report_json(&adeva::attack_inline(ruleset_request(input.body)?, &mut dice)?)?
            }
            (RulesetId::AdevaD100, Operation::Damage) => {
                report_json(&adeva::damage_inline(ruleset_request(input.body)?, &mut dice)?)?
            }
            (id, operation) => return Err(not_implemented(id.as_str(), operation)),
        };
        let seed = dice.seed();
        let dice = dice.into_rolls().into_iter().map(DieResponse::from).collect();
        json_reply(StatusCode::OK, &InlineOperationResponse { seed, dice, result }, None)
    };
    let store = state.store.clone();
    let (tenant, key) = (caller.tenant.clone(), caller.idempotency());
    let reply = web::block(move || store.idempotent(&tenant, key.as_ref(), compute)).await??;
    Ok(send(reply))
}

/// Resolves an attack from inline stat blocks, storing nothing (for bots that keep their own
/// state). cepheus-engine and adeva-d100 are implemented; the others answer 501.
#[utoipa::path(operation_id = "ruleset_attack",
    tag = "rulesets",
    params(("ruleset" = String, Path, description = "Ruleset id, e.g. `cepheus-engine`"), IdempotencyHeader),
    request_body(content = Object, description = "The ruleset's attack with `attacker` and `target` stat blocks inline, plus optional `seed` and `rolls`"),
    responses((status = 200, body = InlineOperationResponse), DiceErrors, OperationErrors, AuthErrors)
)]
#[post("/v1/rulesets/{ruleset}/attacks")]
pub async fn attacks(
    state: web::Data<AppState>,
    caller: Caller,
    ruleset: web::Path<String>,
    ApiJson(body): ApiJson<Value>,
) -> Result<HttpResponse, ApiError> {
    inline(&state, &caller, &ruleset, body, Operation::Attacks).await
}

/// Applies damage to an inline stat block, storing nothing. cepheus-engine and adeva-d100
/// are implemented; the others answer 501.
#[utoipa::path(operation_id = "ruleset_damage",
    tag = "rulesets",
    params(("ruleset" = String, Path, description = "Ruleset id, e.g. `cepheus-engine`"), IdempotencyHeader),
    request_body(content = Object, description = "The ruleset's damage with the `target` stat block inline, plus optional `seed` and `rolls`"),
    responses((status = 200, body = InlineOperationResponse), DiceErrors, OperationErrors, AuthErrors)
)]
#[post("/v1/rulesets/{ruleset}/damage")]
pub async fn damage(
    state: web::Data<AppState>,
    caller: Caller,
    ruleset: web::Path<String>,
    ApiJson(body): ApiJson<Value>,
) -> Result<HttpResponse, ApiError> {
    inline(&state, &caller, &ruleset, body, Operation::Damage).await
}
