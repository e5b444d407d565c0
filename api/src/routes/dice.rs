use super::responses::DiceErrors;
use crate::error::ApiError;
use crate::extract::ApiJson;
use crate::wire::{RollDiceRequest, RollDiceResponse, dice_for};
use actix_web::{HttpResponse, post};
use skirmish_domain::dice::DiceExpr;

/// Rolls a dice expression (Avrae `d20` notation). Stores nothing.
///
/// Send `rolls` to use physical dice (checked against each die, then the seeded RNG takes
/// over) or `seed` to replay a roll exactly.
#[utoipa::path(tag = "dice", request_body = RollDiceRequest, responses((status = 200, body = RollDiceResponse), DiceErrors))]
#[post("/v1/dice/roll")]
pub async fn roll(ApiJson(request): ApiJson<RollDiceRequest>) -> Result<HttpResponse, ApiError> {
    let expression: DiceExpr = request.expression.parse()?;
    let mut dice = dice_for(request.seed, request.rolls)?;
    let purpose = format!("dice: {}", expression.as_str());
    let outcome = expression.roll(&mut dice, &purpose)?;
    Ok(HttpResponse::Ok().json(RollDiceResponse::new(request.expression, outcome, dice.seed())))
}
