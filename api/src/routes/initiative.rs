use super::responses::{AuthErrors, IdempotencyHeader, IfMatchHeader, MutationErrors};
use crate::app::{AppState, mutate};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::{ApiJson, IfMatch};
use crate::reply::json_reply;
use crate::wire::{
    DieResponse, InitiativeResponse, RollInitiativeRequest, TurnSlotResponse, check_list_len, dice_for,
    event_notices, run_strict, typed_request,
};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, post, web};
use serde_json::Value;
use skirmish_domain::dice::Dice;
use skirmish_domain::encounter::{
    CombatantId, Encounter, Event, InitiativeRequest, roll_initiative, turn_order,
};

/// Rolls initiative by the encounter's ruleset for everyone or the listed combatants, or takes
/// fixed values; ties are broken by the ruleset's rule. Everyone the request gives no `fixed`
/// value is rolled for (listed in `rolled`). Every die is returned and logged; `strict_rolls`
/// holds `rolls` to exactly the dice needed. Unknown or malformed fields are 422 naming the path.
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
    ApiJson(body): ApiJson<Value>,
) -> Result<HttpResponse, ApiError> {
    let request: RollInitiativeRequest = typed_request(body)?;
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
    let sent = request.rolls.clone().unwrap_or_default();
    let mut dice = dice_for(request.seed, request.rolls, request.strict_rolls)?;
    let seed = dice.seed();
    let initiative = InitiativeRequest { combatants, fixed, action_dice };
    let command = move |encounter: &mut Encounter| {
        let roll = |encounter: &mut Encounter, dice: &mut Dice| roll_initiative(encounter, &initiative, dice);
        let events = run_strict(encounter, &mut dice, &sent, roll)?;
        let rolled = rolled(&events, &initiative);
        Ok((events, (dice, rolled)))
    };
    let render = move |mutation: skirmish_db::Mutation<(Dice, Vec<String>)>| {
        let encounter = &mutation.encounter.encounter;
        let (dice, rolled) = mutation.output;
        let body = InitiativeResponse {
            version: encounter.version,
            seed,
            unused_rolls: dice.unused_rolls(),
            dice: dice.into_rolls().into_iter().map(DieResponse::from).collect(),
            rolled,
            turn_order: turn_order(encounter).into_iter().map(TurnSlotResponse::from).collect(),
            events: event_notices(mutation.events),
        };
        json_reply(StatusCode::OK, &body, Some(encounter.version))
    };
    mutate(&state, &caller, id.into_inner(), if_match, command, render).await
}

/// The combatants whose initiative was set in this request without a `fixed` value: rolled.
fn rolled(events: &[Event], request: &InitiativeRequest) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::InitiativeSet { combatant_id, .. }
                if !request.fixed.iter().any(|(id, _)| id == combatant_id) =>
            {
                Some(combatant_id.0.clone())
            }
            _ => None,
        })
        .collect()
}
