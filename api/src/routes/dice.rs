use super::responses::{AuthErrors, DiceErrors, IdempotencyHeader};
use crate::app::{AppState, idempotent};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::extract::ApiJson;
use crate::reply::json_reply;
use crate::wire::{RollDiceRequest, RollDiceResponse, dice_for};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, post, web};
use skirmish_domain::dice::DiceExpr;

/// Rolls a dice expression in Avrae d20 notation. Stores nothing.
///
/// Send `rolls` to use physical dice (checked against each die, then the seeded RNG takes
/// over; with `strict_rolls` they must be exactly the dice needed) or `seed` to replay a roll
/// exactly. `allow_comments` reads text after the expression as a comment.
#[utoipa::path(operation_id = "roll_dice", tag = "dice", params(IdempotencyHeader), request_body = RollDiceRequest, responses((status = 200, body = RollDiceResponse), DiceErrors, AuthErrors))]
#[post("/v1/dice/roll")]
pub async fn roll(
    state: web::Data<AppState>,
    caller: Caller,
    ApiJson(request): ApiJson<RollDiceRequest>,
) -> Result<HttpResponse, ApiError> {
    let expression = DiceExpr::parse(&request.expression, request.allow_comments)?;
    let mut dice = dice_for(request.seed, request.rolls, request.strict_rolls)?;
    let compute = move || -> Result<_, ApiError> {
        let purpose = format!("dice: {}", expression.as_str());
        let outcome = expression.roll(&mut dice, &purpose)?;
        dice.finish_strict()?;
        let body = RollDiceResponse::new(request.expression, outcome, dice.seed());
        json_reply(StatusCode::OK, &body, None)
    };
    idempotent(&state, &caller, compute).await
}
