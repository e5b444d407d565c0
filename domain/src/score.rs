//! A bounded integer read from client input: out-of-range values are refused when parsed.

use serde::{Deserialize, Serialize};

/// An integer in `MIN..=MAX`. Read from a JSON integer, or from a number with no fractional part
/// (`7.0`), which JSON Schema also counts as an integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(into = "i32")]
pub struct Score<const MIN: i32, const MAX: i32>(i32);

impl<'de, const MIN: i32, const MAX: i32> Deserialize<'de> for Score<MIN, MAX> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_i64(ScoreVisitor::<MIN, MAX>)
    }
}

struct ScoreVisitor<const MIN: i32, const MAX: i32>;

impl<const MIN: i32, const MAX: i32> serde::de::Visitor<'_> for ScoreVisitor<MIN, MAX> {
    type Value = Score<MIN, MAX>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(formatter, "an integer in {MIN}..={MAX}")
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Self::Value, E> {
        Score::new(value).map_err(E::custom)
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Self::Value, E> {
        let value = i64::try_from(value).unwrap_or(i64::MAX);
        Score::new(value).map_err(E::custom)
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Self::Value, E> {
        if value.is_finite() && value.fract() == 0.0 {
            // A whole number: the cast is exact in range and saturates outside it, where the
            // bound check refuses it.
            return Score::new(value as i64).map_err(E::custom);
        }
        Err(E::invalid_type(serde::de::Unexpected::Float(value), &self))
    }
}

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

impl<const MIN: i32, const MAX: i32> Default for Score<MIN, MAX> {
    /// The value in range nearest 0.
    fn default() -> Self {
        Self(0.clamp(MIN, MAX))
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

/// A bounded real number read from client input (metres, km/h): finite and in `MIN..=MAX`;
/// anything else (NaN, ±∞, out of range) is refused when parsed.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(try_from = "f64", into = "f64")]
pub struct Measure<const MIN: i32, const MAX: i32>(f64);

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{value} is out of range (expected a finite number from {min} to {max})")]
pub struct MeasureOutOfRange {
    pub value: f64,
    pub min: i32,
    pub max: i32,
}

impl<const MIN: i32, const MAX: i32> Measure<MIN, MAX> {
    pub fn new(value: f64) -> Result<Self, MeasureOutOfRange> {
        if value.is_finite() && (f64::from(MIN)..=f64::from(MAX)).contains(&value) {
            Ok(Self(value))
        } else {
            Err(MeasureOutOfRange { value, min: MIN, max: MAX })
        }
    }

    pub fn get(self) -> f64 {
        self.0
    }
}

impl<const MIN: i32, const MAX: i32> Default for Measure<MIN, MAX> {
    /// The bound nearest 0.
    fn default() -> Self {
        Self(f64::from(0.clamp(MIN, MAX)))
    }
}

impl<const MIN: i32, const MAX: i32> TryFrom<f64> for Measure<MIN, MAX> {
    type Error = MeasureOutOfRange;

    fn try_from(value: f64) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl<const MIN: i32, const MAX: i32> From<Measure<MIN, MAX>> for f64 {
    fn from(measure: Measure<MIN, MAX>) -> f64 {
        measure.0
    }
}

/// Published as a number schema with its bounds, named after them (`Measure0To10000`).
#[cfg(feature = "schema")]
impl<const MIN: i32, const MAX: i32> utoipa::PartialSchema for Measure<MIN, MAX> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::Number)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Double)))
            .minimum(Some(f64::from(MIN)))
            .maximum(Some(f64::from(MAX)))
            .into()
    }
}

#[cfg(feature = "schema")]
impl<const MIN: i32, const MAX: i32> utoipa::ToSchema for Measure<MIN, MAX> {
    fn name() -> std::borrow::Cow<'static, str> {
        let bound =
            |value: i32| if value < 0 { format!("Minus{}", value.unsigned_abs()) } else { value.to_string() };
        format!("Measure{}To{}", bound(MIN), bound(MAX)).into()
    }
}

#[cfg(test)]
mod measure_tests {
    use super::Measure;

    #[test]
    fn a_measure_refuses_nan_infinity_and_values_outside_its_bounds() {
        assert!(Measure::<0, 10>::new(f64::NAN).is_err());
        assert!(Measure::<0, 10>::new(f64::INFINITY).is_err());
        assert!(Measure::<0, 10>::new(1e308).is_err());
        assert!(Measure::<0, 10>::new(-0.5).is_err());
        assert_eq!(Measure::<0, 10>::new(10.0).map(Measure::get), Ok(10.0));
        assert_eq!(Measure::<0, 10>::new(2.5).map(Measure::get), Ok(2.5));
    }

    #[test]
    fn a_measure_is_read_from_json_with_its_bounds() {
        let read: Result<Measure<0, 10>, _> = serde_json::from_str("10.5");
        assert!(read.is_err());
        let read: Measure<0, 10> = serde_json::from_str("3").unwrap();
        assert_eq!(read.get(), 3.0);
        assert_eq!(serde_json::to_string(&read).unwrap(), "3.0");
    }
}

#[cfg(test)]
mod json_integer_tests {
    use super::Score;

    #[test]
    fn a_whole_number_written_with_a_fraction_is_an_integer() {
        let read: Score<1, 100> = serde_json::from_str("12.0").expect("a whole number");
        assert_eq!(read.get(), 12);
    }

    #[test]
    fn fractions_and_out_of_range_whole_numbers_are_refused() {
        assert!(serde_json::from_str::<Score<1, 100>>("12.5").is_err());
        assert!(serde_json::from_str::<Score<1, 100>>("101.0").is_err());
        assert!(serde_json::from_str::<Score<1, 100>>("1e300").is_err());
        assert!(serde_json::from_str::<Score<1, 100>>("18446744073709551615").is_err());
    }
}
