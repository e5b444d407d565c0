//! Integers as JSON writes them. OpenAPI 3.1 counts `3.0` as an integer, so a client (or a
//! generator) may send whole numbers with a fraction part of zero; they are accepted wherever an
//! integer is expected, and anything else (3.5, out of range) is refused by name. Such a number is
//! read as the nearest double (serde_json's `float_roundtrip`), which is the whole number itself
//! up to 2^53; past that a double cannot tell neighbouring integers apart, so a whole number
//! written with a fraction part is refused there (send it without `.0`).

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// The largest whole number a double holds with no neighbour closer than 1 (2^53).
const MAX_EXACT_WHOLE_FLOAT: f64 = 9_007_199_254_740_992.0;

struct Whole<T>(PhantomData<T>);

impl<T> Whole<T> {
    fn convert<E: de::Error>(value: i128) -> Result<T, E>
    where
        T: TryFrom<i128>,
    {
        T::try_from(value).map_err(|_| E::custom(format!("{value} is out of range")))
    }
}

impl<'de, T: TryFrom<i128>> Visitor<'de> for Whole<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a whole number")
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<T, E> {
        Self::convert(i128::from(value))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<T, E> {
        Self::convert(i128::from(value))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<T, E> {
        if !(value.is_finite() && value.fract() == 0.0) {
            return Err(E::custom(format!("{value} is not a whole number")));
        }
        if value.abs() > MAX_EXACT_WHOLE_FLOAT {
            return Err(E::custom(format!(
                "{value} is beyond 2^53 and cannot be read exactly with a fraction part: send it without one"
            )));
        }
        Self::convert(value as i128)
    }
}

/// A whole number of type `T`.
pub fn whole<'de, D: Deserializer<'de>, T: TryFrom<i128>>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_any(Whole(PhantomData))
}

/// An optional whole number (`null` or absent is `None`).
pub fn optional_whole<'de, D: Deserializer<'de>, T: TryFrom<i128>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    struct Optional<T>(PhantomData<T>);
    impl<'de, T: TryFrom<i128>> Visitor<'de> for Optional<T> {
        type Value = Option<T>;
        fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
            formatter.write_str("a whole number or null")
        }
        fn visit_none<E: de::Error>(self) -> Result<Option<T>, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<T>, D::Error> {
            whole(deserializer).map(Some)
        }
    }
    deserializer.deserialize_option(Optional(PhantomData))
}

/// An optional list of whole numbers.
pub fn optional_wholes<'de, D: Deserializer<'de>, T: TryFrom<i128>>(
    deserializer: D,
) -> Result<Option<Vec<T>>, D::Error> {
    struct List<T>(PhantomData<T>);
    impl<'de, T: TryFrom<i128>> Visitor<'de> for List<T> {
        type Value = Vec<T>;
        fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
            formatter.write_str("a list of whole numbers")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut values = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
            while let Some(Item(value)) = seq.next_element::<Item<T>>()? {
                values.push(value);
            }
            Ok(values)
        }
    }
    struct Item<T>(T);
    impl<'de, T: TryFrom<i128>> serde::Deserialize<'de> for Item<T> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            whole(deserializer).map(Item)
        }
    }
    struct Optional<T>(PhantomData<T>);
    impl<'de, T: TryFrom<i128>> Visitor<'de> for Optional<T> {
        type Value = Option<Vec<T>>;
        fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
            formatter.write_str("a list of whole numbers or null")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
            deserializer.deserialize_seq(List(PhantomData)).map(Some)
        }
    }
    deserializer.deserialize_option(Optional(PhantomData))
}

/// A field that may be absent (`None`, with `#[serde(default)]`) or a value, but not `null`
/// (a 400 naming it, as the published schema says).
pub fn not_null<'de, D: Deserializer<'de>, T: serde::Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// A field that may be absent (`None`, with `#[serde(default)]`), `null` (`Some(None)`: clear
/// it) or a value.
pub fn nullable<'de, D: Deserializer<'de>, T: serde::Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<Option<T>>, D::Error> {
    <Option<T> as serde::Deserialize>::deserialize(deserializer).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Sample {
        #[serde(deserialize_with = "whole")]
        value: i32,
        #[serde(default, deserialize_with = "optional_whole")]
        seed: Option<u64>,
        #[serde(default, deserialize_with = "optional_wholes")]
        rolls: Option<Vec<u32>>,
    }

    fn parse(text: &str) -> Result<Sample, serde_json::Error> {
        serde_json::from_str(text)
    }

    #[test]
    fn whole_floats_are_integers_and_fractions_are_not() {
        let sample = parse(r#"{"value": -3.0, "seed": 7.0, "rolls": [3.0, 4]}"#).expect("whole numbers");
        assert_eq!((sample.value, sample.seed, sample.rolls), (-3, Some(7), Some(vec![3, 4])));
        assert!(parse(r#"{"value": 3.5}"#).is_err());
        assert!(parse(r#"{"value": 1, "rolls": [-1]}"#).is_err(), "out of range for u32");
        assert!(parse(r#"{"value": 1e300}"#).is_err());
        let exact = parse(r#"{"value": 1, "seed": 4423907432279534.0}"#).expect("a whole float below 2^53");
        assert_eq!(exact.seed, Some(4_423_907_432_279_534));
        assert_eq!(
            parse(r#"{"value": 1, "seed": 9007199254740991.0}"#).expect("2^53 - 1").seed,
            Some((1 << 53) - 1)
        );
        assert!(parse(r#"{"value": 1, "seed": 18014398509481984.0}"#).is_err(), "2^54 with a fraction part");
        assert_eq!(parse(r#"{"value": 1, "seed": null}"#).expect("null").seed, None);
    }
}
