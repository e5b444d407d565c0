//! Rolling a parsed expression: every group is rolled and every set operation applied in the
//! order written, building the tree totals, terms and the breakdown are then read from.

use super::DiceExprError;
use super::ast::Expr;
use super::node::{Kind, NodeId, Tree};
use super::ratio::Ratio;
use super::roll::{GroupRoll, Roller};

pub(super) struct Evaluator<'a, 'd> {
    roller: Roller<'d>,
    tree: Tree<'a>,
    /// Ids of the set elements built so far and not yet recorded in the tree (nested sets
    /// push theirs on top and take them off before the outer set goes on).
    pending: Vec<NodeId>,
}

impl<'a, 'd> Evaluator<'a, 'd> {
    pub(super) fn new(roller: Roller<'d>, nodes: usize) -> Self {
        Self { roller, tree: Tree::with_capacity(nodes), pending: Vec::new() }
    }

    /// Rolls `expr` into its tree; returns the tree and the id of its root.
    pub(super) fn run(mut self, expr: &'a Expr) -> Result<(Tree<'a>, NodeId), DiceExprError> {
        let root = self.build(expr)?;
        Ok((self.tree, root))
    }

    fn build(&mut self, expr: &'a Expr) -> Result<NodeId, DiceExprError> {
        let kind = match expr {
            Expr::Number(n) => Kind::Literal { value: Ratio::int(*n), text: None },
            Expr::Decimal { value, text } => Kind::Literal { value: *value, text: Some(text) },
            Expr::Dice(group) => {
                Kind::Dice { roll: GroupRoll::roll(group, &mut self.roller)?, text: &group.text }
            }
            Expr::Set { pos, elements } => {
                let base = self.pending.len();
                for element in elements {
                    let id = self.build(element)?;
                    self.pending.push(id);
                }
                let elements = self.tree.push_elements(self.pending.drain(base..));
                Kind::Set { pos: *pos, elements, ops: &[] }
            }
            Expr::Operated { target, ops } => {
                let id = self.build(target)?;
                for op in ops {
                    self.tree.apply_set_op(id, op, &mut self.roller)?;
                }
                self.tree.set_ops(id, ops);
                return Ok(id);
            }
            Expr::Annotated { inner, annotation, text } => {
                let first = self.roller.rolled();
                let inner = self.build(inner)?;
                let dice = first..self.roller.rolled();
                Kind::Annotated { inner, annotation, text, dice }
            }
            Expr::Neg { pos, inner } => Kind::Neg { pos: *pos, inner: self.build(inner)? },
            Expr::Paren(inner) => Kind::Paren { inner: self.build(inner)?, ops: &[] },
            Expr::Binary { op, pos, lhs, rhs } => {
                let lhs = self.build(lhs)?;
                let rhs = self.build(rhs)?;
                Kind::Binary { op: *op, pos: *pos, lhs, rhs }
            }
        };
        Ok(self.tree.push(kind))
    }
}
