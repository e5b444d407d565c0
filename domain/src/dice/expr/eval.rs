//! Evaluating a parsed expression: checked i64 arithmetic, and the d20-style breakdown
//! (`4d6kh3 (6, 5, 3, ~~1~~) + 2`) written alongside.

use super::DiceExprError;
use super::ast::{BinOp, Expr};
use super::roll::{GroupRoll, Roller};

pub(super) struct Evaluator<'a> {
    roller: Roller<'a>,
    rendered: String,
}

impl<'a> Evaluator<'a> {
    pub(super) fn new(roller: Roller<'a>) -> Self {
        Self { roller, rendered: String::new() }
    }

    /// Evaluates `expr`, returning its total and the breakdown ending in `= total`.
    pub(super) fn run(mut self, expr: &Expr) -> Result<(i64, String), DiceExprError> {
        let total = self.eval(expr)?;
        self.rendered.push_str(&format!(" = {total}"));
        Ok((total, self.rendered))
    }

    fn eval(&mut self, expr: &Expr) -> Result<i64, DiceExprError> {
        match expr {
            Expr::Number(n) => {
                self.rendered.push_str(&n.to_string());
                Ok(*n)
            }
            Expr::Dice(group) => {
                let roll = GroupRoll::roll(group, &mut self.roller)?;
                self.rendered.push_str(&format!("{} ({})", group.text, roll.render()));
                Ok(roll.total())
            }
            Expr::Neg { pos, inner } => {
                self.rendered.push('-');
                self.eval(inner)?.checked_neg().ok_or(DiceExprError::Overflow { pos: *pos })
            }
            Expr::Paren(inner) => {
                self.rendered.push('(');
                let value = self.eval(inner)?;
                self.rendered.push(')');
                Ok(value)
            }
            Expr::Binary { op, pos, lhs, rhs } => {
                let lhs = self.eval(lhs)?;
                self.rendered.push_str(&format!(" {} ", op.symbol()));
                let rhs = self.eval(rhs)?;
                apply(*op, lhs, rhs, *pos)
            }
        }
    }
}

fn apply(op: BinOp, lhs: i64, rhs: i64, pos: usize) -> Result<i64, DiceExprError> {
    let result = match op {
        BinOp::Add => lhs.checked_add(rhs),
        BinOp::Sub => lhs.checked_sub(rhs),
        BinOp::Mul => lhs.checked_mul(rhs),
        BinOp::Div if rhs == 0 => return Err(DiceExprError::DivisionByZero { pos }),
        // Rust's integer division truncates toward zero.
        BinOp::Div => lhs.checked_div(rhs),
    };
    result.ok_or(DiceExprError::Overflow { pos })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_checked() {
        assert_eq!(apply(BinOp::Add, 2, 3, 0), Ok(5));
        assert_eq!(apply(BinOp::Sub, 2, 3, 0), Ok(-1));
        assert_eq!(apply(BinOp::Mul, -4, 3, 0), Ok(-12));
        assert_eq!(apply(BinOp::Add, i64::MAX, 1, 7), Err(DiceExprError::Overflow { pos: 7 }));
        assert_eq!(apply(BinOp::Div, i64::MIN, -1, 2), Err(DiceExprError::Overflow { pos: 2 }));
    }

    #[test]
    fn division_truncates_toward_zero_and_refuses_zero() {
        assert_eq!(apply(BinOp::Div, 7, 2, 0), Ok(3));
        assert_eq!(apply(BinOp::Div, -7, 2, 0), Ok(-3));
        assert_eq!(apply(BinOp::Div, 7, -2, 0), Ok(-3));
        assert_eq!(apply(BinOp::Div, 1, 0, 1), Err(DiceExprError::DivisionByZero { pos: 1 }));
    }
}
