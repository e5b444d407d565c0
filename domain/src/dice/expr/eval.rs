//! Rolling a parsed expression: every group is rolled and every set operation applied in the
//! order written, building the tree totals, terms and the breakdown are then read from.

use super::DiceExprError;
use super::ast::Expr;
use super::node::{Kind, Node};
use super::ratio::Ratio;
use super::roll::{GroupRoll, Roller};

pub(super) struct Evaluator<'a> {
    roller: Roller<'a>,
}

impl<'a> Evaluator<'a> {
    pub(super) fn new(roller: Roller<'a>) -> Self {
        Self { roller }
    }

    /// Rolls `expr` into its tree.
    pub(super) fn run(mut self, expr: &Expr) -> Result<Node, DiceExprError> {
        self.build(expr)
    }

    fn build(&mut self, expr: &Expr) -> Result<Node, DiceExprError> {
        let kind = match expr {
            Expr::Number(n) => Kind::Literal { value: Ratio::int(*n), text: n.to_string() },
            Expr::Decimal { value, text } => Kind::Literal { value: *value, text: text.clone() },
            Expr::Dice(group) => {
                Kind::Dice { roll: GroupRoll::roll(group, &mut self.roller)?, text: group.text.clone() }
            }
            Expr::Set { pos, elements } => {
                let elements = elements.iter().map(|e| self.build(e)).collect::<Result<_, _>>()?;
                Kind::Set { pos: *pos, elements, ops: String::new() }
            }
            Expr::Operated { target, ops } => {
                let mut node = self.build(target)?;
                for op in ops {
                    node.apply_set_op(op, &mut self.roller)?;
                }
                return Ok(node);
            }
            Expr::Annotated { inner, annotation, text } => {
                let first = self.roller.rolled();
                let inner = Box::new(self.build(inner)?);
                let dice = first..self.roller.rolled();
                Kind::Annotated { inner, annotation: annotation.clone(), text: text.clone(), dice }
            }
            Expr::Neg { pos, inner } => Kind::Neg { pos: *pos, inner: Box::new(self.build(inner)?) },
            Expr::Paren(inner) => Kind::Paren { inner: Box::new(self.build(inner)?), ops: String::new() },
            Expr::Binary { op, pos, lhs, rhs } => {
                let lhs = Box::new(self.build(lhs)?);
                let rhs = Box::new(self.build(rhs)?);
                Kind::Binary { op: *op, pos: *pos, lhs, rhs }
            }
        };
        Ok(Node::new(kind))
    }
}
