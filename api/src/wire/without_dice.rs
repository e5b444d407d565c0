//! An operation's answer lists every die once, at its top level (`dice`). The ruleset's report
//! keeps its own `dice` for the event log (where the report is all there is), so the answer
//! writes the report without that one field: only the report's own top-level `dice` is left out,
//! never a field of the same name deeper inside (a damage breakdown's `dice` values, …). A report
//! with a flattened part is written as a map: its `dice` entry is left out the same way.

use serde::ser::{
    self, Impossible, Serialize, SerializeMap, SerializeStruct, SerializeStructVariant, Serializer,
};

/// The field the answer leaves out of a report.
const DICE: &str = "dice";

/// A report, serialised without its top-level `dice`.
pub struct WithoutDice<'a, R>(pub &'a R);

impl<R: Serialize> Serialize for WithoutDice<'_, R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(Outer(serializer))
    }
}

/// For `#[serde(serialize_with)]` on an answer's `result`.
pub fn without_dice<R: Serialize, S: Serializer>(report: &R, serializer: S) -> Result<S::Ok, S::Error> {
    WithoutDice(report).serialize(serializer)
}

/// The serializer of the report itself: a struct (or struct variant) skips `dice`; everything
/// else, and everything nested, goes to the real serializer untouched.
struct Outer<S>(S);

struct Fields<T>(T);

impl<T: SerializeStruct> SerializeStruct for Fields<T> {
    type Ok = T::Ok;
    type Error = T::Error;

    // Inlined into the derived `serialize`, where `key` is a constant: the test on it folds away.
    #[inline(always)]
    fn serialize_field<V: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), T::Error> {
        if key == DICE { self.0.skip_field(key) } else { self.0.serialize_field(key, value) }
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), T::Error> {
        self.0.skip_field(key)
    }

    fn end(self) -> Result<T::Ok, T::Error> {
        self.0.end()
    }
}

impl<T: SerializeStructVariant> SerializeStructVariant for Fields<T> {
    type Ok = T::Ok;
    type Error = T::Error;

    // Inlined into the derived `serialize`, where `key` is a constant: the test on it folds away.
    #[inline(always)]
    fn serialize_field<V: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), T::Error> {
        if key == DICE { self.0.skip_field(key) } else { self.0.serialize_field(key, value) }
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), T::Error> {
        self.0.skip_field(key)
    }

    fn end(self) -> Result<T::Ok, T::Error> {
        self.0.end()
    }
}

struct Entries<T> {
    inner: T,
    skipping: bool,
}

impl<T: SerializeMap> SerializeMap for Entries<T> {
    type Ok = T::Ok;
    type Error = T::Error;

    fn serialize_key<K: Serialize + ?Sized>(&mut self, key: &K) -> Result<(), T::Error> {
        self.skipping = is_dice(key);
        if self.skipping { Ok(()) } else { self.inner.serialize_key(key) }
    }

    fn serialize_value<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), T::Error> {
        if self.skipping { Ok(()) } else { self.inner.serialize_value(value) }
    }

    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), T::Error> {
        if is_dice(key) { Ok(()) } else { self.inner.serialize_entry(key, value) }
    }

    fn end(self) -> Result<T::Ok, T::Error> {
        self.inner.end()
    }
}

/// Whether a map key is the string `dice`.
fn is_dice<K: Serialize + ?Sized>(key: &K) -> bool {
    key.serialize(KeyIsDice).unwrap_or(false)
}

/// Answers whether what it is given is the string `dice`; anything but a string is not.
struct KeyIsDice;

macro_rules! not_dice {
    ($($name:ident($($type:ty),*);)*) => {
        $(fn $name(self, $(_: $type),*) -> Result<bool, serde_json::Error> {
            Ok(false)
        })*
    };
}

impl Serializer for KeyIsDice {
    type Ok = bool;
    type Error = serde_json::Error;
    type SerializeSeq = Impossible<bool, serde_json::Error>;
    type SerializeTuple = Impossible<bool, serde_json::Error>;
    type SerializeTupleStruct = Impossible<bool, serde_json::Error>;
    type SerializeTupleVariant = Impossible<bool, serde_json::Error>;
    type SerializeMap = Impossible<bool, serde_json::Error>;
    type SerializeStruct = Impossible<bool, serde_json::Error>;
    type SerializeStructVariant = Impossible<bool, serde_json::Error>;

    fn serialize_str(self, key: &str) -> Result<bool, serde_json::Error> {
        Ok(key == DICE)
    }

    not_dice! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
        serialize_bytes(&[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<bool, serde_json::Error> {
        Ok(false)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<bool, serde_json::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<bool, serde_json::Error> {
        Ok(false)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, serde_json::Error> {
        Err(ser::Error::custom("not a key"))
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, serde_json::Error> {
        Err(ser::Error::custom("not a key"))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, serde_json::Error> {
        Err(ser::Error::custom("not a key"))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, serde_json::Error> {
        Err(ser::Error::custom("not a key"))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, serde_json::Error> {
        Err(ser::Error::custom("not a key"))
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, serde_json::Error> {
        Err(ser::Error::custom("not a key"))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, serde_json::Error> {
        Err(ser::Error::custom("not a key"))
    }
}

/// Hands a call through to the real serializer.
macro_rules! through {
    ($($name:ident($($arg:ident: $type:ty),*);)*) => {
        $(fn $name(self, $($arg: $type),*) -> Result<S::Ok, S::Error> {
            self.0.$name($($arg),*)
        })*
    };
}

impl<S: Serializer> Serializer for Outer<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = S::SerializeSeq;
    type SerializeTuple = S::SerializeTuple;
    type SerializeTupleStruct = S::SerializeTupleStruct;
    type SerializeTupleVariant = S::SerializeTupleVariant;
    type SerializeMap = Entries<S::SerializeMap>;
    type SerializeStruct = Fields<S::SerializeStruct>;
    type SerializeStructVariant = Fields<S::SerializeStructVariant>;

    through! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_i128(v: i128);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_u128(v: u128);
        serialize_f32(v: f32);
        serialize_f64(v: f64);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(value)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_struct(name, value)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_variant(name, index, variant, value)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<S::SerializeSeq, S::Error> {
        self.0.serialize_seq(len)
    }

    fn serialize_tuple(self, len: usize) -> Result<S::SerializeTuple, S::Error> {
        self.0.serialize_tuple(len)
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<S::SerializeTupleStruct, S::Error> {
        self.0.serialize_tuple_struct(name, len)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<S::SerializeTupleVariant, S::Error> {
        self.0.serialize_tuple_variant(name, index, variant, len)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(len).map(|inner| Entries { inner, skipping: false })
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeStruct, S::Error> {
        self.0.serialize_struct(name, len).map(Fields)
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.0.serialize_struct_variant(name, index, variant, len).map(Fields)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use serde_json::json;

    #[derive(Serialize)]
    struct Damage {
        dice: Vec<u32>,
        total: u32,
    }

    #[derive(Serialize)]
    struct Report {
        hit: bool,
        damage: Damage,
        dice: Vec<u32>,
        notes: Vec<&'static str>,
    }

    #[test]
    fn only_the_reports_own_dice_are_left_out() {
        let report = Report {
            hit: true,
            damage: Damage { dice: vec![5, 4], total: 9 },
            dice: vec![6, 6, 5, 4],
            notes: vec![],
        };
        let written = serde_json::to_value(WithoutDice(&report)).unwrap();
        assert_eq!(written, json!({"hit": true, "damage": {"dice": [5, 4], "total": 9}, "notes": []}));
        assert_eq!(
            serde_json::to_string(&WithoutDice(&report)).unwrap(),
            r#"{"hit":true,"damage":{"dice":[5,4],"total":9},"notes":[]}"#
        );
    }

    #[derive(Serialize)]
    struct Outcome {
        effect: i32,
    }

    #[derive(Serialize)]
    struct Flattened {
        attacker: &'static str,
        #[serde(flatten)]
        outcome: Outcome,
        dice: Vec<u32>,
    }

    #[test]
    fn a_report_with_a_flattened_part_loses_its_dice_too() {
        let report = Flattened { attacker: "Vasquez", outcome: Outcome { effect: 2 }, dice: vec![6] };
        assert_eq!(
            serde_json::to_string(&WithoutDice(&report)).unwrap(),
            r#"{"attacker":"Vasquez","effect":2}"#
        );
    }

    #[test]
    fn a_report_without_dice_is_written_as_it_is() {
        let damage = Damage { dice: vec![1], total: 1 };
        let plain = serde_json::to_string(&json!({"a": 1})).unwrap();
        assert_eq!(serde_json::to_string(&WithoutDice(&json!({"a": 1}))).unwrap(), plain);
        assert_eq!(serde_json::to_string(&WithoutDice(&json!({"a": 1, "dice": [1]}))).unwrap(), plain);
        assert_eq!(serde_json::to_string(&WithoutDice(&vec![1, 2])).unwrap(), "[1,2]");
        assert_eq!(serde_json::to_string(&WithoutDice(&Some(3))).unwrap(), "3");
        assert!(serde_json::to_string(&WithoutDice(&damage)).unwrap() == r#"{"total":1}"#);
    }
}
