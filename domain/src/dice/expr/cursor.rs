//! Character-level reading of an expression: peeking (case-insensitive), numbers, and errors that
//! point at the current position.

use super::{DiceExprError, MAX_NUMBER};

/// A read position in the expression's characters.
pub(super) struct Cursor {
    chars: Vec<char>,
    pos: usize,
}

impl Cursor {
    pub(super) fn new(text: &str) -> Self {
        Self { chars: text.chars().collect(), pos: 0 }
    }

    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    pub(super) fn at_end(&self) -> bool {
        self.pos >= self.chars.len()
    }

    /// The next character, lower-cased (the notation is case-insensitive).
    pub(super) fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).map(char::to_ascii_lowercase)
    }

    /// The character `n` places ahead, lower-cased.
    pub(super) fn peek_nth(&self, n: usize) -> Option<char> {
        self.chars.get(self.pos + n).map(char::to_ascii_lowercase)
    }

    pub(super) fn bump(&mut self) {
        self.pos += 1;
    }

    /// Goes back (or forward) to `pos`, e.g. to leave a comment unread.
    pub(super) fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// Consumes `text` if it comes next.
    pub(super) fn eat_str(&mut self, text: &str) -> bool {
        let found = text.chars().enumerate().all(|(i, c)| self.peek_nth(i) == Some(c));
        if found {
            self.pos += text.chars().count();
        }
        found
    }

    /// The characters from `start` to the end, as written.
    pub(super) fn rest_from(&self, start: usize) -> String {
        self.chars.get(start..).unwrap_or_default().iter().collect()
    }

    /// The characters from `start` up to the current position, as written (not lower-cased).
    pub(super) fn raw_since(&self, start: usize) -> String {
        self.chars.get(start..self.pos).unwrap_or_default().iter().collect()
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
        while self.chars.get(self.pos).is_some_and(|c| c.is_whitespace()) {
            self.bump();
        }
    }

    /// The text read since `start`, lower-cased.
    pub(super) fn text_since(&self, start: usize) -> String {
        self.chars.get(start..self.pos).unwrap_or_default().iter().map(char::to_ascii_lowercase).collect()
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
        match self.chars.get(self.pos) {
            Some(&found) => DiceExprError::Unexpected { found, pos: self.pos, expected },
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
}
