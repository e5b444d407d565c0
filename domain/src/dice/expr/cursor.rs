//! Character-level reading of an expression: peeking (case-insensitive), numbers, and errors that
//! point at the current position.

use std::borrow::Cow;

use super::{DiceExprError, MAX_NUMBER};

/// A read position in the expression's characters (positions count characters, not bytes).
pub(super) struct Cursor<'a> {
    text: Text<'a>,
    pos: usize,
}

/// The expression's characters: ASCII text (the usual case) is read in place, where a byte is a
/// character; any other text is decoded once.
enum Text<'a> {
    Ascii(&'a str),
    Wide(Vec<char>),
}

impl<'a> Text<'a> {
    fn get(&self, i: usize) -> Option<char> {
        match self {
            Self::Ascii(text) => text.as_bytes().get(i).map(|&b| char::from(b)),
            Self::Wide(chars) => chars.get(i).copied(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Self::Ascii(text) => text.len(),
            Self::Wide(chars) => chars.len(),
        }
    }

    /// Characters `start..end` (clamped to the text), as written.
    fn slice(&self, start: usize, end: usize) -> Cow<'a, str> {
        let end = end.min(self.len());
        let start = start.min(end);
        match self {
            Self::Ascii(text) => Cow::Borrowed(text.get(start..end).unwrap_or_default()),
            Self::Wide(chars) => Cow::Owned(chars[start..end].iter().collect()),
        }
    }
}

impl<'a> Cursor<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        let text = if text.is_ascii() { Text::Ascii(text) } else { Text::Wide(text.chars().collect()) };
        Self { text, pos: 0 }
    }

    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    pub(super) fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    /// The next character, lower-cased (the notation is case-insensitive).
    pub(super) fn peek(&self) -> Option<char> {
        self.text.get(self.pos).map(|c| c.to_ascii_lowercase())
    }

    /// The character `n` places ahead, lower-cased.
    pub(super) fn peek_nth(&self, n: usize) -> Option<char> {
        self.text.get(self.pos + n).map(|c| c.to_ascii_lowercase())
    }

    pub(super) fn bump(&mut self) {
        self.pos += 1;
    }

    /// Goes back (or forward) to `pos`, e.g. to leave a comment unread.
    pub(super) fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// The byte offset in the text of character `pos` (the text's length past its end).
    pub(super) fn byte_offset(&self, pos: usize) -> usize {
        match &self.text {
            Text::Ascii(text) => pos.min(text.len()),
            Text::Wide(chars) => chars.iter().take(pos).map(|c| c.len_utf8()).sum(),
        }
    }

    /// The characters from `start` to `end`, as written.
    pub(super) fn slice(&self, start: usize, end: usize) -> Cow<'a, str> {
        self.text.slice(start, end)
    }

    /// The characters from `start` up to the current position, as written (not lower-cased).
    pub(super) fn raw_since(&self, start: usize) -> Cow<'a, str> {
        self.text.slice(start, self.pos)
    }

    /// Consumes `c` if it is next.
    pub(super) fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        if found {
            self.bump();
        }
        found
    }

    pub(super) fn skip_whitespace(&mut self) {
        while self.text.get(self.pos).is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    /// The text read since `start`, lower-cased.
    pub(super) fn text_since(&self, start: usize) -> String {
        self.raw_since(start).to_ascii_lowercase()
    }

    /// A run of digits, if one is next; refused above [`MAX_NUMBER`].
    pub(super) fn number(&mut self) -> Result<Option<u32>, DiceExprError> {
        let start = self.pos;
        let mut value: u32 = 0;
        while let Some(digit) = self.peek().and_then(|c| c.to_digit(10)) {
            value = value.saturating_mul(10).saturating_add(digit);
            self.bump();
        }
        if self.pos == start {
            return Ok(None);
        }
        if value > MAX_NUMBER {
            return Err(DiceExprError::NumberTooLarge { pos: start });
        }
        Ok(Some(value))
    }

    /// A number that must be there; `expected` describes it for the error.
    pub(super) fn expect_number(&mut self, expected: &'static str) -> Result<u32, DiceExprError> {
        self.number()?.ok_or_else(|| self.unexpected(expected))
    }

    /// The error for finding something other than `expected` here.
    pub(super) fn unexpected(&self, expected: &'static str) -> DiceExprError {
        match self.text.get(self.pos) {
            Some(found) => DiceExprError::Unexpected { found, pos: self.pos, expected },
            None => DiceExprError::UnexpectedEnd { pos: self.pos, expected },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_and_bounded() {
        let mut cursor = Cursor::new("42d");
        assert_eq!(cursor.number(), Ok(Some(42)));
        assert_eq!(cursor.peek(), Some('d'));
        assert_eq!(Cursor::new("d").number(), Ok(None));
        assert_eq!(Cursor::new("1000000").number(), Ok(Some(1_000_000)));
        assert_eq!(Cursor::new("1000001").number(), Err(DiceExprError::NumberTooLarge { pos: 0 }));
        let huge = "9".repeat(60);
        assert_eq!(Cursor::new(&huge).number(), Err(DiceExprError::NumberTooLarge { pos: 0 }));
    }

    #[test]
    fn peeking_is_case_insensitive_and_text_is_lower_cased() {
        let mut cursor = Cursor::new("KH3");
        assert!(cursor.eat('k'));
        assert!(cursor.eat('h'));
        assert_eq!(cursor.text_since(0), "kh");
    }

    #[test]
    fn text_beyond_ascii_counts_characters_not_bytes() {
        let mut cursor = Cursor::new("é1d6 ü");
        assert_eq!(cursor.unexpected("x"), DiceExprError::Unexpected { found: 'é', pos: 0, expected: "x" });
        cursor.bump();
        assert_eq!(cursor.number(), Ok(Some(1)));
        assert_eq!(cursor.pos(), 2);
        assert_eq!(cursor.raw_since(0), "é1");
        assert_eq!((cursor.byte_offset(4), cursor.byte_offset(9)), (5, 8));
        cursor.set_pos(5);
        assert_eq!(cursor.peek(), Some('ü'));
    }

    #[test]
    fn annotations_and_comments_beyond_ascii_keep_their_text() -> Result<(), DiceExprError> {
        use crate::dice::{Dice, DiceExpr};
        let expr = DiceExpr::parse("1d6 [feu é] + 2 où ça", true)?;
        let outcome = expr.roll(&mut Dice::scripted(vec![4], 0)?, "t")?;
        assert_eq!(outcome.rendered, "1d6 (4) [feu é] + 2 = 6");
        assert_eq!(outcome.comment.as_deref(), Some("où ça"));
        assert_eq!(
            "1d6 + é".parse::<DiceExpr>(),
            Err(DiceExprError::Unexpected { found: 'é', pos: 6, expected: super::super::parser::OPERAND })
        );
        Ok(())
    }
}
