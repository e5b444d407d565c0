//! Damage dice written as Avrae notation or as their fields (docs/api-conventions.md: dice are
//! Avrae notation everywhere). A structured damage roll (`{count, sides, bonus}`) also reads from
//! the plain roll it describes: `"1d6"`, `"2d10+3"`, `"d8-1"`. Only that plain form maps onto the
//! fields; anything richer (`4d6kh3`, two dice groups) is refused by name, since the rule rolls a
//! count of one die plus a flat bonus.

use serde::de::value::{MapAccessDeserializer, MapDeserializer};
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// The pattern a dice string must match, as published in the spec.
pub const PATTERN: &str = r"^\s*[0-9]{0,3}\s*[dD]\s*[0-9]{1,4}\s*([+-]\s*[0-9]{1,4}\s*)?$";

/// `(count, sides, bonus)` of `NdS`, `NdS+B`, `NdS-B` or `dS` (count 1); spaces allowed.
pub fn parse(text: &str) -> Result<(i64, i64, i64), String> {
    let compact: String =
        text.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
    let refuse = || {
        format!(
            "`{text}` is not a plain damage roll: write NdS, NdS+B or NdS-B (e.g. \"2d6+1\"), or the fields"
        )
    };
    let (count, rest) = compact.split_once('d').ok_or_else(refuse)?;
    let split = rest.find(['+', '-']).unwrap_or(rest.len());
    let (sides, bonus) = rest.split_at(split);
    let number = |digits: &str| -> Result<i64, String> {
        if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(refuse());
        }
        digits.parse().map_err(|_| refuse())
    };
    let count = if count.is_empty() { 1 } else { number(count)? };
    let bonus = match bonus.split_at(bonus.len().min(1)) {
        ("", _) => 0,
        ("+", digits) => number(digits)?,
        (_, digits) => -number(digits)?,
    };
    Ok((count, number(sides)?, bonus))
}

/// Reads `T` (a `{count, sides, bonus}` object) from its object or from a dice string; the
/// fields' own bounds then apply to the string's numbers too.
pub fn object_or_text<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct TextOrObject<T>(PhantomData<T>);
    impl<'de, T: Deserialize<'de>> Visitor<'de> for TextOrObject<T> {
        type Value = T;
        fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
            formatter.write_str("a damage roll: \"NdS+B\" or {count, sides, bonus}")
        }
        fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
            let (count, sides, bonus) = parse(text).map_err(E::custom)?;
            let fields = [("count", Number(count)), ("sides", Number(sides)), ("bonus", Number(bonus))];
            T::deserialize(MapDeserializer::new(fields.into_iter()))
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::deserialize(MapAccessDeserializer::new(map))
        }
    }
    deserializer.deserialize_any(TextOrObject(PhantomData))
}

/// One number of a parsed dice string, readable as an integer field or an optional one.
struct Number(i64);

impl<'de, E: de::Error> de::IntoDeserializer<'de, E> for Number {
    type Deserializer = NumberDeserializer<E>;
    fn into_deserializer(self) -> Self::Deserializer {
        NumberDeserializer(self.0, PhantomData)
    }
}

struct NumberDeserializer<E>(i64, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for NumberDeserializer<E> {
    type Error = E;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_i64(self.0)
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_some(self)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// The component name of the dice string (one schema, shared by every ruleset's damage roll).
pub const TEXT_SCHEMA: &str = "PlainDiceRoll";

/// The spec of such a type: the dice string, or the object `Fields` (both by reference, so a
/// generated client names each member).
#[cfg(feature = "schema")]
pub fn schema<Fields: utoipa::ToSchema>() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::OneOfBuilder;
    use utoipa::openapi::{Ref, RefOr};
    let members = OneOfBuilder::new()
        .item(RefOr::Ref(Ref::from_schema_name(TEXT_SCHEMA)))
        .item(RefOr::Ref(Ref::from_schema_name(Fields::name())));
    RefOr::T(members.build().into())
}

/// The components such a type needs: the dice string and `Fields`.
#[cfg(feature = "schema")]
pub fn schemas<Fields: utoipa::ToSchema>(
    schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>,
) {
    use utoipa::openapi::RefOr;
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    let text = ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(PATTERN))
        .max_length(Some(32))
        .description(Some("Avrae notation of a plain roll: NdS, NdS+B or NdS-B (e.g. \"2d6+1\")"));
    schemas.push((TEXT_SCHEMA.to_owned(), RefOr::T(text.build().into())));
    schemas.push((Fields::name().into_owned(), Fields::schema()));
    Fields::schemas(schemas);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Fields {
        count: u8,
        sides: u8,
        #[serde(default)]
        bonus: i8,
    }

    fn read(json: &str) -> Result<Fields, String> {
        let mut deserializer = serde_json::Deserializer::from_str(json);
        object_or_text(&mut deserializer).map_err(|error: serde_json::Error| error.to_string())
    }

    #[test]
    fn plain_rolls_read_as_their_fields() {
        assert_eq!(read(r#""1d6""#), Ok(Fields { count: 1, sides: 6, bonus: 0 }));
        assert_eq!(read(r#""2d10+3""#), Ok(Fields { count: 2, sides: 10, bonus: 3 }));
        assert_eq!(read(r#"" d8 - 1 ""#), Ok(Fields { count: 1, sides: 8, bonus: -1 }));
        assert_eq!(read(r#"{"count": 3, "sides": 6}"#), Ok(Fields { count: 3, sides: 6, bonus: 0 }));
    }

    #[test]
    fn richer_notation_and_nonsense_are_refused_by_name() {
        for text in ["4d6kh3", "1d6+1d4", "d", "6", "2d", "1d6+", "99999d6"] {
            let error = read(&format!("{text:?}")).expect_err(text);
            assert!(error.contains("not a plain damage roll"), "{text}: {error}");
        }
        // The fields' own bounds apply to the string's numbers.
        assert!(read(r#""300d6""#).is_err());
    }
}
