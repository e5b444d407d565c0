//! Recursive-descent parser for the arithmetic around dice groups, as d20's grammar:
//! `comparison := sum (('==' | '!=' | '<=' | '>=' | '<' | '>') sum)*`,
//! `sum := product (('+' | '-') product)*`, `product := unary (('*' | '//' | '/' | '%') unary)*`,
//! `unary := ('-' | '+')* term`, `term := (number | decimal | dice group | '(' … ')' set-ops) [annotation]*`.
//! Whitespace is allowed between tokens, not inside a number or a dice group. With comments
//! allowed, whatever follows a complete expression is its comment (`1d20 I search the room`).

use super::ast::{BinOp, Expr};
use super::cursor::Cursor;
use super::{DiceExprError, MAX_EXPRESSION_LEN};

pub(super) const OPERAND: &str = "a number, a die such as d20, or '('";
const OPERATOR: &str = "an operator (+, -, *, /, //, %, or a comparison such as ==)";

/// A parsed expression and where the comment written after it starts.
#[derive(Debug, PartialEq)]
pub(super) struct Parsed {
    pub(super) expr: Expr,
    /// The byte offset in the text where the comment (untrimmed) starts.
    pub(super) comment: Option<usize>,
}

/// Parses a whole expression, checking every bound that can be checked before rolling.
pub(super) fn parse(text: &str, allow_comments: bool) -> Result<Parsed, DiceExprError> {
    let len = if text.is_ascii() { text.len() } else { text.chars().count() };
    if len > MAX_EXPRESSION_LEN {
        return Err(DiceExprError::TooLong { len });
    }
    if text.trim().is_empty() {
        return Err(DiceExprError::Empty);
    }
    let mut parser = Parser { cur: Cursor::new(text), depth: 0, total_dice: 0, comments: allow_comments };
    let expr = parser.comparison()?;
    parser.cur.skip_whitespace();
    if parser.cur.at_end() {
        return Ok(Parsed { expr, comment: None });
    }
    if allow_comments {
        return Ok(Parsed { expr, comment: Some(parser.cur.byte_offset(parser.cur.pos())) });
    }
    Err(parser.cur.unexpected(OPERATOR))
}

pub(super) struct Parser<'a> {
    pub(super) cur: Cursor<'a>,
    /// Open parentheses around the current position.
    pub(super) depth: usize,
    /// Dice the groups parsed so far roll before any explode or reroll.
    pub(super) total_dice: usize,
    /// Whether text the grammar does not expect may start a comment instead of being an error.
    pub(super) comments: bool,
}

impl Parser<'_> {
    pub(super) fn comparison(&mut self) -> Result<Expr, DiceExprError> {
        self.binary(BinOp::COMPARISON)
    }

    /// Left-associative binary operators of precedence `min` or tighter, by precedence climbing:
    /// the same tree as one rule per level (`sum (op sum)*`, …), in one loop per operator.
    fn binary(&mut self, min: u8) -> Result<Expr, DiceExprError> {
        let mut lhs = self.unary()?;
        while let Some((op, pos)) = self.operator(min) {
            if self.comment_starts_here(op) {
                self.cur.set_pos(pos);
                break;
            }
            let rhs = self.binary(op.precedence() + 1)?;
            lhs = Expr::Binary { op, pos, lhs: Box::new(lhs), rhs: Box::new(rhs) };
        }
        Ok(lhs)
    }

    /// As d20: with comments allowed, a `*` directly followed by text that cannot follow it
    /// starts the comment (`1d20 *sneakily*`).
    fn comment_starts_here(&self, op: BinOp) -> bool {
        let starts_operand = |c: char| c.is_ascii_digit() || c.is_whitespace() || "d.(+-".contains(c);
        self.comments && self.depth == 0 && op == BinOp::Mul && !self.cur.peek().is_some_and(starts_operand)
    }

    /// Consumes the next operator if it binds at least as tightly as `min`; the longest symbol
    /// written decides (`//`, not `/`).
    fn operator(&mut self, min: u8) -> Option<(BinOp, usize)> {
        self.cur.skip_whitespace();
        let pos = self.cur.pos();
        let op =
            BinOp::starting(self.cur.peek()?, self.cur.peek_nth(1)).filter(|op| op.precedence() >= min)?;
        for _ in 0..op.symbol().len() {
            self.cur.bump();
        }
        Some((op, pos))
    }

    fn unary(&mut self) -> Result<Expr, DiceExprError> {
        self.cur.skip_whitespace();
        let pos = self.cur.pos();
        if self.cur.eat('-') {
            return Ok(Expr::Neg { pos, inner: Box::new(self.unary()?) });
        }
        if self.cur.eat('+') {
            return self.unary();
        }
        self.term()
    }
}

#[cfg(test)]
mod tests {
    use super::super::MAX_PAREN_DEPTH;
    use super::*;

    fn num(n: i64) -> Box<Expr> {
        Box::new(Expr::Number(n))
    }

    #[test]
    fn multiplication_binds_tighter_than_addition() {
        let expected = Expr::Binary {
            op: BinOp::Add,
            pos: 1,
            lhs: num(2),
            rhs: Box::new(Expr::Binary { op: BinOp::Mul, pos: 3, lhs: num(3), rhs: num(4) }),
        };
        assert_eq!(parse("2+3*4", false).map(|p| p.expr), Ok(expected));
    }

    #[test]
    fn subtraction_is_left_associative() {
        let inner = Expr::Binary { op: BinOp::Sub, pos: 2, lhs: num(10), rhs: num(3) };
        let expected = Expr::Binary { op: BinOp::Sub, pos: 4, lhs: Box::new(inner), rhs: num(2) };
        assert_eq!(parse("10-3-2", false).map(|p| p.expr), Ok(expected));
    }

    #[test]
    fn unary_minus_binds_tighter_than_multiplication() {
        let neg = Expr::Neg { pos: 0, inner: num(2) };
        let expected = Expr::Binary { op: BinOp::Mul, pos: 2, lhs: Box::new(neg), rhs: num(3) };
        assert_eq!(parse("-2*3", false).map(|p| p.expr), Ok(expected));
    }

    #[test]
    fn whitespace_is_allowed_between_tokens() {
        assert_eq!(parse("  ( 1 )  ", false).map(|p| p.expr), Ok(Expr::Paren(num(1))));
    }

    #[test]
    fn nesting_is_bounded() {
        let nested = |depth: usize| format!("{}1{}", "(".repeat(depth), ")".repeat(depth));
        assert!(parse(&nested(MAX_PAREN_DEPTH), false).is_ok());
        assert_eq!(
            parse(&nested(MAX_PAREN_DEPTH + 1), false),
            Err(DiceExprError::TooDeep { pos: MAX_PAREN_DEPTH })
        );
    }

    #[test]
    fn length_is_bounded_before_anything_else() {
        let exactly = format!("1{} ", "+1".repeat(99));
        assert_eq!(exactly.chars().count(), MAX_EXPRESSION_LEN);
        assert!(parse(&exactly, false).is_ok());
        let too_long = format!("{exactly}x");
        assert_eq!(parse(&too_long, false), Err(DiceExprError::TooLong { len: MAX_EXPRESSION_LEN + 1 }));
    }
}
