//! A rolled expression as a tree, following d20's model: every node may be dropped by a keep/drop
//! on a set around it, and totals are read from the tree once every operation has run.

use std::ops::Range;

use super::DiceExprError;
use super::ast::{BinOp, OpKind, SetOp};
use super::ratio::Ratio;
use super::roll::{GroupRoll, Roller};
use super::select::Member;

/// Index of a node in its [`Tree`].
pub(super) type NodeId = usize;

/// Every node of a rolled expression in one vector, children before their parent, so that
/// rolling allocates once for the whole tree. Texts are borrowed from the parsed expression.
#[derive(Debug)]
pub(super) struct Tree<'a> {
    nodes: Vec<Node<'a>>,
    /// The elements of every set, each set a range of it.
    elements: Vec<NodeId>,
}

#[derive(Debug)]
pub(super) struct Node<'a> {
    pub(super) kind: Kind<'a>,
    kept: bool,
}

#[derive(Debug)]
pub(super) enum Kind<'a> {
    /// `text` as written for a decimal; a whole number is written from its value.
    Literal {
        value: Ratio,
        text: Option<&'a str>,
    },
    Dice {
        roll: GroupRoll,
        text: &'a str,
    },
    /// `pos` is where the set starts, for overflow errors; `elements` index [`Tree::elements`];
    /// `ops` as written after it.
    Set {
        pos: usize,
        elements: Range<usize>,
        ops: &'a [SetOp],
    },
    Paren {
        inner: NodeId,
        ops: &'a [SetOp],
    },
    /// `dice` are the indices, in the outcome, of the dice rolled inside the term.
    Annotated {
        inner: NodeId,
        annotation: &'a str,
        text: &'a str,
        dice: Range<usize>,
    },
    Neg {
        pos: usize,
        inner: NodeId,
    },
    Binary {
        op: BinOp,
        pos: usize,
        lhs: NodeId,
        rhs: NodeId,
    },
}

impl<'a> Tree<'a> {
    pub(super) fn with_capacity(nodes: usize) -> Self {
        Self { nodes: Vec::with_capacity(nodes), elements: Vec::new() }
    }

    /// Adds a node (its children are already in) and returns its id.
    pub(super) fn push(&mut self, kind: Kind<'a>) -> NodeId {
        self.nodes.push(Node { kind, kept: true });
        self.nodes.len() - 1
    }

    /// Records the elements of a set, returning the range to store in [`Kind::Set`].
    pub(super) fn push_elements(&mut self, ids: impl Iterator<Item = NodeId>) -> Range<usize> {
        let start = self.elements.len();
        self.elements.extend(ids);
        start..self.elements.len()
    }

    pub(super) fn node(&self, id: NodeId) -> &Node<'a> {
        &self.nodes[id]
    }

    /// The ids of a set's elements.
    pub(super) fn elements(&self, range: &Range<usize>) -> &[NodeId] {
        &self.elements[range.clone()]
    }

    /// Whether the node counts; an annotation is part of its term, so shares its fate.
    pub(super) fn is_kept(&self, id: NodeId) -> bool {
        match &self.nodes[id].kind {
            Kind::Annotated { inner, .. } => self.is_kept(*inner),
            _ => self.nodes[id].kept,
        }
    }

    /// The node's value: 0 once dropped.
    pub(super) fn total(&self, id: NodeId) -> Result<Ratio, DiceExprError> {
        if !self.is_kept(id) {
            return Ok(Ratio::ZERO);
        }
        match &self.nodes[id].kind {
            Kind::Literal { value, .. } => Ok(*value),
            Kind::Dice { roll, .. } => Ok(Ratio::int(roll.total())),
            Kind::Set { pos, elements, .. } => {
                self.elements(elements).iter().try_fold(Ratio::ZERO, |sum, &element| {
                    sum.checked_add(self.total(element)?).ok_or(DiceExprError::Overflow { pos: *pos })
                })
            }
            Kind::Paren { inner, .. } | Kind::Annotated { inner, .. } => self.total(*inner),
            Kind::Neg { pos, inner } => {
                self.total(*inner)?.checked_neg().ok_or(DiceExprError::Overflow { pos: *pos })
            }
            Kind::Binary { op, pos, lhs, rhs } => apply(*op, self.total(*lhs)?, self.total(*rhs)?, *pos),
        }
    }

    /// Appends the set a keep/drop applies to, as in d20: a group's dice, a set's elements, what
    /// a parenthesis or annotation holds; any other node is a set of itself.
    fn members_into(&self, id: NodeId, members: &mut Vec<Member>) -> Result<(), DiceExprError> {
        match &self.nodes[id].kind {
            Kind::Dice { roll, .. } => roll.members_into(members),
            Kind::Set { elements, .. } => {
                for &element in self.elements(elements) {
                    members.push(Member { total: self.total(element)?, kept: self.is_kept(element) });
                }
            }
            Kind::Paren { inner, .. } | Kind::Annotated { inner, .. } => {
                self.members_into(*inner, members)?
            }
            _ => members.push(Member { total: self.total(id)?, kept: self.is_kept(id) }),
        }
        Ok(())
    }

    fn drop_member(&mut self, id: NodeId, index: usize, roller: &mut Roller) {
        if let Kind::Dice { roll, .. } = &mut self.nodes[id].kind {
            return roll.drop_die(index, roller);
        }
        match &self.nodes[id].kind {
            Kind::Set { elements, .. } => {
                if let Some(&element) = self.elements(elements).get(index) {
                    self.drop_all(element, roller);
                }
            }
            Kind::Paren { inner, .. } | Kind::Annotated { inner, .. } => {
                self.drop_member(*inner, index, roller)
            }
            _ => self.drop_all(id, roller),
        }
    }

    /// The whole node stops counting, and so does every die under it.
    fn drop_all(&mut self, id: NodeId, roller: &mut Roller) {
        if let Kind::Annotated { inner, .. } = &self.nodes[id].kind {
            return self.drop_all(*inner, roller);
        }
        self.nodes[id].kept = false;
        self.for_each_group(id, &mut |roll| {
            for record in roll.counting_records() {
                roller.drop_record(record);
            }
        });
    }

    fn for_each_group(&self, id: NodeId, visit: &mut impl FnMut(&GroupRoll)) {
        match &self.nodes[id].kind {
            Kind::Literal { .. } => {}
            Kind::Dice { roll, .. } => visit(roll),
            Kind::Set { elements, .. } => {
                self.elements(elements).iter().for_each(|&element| self.for_each_group(element, visit))
            }
            Kind::Paren { inner, .. } | Kind::Annotated { inner, .. } | Kind::Neg { inner, .. } => {
                self.for_each_group(*inner, visit);
            }
            Kind::Binary { lhs, rhs, .. } => {
                self.for_each_group(*lhs, visit);
                self.for_each_group(*rhs, visit);
            }
        }
    }

    /// Applies a keep (`k`) or drop (`p`) written after a parenthesis or a set.
    pub(super) fn apply_set_op(
        &mut self,
        id: NodeId,
        op: &SetOp,
        roller: &mut Roller,
    ) -> Result<(), DiceExprError> {
        roller.scratch.members.clear();
        self.members_into(id, &mut roller.scratch.members)?;
        roller.scratch.select(&op.selectors, 0);
        for index in 0..roller.scratch.members.len() {
            let (kept, chosen) = (roller.scratch.members[index].kept, roller.scratch.chosen[index]);
            let drop = match op.kind {
                OpKind::Keep => kept && !chosen,
                _ => chosen,
            };
            if drop {
                self.drop_member(id, index, roller);
            }
        }
        Ok(())
    }

    /// Records the operations written after a set or parenthesis, for the breakdown.
    pub(super) fn set_ops(&mut self, id: NodeId, written: &'a [SetOp]) {
        if let Kind::Set { ops, .. } | Kind::Paren { ops, .. } = &mut self.nodes[id].kind {
            *ops = written;
        }
    }
}

/// One binary operation, with d20's meaning: `/` exact, `//` and `%` as Python's, comparisons 1 or 0.
pub(super) fn apply(op: BinOp, lhs: Ratio, rhs: Ratio, pos: usize) -> Result<Ratio, DiceExprError> {
    let truth = |holds: bool| Ok(Ratio::int(i64::from(holds)));
    let result = match op {
        BinOp::Add => lhs.checked_add(rhs),
        BinOp::Sub => lhs.checked_sub(rhs),
        BinOp::Mul => lhs.checked_mul(rhs),
        BinOp::Div | BinOp::FloorDiv | BinOp::Rem if rhs.is_zero() => {
            return Err(DiceExprError::DivisionByZero { op: op.symbol(), pos });
        }
        BinOp::Div => lhs.checked_div(rhs),
        BinOp::FloorDiv => lhs.checked_floor_div(rhs),
        BinOp::Rem => lhs.checked_rem(rhs),
        BinOp::Eq => return truth(lhs == rhs),
        BinOp::Ne => return truth(lhs != rhs),
        BinOp::Lt => return truth(lhs < rhs),
        BinOp::Gt => return truth(lhs > rhs),
        BinOp::Le => return truth(lhs <= rhs),
        BinOp::Ge => return truth(lhs >= rhs),
    };
    result.ok_or(DiceExprError::Overflow { pos })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(n: i64) -> Ratio {
        Ratio::int(n)
    }

    #[test]
    fn arithmetic_is_checked() {
        assert_eq!(apply(BinOp::Add, int(2), int(3), 0), Ok(int(5)));
        assert_eq!(apply(BinOp::Sub, int(2), int(3), 0), Ok(int(-1)));
        assert_eq!(apply(BinOp::Mul, int(-4), int(3), 0), Ok(int(-12)));
        assert_eq!(apply(BinOp::Add, int(i64::MAX), int(1), 7), Err(DiceExprError::Overflow { pos: 7 }));
        assert_eq!(apply(BinOp::Div, int(i64::MIN), int(-1), 2), Err(DiceExprError::Overflow { pos: 2 }));
    }

    #[test]
    fn division_family_refuses_zero_naming_the_operator() {
        assert_eq!(apply(BinOp::Div, int(7), int(2), 0), Ratio::new(7, 2).ok_or(DiceExprError::Empty));
        assert_eq!(apply(BinOp::FloorDiv, int(-7), int(2), 0), Ok(int(-4)));
        assert_eq!(apply(BinOp::Rem, int(-7), int(3), 0), Ok(int(2)));
        for (op, symbol) in [(BinOp::Div, "/"), (BinOp::FloorDiv, "//"), (BinOp::Rem, "%")] {
            assert_eq!(
                apply(op, int(1), int(0), 1),
                Err(DiceExprError::DivisionByZero { op: symbol, pos: 1 })
            );
        }
    }

    #[test]
    fn comparisons_give_one_or_zero() {
        let cases = [
            (BinOp::Eq, 1, 1, 1),
            (BinOp::Eq, 1, 2, 0),
            (BinOp::Ne, 1, 2, 1),
            (BinOp::Lt, 1, 1, 0),
            (BinOp::Gt, 2, 1, 1),
            (BinOp::Le, 1, 1, 1),
            (BinOp::Ge, 1, 2, 0),
        ];
        for (op, lhs, rhs, expected) in cases {
            assert_eq!(apply(op, int(lhs), int(rhs), 0), Ok(int(expected)), "{lhs} {} {rhs}", op.symbol());
        }
    }
}
