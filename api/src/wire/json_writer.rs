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
/// time: the marks of every word are gathered without a branch and tested once, and the last
/// eight bytes are read as one more word overlapping the ones before, so no byte is tested
/// alone (a text shorter than a word is tested byte by byte).
fn needs_escaping(text: &str) -> bool {
    let bytes = text.as_bytes();
    let Some(last) = bytes.last_chunk::<8>() else {
        return bytes.iter().any(|&byte| byte < 0x20 || byte == b'"' || byte == b'\\');
    };
    let mut marks = word_marks(u64::from_le_bytes(*last));
    for chunk in bytes.chunks_exact(8) {
        if let Some(word) = chunk.first_chunk::<8>() {
            marks |= word_marks(u64::from_le_bytes(*word));
        }
    }
    marks != 0
}

/// The high bit of each byte of `word` that is below 0x20, `"` or `\`, by the classic "has a
/// zero byte" tests (`x - 0x01…` against `x ^ "…`, `x ^ \…`; `x - 0x20…` against `x`); their
/// `!x` is `!word` for all three, as `"` and `\` have no high bit. A byte above one that
/// matches may be marked too (a borrow), but never a word in which none matches: exact for the
/// word as a whole, which is all that is asked.
#[inline(always)]
fn word_marks(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let control = word.wrapping_sub(ONES * 0x20);
    let quote = (word ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES);
    let backslash = (word ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    (control | quote | backslash) & !word & HIGH
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

/// The decimal digits of `value`. Most numbers in an answer (dice, DMs, flags of 0) have one
/// digit: that is pushed as a character where it is written, which costs less than a call
/// and a `memcpy` of a piece of unknown length, and keeps the inlined part small. The rest is
/// written out of line: two digits pushed as characters, longer numbers by `itoa`, the very
/// code serde_json writes integers with, so the bytes are its bytes by construction.
#[inline(always)]
pub(super) fn write_u64(out: &mut String, value: u64) {
    match u8::try_from(value) {
        Ok(small) if small < 10 => out.push(digit(small)),
        _ => write_longer_u64(out, value),
    }
}

#[inline(always)]
fn write_i64(out: &mut String, value: i64) {
    match u8::try_from(value) {
        Ok(small) if small < 10 => out.push(digit(small)),
        _ => write_longer_i64(out, value),
    }
}

#[inline(never)]
fn write_longer_u64(out: &mut String, value: u64) {
    match u8::try_from(value) {
        Ok(small) if small < 10 => out.push(digit(small)),
        Ok(small) if small < 100 => {
            out.push(digit(small / 10));
            out.push(digit(small % 10));
        }
        _ => out.push_str(itoa::Buffer::new().format(value)),
    }
}

#[inline(never)]
fn write_longer_i64(out: &mut String, value: i64) {
    match value {
        0.. => write_longer_u64(out, value.unsigned_abs()),
        -9..0 => {
            out.push('-');
            out.push(digit(u8::try_from(value.unsigned_abs()).unwrap_or_default()));
        }
        -99..-9 => {
            out.push('-');
            write_longer_u64(out, value.unsigned_abs());
        }
        _ => out.push_str(itoa::Buffer::new().format(value)),
    }
}

/// The ASCII digit of `value` (below 10).
#[inline(always)]
fn digit(value: u8) -> char {
    char::from(b'0' + value % 10)
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

/// An array or an object being written; `in_variant` when a variant wrapper `{"name":` around
/// it needs its closing `}` at the end.
struct Compound<'a> {
    out: &'a mut String,
    state: State,
    in_variant: bool,
}

impl<'a> Compound<'a> {
    /// Opens `open` (`[` or `{`); a length hint of 0 closes it at once, as serde_json does.
    fn open(out: &'a mut String, open: char, close: char, len: Option<usize>, in_variant: bool) -> Self {
        out.push(open);
        let state = if len == Some(0) {
            out.push(close);
            State::Empty
        } else {
            State::First
        };
        Compound { out, state, in_variant }
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

    /// `"key":value`, after a comma unless first. Always inlined into the derived `serialize`
    /// that calls it: there `key` is a constant, so its copy is a few stores rather than a call
    /// to `memcpy` (the field names were ~a third of the `memcpy` calls of an attack's answer).
    #[inline(always)]
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> serde_json::Result<()> {
        debug_assert!(is_plain_key(key), "a field name that needs escaping: {key:?}");
        if self.state != State::First {
            self.out.push(',');
        }
        self.state = State::Rest;
        self.out.push('"');
        self.out.push_str(key);
        self.out.push_str("\":");
        value.serialize(Writer(self.out))
    }

    fn close(self, close: char) -> serde_json::Result<()> {
        if self.state != State::Empty {
            self.out.push(close);
        }
        if self.in_variant {
            self.out.push('}');
        }
        Ok(())
    }
}

/// Opens `{"variant":` for a variant with data; the compound adds the closing `}`.
fn open_variant(out: &mut String, variant: &'static str) {
    out.push('{');
    write_name(out, variant);
    out.push(':');
}

/// A variant's name, quoted: written as it is, as a field name is (see the module doc). Always
/// inlined, so that where the derive passes a constant name its copy is a few stores.
#[inline(always)]
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

    #[inline(always)]
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

    #[inline(always)]
    fn serialize_i32(self, value: i32) -> serde_json::Result<()> {
        self.serialize_i64(i64::from(value))
    }

    #[inline(always)]
    fn serialize_i64(self, value: i64) -> serde_json::Result<()> {
        write_i64(self.0, value);
        Ok(())
    }

    fn serialize_i128(self, value: i128) -> serde_json::Result<()> {
        through_serde_json(self.0, &value)
    }

    #[inline(always)]
    fn serialize_u8(self, value: u8) -> serde_json::Result<()> {
        self.serialize_u64(u64::from(value))
    }

    fn serialize_u16(self, value: u16) -> serde_json::Result<()> {
        self.serialize_u64(u64::from(value))
    }

    #[inline(always)]
    fn serialize_u32(self, value: u32) -> serde_json::Result<()> {
        self.serialize_u64(u64::from(value))
    }

    #[inline(always)]
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

    #[inline(always)]
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

    #[inline(always)]
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
        Ok(Compound::open(self.0, '[', ']', len, false))
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
        Ok(Compound::open(self.0, '[', ']', Some(len), true))
    }

    fn serialize_map(self, len: Option<usize>) -> serde_json::Result<Compound<'a>> {
        Ok(Compound::open(self.0, '{', '}', len, false))
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
        Ok(Compound::open(self.0, '{', '}', Some(len), true))
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

    #[inline(always)]
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

    #[inline(always)]
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
