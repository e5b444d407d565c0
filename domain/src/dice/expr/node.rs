//! A rolled expression as a tree, following d20's model: every node may be dropped by a keep/drop
//! on a set around it, and totals are read from the tree once every operation has run.

use std::ops::Range;

use super::DiceExprError;
use super::ast::{BinOp, OpKind, SetOp};
use super::ratio::Ratio;
use super::roll::{GroupRoll, Roller};
use super::select::{Member, select};

#[derive(Debug, Clone)]
pub(super) struct Node {
    pub(super) kind: Kind,
    kept: bool,
}

#[derive(Debug, Clone)]
pub(super) enum Kind {
    Literal {
        value: Ratio,
        text: String,
    },
    Dice {
        roll: GroupRoll,
        text: String,
    },
    /// `pos` is where the set starts, for overflow errors; `ops` as written after it.
    Set {
        pos: usize,
        elements: Vec<Node>,
        ops: String,
    },
    Paren {
        inner: Box<Node>,
        ops: String,
    },
    /// `dice` are the indices, in the outcome, of the dice rolled inside the term.
    Annotated {
        inner: Box<Node>,
        annotation: String,
        text: String,
        dice: Range<usize>,
    },
    Neg {
        pos: usize,
        inner: Box<Node>,
    },
    Binary {
        op: BinOp,
        pos: usize,
        lhs: Box<Node>,
        rhs: Box<Node>,
    },
}

impl Node {
    pub(super) fn new(kind: Kind) -> Self {
        Self { kind, kept: true }
    }

    /// Whether the node counts; an annotation is part of its term, so shares its fate.
    pub(super) fn is_kept(&self) -> bool {
        match &self.kind {
            Kind::Annotated { inner, .. } => inner.is_kept(),
            _ => self.kept,
        }
    }

    /// The node's value: 0 once dropped.
    pub(super) fn total(&self) -> Result<Ratio, DiceExprError> {
        if !self.is_kept() {
            return Ok(Ratio::ZERO);
        }
        match &self.kind {
            Kind::Literal { value, .. } => Ok(*value),
            Kind::Dice { roll, .. } => Ok(Ratio::int(roll.total())),
            Kind::Set { pos, elements, .. } => elements.iter().try_fold(Ratio::ZERO, |sum, element| {
                sum.checked_add(element.total()?).ok_or(DiceExprError::Overflow { pos: *pos })
            }),
            Kind::Paren { inner, .. } | Kind::Annotated { inner, .. } => inner.total(),
            Kind::Neg { pos, inner } => {
                inner.total()?.checked_neg().ok_or(DiceExprError::Overflow { pos: *pos })
            }
            Kind::Binary { op, pos, lhs, rhs } => apply(*op, lhs.total()?, rhs.total()?, *pos),
        }
    }

    /// The set a keep/drop applies to, as in d20: a group's dice, a set's elements, what a
    /// parenthesis or annotation holds; any other node is a set of itself.
    pub(super) fn members(&self) -> Result<Vec<Member>, DiceExprError> {
        match &self.kind {
            Kind::Dice { roll, .. } => Ok(roll.members()),
            Kind::Set { elements, .. } => elements
                .iter()
                .map(|element| Ok(Member { total: element.total()?, kept: element.is_kept() }))
                .collect(),
            Kind::Paren { inner, .. } | Kind::Annotated { inner, .. } => inner.members(),
            _ => Ok(vec![Member { total: self.total()?, kept: self.is_kept() }]),
        }
    }

    fn drop_member(&mut self, index: usize, roller: &mut Roller) {
        match &mut self.kind {
            Kind::Dice { roll, .. } => roll.drop_die(index, roller),
            Kind::Set { elements, .. } => {
                if let Some(element) = elements.get_mut(index) {
                    element.drop_all(roller);
                }
            }
            Kind::Paren { inner, .. } | Kind::Annotated { inner, .. } => inner.drop_member(index, roller),
            _ => self.drop_all(roller),
        }
    }

    /// The whole node stops counting, and so does every die under it.
    fn drop_all(&mut self, roller: &mut Roller) {
        if let Kind::Annotated { inner, .. } = &mut self.kind {
            return inner.drop_all(roller);
        }
        self.kept = false;
        self.for_each_group(&mut |roll| {
            for record in roll.counting_records() {
                roller.drop_record(record);
            }
        });
    }

    fn for_each_group(&self, visit: &mut impl FnMut(&GroupRoll)) {
        match &self.kind {
            Kind::Literal { .. } => {}
            Kind::Dice { roll, .. } => visit(roll),
            Kind::Set { elements, .. } => elements.iter().for_each(|element| element.for_each_group(visit)),
            Kind::Paren { inner, .. } | Kind::Annotated { inner, .. } | Kind::Neg { inner, .. } => {
                inner.for_each_group(visit);
            }
            Kind::Binary { lhs, rhs, .. } => {
                lhs.for_each_group(visit);
                rhs.for_each_group(visit);
            }
        }
    }

    /// Applies a keep (`k`) or drop (`p`) written after a parenthesis or a set.
    pub(super) fn apply_set_op(&mut self, op: &SetOp, roller: &mut Roller) -> Result<(), DiceExprError> {
        let members = self.members()?;
        let chosen = select(&op.selectors, &members, 0);
        for (index, (member, chosen)) in members.iter().zip(chosen).enumerate() {
            let drop = match op.kind {
                OpKind::Keep => member.kept && !chosen,
                _ => chosen,
            };
            if drop {
                self.drop_member(index, roller);
            }
        }
        if let Kind::Set { ops, .. } | Kind::Paren { ops, .. } = &mut self.kind {
            ops.push_str(&op.text);
        }
        Ok(())
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
