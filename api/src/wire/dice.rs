use crate::error::ApiError;
use rand::RngExt;
use serde::{Deserialize, Serialize};
use skirmish_domain::dice::{Dice, DieRoll, DieSource, DieStatus, ExprOutcome, MAX_SCRIPTED_ROLLS};
use utoipa::ToSchema;

/// Largest seed: 2^53 − 1, so JavaScript clients can hold it exactly.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// One die as rolled, with what it was for.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"sides": 6, "value": 4, "purpose": "initiative: Vasquez", "status": "kept", "source": "scripted"}))]
pub struct DieResponse {
    pub sides: u32,
    pub value: u32,
    pub purpose: String,
    /// `kept`, `dropped` (keep/drop, or removed by a rule) or `rerolled` (replaced by the next die).
    pub status: DieStatusWire,
    /// `scripted` (a value sent in `rolls`) or `rng` (drawn from the seeded RNG).
    pub source: DieSourceWire,
    /// Added by an exploding die.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub explosion: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DieStatusWire {
    Kept,
    Dropped,
    Rerolled,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DieSourceWire {
    Scripted,
    Rng,
}

impl From<DieSource> for DieSourceWire {
    fn from(source: DieSource) -> Self {
        match source {
            DieSource::Scripted => Self::Scripted,
            DieSource::Rng => Self::Rng,
        }
    }
}

impl From<DieRoll> for DieResponse {
    fn from(roll: DieRoll) -> Self {
        let status = match roll.status {
            DieStatus::Kept => DieStatusWire::Kept,
            DieStatus::Dropped => DieStatusWire::Dropped,
            DieStatus::Rerolled => DieStatusWire::Rerolled,
        };
        Self {
            sides: roll.sides,
            value: roll.value,
            purpose: roll.purpose,
            status,
            source: roll.source.into(),
            explosion: roll.explosion,
        }
    }
}

/// Builds the request's dice: scripted values first (checked against each die), then the
/// seeded RNG. Without a seed a fresh one is drawn and reported so the roll can be replayed.
/// With `strict`, the scripted values must be exactly the dice rolled (see `Dice::finish_strict`).
pub fn dice_for(seed: Option<u64>, rolls: Option<Vec<u32>>, strict: bool) -> Result<Dice, ApiError> {
    let seed = match seed {
        Some(seed) if seed > MAX_SEED => {
            return Err(ApiError::invalid("seed", format!("must be between 0 and {MAX_SEED}")));
        }
        Some(seed) => seed,
        None => rand::rng().random_range(0..=MAX_SEED),
    };
    let rolls = rolls.unwrap_or_default();
    if rolls.len() > MAX_SCRIPTED_ROLLS {
        return Err(ApiError::invalid(
            "rolls",
            format!("at most {MAX_SCRIPTED_ROLLS} values, got {}", rolls.len()),
        ));
    }
    Ok(if strict { Dice::scripted_strict(rolls, seed)? } else { Dice::scripted(rolls, seed)? })
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"expression": "4d6kh3+2", "seed": 42}))]
pub struct RollDiceRequest {
    /// Dice notation as Avrae's d20: `NdM`, `d%`, `+ - * /`, parentheses, `khN` `klN` `dhN` `dlN`,
    /// `!` / `eX` (explode), `rrX` / `roX` (reroll, with `<` `>`).
    #[schema(min_length = 1, max_length = 200)]
    pub expression: String,
    /// Seed for the RNG (0 to 2^53 − 1). Omit for a fresh one; the response reports it.
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    #[serde(default, deserialize_with = "super::lenient::optional_whole")]
    pub seed: Option<u64>,
    /// Values rolled at the table, used in order before the RNG (each must fit its die).
    #[schema(max_items = 1000, value_type = Option<Vec<skirmish_domain::score::Score<1, 1000>>>)]
    #[serde(default, deserialize_with = "super::lenient::optional_wholes")]
    pub rolls: Option<Vec<u32>>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "expression": "4d6kh3+2", "total": 16, "rendered": "4d6kh3 (6, 5, 3, ~~1~~) + 2 = 16", "seed": 42,
    "dice": [{"sides": 6, "value": 6, "purpose": "dice: 4d6kh3+2", "status": "kept"}]
}))]
pub struct RollDiceResponse {
    pub expression: String,
    pub total: i64,
    /// The working, dropped dice struck through (`~~1~~`).
    pub rendered: String,
    pub dice: Vec<DieResponse>,
    /// The seed used: send it back to get the same dice.
    pub seed: u64,
}

impl RollDiceResponse {
    pub fn new(expression: String, outcome: ExprOutcome, seed: u64) -> Self {
        Self {
            expression,
            total: outcome.total,
            rendered: outcome.rendered,
            dice: outcome.dice.into_iter().map(DieResponse::from).collect(),
            seed,
        }
    }
}
