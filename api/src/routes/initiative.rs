use super::responses::{AuthErrors, IdempotencyHeader, IfMatchHeader, MutationErrors};
use crate::app::{AppState, mutate};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::{ApiJson, IfMatch};
use crate::reply::json_reply;
use crate::wire::{
    DieResponse, InitiativeResponse, RollInitiativeRequest, TurnSlotResponse, check_list_len, dice_for,
    event_notices,
};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, post, web};
use skirmish_domain::encounter::{CombatantId, InitiativeRequest, roll_initiative, turn_order};

/// Rolls initiative by the encounter's ruleset for everyone or the listed combatants, or takes
/// fixed values; ties are broken by the ruleset's rule. Every die is returned and logged.
#[utoipa::path(operation_id = "roll_initiative", 
    tag = "encounters",
    params(("id" = String, Path, description = "Encounter id"), IfMatchHeader, IdempotencyHeader),
    request_body = RollInitiativeRequest,
    responses((status = 200, body = InitiativeResponse, headers(("ETag" = String))), MutationErrors, AuthErrors)
)]
#[post("/v1/encounters/{id}/initiative")]
pub async fn roll(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    if_match: IfMatch,
    ApiJson(request): ApiJson<RollInitiativeRequest>,
) -> Result<HttpResponse, ApiError> {
    let combatants = request.combatant_ids.map(|ids| ids.into_iter().map(CombatantId).collect::<Vec<_>>());
    let fixed: Vec<_> = request
        .fixed
        .unwrap_or_default()
        .into_iter()
        .map(|f| (CombatantId(f.combatant_id), f.value))
        .collect();
    let action_dice: Vec<_> = request
        .action_dice
        .unwrap_or_default()
        .into_iter()
        .map(|spend| (CombatantId(spend.combatant_id), u32::try_from(spend.dice).unwrap_or(0)))
        .collect();
    check_list_len("combatant_ids", combatants.as_deref().unwrap_or_default())?;
    check_list_len("fixed", &fixed)?;
    check_list_len("action_dice", &action_dice)?;
    let mut dice = dice_for(request.seed, request.rolls, false)?;
    let seed = dice.seed();
    let initiative = InitiativeRequest { combatants, fixed, action_dice };
    let command = move |encounter: &mut skirmish_domain::encounter::Encounter| {
        let events = roll_initiative(encounter, &initiative, &mut dice)?;
        Ok((events, dice.into_rolls()))
    };
    let render = move |mutation: skirmish_db::Mutation<Vec<_>>| {
        let encounter = &mutation.encounter.encounter;
        let body = InitiativeResponse {
            version: encounter.version,
            seed,
            dice: mutation.output.into_iter().map(DieResponse::from).collect(),
            turn_order: turn_order(encounter).into_iter().map(TurnSlotResponse::from).collect(),
            events: event_notices(mutation.events),
        };
        json_reply(StatusCode::OK, &body, Some(encounter.version))
    };
    mutate(&state, &caller, id.into_inner(), if_match, command, render).await
}
