use super::responses::{AuthErrors, OperationErrors};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::wire::{RulesetResponse, ruleset_name};
use actix_web::{HttpResponse, get, post, web};
use serde_json::json;
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

/// Resolves an attack from inline stat blocks, storing nothing. Not implemented yet for any
/// ruleset: answers 501.
#[utoipa::path(operation_id = "ruleset_attack", 
    tag = "rulesets",
    params(("ruleset" = String, Path, description = "Ruleset id, e.g. `cepheus-engine`")),
    request_body(content = Object, description = "Ruleset-specific attack: attacker, defender, weapon, modifiers"),
    responses(OperationErrors)
)]
#[post("/v1/rulesets/{ruleset}/attacks")]
pub async fn attacks(_caller: Caller, ruleset: web::Path<String>) -> Result<HttpResponse, ApiError> {
    Err(not_implemented(&ruleset, Operation::Attacks))
}

/// Applies damage to an inline stat block, storing nothing. Not implemented yet for any
/// ruleset: answers 501.
#[utoipa::path(operation_id = "ruleset_damage", 
    tag = "rulesets",
    params(("ruleset" = String, Path, description = "Ruleset id, e.g. `cepheus-engine`")),
    request_body(content = Object, description = "Ruleset-specific damage: target stat block and damage"),
    responses(OperationErrors)
)]
#[post("/v1/rulesets/{ruleset}/damage")]
pub async fn damage(_caller: Caller, ruleset: web::Path<String>) -> Result<HttpResponse, ApiError> {
    Err(not_implemented(&ruleset, Operation::Damage))
}
