//! Reading an operation body straight into the ruleset's typed request, setting the shared dice
//! fields (`seed`, `rolls`, `strict_rolls`) aside on the way, with no `serde_json::Value` in
//! between. Only a body that reads cleanly this way is taken: anything else (bad JSON, a field the
//! request refuses, a duplicate key) is read again by the slower path of `operation.rs`, whose
//! status codes, messages and field paths are what clients see.
//!
//! Decisions:
//! - The same body reads to the same request either way: the request types deserialise fields by
//!   name, so the order of the keys (sorted in a `Value`, as sent here) does not change them, and
//!   a key sent twice fails here (`duplicate field`) and is left to the slower path.
//! - A dice field sent twice keeps its last value, as a `Value` object does.

use super::quick_json;
use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::Value;
use std::fmt;

/// The dice fields of an operation body as sent: `None` when absent.
#[derive(Debug, Default)]
pub struct DiceFields {
    pub seed: Option<Value>,
    pub rolls: Option<Value>,
    pub strict_rolls: Option<Value>,
}

impl DiceFields {
    /// Where the value of `key` goes, when it is a dice field.
    fn slot(&mut self, key: &str) -> Option<&mut Option<Value>> {
        match key {
            "seed" => Some(&mut self.seed),
            "rolls" => Some(&mut self.rolls),
            "strict_rolls" => Some(&mut self.strict_rolls),
            _ => None,
        }
    }
}

/// Reads the JSON object `bytes` as `T` plus its dice fields; `None` when it does not read.
///
/// The body is checked as UTF-8 once, up front, and read as text. The quick reader
/// (`quick_json.rs`) takes the plain JSON clients send; a body it leaves (an escape, a fraction,
/// …) is read by serde_json, still straight into `T`; strings are not validated again either way
/// (a body that is not UTF-8 goes to the slower path, which names the error).
pub fn read_typed<T: DeserializeOwned>(bytes: &[u8]) -> Option<(T, DiceFields)> {
    let text = std::str::from_utf8(bytes).ok()?;
    read_quickly(text).or_else(|| read_with_serde_json(text))
}

fn read_quickly<T: DeserializeOwned>(text: &str) -> Option<(T, DiceFields)> {
    let mut fields = DiceFields::default();
    let mut reader = quick_json::Reader::new(text);
    let request = T::deserialize(Body { inner: &mut reader, fields: &mut fields }).ok()?;
    reader.end().ok()?;
    Some((request, fields))
}

fn read_with_serde_json<T: DeserializeOwned>(text: &str) -> Option<(T, DiceFields)> {
    let mut fields = DiceFields::default();
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let request = T::deserialize(Body { inner: &mut deserializer, fields: &mut fields }).ok()?;
    deserializer.end().ok()?;
    Some((request, fields))
}

/// The body as an object whose dice fields are taken aside.
struct Body<'a, D> {
    inner: D,
    fields: &'a mut DiceFields,
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Body<'_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_map(Object { visitor, fields: self.fields })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

/// Hands the request's visitor the object with its dice fields filtered out.
struct Object<'a, V> {
    visitor: V,
    fields: &'a mut DiceFields,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Object<'_, V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        self.visitor.expecting(formatter)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_map(Entries { inner: map, fields: self.fields })
    }
}

struct Entries<'a, A> {
    inner: A,
    fields: &'a mut DiceFields,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Entries<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        while let Some(key) = self.inner.next_key::<Key<'de>>()? {
            match self.fields.slot(key.as_str()) {
                Some(slot) => *slot = Some(self.inner.next_value()?),
                None => return key.into_seed(seed).map(Some),
            }
        }
        Ok(None)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.inner.next_value_seed(seed)
    }
}

/// A key as read: borrowed from the body unless it had escapes.
enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl<'de> Key<'de> {
    fn as_str(&self) -> &str {
        match self {
            Key::Borrowed(key) => key,
            Key::Owned(key) => key,
        }
    }

    fn into_seed<K: DeserializeSeed<'de>, E: de::Error>(self, seed: K) -> Result<K::Value, E> {
        match self {
            Key::Borrowed(key) => seed.deserialize(BorrowedStrDeserializer::new(key)),
            Key::Owned(key) => seed.deserialize(StringDeserializer::new(key)),
        }
    }
}

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key::Borrowed(key))
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key::Owned(key.to_owned()))
            }
            fn visit_string<E: de::Error>(self, key: String) -> Result<Key<'de>, E> {
                Ok(Key::Owned(key))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Request {
        weapon: String,
        distance_m: u32,
    }

    #[test]
    fn dice_fields_are_set_aside_and_the_rest_reads_as_the_request() {
        let body =
            br#"{"seed": 7, "weapon": "rifle", "rolls": [6, 5], "distance_m": 20, "strict_rolls": null}"#;
        let (request, fields) = read_typed::<Request>(body).unwrap();
        assert_eq!(request, Request { weapon: "rifle".into(), distance_m: 20 });
        assert_eq!(fields.seed, Some(serde_json::json!(7)));
        assert_eq!(fields.rolls, Some(serde_json::json!([6, 5])));
        assert_eq!(fields.strict_rolls, Some(Value::Null));
    }

    #[test]
    fn absent_dice_fields_stay_absent() {
        let (_, fields) = read_typed::<Request>(br#"{"weapon":"rifle","distance_m":20}"#).unwrap();
        assert!(fields.seed.is_none() && fields.rolls.is_none() && fields.strict_rolls.is_none());
    }

    #[test]
    fn an_escaped_key_still_names_its_field() {
        let (request, _) = read_typed::<Request>(br#"{"weap\u006fn":"rifle","distance_m":20}"#).unwrap();
        assert_eq!(request.weapon, "rifle");
    }

    #[test]
    fn a_dice_field_sent_twice_keeps_the_last_value_as_a_json_object_does() {
        let (_, fields) =
            read_typed::<Request>(br#"{"seed":1,"seed":2,"weapon":"x","distance_m":1}"#).unwrap();
        assert_eq!(fields.seed, Some(serde_json::json!(2)));
    }

    #[test]
    fn anything_that_does_not_read_cleanly_is_left_to_the_slower_path() {
        let cases: [&[u8]; 7] = [
            b"",
            b"[]",
            br#"{"weapon":"rifle"}"#,
            br#"{"weapon":"rifle","distance_m":20,"range":3}"#,
            br#"{"weapon":"rifle","weapon":"rifle","distance_m":20}"#,
            br#"{"weapon":"rifle","distance_m":20} trailing"#,
            br#"{"weapon":"rifle","distance_m":-1}"#,
        ];
        for body in cases {
            assert!(read_typed::<Request>(body).is_none(), "{}", String::from_utf8_lossy(body));
        }
    }
}
