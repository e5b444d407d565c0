//! Ruleset operations: the body is the ruleset's own request plus the shared dice fields `seed`,
//! `rolls` and `strict_rolls`; the response carries every die, the leftover scripted values, the
//! ruleset's report and its one-line summary. The schemas are built per operation in
//! `routes/typed_route.rs`.

use super::{DiceFields, DieResponse, EventNotice, lenient};
use crate::error::ApiError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The dice fields of an operation body, and the rest for the ruleset.
pub struct OperationInput {
    pub seed: Option<u64>,
    pub rolls: Option<Vec<u32>>,
    pub strict_rolls: bool,
    pub body: Value,
}

/// Takes `seed` and `rolls` out of an operation body (a JSON object).
pub fn split_operation_body(body: Value) -> Result<OperationInput, ApiError> {
    let Value::Object(mut fields) = body else {
        return Err(ApiError::bad_request("body", "the body must be a JSON object"));
    };
    let dice = DiceFields {
        seed: fields.remove("seed"),
        rolls: fields.remove("rolls"),
        strict_rolls: fields.remove("strict_rolls"),
    };
    let DiceOptions { seed, rolls, strict_rolls } = read_dice_fields(dice)?;
    Ok(OperationInput { seed, rolls, strict_rolls, body: Value::Object(fields) })
}

/// The dice fields of an operation body, read.
pub struct DiceOptions {
    pub seed: Option<u64>,
    pub rolls: Option<Vec<u32>>,
    pub strict_rolls: bool,
}

/// Reads the dice fields of a body (`seed`, `rolls`, `strict_rolls`), naming the one at fault.
pub fn read_dice_fields(fields: DiceFields) -> Result<DiceOptions, ApiError> {
    let seed = take("seed", fields.seed, lenient::optional_whole)?;
    let rolls = take("rolls", fields.rolls, lenient::optional_wholes)?;
    let strict_rolls = take("strict_rolls", fields.strict_rolls, |value| match value {
        Value::Bool(strict) => Ok(Some(strict)),
        Value::Null => Ok(None),
        other => serde_json::from_value::<bool>(other).map(Some),
    })?
    .unwrap_or(false);
    Ok(DiceOptions { seed, rolls, strict_rolls })
}

fn take<T>(
    name: &str,
    value: Option<Value>,
    read: impl FnOnce(Value) -> Result<Option<T>, serde_json::Error>,
) -> Result<Option<T>, ApiError> {
    match value {
        None => Ok(None),
        Some(value) => read(value).map_err(|error| ApiError::bad_request(name, error.to_string())),
    }
}

/// Reads a ruleset's request from the body, naming the JSON path of a bad value. The body is
/// well-formed JSON by then and the schema publishes it as a ruleset-specific object, so what
/// the ruleset cannot read is 422, not 400.
pub fn ruleset_request<T: DeserializeOwned>(body: Value) -> Result<T, ApiError> {
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
    /// The ruleset's report, without its own `dice`: `dice` above lists each die once.
    #[serde(serialize_with = "super::without_dice")]
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
    /// The ruleset's report, without its own `dice`: `dice` above lists each die once.
    #[serde(serialize_with = "super::without_dice")]
    pub result: R,
}
