//! A serde `Serializer` that writes compact JSON straight onto a `String`: the very bytes
//! `serde_json::to_writer` writes for the same value (the tests compare them), for the answers
//! written on every request (`json_text.rs`).
//!
//! Why not serde_json itself: it escapes every key and string one byte at a time through an
//! `io::Write`, and its output is bytes that must be checked as UTF-8 again to become the
//! `String` a reply holds. Here:
//! - struct field and variant names are written as they are: they are Rust identifiers or
//!   `serde(rename)`s, and none in this workspace needs escaping (checked in debug builds);
//! - integers are written by `itoa`, as serde_json writes them;
//! - a string is scanned eight bytes at a time and copied whole when nothing in it needs
//!   escaping, which is nearly always; otherwise it is escaped exactly as serde_json escapes
//!   (`\"`, `\\`, `\b`, `\t`, `\n`, `\f`, `\r`, other control characters as `\u00XX`);
//! - everything written is already `str`, so the result needs no UTF-8 check.
//!
//! What is rare in an answer (floats, 128-bit integers, bytes, map keys that are not strings)
//! goes through serde_json itself, so its bytes are serde_json's by construction.

use serde::ser::{self, Serialize};

/// Writes `value` as compact JSON onto `out`.
pub fn write_json<T: Serialize + ?Sized>(out: &mut String, value: &T) -> serde_json::Result<()> {
    value.serialize(Writer(out))
}

/// Writes a JSON string: `text` quoted and escaped as serde_json escapes it.
pub fn write_string(out: &mut String, text: &str) {
    out.reserve(text.len() + 2);
    out.push('"');
    if needs_escaping(text) {
        push_escaped(out, text);
    } else {
        out.push_str(text);
    }
    out.push('"');
}

/// Whether any byte of `text` is `"`, `\` or a control character below 0x20, eight bytes at a
/// time (a word has such a byte when one of the classic "has a zero byte" tests fires; a false
/// positive can only come after a true one, so the answer for the whole word is exact).
fn needs_escaping(text: &str) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |word: u64| word.wrapping_sub(ONES) & !word & HIGH != 0;
    let word_needs = |word: u64| {
        word.wrapping_sub(ONES * 0x20) & !word & HIGH != 0
            || has_zero(word ^ (ONES * u64::from(b'"')))
            || has_zero(word ^ (ONES * u64::from(b'\\')))
    };
    let chunks = text.as_bytes().chunks_exact(8);
    let tail = chunks.remainder();
    for chunk in chunks {
        let Ok(bytes) = <[u8; 8]>::try_from(chunk) else { return true };
        if word_needs(u64::from_le_bytes(bytes)) {
            return true;
        }
    }
    tail.iter().any(|&byte| byte < 0x20 || byte == b'"' || byte == b'\\')
}

/// `text` with serde_json's escapes (see the module doc).
fn push_escaped(out: &mut String, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut run = 0;
    for (index, byte) in text.bytes().enumerate() {
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x09 => "\\t",
            0x0a => "\\n",
            0x0c => "\\f",
            0x0d => "\\r",
            0..0x20 => "",
            _ => continue,
        };
        // `index` is at an ASCII byte, so both ends of the run are character boundaries.
        out.push_str(text.get(run..index).unwrap_or_default());
        run = index + 1;
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        } else {
            out.push_str(escape);
        }
    }
    out.push_str(text.get(run..).unwrap_or_default());
}

/// The decimal digits of `value`, written by `itoa`: the very code serde_json writes integers
/// with (two digits at a time from a table), so the bytes are its bytes by construction.
fn write_u64(out: &mut String, value: u64) {
    out.push_str(itoa::Buffer::new().format(value));
}

fn write_i64(out: &mut String, value: i64) {
    out.push_str(itoa::Buffer::new().format(value));
}

/// A value serde_json writes: appended as it writes it.
fn through_serde_json<T: Serialize + ?Sized>(out: &mut String, value: &T) -> serde_json::Result<()> {
    out.push_str(&serde_json::to_string(value)?);
    Ok(())
}

/// Struct field names are written unescaped (see the module doc).
fn is_plain_key(key: &str) -> bool {
    !needs_escaping(key)
}

/// The serializer: a borrowed output.
struct Writer<'a>(&'a mut String);

/// Where a compound value stands, as serde_json tracks it: `Empty` when it was written whole
/// on opening (a length hint of 0), `First` before its first element, `Rest` after.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Empty,
    First,
    Rest,
}

/// An array or an object being written; `closing` is what a variant wrapper adds at the end.
struct Compound<'a> {
    out: &'a mut String,
    state: State,
    closing: &'static str,
}

impl<'a> Compound<'a> {
    /// Opens `open` (`[` or `{`); a length hint of 0 closes it at once, as serde_json does.
    fn open(out: &'a mut String, open: char, close: char, len: Option<usize>, closing: &'static str) -> Self {
        out.push(open);
        let state = if len == Some(0) {
            out.push(close);
            State::Empty
        } else {
            State::First
        };
        Compound { out, state, closing }
    }

    /// The separator before the next element or key (serde_json writes one unless first).
    fn separate(&mut self) {
        if self.state != State::First {
            self.out.push(',');
        }
        self.state = State::Rest;
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> serde_json::Result<()> {
        self.separate();
        value.serialize(Writer(self.out))
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> serde_json::Result<()> {
        debug_assert!(is_plain_key(key), "a field name that needs escaping: {key:?}");
        self.out.push_str(if self.state == State::First { "\"" } else { ",\"" });
        self.state = State::Rest;
        self.out.push_str(key);
        self.out.push_str("\":");
        value.serialize(Writer(self.out))
    }

    fn close(self, close: char) -> serde_json::Result<()> {
        if self.state != State::Empty {
            self.out.push(close);
        }
        self.out.push_str(self.closing);
        Ok(())
    }
}

/// Opens `{"variant":` for a variant with data; the compound adds the closing `}`.
fn open_variant(out: &mut String, variant: &'static str) {
    out.push('{');
    write_name(out, variant);
    out.push(':');
}

/// A variant's name, quoted: written as it is, as a field name is (see the module doc).
fn write_name(out: &mut String, name: &'static str) {
    debug_assert!(is_plain_key(name), "a variant name that needs escaping: {name:?}");
    out.push('"');
    out.push_str(name);
    out.push('"');
}

impl<'a> ser::Serializer for Writer<'a> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, value: bool) -> serde_json::Result<()> {
        self.0.push_str(if value { "true" } else { "false" });
        Ok(())
    }

    fn serialize_i8(self, value: i8) -> serde_json::Result<()> {
        self.serialize_i64(i64::from(value))
    }

    fn serialize_i16(self, value: i16) -> serde_json::Result<()> {
        self.serialize_i64(i64::from(value))
    }

    fn serialize_i32(self, value: i32) -> serde_json::Result<()> {
        self.serialize_i64(i64::from(value))
    }

    fn serialize_i64(self, value: i64) -> serde_json::Result<()> {
        write_i64(self.0, value);
        Ok(())
    }

    fn serialize_i128(self, value: i128) -> serde_json::Result<()> {
        through_serde_json(self.0, &value)
    }

    fn serialize_u8(self, value: u8) -> serde_json::Result<()> {
        self.serialize_u64(u64::from(value))
    }

    fn serialize_u16(self, value: u16) -> serde_json::Result<()> {
        self.serialize_u64(u64::from(value))
    }

    fn serialize_u32(self, value: u32) -> serde_json::Result<()> {
        self.serialize_u64(u64::from(value))
    }

    fn serialize_u64(self, value: u64) -> serde_json::Result<()> {
        write_u64(self.0, value);
        Ok(())
    }

    fn serialize_u128(self, value: u128) -> serde_json::Result<()> {
        through_serde_json(self.0, &value)
    }

    fn serialize_f32(self, value: f32) -> serde_json::Result<()> {
        through_serde_json(self.0, &value)
    }

    fn serialize_f64(self, value: f64) -> serde_json::Result<()> {
        through_serde_json(self.0, &value)
    }

    fn serialize_char(self, value: char) -> serde_json::Result<()> {
        write_string(self.0, value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> serde_json::Result<()> {
        write_string(self.0, value);
        Ok(())
    }

    fn serialize_bytes(self, value: &[u8]) -> serde_json::Result<()> {
        through_serde_json(self.0, &Bytes(value))
    }

    fn serialize_none(self) -> serde_json::Result<()> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> serde_json::Result<()> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> serde_json::Result<()> {
        self.0.push_str("null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> serde_json::Result<()> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> serde_json::Result<()> {
        write_name(self.0, variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> serde_json::Result<()> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> serde_json::Result<()> {
        open_variant(self.0, variant);
        value.serialize(Writer(&mut *self.0))?;
        self.0.push('}');
        Ok(())
    }

    fn serialize_seq(self, len: Option<usize>) -> serde_json::Result<Compound<'a>> {
        Ok(Compound::open(self.0, '[', ']', len, ""))
    }

    fn serialize_tuple(self, len: usize) -> serde_json::Result<Compound<'a>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> serde_json::Result<Compound<'a>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> serde_json::Result<Compound<'a>> {
        open_variant(self.0, variant);
        Ok(Compound::open(self.0, '[', ']', Some(len), "}"))
    }

    fn serialize_map(self, len: Option<usize>) -> serde_json::Result<Compound<'a>> {
        Ok(Compound::open(self.0, '{', '}', len, ""))
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> serde_json::Result<Compound<'a>> {
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> serde_json::Result<Compound<'a>> {
        open_variant(self.0, variant);
        Ok(Compound::open(self.0, '{', '}', Some(len), "}"))
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> serde_json::Result<()> {
        self.element(value)
    }

    fn end(self) -> serde_json::Result<()> {
        self.close(']')
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> serde_json::Result<()> {
        self.element(value)
    }

    fn end(self) -> serde_json::Result<()> {
        self.close(']')
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> serde_json::Result<()> {
        self.element(value)
    }

    fn end(self) -> serde_json::Result<()> {
        self.close(']')
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> serde_json::Result<()> {
        self.element(value)
    }

    fn end(self) -> serde_json::Result<()> {
        self.close(']')
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> serde_json::Result<()> {
        self.separate();
        key.serialize(KeyWriter(self.out))?;
        self.out.push(':');
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> serde_json::Result<()> {
        value.serialize(Writer(self.out))
    }

    fn end(self) -> serde_json::Result<()> {
        self.close('}')
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> serde_json::Result<()> {
        self.field(key, value)
    }

    fn end(self) -> serde_json::Result<()> {
        self.close('}')
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> serde_json::Result<()> {
        self.field(key, value)
    }

    fn end(self) -> serde_json::Result<()> {
        self.close('}')
    }
}

/// A map key: a string (or a unit variant, or a newtype around either) is written here; any
/// other key goes through serde_json, which quotes numbers and booleans and refuses the rest.
struct KeyWriter<'a>(&'a mut String);

/// One map entry `{key: null}`, for the keys serde_json writes (see [`KeyWriter`]).
struct OneKey<'a, K: ?Sized>(&'a K);

impl<K: Serialize + ?Sized> Serialize for OneKey<'_, K> {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(self.0, &())?;
        map.end()
    }
}

impl KeyWriter<'_> {
    /// The key as serde_json writes it: its `{"key":null}` without the braces and the value.
    fn through_serde_json<K: Serialize + ?Sized>(self, key: &K) -> serde_json::Result<()> {
        let entry = serde_json::to_string(&OneKey(key))?;
        let written = entry.strip_prefix('{').and_then(|entry| entry.strip_suffix(":null}"));
        self.0.push_str(written.ok_or_else(|| ser::Error::custom("a map key serde_json did not write"))?);
        Ok(())
    }
}

/// The key types that are not strings, each handed to serde_json as itself.
macro_rules! keys_through_serde_json {
    ($($name:ident($type:ty);)*) => {
        $(fn $name(self, key: $type) -> serde_json::Result<()> {
            self.through_serde_json(&key)
        })*
    };
}

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = ser::Impossible<(), serde_json::Error>;
    type SerializeTuple = ser::Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = ser::Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = ser::Impossible<(), serde_json::Error>;
    type SerializeMap = ser::Impossible<(), serde_json::Error>;
    type SerializeStruct = ser::Impossible<(), serde_json::Error>;
    type SerializeStructVariant = ser::Impossible<(), serde_json::Error>;

    fn serialize_str(self, key: &str) -> serde_json::Result<()> {
        write_string(self.0, key);
        Ok(())
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> serde_json::Result<()> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        key: &T,
    ) -> serde_json::Result<()> {
        key.serialize(self)
    }

    keys_through_serde_json! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_i128(i128);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_u128(u128);
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
    }

    fn serialize_bytes(self, key: &[u8]) -> serde_json::Result<()> {
        self.through_serde_json(&Bytes(key))
    }

    fn serialize_none(self) -> serde_json::Result<()> {
        self.through_serde_json(&None::<()>)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, key: &T) -> serde_json::Result<()> {
        self.through_serde_json(&Some(key))
    }

    fn serialize_unit(self) -> serde_json::Result<()> {
        self.through_serde_json(&())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> serde_json::Result<()> {
        self.through_serde_json(&())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _key: &T,
    ) -> serde_json::Result<()> {
        Err(not_a_key())
    }

    fn serialize_seq(self, _len: Option<usize>) -> serde_json::Result<Self::SerializeSeq> {
        Err(not_a_key())
    }

    fn serialize_tuple(self, _len: usize) -> serde_json::Result<Self::SerializeTuple> {
        Err(not_a_key())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> serde_json::Result<Self::SerializeTupleStruct> {
        Err(not_a_key())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> serde_json::Result<Self::SerializeTupleVariant> {
        Err(not_a_key())
    }

    fn serialize_map(self, _len: Option<usize>) -> serde_json::Result<Self::SerializeMap> {
        Err(not_a_key())
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> serde_json::Result<Self::SerializeStruct> {
        Err(not_a_key())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> serde_json::Result<Self::SerializeStructVariant> {
        Err(not_a_key())
    }
}

/// Bytes, handed on to serde_json as bytes.
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// serde_json's refusal of a compound map key.
fn not_a_key() -> serde_json::Error {
    ser::Error::custom("key must be a string")
}

#[cfg(test)]
#[path = "json_writer_tests.rs"]
mod tests;
