//! A JSON reader for the fast path of operation bodies (`typed_body.rs`): a serde `Deserializer`
//! over text already checked as UTF-8, for the plain JSON clients send. It takes a body only
//! when it reads exactly as serde_json reads it, and otherwise gives up at once — an escape in a
//! string, a fraction or exponent, an integer of 20 digits or more, `-0`, an enum written as an
//! object, nesting deeper than [`MAX_DEPTH`] — leaving the body to serde_json.
//!
//! Why not serde_json alone: on the small bodies operations carry, its general machinery (escape
//! scanning eight bytes at a time for three-letter keys, error positions, recursion bookkeeping)
//! costs more than the plain reading needs. The Cepheus bench attack's typed read: 580 → 480 ns
//! in a loop; 15.1k → 12.5k instructions per request in the server with the skills change beside
//! it (callgrind, profiling build; README, throughput). sonic-rs, tried first, took 770 ns.
//!
//! Decisions:
//! - Values reach visitors as serde_json hands them over: a non-negative integer by `visit_u64`, a
//!   negative one by `visit_i64`, a string by `visit_borrowed_str`, `null` by `visit_unit` (or
//!   `visit_none` for an `Option`), an object by `visit_map`, an array by `visit_seq`, whatever
//!   type the visitor asked for. So a request type reads the same value from either reader.
//! - Its errors carry no message: a body it refuses is read again by serde_json, whose error is
//!   what a client sees.

use serde::de::{self, DeserializeSeed, Visitor};
use serde::forward_to_deserialize_any;
use std::fmt;

/// Deepest nesting of objects and arrays taken (serde_json's own limit is 128).
pub const MAX_DEPTH: usize = 64;

/// Most digits of an integer taken: any 19 digits fit in a u64 (`u64::MAX` has 20).
const MAX_DIGITS: usize = 19;

/// Why the quick reader gave up; the body goes to serde_json.
#[derive(Debug)]
pub struct GaveUp;

impl fmt::Display for GaveUp {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("left to serde_json")
    }
}

impl std::error::Error for GaveUp {}

impl de::Error for GaveUp {
    fn custom<T: fmt::Display>(_: T) -> Self {
        GaveUp
    }
}

type Result<T> = std::result::Result<T, GaveUp>;

/// Deserializer methods that give up whatever the visitor.
macro_rules! give_up_on {
    ($($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
            Err(GaveUp)
        })*
    };
}

/// Deserializer methods that read the next value as `deserialize_any` does when it starts with
/// one of the bytes given, and give up otherwise.
macro_rules! only_when_next_is {
    ($($first:pat => $($method:ident)*;)*) => {
        $($(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.peek() {
                Some($first) => self.deserialize_any(visitor),
                _ => Err(GaveUp),
            }
        })*)*
    };
}

/// The reader: the text and where it has got to.
pub struct Reader<'de> {
    text: &'de str,
    at: usize,
    depth: usize,
}

impl<'de> Reader<'de> {
    pub fn new(text: &'de str) -> Self {
        Self { text, at: 0, depth: 0 }
    }

    /// Only whitespace may follow the value.
    pub fn end(&mut self) -> Result<()> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(GaveUp),
        }
    }

    /// The next byte that is not JSON whitespace, left unread.
    fn peek(&mut self) -> Option<u8> {
        let bytes = self.text.as_bytes();
        while let Some(&byte) = bytes.get(self.at) {
            if !matches!(byte, b' ' | b'\n' | b'\r' | b'\t') {
                return Some(byte);
            }
            self.at += 1;
        }
        None
    }

    /// Reads `byte` after any whitespace.
    fn expect(&mut self, byte: u8) -> Result<()> {
        if self.peek() != Some(byte) {
            return Err(GaveUp);
        }
        self.at += 1;
        Ok(())
    }

    /// Reads the literal `word` (`true`, `false`, `null`) at the current byte.
    fn literal(&mut self, word: &str) -> Result<()> {
        if !self.text.as_bytes()[self.at..].starts_with(word.as_bytes()) {
            return Err(GaveUp);
        }
        self.at += word.len();
        Ok(())
    }

    /// A string without escapes or control characters, borrowed; the opening quote is next.
    fn string(&mut self) -> Result<&'de str> {
        let start = self.at + 1;
        let bytes = self.text.as_bytes();
        let mut end = start;
        loop {
            match bytes.get(end) {
                Some(b'"') => break,
                Some(&byte) if byte == b'\\' || byte < 0x20 => return Err(GaveUp),
                Some(_) => end += 1,
                None => return Err(GaveUp),
            }
        }
        self.at = end + 1;
        // Cut at quotes, which are ASCII: always on character boundaries of the checked text.
        self.text.get(start..end).ok_or(GaveUp)
    }

    /// An integer as serde_json visits it; anything else numeric gives up.
    fn number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let bytes = self.text.as_bytes();
        let negative = bytes.get(self.at) == Some(&b'-');
        let first = self.at + usize::from(negative);
        let mut end = first;
        let mut magnitude: u64 = 0;
        while let Some(&byte) = bytes.get(end).filter(|byte| byte.is_ascii_digit()) {
            // Up to 19 digits cannot overflow a u64, so no check per digit; longer gives up.
            if end - first == MAX_DIGITS {
                return Err(GaveUp);
            }
            magnitude = magnitude.wrapping_mul(10).wrapping_add(u64::from(byte - b'0'));
            end += 1;
        }
        let digits = end - first;
        // No digits, a leading zero, or a fraction or exponent next.
        if digits == 0
            || (digits > 1 && bytes[first] == b'0')
            || matches!(bytes.get(end), Some(b'.' | b'e' | b'E'))
        {
            return Err(GaveUp);
        }
        self.at = end;
        if !negative {
            return visitor.visit_u64(magnitude);
        }
        // serde_json reads `-0` and integers below `i64::MIN` as floats.
        match magnitude {
            0 => Err(GaveUp),
            m if m <= 1 << 63 => visitor.visit_i64((m as i64).wrapping_neg()),
            _ => Err(GaveUp),
        }
    }

    fn nest(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(GaveUp);
        }
        self.at += 1;
        Ok(())
    }

    fn object<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.nest()?;
        let value = visitor.visit_map(Entries { reader: self, first: true })?;
        self.expect(b'}')?;
        self.depth -= 1;
        Ok(value)
    }

    fn array<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.nest()?;
        let value = visitor.visit_seq(Elements { reader: self, first: true })?;
        self.expect(b']')?;
        self.depth -= 1;
        Ok(value)
    }
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = GaveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek().ok_or(GaveUp)? {
            b'{' => self.object(visitor),
            b'[' => self.array(visitor),
            b'"' => visitor.visit_borrowed_str(self.string()?),
            b't' => self.literal("true").and_then(|()| visitor.visit_bool(true)),
            b'f' => self.literal("false").and_then(|()| visitor.visit_bool(false)),
            b'n' => self.literal("null").and_then(|()| visitor.visit_unit()),
            b'-' | b'0'..=b'9' => self.number(visitor),
            _ => Err(GaveUp),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek() == Some(b'n') {
            self.literal("null")?;
            return visitor.visit_none();
        }
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    /// A unit variant written as its name; the object form (`{"variant": …}`) gives up.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if self.peek() != Some(b'"') {
            return Err(GaveUp);
        }
        visitor.visit_enum(UnitVariant(self.string()?))
    }

    /// Objects only: serde_json also reads a struct from an array, which this leaves to it.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.peek() {
            Some(b'{') => self.object(visitor),
            _ => Err(GaveUp),
        }
    }

    give_up_on! { deserialize_bytes deserialize_byte_buf }

    // A type asked for reads only its own kind of JSON value, as with serde_json (which refuses
    // any other without asking the visitor, so a lenient visitor never sees it).
    only_when_next_is! {
        b'-' | b'0'..=b'9' => deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
            deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
            deserialize_u128 deserialize_f32 deserialize_f64;
        b'"' => deserialize_char deserialize_str deserialize_string deserialize_identifier;
        b't' | b'f' => deserialize_bool;
        b'n' => deserialize_unit;
        b'[' => deserialize_seq;
        b'{' => deserialize_map;
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }
}

/// The entries of an object whose `{` is read.
struct Entries<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de> {
    type Error = GaveUp;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.reader.peek() {
            Some(b'}') => return Ok(None),
            Some(b',') if !self.first => self.reader.at += 1,
            Some(b'"') if self.first => {}
            _ => return Err(GaveUp),
        }
        self.first = false;
        if self.reader.peek() != Some(b'"') {
            return Err(GaveUp);
        }
        let key = self.reader.string()?;
        self.reader.expect(b':')?;
        seed.deserialize(Key(key)).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        seed.deserialize(&mut *self.reader)
    }
}

/// The elements of an array whose `[` is read.
struct Elements<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> de::SeqAccess<'de> for Elements<'_, 'de> {
    type Error = GaveUp;

    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        match self.reader.peek() {
            Some(b']') => return Ok(None),
            Some(b',') if !self.first => self.reader.at += 1,
            Some(_) if self.first => {}
            _ => return Err(GaveUp),
        }
        self.first = false;
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

/// An object's key: a string, handed over as serde_json hands a key over. A key read as a number
/// or a bool (serde_json parses those from the quoted text) gives up.
struct Key<'de>(&'de str);

impl<'de> de::Deserializer<'de> for Key<'de> {
    type Error = GaveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.0)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(UnitVariant(self.0))
    }

    give_up_on! {
        deserialize_bytes deserialize_byte_buf deserialize_bool deserialize_i8 deserialize_i16
        deserialize_i32 deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64
    }

    forward_to_deserialize_any! {
        char str string unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// A unit variant named by a string.
struct UnitVariant<'de>(&'de str);

impl<'de> de::EnumAccess<'de> for UnitVariant<'de> {
    type Error = GaveUp;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        let name = de::value::BorrowedStrDeserializer::<GaveUp>::new(self.0);
        seed.deserialize(name).map(|variant| (variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for UnitVariant<'de> {
    type Error = GaveUp;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _: S) -> Result<S::Value> {
        Err(GaveUp)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn struct_variant<V: Visitor<'de>>(self, _: &'static [&'static str], _: V) -> Result<V::Value> {
        Err(GaveUp)
    }
}

#[cfg(test)]
#[path = "quick_json_tests.rs"]
mod tests;
