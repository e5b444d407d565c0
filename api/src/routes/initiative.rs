use super::responses::MutationErrors;
use super::{AppState, mutate};
use crate::error::ApiError;
use crate::extract::{ApiJson, IfMatch, etag};
use crate::wire::{
    DieResponse, InitiativeResponse, RollInitiativeRequest, TurnSlotResponse, check_list_len, dice_for,
    events_response,
};
use actix_web::{HttpResponse, post, web};
use skirmish_domain::encounter::{CombatantId, InitiativeRequest, roll_initiative, turn_order};

/// Rolls initiative by the encounter's ruleset for everyone or the listed combatants, or takes
/// fixed values; ties are broken by the ruleset's rule. Every die is returned and logged.
#[utoipa::path(
    tag = "encounters",
    params(("id" = String, Path, description = "Encounter id"),
           ("If-Match" = Option<String>, Header, description = "Act only if the encounter is at this version")),
    request_body = RollInitiativeRequest,
    responses((status = 200, body = InitiativeResponse, headers(("ETag" = String))), MutationErrors)
)]
#[post("/v1/encounters/{id}/initiative")]
pub async fn roll(
    state: web::Data<AppState>,
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
    check_list_len("combatant_ids", combatants.as_deref().unwrap_or_default())?;
    check_list_len("fixed", &fixed)?;
    let mut dice = dice_for(request.seed, request.rolls)?;
    let seed = dice.seed();
    let command = InitiativeRequest { combatants, fixed };
    let mutation = mutate(&state, id.into_inner(), if_match, move |encounter| {
        let events = roll_initiative(encounter, &command, &mut dice)?;
        Ok((events, dice.into_rolls()))
    })
    .await?;
    let encounter = mutation.encounter.encounter;
    Ok(HttpResponse::Ok().insert_header(etag(encounter.version)).json(InitiativeResponse {
        version: encounter.version,
        seed,
        dice: mutation.output.into_iter().map(DieResponse::from).collect(),
        turn_order: turn_order(&encounter).into_iter().map(TurnSlotResponse::from).collect(),
        events: events_response(mutation.events),
    }))
}
