//! Ruleset operations: the body is the ruleset's own request plus the shared dice fields `seed`,
//! `rolls` and `strict_rolls`; the response carries every die, the leftover scripted values, the
//! ruleset's report and its one-line summary. The schemas are built per operation in
//! `routes/typed_route.rs`.

use super::dice::{DieResponse, dice_for};
use super::event::EventNotice;
use super::lenient;
use crate::error::ApiError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use skirmish_domain::dice::Dice;

/// An operation body, read: the ruleset's typed request and the dice it asks for.
pub struct OperationBody<T> {
    pub request: T,
    pub dice: Dice,
    /// `strict_rolls`: the scripted values must be exactly the dice rolled.
    pub strict: bool,
}

impl<T: DeserializeOwned> OperationBody<T> {
    /// Takes the dice fields out of the body (422 naming a malformed one), reads the rest as the
    /// ruleset's request (422 naming the path of a bad value), then sets up the dice.
    pub fn read(body: Value) -> Result<Self, ApiError> {
        let Value::Object(mut fields) = body else {
            return Err(ApiError::bad_request("body", "the body must be a JSON object"));
        };
        let DiceFields { seed, rolls, strict } = take_dice_fields(&mut fields)?;
        let request = typed_request(Value::Object(fields))?;
        Ok(Self { request, dice: dice_for(seed, rolls, strict)?, strict })
    }
}

/// The dice fields of an operation body, as sent.
struct DiceFields {
    seed: Option<u64>,
    rolls: Option<Vec<u32>>,
    strict: bool,
}

/// Takes `seed`, `rolls` and `strict_rolls` out of an operation body, naming the one at fault.
fn take_dice_fields(fields: &mut Map<String, Value>) -> Result<DiceFields, ApiError> {
    let seed = take("seed", fields.remove("seed"), lenient::optional_whole)?;
    let rolls = take("rolls", fields.remove("rolls"), lenient::optional_wholes)?;
    let strict_rolls = take("strict_rolls", fields.remove("strict_rolls"), |value| match value {
        Value::Null => Ok(None),
        other => serde_json::from_value::<bool>(other).map(Some),
    })?;
    Ok(DiceFields { seed, rolls, strict: strict_rolls.unwrap_or(false) })
}

fn take<T>(
    name: &str,
    value: Option<Value>,
    read: impl FnOnce(Value) -> Result<Option<T>, serde_json::Error>,
) -> Result<Option<T>, ApiError> {
    match value {
        None => Ok(None),
        Some(value) => read(value).map_err(|error| ApiError::invalid(name, error.to_string())),
    }
}

/// Reads a typed request (a ruleset's, or `initiative`'s and `advance`'s) from the body, naming
/// the full JSON path of a bad value. The body is well-formed JSON by then, so an unknown field
/// or a value of the wrong type or range is 422, not 400: one discipline on every route that
/// reads its body this way.
pub fn typed_request<T: DeserializeOwned>(body: Value) -> Result<T, ApiError> {
    // Read once without tracking the path; a body that fails is read again to name the field.
    if let Ok(request) = T::deserialize(&body) {
        return Ok(request);
    }
    let mut track = serde_path_to_error::Track::new();
    T::deserialize(serde_path_to_error::Deserializer::new(body, &mut track)).map_err(|error| {
        let path = track.path().to_string();
        ApiError::invalid(if path == "." { "body".to_owned() } else { path }, error.to_string())
    })
}

/// The outcome of an operation on a stored encounter (published per operation as
/// `<Ruleset><Operation>Response`).
#[derive(Debug, Serialize)]
#[serde(bound(serialize = "R: Serialize"))]
pub struct OperationResponse<R> {
    /// The encounter's new version.
    pub version: i64,
    pub seed: u64,
    /// Every die rolled, in order, with its purpose and source.
    pub dice: Vec<DieResponse>,
    /// Scripted values sent in `rolls` that no die used.
    pub unused_rolls: Vec<u32>,
    /// The report in one plain-English line.
    pub summary: String,
    /// The ruleset's report; its dice are `dice` above (each die is carried once).
    pub result: R,
    pub events: Vec<EventNotice>,
}

/// The outcome of a stateless operation (nothing stored): the same report as the stored form.
#[derive(Debug, Serialize)]
#[serde(bound(serialize = "R: Serialize"))]
pub struct InlineOperationResponse<R> {
    pub seed: u64,
    pub dice: Vec<DieResponse>,
    pub unused_rolls: Vec<u32>,
    pub summary: String,
    /// The ruleset's report; its dice are `dice` above (each die is carried once).
    pub result: R,
}
