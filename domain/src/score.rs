//! A bounded integer read from client input: out-of-range values are refused when parsed.

use serde::{Deserialize, Serialize};

/// An integer in `MIN..=MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "i32")]
pub struct Score<const MIN: i32, const MAX: i32>(i32);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{value} is out of range (expected {min}..={max})")]
pub struct OutOfRange {
    pub value: i64,
    pub min: i32,
    pub max: i32,
}

impl<const MIN: i32, const MAX: i32> Score<MIN, MAX> {
    pub fn new(value: i64) -> Result<Self, OutOfRange> {
        if (i64::from(MIN)..=i64::from(MAX)).contains(&value) {
            Ok(Self(value as i32))
        } else {
            Err(OutOfRange { value, min: MIN, max: MAX })
        }
    }

    pub fn get(self) -> i32 {
        self.0
    }
}

impl<const MIN: i32, const MAX: i32> TryFrom<i64> for Score<MIN, MAX> {
    type Error = OutOfRange;

    fn try_from(value: i64) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl<const MIN: i32, const MAX: i32> From<Score<MIN, MAX>> for i32 {
    fn from(score: Score<MIN, MAX>) -> i32 {
        score.0
    }
}

/// Published as an integer schema with its bounds (`minimum`/`maximum`), named after them
/// (`Score0To30`, `ScoreMinus20To20`): utoipa references every non-primitive field by name, so
/// each bound pair needs a name of its own.
#[cfg(feature = "schema")]
impl<const MIN: i32, const MAX: i32> utoipa::PartialSchema for Score<MIN, MAX> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
            .minimum(Some(f64::from(MIN)))
            .maximum(Some(f64::from(MAX)))
            .into()
    }
}

#[cfg(feature = "schema")]
impl<const MIN: i32, const MAX: i32> utoipa::ToSchema for Score<MIN, MAX> {
    fn name() -> std::borrow::Cow<'static, str> {
        let bound =
            |value: i32| if value < 0 { format!("Minus{}", value.unsigned_abs()) } else { value.to_string() };
        format!("Score{}To{}", bound(MIN), bound(MAX)).into()
    }
}
