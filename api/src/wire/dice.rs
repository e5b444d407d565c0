use crate::error::ApiError;
use rand::RngExt;
use serde::{Deserialize, Serialize};
use skirmish_domain::dice::{
    Dice, DiceError, DieRoll, DieSource, DieStatus, ExprOutcome, MAX_SCRIPTED_ROLLS, Ratio, Term,
};
use skirmish_domain::encounter::EncounterError;
use std::borrow::Cow;
use utoipa::ToSchema;

/// Largest seed: 2^53 − 1, so JavaScript clients can hold it exactly.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// One die as rolled, with what it was for.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"sides": 6, "value": 4, "purpose": "initiative: Vasquez", "status": "kept", "source": "scripted"}))]
pub struct DieResponse {
    pub sides: u32,
    pub value: u32,
    // Moved from the die as it is: fixed text (most dice) stays borrowed, so an answer's dice
    // allocate nothing for it. A plain string in the answer (and in the spec: no doc comment
    // here, which would become the schema's description).
    #[schema(value_type = String)]
    pub purpose: Cow<'static, str>,
    /// What became of the die. Counting toward the result: `kept`, `exploded` (added a die),
    /// `raised` / `lowered` (by `mi` / `ma`, see `counted_as`). Not counting: `dropped`
    /// (keep/drop, or removed by a rule) and `rerolled` (replaced by a later die).
    pub status: DieStatusWire,
    /// `scripted` (a value sent in `rolls`) or `rng` (drawn from the seeded RNG).
    pub source: DieSourceWire,
    /// Added by an exploding die.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub explosion: bool,
    /// The value the die counts as after `mi` / `ma` (absent when unchanged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counted_as: Option<u32>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DieStatusWire {
    Kept,
    Dropped,
    Rerolled,
    Exploded,
    Raised,
    Lowered,
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
            DieStatus::Exploded => DieStatusWire::Exploded,
            DieStatus::Raised => DieStatusWire::Raised,
            DieStatus::Lowered => DieStatusWire::Lowered,
        };
        Self {
            sides: roll.sides,
            value: roll.value,
            purpose: roll.purpose,
            status,
            source: roll.source.into(),
            explosion: roll.explosion,
            counted_as: roll.counted_as,
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
#[schema(example = json!({"expression": "4d6kh3+2 [fire]", "seed": 42}))]
pub struct RollDiceRequest {
    /// Dice notation as Avrae's d20 (see the README's dice section): `NdM`, `d%` (1–100),
    /// `+ - * / // %`, comparisons `== != < > <= >=` (1 or 0), decimals, parentheses, sets
    /// `(1d4, 2+2)kh1`, annotations `8d6 [fire]`, operations `k p d` (keep, drop), `rr ro ra`
    /// (reroll, reroll once, reroll and add), `e` / `!` (explode), `mi ma` (minimum, maximum),
    /// with selectors `hN lN N <N >N`.
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
    /// Read text after the expression as a comment (`1d20 I search the room`), as d20's
    /// `allow_comments`. Off by default: such text is an error.
    #[serde(default)]
    pub allow_comments: bool,
    /// The `rolls` must be exactly the dice rolled: running out, or leaving some unused, is a
    /// 422 naming `rolls` instead of handing over to the RNG.
    #[serde(default)]
    pub strict_rolls: bool,
}

/// An annotated term of the expression, e.g. `3d8kh2` with `[fire]`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TermResponse {
    /// The term as written, without its annotation.
    pub text: String,
    /// Its annotations as written, e.g. `[fire]`.
    pub annotation: String,
    /// What the term counts for (0 if a set operation dropped it; may be fractional, e.g. 1.5).
    #[schema(value_type = f64)]
    pub total: serde_json::Number,
    /// Indices in `dice` of the dice rolled inside the term.
    pub dice: Vec<usize>,
}

impl From<Term> for TermResponse {
    fn from(term: Term) -> Self {
        Self { text: term.text, annotation: term.annotation, total: number(term.total), dice: term.dice }
    }
}

/// A whole number as a JSON integer, anything else as the nearest float.
fn number(value: Ratio) -> serde_json::Number {
    if value.denominator() == 1 {
        return value.numerator().into();
    }
    serde_json::Number::from_f64(value.to_f64()).unwrap_or_else(|| value.trunc().into())
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "expression": "4d6kh3+2 [fire]", "total": 16, "rendered": "4d6kh3 (6, 5, 3, ~~1~~) + 2 [fire] = 16",
    "seed": 42, "terms": [{"text": "2", "annotation": "[fire]", "total": 2, "dice": []}],
    "dice": [{"sides": 6, "value": 6, "purpose": "dice: 4d6kh3+2 [fire]", "status": "kept", "source": "rng"}]
}))]
pub struct RollDiceResponse {
    pub expression: String,
    /// The total, rounded toward zero (`15 / 2` totals 7), as d20.
    pub total: i64,
    /// The working as d20 writes it: dice no longer counting struck through (`~~1~~`), `6!` a
    /// die that exploded, `1 -> 3` a die raised by `mi`, annotations kept.
    pub rendered: String,
    pub dice: Vec<DieResponse>,
    /// Every annotated term, in the order written.
    pub terms: Vec<TermResponse>,
    /// The comment after the expression (only with `allow_comments`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
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
            terms: outcome.terms.into_iter().map(TermResponse::from).collect(),
            comment: outcome.comment,
            seed,
        }
    }
}

/// Runs `roll` with the request's `dice`. With `strict_rolls`, too few dice sent (the roll ran
/// out) or too many (some left over) is a 422 on `rolls` saying how many dice the request needs
/// and what for: `roll` is run again on a copy of `state`, with the same values and the RNG
/// after them, to list the dice it rolls. Without `strict_rolls` this is `roll` itself.
pub fn run_strict<S: Clone, T>(
    state: &mut S,
    dice: &mut Dice,
    sent: &[u32],
    mut roll: impl FnMut(&mut S, &mut Dice) -> Result<T, EncounterError>,
) -> Result<T, ApiError> {
    if !dice.is_strict() {
        return roll(state, dice).map_err(Into::into);
    }
    let copy = state.clone();
    let refusal = match roll(state, dice) {
        Ok(value) => match dice.finish_strict() {
            Ok(()) => return Ok(value),
            Err(error) => error,
        },
        Err(EncounterError::Dice(error @ DiceError::ScriptedExhausted { .. })) => error,
        Err(other) => return Err(other.into()),
    };
    let mut trial = copy;
    let mut free = Dice::scripted(sent.to_vec(), dice.seed())?;
    match roll(&mut trial, &mut free) {
        Ok(_) => Err(ApiError::invalid("rolls", needed(free.rolls(), sent.len()))),
        Err(_) => Err(refusal.into()),
    }
}

/// "needs 6 dice, 4 sent (strict_rolls): 2d6 for initiative: Vasquez, 2d6 for …".
fn needed(rolls: &[DieRoll], sent: usize) -> String {
    let mut groups: Vec<(usize, u32, &str)> = Vec::new();
    for roll in rolls {
        match groups.last_mut() {
            Some((count, sides, purpose)) if *sides == roll.sides && *purpose == roll.purpose => *count += 1,
            _ => groups.push((1, roll.sides, &roll.purpose)),
        }
    }
    let list: Vec<String> =
        groups.iter().map(|(count, sides, purpose)| format!("{count}d{sides} for {purpose}")).collect();
    let dice = if rolls.len() == 1 { "die" } else { "dice" };
    let detail = if list.is_empty() { "nothing to roll".to_owned() } else { list.join(", ") };
    format!("needs {} {dice}, {sent} sent (strict_rolls): {detail}", rolls.len())
}
