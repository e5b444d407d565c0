//! Parsing one dice group: `[count]d(sides|%)` then its set operations, with no whitespace inside.

use super::ast::{DiceGroup, OpKind, Selector, SetOp};
use super::parser::Parser;
use super::{DiceExprError, MAX_DICE_PER_GROUP, MAX_DICE_TOTAL};
use crate::dice::source::MAX_SIDES;

const SIDES: &str = "the number of sides, like d20 or d%";
const SELECTOR: &str = "a selector such as h3, l1, 6, <3 or >5";
const NUMBER: &str = "a number";

impl Parser<'_> {
    /// Parses a group starting at `start`; the cursor is on its `d` (the count, if any, is read).
    pub(super) fn dice_group(
        &mut self,
        start: usize,
        count: Option<u32>,
    ) -> Result<DiceGroup, DiceExprError> {
        self.cur.bump();
        let sides = self.sides()?;
        let count = count.unwrap_or(1);
        if count > MAX_DICE_PER_GROUP {
            return Err(DiceExprError::TooManyDice { count, sides });
        }
        self.total_dice += count as usize;
        if self.total_dice > MAX_DICE_TOTAL {
            return Err(DiceExprError::TooManyDiceInTotal { count: self.total_dice });
        }
        let ops = self.set_ops(sides)?;
        Ok(DiceGroup { text: self.cur.text_since(start), count, sides, ops })
    }

    fn sides(&mut self) -> Result<u32, DiceExprError> {
        let pos = self.cur.pos();
        if self.cur.eat('%') {
            return Ok(100);
        }
        match self.cur.expect_number(SIDES)? {
            0 => Err(DiceExprError::NoSides { pos }),
            sides if sides > MAX_SIDES => Err(DiceExprError::TooManySides { sides, pos }),
            sides => Ok(sides),
        }
    }

    /// The operations after the sides; consecutive ones of the same kind are merged.
    fn set_ops(&mut self, sides: u32) -> Result<Vec<SetOp>, DiceExprError> {
        let mut ops: Vec<SetOp> = Vec::new();
        while let Some(op) = self.set_op()? {
            push_merged(&mut ops, op);
        }
        match ops.iter().find(|op| op.never_ends(sides)) {
            Some(op) => Err(DiceExprError::NeverEnds { op: op.text.clone(), pos: op.pos, sides }),
            None => Ok(ops),
        }
    }

    /// The next set operation, or `None` when the group ends here.
    pub(super) fn set_op(&mut self) -> Result<Option<SetOp>, DiceExprError> {
        let pos = self.cur.pos();
        let Some(kind) = self.op_kind()? else {
            self.cur.set_pos(pos);
            return Ok(None);
        };
        if kind == OpKind::Explode && self.cur.raw_since(pos) == "!" {
            return Ok(Some(SetOp { kind, selectors: vec![Selector::Max], text: "!".into(), pos }));
        }
        let selector = self.selector()?;
        if kind.needs_literal() && !matches!(selector, Selector::Equal(_)) {
            return Err(DiceExprError::NeedsNumber { op: kind.symbol(), pos });
        }
        Ok(Some(SetOp { kind, selectors: vec![selector], text: self.cur.text_since(pos), pos }))
    }

    /// Reads an operator's letters; `None` when none starts here (`!=` is a comparison, and with
    /// comments allowed an unknown `r…`/`m…` word starts the comment).
    fn op_kind(&mut self) -> Result<Option<OpKind>, DiceExprError> {
        let kind = match (self.cur.peek(), self.cur.peek_nth(1)) {
            (Some('!'), Some('=')) => return Ok(None),
            (Some('!'), _) => OpKind::Explode,
            (Some('k'), _) => OpKind::Keep,
            (Some('d' | 'p'), _) => OpKind::Drop,
            (Some('e'), _) => OpKind::Explode,
            (Some('r'), Some('r')) => OpKind::Reroll,
            (Some('r'), Some('o')) => OpKind::RerollOnce,
            (Some('r'), Some('a')) => OpKind::RerollAdd,
            (Some('m'), Some('i')) => OpKind::Min,
            (Some('m'), Some('a')) => OpKind::Max,
            (Some(first @ ('r' | 'm')), _) if !self.comments => {
                self.cur.bump();
                let expected =
                    if first == 'r' { "rr, ro or ra (reroll)" } else { "mi or ma (minimum, maximum)" };
                return Err(self.cur.unexpected(expected));
            }
            _ => return Ok(None),
        };
        let letters = if matches!(kind, OpKind::Keep | OpKind::Drop | OpKind::Explode) { 1 } else { 2 };
        for _ in 0..letters {
            self.cur.bump();
        }
        Ok(Some(kind))
    }

    /// `hN`/`lN` (N defaults to 1), `N`, `<N` or `>N`.
    fn selector(&mut self) -> Result<Selector, DiceExprError> {
        let make: fn(u32) -> Selector = match self.cur.peek() {
            Some(c) if c.is_ascii_digit() => return Ok(Selector::Equal(self.cur.expect_number(NUMBER)?)),
            Some('h') => Selector::Highest,
            Some('l') => Selector::Lowest,
            Some('<') => Selector::Below,
            Some('>') => Selector::Above,
            _ => return Err(self.cur.unexpected(SELECTOR)),
        };
        let counted = matches!(self.cur.peek(), Some('h' | 'l'));
        self.cur.bump();
        let n = if counted { self.cur.number()?.unwrap_or(1) } else { self.cur.expect_number(NUMBER)? };
        Ok(make(n))
    }
}

/// Appends `op`, merging it into the previous one when both are of a kind that merges: as in d20,
/// `kh1kl1` is one keep selecting the union, while `mi2mi3` stays two operations.
pub(super) fn push_merged(ops: &mut Vec<SetOp>, op: SetOp) {
    match ops.last_mut() {
        Some(last) if last.kind == op.kind && op.kind.merges() => {
            last.selectors.extend(op.selectors);
            last.text.push_str(&op.text);
        }
        _ => ops.push(op),
    }
}

#[cfg(test)]
mod tests {
    use super::super::ast::Expr;
    use super::*;

    fn parse(text: &str) -> Result<Expr, DiceExprError> {
        super::super::parser::parse(text, false).map(|parsed| parsed.expr)
    }

    fn group(text: &str) -> DiceGroup {
        match parse(text) {
            Ok(Expr::Dice(group)) => group,
            other => panic!("{text} parsed to {other:?}"),
        }
    }

    fn op(kind: OpKind, selectors: &[Selector], text: &str, pos: usize) -> SetOp {
        SetOp { kind, selectors: selectors.to_vec(), text: text.into(), pos }
    }

    #[test]
    fn count_defaults_to_one_and_percent_is_a_d100() {
        let d20 = group("D20");
        assert_eq!((d20.count, d20.sides, d20.text.as_str()), (1, 20, "d20"));
        let percent = group("2d%");
        assert_eq!((percent.count, percent.sides), (2, 100));
    }

    #[test]
    fn operations_are_read_in_order_with_default_counts() {
        let parsed = group("4d6rr1kh3");
        assert_eq!(
            parsed.ops,
            [
                op(OpKind::Reroll, &[Selector::Equal(1)], "rr1", 3),
                op(OpKind::Keep, &[Selector::Highest(3)], "kh3", 6),
            ]
        );
        assert_eq!(group("4d6dl").ops, [op(OpKind::Drop, &[Selector::Lowest(1)], "dl", 3)]);
        assert_eq!(group("4d6PH2").ops, [op(OpKind::Drop, &[Selector::Highest(2)], "ph2", 3)]);
        assert_eq!(group("8d6!").ops, [op(OpKind::Explode, &[Selector::Max], "!", 3)]);
        assert_eq!(group("d20ro<2").ops, [op(OpKind::RerollOnce, &[Selector::Below(2)], "ro<2", 3)]);
        assert_eq!(group("d6e>5").ops, [op(OpKind::Explode, &[Selector::Above(5)], "e>5", 2)]);
    }

    #[test]
    fn consecutive_operations_of_one_kind_are_merged() {
        let parsed = group("3d6kh1kl1");
        assert_eq!(parsed.ops, [op(OpKind::Keep, &[Selector::Highest(1), Selector::Lowest(1)], "kh1kl1", 3)]);
        assert_eq!(group("d6!e1").ops, [op(OpKind::Explode, &[Selector::Max, Selector::Equal(1)], "!e1", 2)]);
    }

    #[test]
    fn operations_that_match_every_face_are_refused() {
        let never = |op: &str, pos, sides| Err(DiceExprError::NeverEnds { op: op.into(), pos, sides });
        assert_eq!(parse("1d1!"), never("!", 3, 1));
        assert_eq!(parse("d6rr<7"), never("rr<7", 2, 6));
        assert_eq!(parse("d6e>0"), never("e>0", 2, 6));
        assert_eq!(parse("d2e1e2"), never("e1e2", 2, 2));
        assert_eq!(parse("d6rr<4rr>3"), never("rr<4rr>3", 2, 6));
        // Rerolling once, or a condition that leaves one face out, always ends.
        assert!(parse("d6ro<7").is_ok());
        assert!(parse("d6rr<6").is_ok());
        assert!(parse("1d1kh1").is_ok());
        // Rerolling the highest or lowest die always finds one to reroll again.
        assert_eq!(parse("4d6rrl1"), never("rrl1", 3, 6));
        assert_eq!(parse("4d6rrh2"), never("rrh2", 3, 6));
        assert!(parse("4d6rol1").is_ok() && parse("4d6ral1").is_ok() && parse("4d6eh1").is_ok());
    }

    #[test]
    fn minimum_and_maximum_take_a_number_and_never_merge() {
        assert_eq!(
            group("2d6mi2mi3").ops,
            [
                op(OpKind::Min, &[Selector::Equal(2)], "mi2", 3),
                op(OpKind::Min, &[Selector::Equal(3)], "mi3", 6)
            ]
        );
        assert_eq!(parse("10d6mil1"), Err(DiceExprError::NeedsNumber { op: "mi", pos: 4 }));
        assert_eq!(parse("10d6ma>1"), Err(DiceExprError::NeedsNumber { op: "ma", pos: 4 }));
    }

    #[test]
    fn bang_equals_is_a_comparison_not_an_explosion() {
        assert!(matches!(parse("1d6!=3"), Ok(Expr::Binary { .. })));
        assert_eq!(group("1d6!").ops, [op(OpKind::Explode, &[Selector::Max], "!", 3)]);
    }
}
