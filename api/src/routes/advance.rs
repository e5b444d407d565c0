use super::responses::{AuthErrors, IdempotencyHeader, IfMatchHeader, MutationErrors};
use crate::app::{AppState, mutate};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::{IfMatch, OptionalJson};
use crate::reply::json_reply;
use crate::wire::{
    AdvanceRequest, AdvanceResponse, AdvanceTo, CurrentTurn, DieResponse, EffectNotice, EncounterMoment,
    TurnSlotResponse, dice_for, event_notices, run_strict, typed_request,
};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, post, web};
use serde_json::Value;
use skirmish_db::{Mutation, StoredResponse};
use skirmish_domain::dice::Dice;
use skirmish_domain::encounter::{Advance, CombatantId, Encounter, Event, Moment, advance_with, turn_order};

/// Effects that fired and expired, from the events of one advance.
fn notices(encounter: &Encounter, events: &[Event]) -> (Vec<EffectNotice>, Vec<EffectNotice>) {
    let mut fired = Vec::new();
    let mut expired = Vec::new();
    for event in events {
        match event {
            Event::EffectFired { effect_id, name, moment } => fired.push(EffectNotice {
                effect_id: effect_id.0.clone(),
                name: name.clone(),
                reason: describe(encounter, moment),
            }),
            Event::EffectExpired { effect_id, name, reason } => expired.push(EffectNotice {
                effect_id: effect_id.0.clone(),
                name: name.clone(),
                reason: reason.clone(),
            }),
            _ => {}
        }
    }
    (fired, expired)
}

fn describe(encounter: &Encounter, moment: &Moment) -> String {
    match moment {
        Moment::StartOfRound => "start of the round".into(),
        Moment::EndOfRound => "end of the round".into(),
        Moment::StartOfTurn { combatant_id } => {
            format!("start of {}'s turn", encounter.name_of(combatant_id))
        }
        Moment::EndOfTurn { combatant_id } => format!("end of {}'s turn", encounter.name_of(combatant_id)),
    }
}

/// Ends the current turn and starts the next (or the next round, or ends the encounter). The
/// first advance of an encounter in setup starts round 1. The response says whose turn it is
/// now and every effect that fired or expired on the way. What the round hooks roll (arrgs' End
/// of Round checks, spycraft2's roll-offs of ties its fluid Counts create) comes from the body's
/// `rolls`, then its `seed`, and is answered in `dice` with `unused_rolls`, as for operations.
#[utoipa::path(operation_id = "advance_encounter", 
    tag = "encounters",
    params(("id" = String, Path, description = "Encounter id"), IfMatchHeader, IdempotencyHeader),
    request_body(content = Option<AdvanceRequest>, description = "Optional; default `{\"to\": \"next_turn\"}`"),
    responses((status = 200, body = AdvanceResponse, headers(("ETag" = String))), MutationErrors, AuthErrors)
)]
#[post("/v1/encounters/{id}/advance")]
pub async fn advance(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    if_match: IfMatch,
    OptionalJson(body): OptionalJson<Value>,
) -> Result<HttpResponse, ApiError> {
    let request: AdvanceRequest = body.map(typed_request).transpose()?.unwrap_or_default();
    let sent = request.rolls.clone().unwrap_or_default();
    let mut dice = dice_for(request.seed, request.rolls.clone(), request.strict_rolls)?;
    let step = advance_step(&request)?;
    let command = move |encounter: &mut Encounter| {
        let go = |encounter: &mut Encounter, dice: &mut Dice| advance_with(encounter, step.clone(), dice);
        let events = run_strict(encounter, &mut dice, &sent, go)?;
        let notices = notices(encounter, &events);
        Ok((events, (notices, dice)))
    };
    mutate(&state, &caller, id.into_inner(), if_match, command, render).await
}

fn advance_step(request: &AdvanceRequest) -> Result<Advance, ApiError> {
    let needs_id = matches!(request.to, AdvanceTo::ActNow);
    match (request.combatant_id.clone(), needs_id) {
        (Some(_), false) => Err(ApiError::invalid("combatant_id", "only used with \"to\": \"act_now\"")),
        (None, true) => Err(ApiError::invalid("combatant_id", "act_now needs the delaying combatant's id")),
        (Some(id), true) => Ok(Advance::ActNow(CombatantId(id))),
        (None, false) => Ok(match request.to {
            AdvanceTo::NextTurn | AdvanceTo::ActNow => Advance::NextTurn,
            AdvanceTo::Delay => Advance::Delay,
            AdvanceTo::NextRound => Advance::NextRound,
            AdvanceTo::StartRound => Advance::StartRound,
            AdvanceTo::EndEncounter => Advance::EndEncounter,
        }),
    }
}

type Notices = (Vec<EffectNotice>, Vec<EffectNotice>);

fn render(mutation: Mutation<(Notices, Dice)>) -> Result<StoredResponse, ApiError> {
    let ((fired, expired), dice) = mutation.output;
    let encounter = &mutation.encounter.encounter;
    let current_turn = encounter
        .current
        .as_ref()
        .map(|id| CurrentTurn { combatant_id: id.0.clone(), name: encounter.name_of(id) });
    let moment = EncounterMoment::of(encounter);
    let body = AdvanceResponse {
        version: encounter.version,
        moment,
        status: encounter.status.into(),
        round: encounter.round,
        current_turn,
        turn_order: turn_order(encounter).into_iter().map(TurnSlotResponse::from).collect(),
        fired,
        expired,
        seed: dice.seed(),
        unused_rolls: dice.unused_rolls(),
        dice: dice.into_rolls().into_iter().map(DieResponse::from).collect(),
        events: event_notices(mutation.events),
    };
    json_reply(StatusCode::OK, &body, Some(encounter.version))
}
