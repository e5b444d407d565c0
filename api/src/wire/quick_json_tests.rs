//! The quick reader against serde_json: what it takes reads to the same value; what it leaves,
//! it leaves whole.

use super::*;
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};
use skirmish_domain::rulesets::cepheus_engine::operations::InlineAttack;

/// Reads `text` as a `T` as `read_typed` does, or gives up.
fn from_str<'de, T: de::Deserialize<'de>>(text: &'de str) -> Result<T> {
    let mut reader = Reader::new(text);
    let value = T::deserialize(&mut reader)?;
    reader.end()?;
    Ok(value)
}

/// Both readers on `text`: the quick one's value, checked against serde_json's when it takes it.
fn quick_value(text: &str) -> Option<Value> {
    let quick = from_str::<Value>(text).ok()?;
    let serde: Value = serde_json::from_str(text).unwrap_or_else(|error| panic!("{text:?}: {error}"));
    assert_eq!(quick, serde, "{text:?}");
    Some(quick)
}

#[test]
fn plain_json_reads_as_serde_json_reads_it() {
    let texts = [
        r#"{"a":1,"b":[true,false,null],"c":{"d":"text","e":-7},"f":[]}"#,
        " { \"spaced\" :\t[ 1 , 2 ]\r\n, \"empty\" : { } } ",
        r#"[0, -1, 9223372036854775807, -9223372036854775808, 9999999999999999999]"#,
        r#""Zoë, ⚔ and 🐉""#,
        "null",
        r#"{"a":1,"a":2}"#,
    ];
    for text in texts {
        assert!(quick_value(text).is_some(), "{text:?}");
    }
}

#[test]
fn what_serde_json_reads_differently_or_refuses_is_left_to_it() {
    let texts = [
        r#""an \"escape\"""#,
        "\"a tab\tinside\"",
        "1.5",
        "1e3",
        "-0",
        "18446744073709551616",
        "10000000000000000000",
        "-9223372036854775809",
        "01",
        "+1",
        "[1,]",
        r#"{"a":1,}"#,
        r#"{"a" 1}"#,
        "{1:2}",
        "[1] trailing",
        "[1]]",
        "tru",
        "nul",
        "",
        "   ",
        &format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1)),
    ];
    for text in texts {
        assert!(from_str::<Value>(text).is_err(), "{text:?}");
    }
}

#[test]
fn nesting_up_to_the_limit_is_read() {
    let text = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    assert!(quick_value(&text).is_some());
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Plain,
    Counted(u8),
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Typed {
    kind: Kind,
    level: Option<i32>,
    name: String,
    #[serde(default)]
    tags: Vec<String>,
}

#[test]
fn a_typed_request_reads_alike_and_anything_unusual_is_left_to_serde_json() {
    let read = r#"{"kind":"plain","level":null,"name":"x","tags":["a"]}"#;
    let expected = Typed { kind: Kind::Plain, level: None, name: "x".into(), tags: vec!["a".into()] };
    assert_eq!(from_str::<Typed>(read).ok(), Some(expected));
    assert_eq!(serde_json::from_str::<Typed>(read).ok(), from_str::<Typed>(read).ok());
    let left = [
        r#"{"kind":{"counted":2},"level":1,"name":"x"}"#,
        r#"["plain",1,"x",[]]"#,
        r#"{"kind":"plain","level":1.0,"name":"x"}"#,
        r#"{"kind":"plain","level":1,"name":"x","extra":0}"#,
        r#"{"kind":"plain","level":1,"name":"x","name":"y"}"#,
    ];
    for text in left {
        assert!(from_str::<Typed>(text).is_err(), "{text}");
    }
}

/// Takes an integer, or digits in a string: serde_json never shows it the string when asked for
/// an integer, so neither may the quick reader.
#[derive(Debug, PartialEq)]
struct Lenient(u64);

impl<'de> Deserialize<'de> for Lenient {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct Digits;
        impl Visitor<'_> for Digits {
            type Value = Lenient;
            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("digits")
            }
            fn visit_u64<E: de::Error>(self, value: u64) -> std::result::Result<Lenient, E> {
                Ok(Lenient(value))
            }
            fn visit_str<E: de::Error>(self, value: &str) -> std::result::Result<Lenient, E> {
                value.parse().map(Lenient).map_err(E::custom)
            }
        }
        deserializer.deserialize_u64(Digits)
    }
}

#[test]
fn a_value_of_another_kind_than_the_one_asked_for_is_left_to_serde_json() {
    assert_eq!(from_str::<Lenient>("12").ok(), Some(Lenient(12)));
    assert!(serde_json::from_str::<Lenient>("\"12\"").is_err());
    assert!(from_str::<Lenient>("\"12\"").is_err());
    assert!(
        from_str::<bool>("1").is_err() && from_str::<String>("1").is_err() && from_str::<()>("0").is_err()
    );
    assert!(
        from_str::<Vec<u8>>("{}").is_err()
            && from_str::<std::collections::BTreeMap<String, u8>>("[]").is_err()
    );
}

#[test]
fn the_bench_attack_reads_to_the_same_request() {
    let body = json!({
        "weapon": {"weapon_type": "rifle", "damage_dice": 3}, "distance_m": 20, "cover": "quarter",
        "reaction": "dodge", "overflow_to": "str",
        "attacker": {"str": 8, "dex": 10, "end": 9, "int": 7, "edu": 7, "soc": 8, "skills": {"gun_combat": 2}},
        "target": {"str": 8, "dex": 9, "end": 7, "int": 6, "edu": 5, "soc": 4, "skills": {"gun_combat": 1}, "armour": 2}
    })
    .to_string();
    let quick: InlineAttack = from_str(&body).unwrap_or_else(|_| panic!("left: {body}"));
    let serde: InlineAttack = serde_json::from_str(&body).unwrap();
    assert_eq!(quick, serde);
}

/// Any JSON value: integers across the range, strings with escapes and other scripts, floats.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        "[a-z_]{0,8}".prop_map(Value::from),
        "\\PC{0,6}".prop_map(Value::from),
        any::<String>().prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z\"\\\\ ]{0,6}", inner, 0..6)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// Integers of at most 19 digits only, and no string or key that serde_json writes with an escape.
fn is_plain(value: &Value) -> bool {
    let plain_text = |text: &str| !text.bytes().any(|byte| byte == b'"' || byte == b'\\' || byte < 0x20);
    match value {
        Value::Number(number) => number.is_i64() || number.as_u64().is_some_and(|n| n < 10_u64.pow(19)),
        Value::String(text) => plain_text(text),
        Value::Array(items) => items.iter().all(is_plain),
        Value::Object(map) => map.iter().all(|(key, item)| plain_text(key) && is_plain(item)),
        Value::Null | Value::Bool(_) => true,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn whatever_the_quick_reader_takes_equals_what_serde_json_reads(value in any_json()) {
        for text in [serde_json::to_string(&value).unwrap(), serde_json::to_string_pretty(&value).unwrap()] {
            if let Ok(quick) = from_str::<Value>(&text) {
                prop_assert_eq!(&quick, &serde_json::from_str::<Value>(&text).unwrap());
                prop_assert_eq!(&quick, &value);
            }
        }
    }

    #[test]
    fn plain_json_is_taken(value in any_json()) {
        if is_plain(&value) {
            prop_assert_eq!(from_str::<Value>(&serde_json::to_string(&value).unwrap()).ok(), Some(value));
        }
    }

    #[test]
    fn token_soup_is_taken_only_as_serde_json_takes_it(text in "[ {}\\[\\],:\"a-c0-9.eE+\\-\\\\nultrfs]{0,40}") {
        if let Ok(quick) = from_str::<Value>(&text) {
            prop_assert_eq!(Some(quick), serde_json::from_str::<Value>(&text).ok());
        }
    }

    #[test]
    fn bytes_cut_anywhere_never_read_to_another_value(value in any_json(), cut in 0usize..64) {
        let text = serde_json::to_string(&value).unwrap();
        let end = (0..=cut.min(text.len())).rev().find(|&end| text.is_char_boundary(end)).unwrap_or(0);
        let part = &text[..end];
        if let Ok(quick) = from_str::<Value>(part) {
            prop_assert_eq!(Some(quick), serde_json::from_str::<Value>(part).ok());
        }
    }
}
