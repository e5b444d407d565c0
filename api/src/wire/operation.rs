//! Ruleset operations (attacks, damage, actions): the body is the ruleset's own request plus the
//! shared dice fields `seed` and `rolls`; the response carries every die and the ruleset's report.

use super::{DieResponse, EventResponse, lenient};
use crate::error::ApiError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// The dice fields of an operation body, and the rest for the ruleset.
pub struct OperationInput {
    pub seed: Option<u64>,
    pub rolls: Option<Vec<u32>>,
    pub body: Value,
}

/// Takes `seed` and `rolls` out of an operation body (a JSON object).
pub fn split_operation_body(body: Value) -> Result<OperationInput, ApiError> {
    let Value::Object(mut fields) = body else {
        return Err(ApiError::bad_request("body", "the body must be a JSON object"));
    };
    let seed = take(&mut fields, "seed", lenient::optional_whole)?;
    let rolls = take(&mut fields, "rolls", lenient::optional_wholes)?;
    Ok(OperationInput { seed, rolls, body: Value::Object(fields) })
}

fn take<T>(
    fields: &mut Map<String, Value>,
    name: &str,
    read: impl FnOnce(Value) -> Result<Option<T>, serde_json::Error>,
) -> Result<Option<T>, ApiError> {
    match fields.remove(name) {
        None => Ok(None),
        Some(value) => read(value).map_err(|error| ApiError::bad_request(name, error.to_string())),
    }
}

/// Reads a ruleset's request from the body, naming the JSON path of a bad value. The body is
/// well-formed JSON by then and the schema publishes it as a ruleset-specific object, so what
/// the ruleset cannot read is 422, not 400.
pub fn ruleset_request<T: DeserializeOwned>(body: Value) -> Result<T, ApiError> {
    let mut track = serde_path_to_error::Track::new();
    T::deserialize(serde_path_to_error::Deserializer::new(body, &mut track)).map_err(|error| {
        let path = track.path().to_string();
        ApiError::invalid(if path == "." { "body".to_owned() } else { path }, error.to_string())
    })
}

/// A ruleset's report as JSON.
pub fn report_json<R: Serialize>(report: &R) -> Result<Value, ApiError> {
    serde_json::to_value(report).map_err(|error| ApiError::Internal(Box::new(error)))
}

/// The outcome of an operation on a stored encounter.
#[derive(Debug, Serialize, ToSchema)]
pub struct OperationResponse {
    /// The encounter's new version.
    pub version: i64,
    pub seed: u64,
    /// Every die rolled, in order, with its purpose.
    pub dice: Vec<DieResponse>,
    /// The ruleset's report: every modifier with its reason, each damage step, the new state.
    #[schema(value_type = Object)]
    pub result: Value,
    pub events: Vec<EventResponse>,
}

/// The outcome of a stateless operation (nothing stored).
#[derive(Debug, Serialize, ToSchema)]
pub struct InlineOperationResponse {
    pub seed: u64,
    pub dice: Vec<DieResponse>,
    #[schema(value_type = Object)]
    pub result: Value,
}
