//! The parsed form of a dice expression.

use super::ratio::Ratio;

/// An arithmetic expression over numbers, dice groups and sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Expr {
    Number(i64),
    /// A number written with a decimal point (`1.5`, `.5`), kept as written for the breakdown.
    Decimal {
        value: Ratio,
        text: String,
    },
    Dice(DiceGroup),
    /// `(a, b, c)`, `(a,)` or `()`: a set whose total is the sum of its kept elements; `pos` is
    /// where it opens.
    Set {
        pos: usize,
        elements: Vec<Expr>,
    },
    /// A parenthesis or a set followed by keep/drop operations: `(1d4, 2+2)kh1`, `(4d6)kh3`.
    Operated {
        target: Box<Expr>,
        ops: Vec<SetOp>,
    },
    /// A term with its annotations, e.g. `8d6 [fire]`; `text` is the term as written.
    Annotated {
        inner: Box<Expr>,
        annotation: String,
        text: String,
    },
    /// Unary minus; `pos` is where the `-` is, for overflow errors.
    Neg {
        pos: usize,
        inner: Box<Expr>,
    },
    /// Kept apart from its content only to render the parentheses back.
    Paren(Box<Expr>),
    Binary {
        op: BinOp,
        pos: usize,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
}

impl Expr {
    /// How many nodes rolling this expression builds (an operated set or parenthesis is one).
    pub(super) fn node_count(&self) -> usize {
        match self {
            Self::Number(_) | Self::Decimal { .. } | Self::Dice(_) => 1,
            Self::Set { elements, .. } => 1 + elements.iter().map(Self::node_count).sum::<usize>(),
            Self::Operated { target, .. } => target.node_count(),
            Self::Annotated { inner, .. } | Self::Neg { inner, .. } | Self::Paren(inner) => {
                1 + inner.node_count()
            }
            Self::Binary { lhs, rhs, .. } => 1 + lhs.node_count() + rhs.node_count(),
        }
    }

    /// How many dice the groups written roll before any explosion or reroll.
    pub(super) fn dice_written(&self) -> usize {
        match self {
            Self::Number(_) | Self::Decimal { .. } => 0,
            Self::Dice(group) => group.count as usize,
            Self::Set { elements, .. } => elements.iter().map(Self::dice_written).sum(),
            Self::Operated { target: inner, .. }
            | Self::Annotated { inner, .. }
            | Self::Neg { inner, .. }
            | Self::Paren(inner) => inner.dice_written(),
            Self::Binary { lhs, rhs, .. } => lhs.dice_written() + rhs.dice_written(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BinOp {
    Add,
    Sub,
    Mul,
    /// True division (`15 / 2` is 7.5 until the final total is truncated).
    Div,
    /// `//`: division rounded toward negative infinity.
    FloorDiv,
    /// `%`: the remainder of `//`, with the sign of the divisor.
    Rem,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

impl BinOp {
    pub(super) fn symbol(self) -> &'static str {
        match self {
            Self::Add => "+",
            Self::Sub => "-",
            Self::Mul => "*",
            Self::Div => "/",
            Self::FloorDiv => "//",
            Self::Rem => "%",
            Self::Eq => "==",
            Self::Ne => "!=",
            Self::Lt => "<",
            Self::Gt => ">",
            Self::Le => "<=",
            Self::Ge => ">=",
        }
    }

    /// The operator whose symbol starts with `first` then `second`, the longest one written
    /// (`//` before `/`, `<=` before `<`); `None` when no symbol starts there.
    pub(super) fn starting(first: char, second: Option<char>) -> Option<Self> {
        Some(match (first, second) {
            ('=', Some('=')) => Self::Eq,
            ('!', Some('=')) => Self::Ne,
            ('<', Some('=')) => Self::Le,
            ('>', Some('=')) => Self::Ge,
            ('/', Some('/')) => Self::FloorDiv,
            ('<', _) => Self::Lt,
            ('>', _) => Self::Gt,
            ('/', _) => Self::Div,
            ('+', _) => Self::Add,
            ('-', _) => Self::Sub,
            ('*', _) => Self::Mul,
            ('%', _) => Self::Rem,
            _ => return None,
        })
    }

    /// The precedence of comparisons, the weakest; sums bind tighter, products tightest.
    pub(super) const COMPARISON: u8 = 0;

    /// How tightly the operator binds: comparisons 0, sums 1, products 2.
    pub(super) fn precedence(self) -> u8 {
        match self {
            Self::Mul | Self::Div | Self::FloorDiv | Self::Rem => 2,
            Self::Add | Self::Sub => 1,
            Self::Eq | Self::Ne | Self::Lt | Self::Gt | Self::Le | Self::Ge => Self::COMPARISON,
        }
    }

    /// The operators of each precedence level, weakest first (tests check
    /// [`BinOp::precedence`] and [`BinOp::starting`] against them).
    #[cfg(test)]
    pub(super) const COMPARISONS: [Self; 6] = [Self::Eq, Self::Ne, Self::Le, Self::Ge, Self::Lt, Self::Gt];
    #[cfg(test)]
    pub(super) const SUMS: [Self; 2] = [Self::Add, Self::Sub];
    #[cfg(test)]
    pub(super) const PRODUCTS: [Self; 4] = [Self::Mul, Self::FloorDiv, Self::Div, Self::Rem];
}

/// `NdM` followed by its set operations, e.g. `4d6rr1kh3`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct DiceGroup {
    /// The group as written (lower-cased), shown in the breakdown.
    pub(super) text: String,
    pub(super) count: u32,
    pub(super) sides: u32,
    pub(super) ops: Vec<SetOp>,
}

/// One set operation. Consecutive operations of the same kind are merged and select the union
/// of their selectors, as in d20: `kh1kl1` keeps the highest and the lowest die.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SetOp {
    pub(super) kind: OpKind,
    pub(super) selectors: Vec<Selector>,
    /// The operation as written, and where it starts, for error messages.
    pub(super) text: String,
    pub(super) pos: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum OpKind {
    /// `k`: drop every die that is not selected.
    Keep,
    /// `d` or `p`: drop the selected dice.
    Drop,
    /// `!` or `e`: each selected die adds one more die, which may explode in turn.
    Explode,
    /// `rr`: reroll selected dice until none is selected.
    Reroll,
    /// `ro`: reroll each selected die once.
    RerollOnce,
    /// `ra`: the first selected die adds one more die (once, no chain).
    RerollAdd,
    /// `miN`: every kept die below N counts as N.
    Min,
    /// `maN`: every kept die above N counts as N.
    Max,
}

impl OpKind {
    pub(super) fn symbol(self) -> &'static str {
        match self {
            Self::Keep => "k",
            Self::Drop => "d",
            Self::Explode => "e",
            Self::Reroll => "rr",
            Self::RerollOnce => "ro",
            Self::RerollAdd => "ra",
            Self::Min => "mi",
            Self::Max => "ma",
        }
    }

    /// `mi`/`ma` take a plain number, not a selector such as `h1` or `<3`.
    pub(super) fn needs_literal(self) -> bool {
        matches!(self, Self::Min | Self::Max)
    }

    /// Whether consecutive operations of this kind merge (d20 never merges `mi`/`ma`).
    pub(super) fn merges(self) -> bool {
        !self.needs_literal()
    }

    /// Keep and drop are the only operations on sets and parentheses.
    pub(super) fn applies_to_sets(self) -> bool {
        matches!(self, Self::Keep | Self::Drop)
    }
}

/// Which dice of a group an operation applies to (among those still kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Selector {
    /// `hN`: the N highest; among equal values, earlier dice first.
    Highest(u32),
    /// `lN`: the N lowest; among equal values, earlier dice first.
    Lowest(u32),
    /// `N`: dice showing exactly N.
    Equal(u32),
    /// `<N`
    Below(u32),
    /// `>N`
    Above(u32),
    /// `!`: dice showing their highest face.
    Max,
}

impl Selector {
    /// Whether a die showing `value` matches this comparison (never true for highest/lowest).
    pub(super) fn matches(self, value: u32, sides: u32) -> bool {
        self.matches_total(Ratio::from(value), sides)
    }

    /// Whether a member totalling `total` matches this comparison; `sides` is the die's, for `!`.
    pub(super) fn matches_total(self, total: Ratio, sides: u32) -> bool {
        match self {
            Self::Highest(_) | Self::Lowest(_) => false,
            Self::Max => total == Ratio::from(sides),
            Self::Equal(n) => total == Ratio::from(n),
            Self::Below(n) => total < Ratio::from(n),
            Self::Above(n) => total > Ratio::from(n),
        }
    }
}

impl SetOp {
    pub(super) fn matches(&self, value: u32, sides: u32) -> bool {
        self.selectors.iter().any(|selector| selector.matches(value, sides))
    }

    /// True when every face of a `sides`-sided die is selected: a repeating operation then never
    /// ends (`1d1!`, `d6rr<7`).
    pub(super) fn matches_every_face(&self, sides: u32) -> bool {
        (1..=sides).all(|value| self.matches(value, sides))
    }

    /// True when the operation can never stop: explosions or rerolls of every face, or rerolls
    /// of the highest/lowest dice (there always is a highest die to reroll again).
    pub(super) fn never_ends(&self, sides: u32) -> bool {
        let counted = |s: &Selector| matches!(s, Selector::Highest(n) | Selector::Lowest(n) if *n > 0);
        match self.kind {
            OpKind::Reroll => self.selectors.iter().any(counted) || self.matches_every_face(sides),
            OpKind::Explode => self.matches_every_face(sides),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(kind: OpKind, selectors: Vec<Selector>) -> SetOp {
        SetOp { kind, selectors, text: String::new(), pos: 0 }
    }

    /// Each precedence level used to try its own symbols, longest first; one lookup over all
    /// symbols filtered by level reads the same operator.
    #[test]
    fn the_longest_symbol_written_is_the_operator() {
        let levels: [&[BinOp]; 3] = [&BinOp::COMPARISONS, &BinOp::SUMS, &BinOp::PRODUCTS];
        for op in levels.concat() {
            let mut chars = op.symbol().chars();
            let first = chars.next().unwrap_or(' ');
            assert_eq!(BinOp::starting(first, chars.next()), Some(op), "{}", op.symbol());
        }
        let alphabet = ['=', '!', '<', '>', '/', '+', '-', '*', '%', '1', ' ', 'd'];
        for first in alphabet {
            for second in alphabet {
                let text = format!("{first}{second}");
                for level in levels {
                    let by_level = level.iter().copied().find(|op| text.starts_with(op.symbol()));
                    let read = BinOp::starting(first, Some(second)).filter(|op| level.contains(op));
                    assert_eq!(read, by_level, "{text}");
                }
            }
        }
        for (precedence, level) in levels.iter().enumerate() {
            assert!(level.iter().all(|op| usize::from(op.precedence()) == precedence));
        }
        assert_eq!(BinOp::starting('/', None), Some(BinOp::Div));
        assert_eq!(BinOp::starting('=', None), None);
    }

    #[test]
    fn comparisons_match_faces() {
        assert!(Selector::Equal(1).matches(1, 20));
        assert!(!Selector::Equal(1).matches(2, 20));
        assert!(Selector::Below(3).matches(2, 6) && !Selector::Below(3).matches(3, 6));
        assert!(Selector::Above(5).matches(6, 6) && !Selector::Above(5).matches(5, 6));
        assert!(Selector::Max.matches(6, 6) && !Selector::Max.matches(5, 6));
        assert!(!Selector::Highest(3).matches(6, 6));
    }

    #[test]
    fn every_face_is_detected_including_unions() {
        assert!(op(OpKind::Explode, vec![Selector::Max]).matches_every_face(1));
        assert!(!op(OpKind::Explode, vec![Selector::Max]).matches_every_face(6));
        assert!(op(OpKind::Reroll, vec![Selector::Below(7)]).matches_every_face(6));
        assert!(op(OpKind::Reroll, vec![Selector::Below(4), Selector::Above(3)]).matches_every_face(6));
        assert!(!op(OpKind::Reroll, vec![Selector::Below(3), Selector::Above(3)]).matches_every_face(6));
    }
}
