//! Every shape serde can hand a serializer, written here and by serde_json: the bytes must match.

use super::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// `value` written here, after checking it is byte for byte what serde_json writes.
fn same<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = String::new();
    let ours = write_json(&mut out, value).map(|()| out);
    let theirs = serde_json::to_string(value);
    match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => {
            assert_eq!(ours, theirs);
            ours
        }
        (Err(_), Err(_)) => String::new(),
        (ours, theirs) => panic!("here {ours:?}, serde_json {theirs:?}"),
    }
}

#[test]
fn every_special_byte_is_escaped_as_serde_json_escapes_it_wherever_it_stands() {
    let specials: Vec<char> =
        (0u8..0x20).map(char::from).chain(['"', '\\', '\u{7f}', '/', 'é', '☃', '𝄞']).collect();
    for special in specials {
        for position in 0..20 {
            let mut text: String = "abcdefghijklmnopqrs".chars().take(position).collect();
            text.push(special);
            text.push_str(&"tuvwxyz0123456789".chars().take(19 - position).collect::<String>());
            same(&text);
            same(&special);
        }
    }
    assert_eq!(same("a\"b\\c\nd\u{1}"), r#""a\"b\\c\nd\u0001""#);
    assert_eq!(same(""), r#""""#);
}

#[test]
fn a_special_byte_is_found_at_any_place_in_a_text_of_any_length() {
    for length in 1..=25 {
        for position in 0..length {
            for special in ['"', '\\', '\u{0}', '\u{1f}', '\n'] {
                let mut text: String = "abcdefghijklmnopqrstuvwxy".chars().take(length - 1).collect();
                text.insert(position, special);
                let mut out = String::new();
                write_string(&mut out, &text);
                assert_eq!(out, serde_json::to_string(&text).unwrap(), "{text:?}");
                assert!(!is_plain_key(&text), "{text:?}");
            }
        }
        let plain: String = "a é ~\u{7f}\u{80}☃".chars().cycle().take(length).collect();
        assert!(is_plain_key(&plain), "{plain:?}");
        same(&plain);
    }
}

#[test]
fn plain_text_of_any_length_is_copied_whole() {
    for length in 0..40 {
        let text: String = "The quick brown fox, jumping ⇒ over é".chars().cycle().take(length).collect();
        same(&text);
    }
}

#[test]
fn numbers_are_written_as_serde_json_writes_them() {
    for value in [0, 1, -1, 9, 10, -10, 99, 100, 12345, i64::MAX, i64::MIN, i64::from(i32::MIN)] {
        same(&value);
    }
    for value in [0u64, 7, 10, 1 << 53, u64::MAX] {
        same(&value);
    }
    same(&(i8::MIN, i16::MIN, i32::MAX, u8::MAX, u16::MAX, u32::MAX));
    same(&(i128::MIN, u128::MAX));
    for value in [0.0, -0.0, 0.1, 1.5, -2.25e-300, 1e300, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        same(&value);
        same(&(value as f32));
    }
}

#[test]
fn every_number_of_digits_is_written_as_serde_json_writes_it() {
    let mut power = 1u64;
    loop {
        for value in [power - 1, power, power + 1] {
            same(&value);
            let signed = i64::try_from(value).unwrap_or(i64::MAX);
            same(&signed);
            same(&-signed);
        }
        let Some(next) = power.checked_mul(10) else { break };
        power = next;
    }
    assert_eq!(same(&(0u64, 9u64, 10u64, 99u64, 100u64)), "[0,9,10,99,100]");
    assert_eq!(
        same(&(u64::MAX, i64::MIN, i64::MAX)),
        "[18446744073709551615,-9223372036854775808,9223372036854775807]"
    );
}

#[test]
fn every_small_number_of_every_width_is_written_as_serde_json_writes_it() {
    for value in -1000i32..=1000 {
        same(&value);
        same(&i64::from(value));
        if let Ok(short) = i16::try_from(value) {
            same(&short);
        }
        if let Ok(byte) = i8::try_from(value) {
            same(&byte);
        }
        if let Ok(unsigned) = u32::try_from(value) {
            same(&unsigned);
            same(&u64::from(unsigned));
        }
        if let Ok(byte) = u8::try_from(value) {
            same(&byte);
        }
    }
    assert_eq!(same(&(-100i32, -99i32, -10i32, -9i32, 255u8, 256u16)), "[-100,-99,-10,-9,255,256]");
}

#[test]
fn unit_and_data_variant_names_are_quoted_as_serde_json_quotes_them() {
    assert_eq!(same(&Shape::Point), r#""point""#);
    assert_eq!(same(&Shape::Circle(3)), r#"{"circle":3}"#);
    assert_eq!(same(&Shape::Segment(-1, 2)), r#"{"segment":[-1,2]}"#);
    assert_eq!(same(&Shape::Box { width: 2, height: None }), r#"{"box":{"width":2,"height":null}}"#);
}

#[derive(Serialize)]
struct Unit;

#[derive(Serialize)]
struct Newtype(u32);

#[derive(Serialize)]
struct Pair(i32, &'static str);

#[derive(Serialize)]
struct Empty {}

#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum Shape {
    Point,
    Circle(u32),
    Segment(i32, i32),
    Box { width: u32, height: Option<u32> },
    Nothing {},
}

#[derive(Serialize)]
struct Outcome {
    effect: i32,
    notes: Vec<String>,
}

#[derive(Serialize)]
struct Report {
    name: String,
    hit: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<u32>,
    dropped: Option<u32>,
    shapes: Vec<Shape>,
    unit: Unit,
    pair: Pair,
    newtype: Newtype,
    empty: Empty,
    nothing: (),
    value: serde_json::Value,
    #[serde(flatten)]
    outcome: Outcome,
    #[serde(skip)]
    _hidden: u8,
}

#[test]
fn every_shape_of_value_is_written_as_serde_json_writes_it() {
    let shapes = vec![
        Shape::Point,
        Shape::Circle(3),
        Shape::Segment(-1, 2),
        Shape::Box { width: 2, height: None },
        Shape::Nothing {},
    ];
    let report = Report {
        name: "Vasquez \"Private\"".into(),
        hit: true,
        id: None,
        dropped: Some(4),
        shapes,
        unit: Unit,
        pair: Pair(-3, "x"),
        newtype: Newtype(8),
        empty: Empty {},
        nothing: (),
        value: serde_json::json!({"b": [1, 2.5, null, {"c": "d"}], "a": []}),
        outcome: Outcome { effect: 2, notes: vec!["−2 DM".into(), String::new()] },
        _hidden: 0,
    };
    same(&report);
    same(&vec![Some(1), None]);
    same::<[u8]>(&[]);
    same(&Vec::<Shape>::new());
    same(&serde_json::json!({}));
}

#[test]
fn bytes_are_an_array_of_numbers() {
    struct Raw(&'static [u8]);
    impl Serialize for Raw {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_bytes(self.0)
        }
    }
    assert_eq!(same(&Raw(b"\x00\xff")), "[0,255]");
    assert_eq!(same(&Raw(b"")), "[]");
}

#[test]
fn a_sequence_or_map_of_unknown_length_is_written_the_same() {
    struct Unknown;
    impl Serialize for Unknown {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            let mut seq = serializer.serialize_seq(None)?;
            seq.serialize_element(&1)?;
            seq.serialize_element(&UnknownMap)?;
            seq.end()
        }
    }
    struct UnknownMap;
    impl Serialize for UnknownMap {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = serializer.serialize_map(None)?;
            map.serialize_key("k")?;
            map.serialize_value(&[1, 2])?;
            map.end()
        }
    }
    assert_eq!(same(&Unknown), r#"[1,{"k":[1,2]}]"#);
}

#[test]
fn map_keys_are_written_as_serde_json_writes_them() {
    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    #[serde(rename_all = "snake_case")]
    enum Side {
        Attacker,
        Target,
    }
    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    struct Name(&'static str);
    same(&BTreeMap::from([("gun\tcombat", 2), ("", 0), ("zero_g", 1)]));
    same(&BTreeMap::from([(Side::Attacker, 1), (Side::Target, 2)]));
    same(&BTreeMap::from([(Name("a\"b"), 1)]));
    same(&BTreeMap::from([(-3i64, "x"), (4, "y")]));
    same(&BTreeMap::from([(7u8, 1)]));
    same(&BTreeMap::from([(true, 1), (false, 0)]));
    same(&BTreeMap::from([('"', 1), ('é', 2)]));
    same(&BTreeMap::from([(Some("k"), 1)]));
    same(&BTreeMap::from([((), 1)]));
    same(&BTreeMap::from([(None::<u8>, 1)]));
    assert_eq!(same(&BTreeMap::from([(vec![1], 1)])), "", "a compound key is refused by both");
}

#[test]
fn a_field_name_that_needs_escaping_is_told_apart() {
    assert!(is_plain_key("blast_response"));
    assert!(!is_plain_key("a\"b"));
    assert!(!is_plain_key("back\\slash"));
    assert!(!is_plain_key("tab\there"));
}
