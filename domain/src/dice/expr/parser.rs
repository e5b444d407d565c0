//! Recursive-descent parser for the arithmetic around dice groups:
//! `sum := product (('+' | '-') product)*`, `product := unary (('*' | '/') unary)*`,
//! `unary := ('-' | '+')* atom`, `atom := number | dice group | '(' sum ')'`.
//! Whitespace is allowed between tokens, not inside a number or a dice group.

use super::ast::{BinOp, Expr};
use super::cursor::Cursor;
use super::{DiceExprError, MAX_EXPRESSION_LEN, MAX_PAREN_DEPTH};

const OPERAND: &str = "a number, a die such as d20, or '('";
const OPERATOR: &str = "an operator (+, -, * or /)";

/// Parses a whole expression, checking every bound that can be checked before rolling.
pub(super) fn parse(text: &str) -> Result<Expr, DiceExprError> {
    let len = text.chars().count();
    if len > MAX_EXPRESSION_LEN {
        return Err(DiceExprError::TooLong { len });
    }
    if text.trim().is_empty() {
        return Err(DiceExprError::Empty);
    }
    let mut parser = Parser { cur: Cursor::new(text), depth: 0, total_dice: 0 };
    let expr = parser.sum()?;
    parser.cur.skip_whitespace();
    if !parser.cur.at_end() {
        return Err(parser.cur.unexpected(OPERATOR));
    }
    Ok(expr)
}

pub(super) struct Parser {
    pub(super) cur: Cursor,
    /// Open parentheses around the current position.
    depth: usize,
    /// Dice the groups parsed so far roll before any explode or reroll.
    pub(super) total_dice: usize,
}

impl Parser {
    fn sum(&mut self) -> Result<Expr, DiceExprError> {
        let mut lhs = self.product()?;
        while let Some((op, pos)) = self.operator(&[BinOp::Add, BinOp::Sub]) {
            let rhs = self.product()?;
            lhs = Expr::Binary { op, pos, lhs: Box::new(lhs), rhs: Box::new(rhs) };
        }
        Ok(lhs)
    }

    fn product(&mut self) -> Result<Expr, DiceExprError> {
        let mut lhs = self.unary()?;
        while let Some((op, pos)) = self.operator(&[BinOp::Mul, BinOp::Div]) {
            let rhs = self.unary()?;
            lhs = Expr::Binary { op, pos, lhs: Box::new(lhs), rhs: Box::new(rhs) };
        }
        Ok(lhs)
    }

    /// Consumes the next operator if it is one of `ops`.
    fn operator(&mut self, ops: &[BinOp]) -> Option<(BinOp, usize)> {
        self.cur.skip_whitespace();
        let pos = self.cur.pos();
        let next = self.cur.peek()?;
        let op = ops.iter().copied().find(|op| op.symbol() == next)?;
        self.cur.bump();
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
        self.atom()
    }

    fn atom(&mut self) -> Result<Expr, DiceExprError> {
        let start = self.cur.pos();
        match self.cur.peek() {
            Some('(') => self.parenthesised(),
            Some('d') => Ok(Expr::Dice(self.dice_group(start, None)?)),
            Some(c) if c.is_ascii_digit() => {
                let value = self.cur.expect_number(OPERAND)?;
                if self.cur.peek() == Some('d') {
                    return Ok(Expr::Dice(self.dice_group(start, Some(value))?));
                }
                Ok(Expr::Number(value.into()))
            }
            _ => Err(self.cur.unexpected(OPERAND)),
        }
    }

    fn parenthesised(&mut self) -> Result<Expr, DiceExprError> {
        let open = self.cur.pos();
        if self.depth == MAX_PAREN_DEPTH {
            return Err(DiceExprError::TooDeep { pos: open });
        }
        self.cur.bump();
        self.depth += 1;
        let inner = self.sum()?;
        self.depth -= 1;
        self.cur.skip_whitespace();
        if self.cur.eat(')') {
            Ok(Expr::Paren(Box::new(inner)))
        } else if self.cur.at_end() {
            Err(DiceExprError::UnclosedParen { pos: open })
        } else {
            Err(self.cur.unexpected("an operator or ')'"))
        }
    }
}

#[cfg(test)]
mod tests {
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
        assert_eq!(parse("2+3*4"), Ok(expected));
    }

    #[test]
    fn subtraction_is_left_associative() {
        let inner = Expr::Binary { op: BinOp::Sub, pos: 2, lhs: num(10), rhs: num(3) };
        let expected = Expr::Binary { op: BinOp::Sub, pos: 4, lhs: Box::new(inner), rhs: num(2) };
        assert_eq!(parse("10-3-2"), Ok(expected));
    }

    #[test]
    fn unary_minus_binds_tighter_than_multiplication() {
        let neg = Expr::Neg { pos: 0, inner: num(2) };
        let expected = Expr::Binary { op: BinOp::Mul, pos: 2, lhs: Box::new(neg), rhs: num(3) };
        assert_eq!(parse("-2*3"), Ok(expected));
    }

    #[test]
    fn whitespace_is_allowed_between_tokens() {
        assert_eq!(parse("  ( 1 )  "), Ok(Expr::Paren(num(1))));
    }

    #[test]
    fn nesting_is_bounded() {
        let nested = |depth: usize| format!("{}1{}", "(".repeat(depth), ")".repeat(depth));
        assert!(parse(&nested(MAX_PAREN_DEPTH)).is_ok());
        assert_eq!(parse(&nested(MAX_PAREN_DEPTH + 1)), Err(DiceExprError::TooDeep { pos: MAX_PAREN_DEPTH }));
    }

    #[test]
    fn length_is_bounded_before_anything_else() {
        let exactly = format!("1{} ", "+1".repeat(99));
        assert_eq!(exactly.chars().count(), MAX_EXPRESSION_LEN);
        assert!(parse(&exactly).is_ok());
        let too_long = format!("{exactly}x");
        assert_eq!(parse(&too_long), Err(DiceExprError::TooLong { len: MAX_EXPRESSION_LEN + 1 }));
    }
}
