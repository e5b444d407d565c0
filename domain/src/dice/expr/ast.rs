//! The parsed form of a dice expression.

/// An arithmetic expression over numbers and dice groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Expr {
    Number(i64),
    Dice(DiceGroup),
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BinOp {
    Add,
    Sub,
    Mul,
    /// Integer division, truncating toward zero.
    Div,
}

impl BinOp {
    pub(super) fn symbol(self) -> char {
        match self {
            Self::Add => '+',
            Self::Sub => '-',
            Self::Mul => '*',
            Self::Div => '/',
        }
    }
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
}

impl OpKind {
    pub(super) fn symbol(self) -> &'static str {
        match self {
            Self::Keep => "k",
            Self::Drop => "d",
            Self::Explode => "e",
            Self::Reroll => "rr",
            Self::RerollOnce => "ro",
        }
    }

    /// Whether the operation only makes sense with a comparison (not highest/lowest).
    pub(super) fn needs_comparison(self) -> bool {
        matches!(self, Self::Explode | Self::Reroll | Self::RerollOnce)
    }

    /// Whether the operation repeats on the dice it adds, so could run forever.
    pub(super) fn repeats(self) -> bool {
        matches!(self, Self::Explode | Self::Reroll)
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
        match self {
            Self::Highest(_) | Self::Lowest(_) => false,
            Self::Equal(n) => value == n,
            Self::Below(n) => value < n,
            Self::Above(n) => value > n,
            Self::Max => value == sides,
        }
    }

    pub(super) fn is_comparison(self) -> bool {
        !matches!(self, Self::Highest(_) | Self::Lowest(_))
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(kind: OpKind, selectors: Vec<Selector>) -> SetOp {
        SetOp { kind, selectors, text: String::new(), pos: 0 }
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
