//! The terms arithmetic is built from: numbers, decimals, dice groups, parentheses and sets with
//! their keep/drop operations, each optionally followed by annotations (`8d6 [fire]`).

use super::ast::{Expr, SetOp};
use super::parser::{OPERAND, Parser};
use super::ratio::Ratio;
use super::{DiceExprError, MAX_DECIMALS, MAX_PAREN_DEPTH, MAX_SET_SIZE};

impl Parser<'_> {
    /// A term and its annotations.
    pub(super) fn term(&mut self) -> Result<Expr, DiceExprError> {
        let start = self.cur.pos();
        let inner = self.atom()?;
        let end = self.cur.pos();
        let annotation = self.annotations()?;
        if annotation.is_empty() {
            return Ok(inner);
        }
        let text = self.cur.slice(start, end).into_owned();
        Ok(Expr::Annotated { inner: Box::new(inner), annotation, text })
    }

    fn atom(&mut self) -> Result<Expr, DiceExprError> {
        let start = self.cur.pos();
        match self.cur.peek() {
            Some('(') => self.parenthesised(),
            Some('d') => Ok(Expr::Dice(self.dice_group(start, None)?)),
            Some(c) if c.is_ascii_digit() || c == '.' => self.number(start),
            _ => Err(self.cur.unexpected(OPERAND)),
        }
    }

    /// `12`, `1.5`, `.5`, `2.`, or the count of a dice group (`12d6`).
    fn number(&mut self, start: usize) -> Result<Expr, DiceExprError> {
        let whole = self.cur.number()?;
        if self.cur.peek() == Some('.') {
            return self.decimal(start, whole.unwrap_or(0));
        }
        match whole {
            Some(count) if self.cur.peek() == Some('d') => {
                Ok(Expr::Dice(self.dice_group(start, Some(count))?))
            }
            Some(value) => Ok(Expr::Number(value.into())),
            None => Err(self.cur.unexpected(OPERAND)),
        }
    }

    /// The fraction after the point; at most [`MAX_DECIMALS`] digits.
    fn decimal(&mut self, start: usize, whole: u32) -> Result<Expr, DiceExprError> {
        self.cur.bump();
        let (mut fraction, mut scale, mut digits) = (0_i128, 1_i128, 0);
        while let Some(digit) = self.cur.peek().and_then(|c| c.to_digit(10)) {
            if digits == MAX_DECIMALS {
                return Err(DiceExprError::TooPrecise { pos: start });
            }
            (fraction, scale, digits) = (fraction * 10 + i128::from(digit), scale * 10, digits + 1);
            self.cur.bump();
        }
        let text = self.cur.raw_since(start).into_owned();
        if text == "." {
            return Err(self.cur.unexpected("a digit"));
        }
        let value = Ratio::new(i128::from(whole) * scale + fraction, scale)
            .ok_or(DiceExprError::NumberTooLarge { pos: start })?;
        Ok(Expr::Decimal { value, text })
    }

    /// `( … )`: a parenthesis around one expression, or a set `(a, b)`, `(a,)`, `()`; either may
    /// be followed by keep/drop operations.
    fn parenthesised(&mut self) -> Result<Expr, DiceExprError> {
        let open = self.cur.pos();
        if self.depth == MAX_PAREN_DEPTH {
            return Err(DiceExprError::TooDeep { pos: open });
        }
        self.cur.bump();
        self.depth += 1;
        let (elements, comma) = self.elements(open)?;
        self.depth -= 1;
        let target = match (elements.len(), comma) {
            (1, false) => Expr::Paren(Box::new(elements.into_iter().next().ok_or(DiceExprError::Empty)?)),
            _ => Expr::Set { pos: open, elements },
        };
        let ops = self.set_operations()?;
        if ops.is_empty() {
            return Ok(target);
        }
        Ok(Expr::Operated { target: Box::new(target), ops })
    }

    /// The elements up to the closing `)`, and whether a comma was written.
    fn elements(&mut self, open: usize) -> Result<(Vec<Expr>, bool), DiceExprError> {
        let mut elements = Vec::new();
        let mut comma = false;
        self.cur.skip_whitespace();
        while !self.cur.eat(')') {
            if elements.len() == MAX_SET_SIZE {
                return Err(DiceExprError::SetTooLarge { pos: open });
            }
            elements.push(self.comparison()?);
            self.cur.skip_whitespace();
            if self.cur.eat(',') {
                comma = true;
                self.cur.skip_whitespace();
            } else if self.cur.eat(')') {
                break;
            } else if self.cur.at_end() {
                return Err(DiceExprError::UnclosedParen { pos: open });
            } else {
                return Err(self.cur.unexpected("an operator, ',' or ')'"));
            }
        }
        Ok((elements, comma))
    }

    /// `k` and `p` operations after a `)`; consecutive ones of one kind are merged.
    fn set_operations(&mut self) -> Result<Vec<SetOp>, DiceExprError> {
        let mut ops: Vec<SetOp> = Vec::new();
        // `d` after a parenthesis would read as a dice count (`(2)d6`), so sets drop with `p` only.
        while self.cur.peek() != Some('d')
            && let Some(op) = self.set_op()?
        {
            if !op.kind.applies_to_sets() && self.comments {
                // As d20: with comments allowed, `(1d20)rr1` is `(1d20)` and a comment.
                self.cur.set_pos(op.pos);
                break;
            }
            if !op.kind.applies_to_sets() {
                return Err(DiceExprError::NotOnSets { op: op.text, pos: op.pos });
            }
            super::group::push_merged(&mut ops, op);
        }
        Ok(ops)
    }

    /// `[…]` annotations after a term (whitespace allowed before each), joined as written.
    fn annotations(&mut self) -> Result<String, DiceExprError> {
        let mut joined = String::new();
        loop {
            let before = self.cur.pos();
            self.cur.skip_whitespace();
            let open = self.cur.pos();
            if !self.cur.eat('[') {
                self.cur.set_pos(before);
                return Ok(joined);
            }
            while !matches!(self.cur.peek(), Some(']' | '\n') | None) {
                self.cur.bump();
            }
            if !self.cur.eat(']') {
                if self.comments {
                    self.cur.set_pos(before);
                    return Ok(joined);
                }
                return Err(DiceExprError::UnclosedAnnotation { pos: open });
            }
            joined.push_str(self.cur.raw_since(open).trim());
        }
    }
}
