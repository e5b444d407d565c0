//! Dice expressions in the notation of Avrae's `d20` library: `4d6kh3+2`, `2d20kl1`, `8d6!`,
//! `1d20rr1`, `(1d4, 2+2, 3d6kl1)kh1`, `8d6 [fire]`, `10d6mi2`, `1d20 >= 15`, … Parsing checks
//! every bound it can, so a refused expression costs nothing and an accepted one cannot hang:
//! the one unbounded part, chains of explosions and rerolls, is stopped at [`MAX_DICE_TOTAL`].
//!
//! Deliberate differences from d20: arithmetic is exact (fractions, not floats, so
//! `0.1 + 0.2 == 0.3` is 1); `d%` rolls 1–100 like `d100` (d20 rolls a tens die, 0–90); dice
//! that explode or reroll together do so in die order; Skirmish also reads `d` as drop (`4d6dl1`),
//! `!` as explode-on-max, and `kh`/`kl` without a count as 1.

mod ast;
mod atoms;
mod cursor;
mod error;
mod eval;
mod group;
mod node;
mod parser;
mod ratio;
mod render;
mod roll;
mod select;

use std::{fmt, ops::Range, str::FromStr};

use crate::dice::{Dice, DieRoll};
pub use error::DiceExprError;
pub use ratio::Ratio;

/// Longest expression accepted, in characters (comment included): keeps parsing and the
/// breakdown small.
pub const MAX_EXPRESSION_LEN: usize = 200;
/// Most dice in one group (`100d6`), so one group cannot flood the breakdown.
pub const MAX_DICE_PER_GROUP: u32 = 100;
/// Most dice one expression may roll, explosions and rerolls included: refused at parse time
/// for the dice written, and stops the roll when explosions or rerolls go past it.
pub const MAX_DICE_TOTAL: usize = 500;
/// Deepest nesting of parentheses and sets: bounds the parser's recursion.
pub const MAX_PAREN_DEPTH: usize = 20;
/// Largest number that may be written (counts, sides, constants, selectors).
pub const MAX_NUMBER: u32 = 1_000_000;
/// Most elements in one set `(a, b, …)`.
pub const MAX_SET_SIZE: usize = 50;
/// Most digits after a decimal point.
pub const MAX_DECIMALS: usize = 6;

/// A parsed dice expression, ready to roll any number of times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceExpr {
    text: String,
    ast: ast::Expr,
    /// Where the comment is in `text`, trimmed, as a byte range.
    comment: Option<Range<usize>>,
}

/// The result of rolling a [`DiceExpr`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ExprOutcome {
    /// The total, rounded toward zero as d20 does (`15 / 2` totals 7).
    pub total: i64,
    /// d20-style breakdown, e.g. `4d6kh3 (6, 5, 3, ~~1~~) + 2 [fire] = 16`: values struck
    /// through no longer count (dropped or rerolled), `!` marks a die that exploded, `2 -> 3` a
    /// die raised or lowered by `mi`/`ma`.
    pub rendered: String,
    /// The dice this roll added to the [`Dice`] record, in roll order, with final statuses.
    pub dice: Vec<DieRoll>,
    /// Every annotated term, in the order written.
    pub terms: Vec<Term>,
    /// The comment written after the expression (only when comments are allowed).
    pub comment: Option<String>,
}

/// A term with its annotation, e.g. `3d8kh2` with `[fire]`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Term {
    /// The term as written, without its annotation.
    pub text: String,
    /// Its annotations as written, e.g. `[fire]` or `[a][b]`.
    pub annotation: String,
    /// What the term counts for in the end (0 when a set operation dropped it).
    pub total: Ratio,
    /// Indices in [`ExprOutcome::dice`] of the dice rolled inside the term.
    pub dice: Vec<usize>,
}

impl FromStr for DiceExpr {
    type Err = DiceExprError;

    /// Parses without comments: text after the expression is an error.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse(text, false)
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl DiceExpr {
    /// Parses `text`; with `allow_comments`, whatever follows a complete expression is its
    /// comment (`1d20 I search the room`), as d20's `allow_comments`.
    pub fn parse(text: &str, allow_comments: bool) -> Result<Self, DiceExprError> {
        let parsed = parser::parse(text, allow_comments)?;
        let comment = parsed.comment.map(|start| trimmed(text, start));
        Ok(Self { ast: parsed.expr, text: text.to_owned(), comment })
    }

    /// The expression as it was written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The comment after the expression, if comments were allowed and one was written.
    pub fn comment(&self) -> Option<&str> {
        self.comment.clone().and_then(|range| self.text.get(range))
    }

    /// Rolls every die through `dice` (purpose = the given `purpose`, e.g. "dice: 4d6kh3"),
    /// returns the total and per-group breakdown. On error, dice already rolled stay recorded
    /// in `dice`.
    pub fn roll(&self, dice: &mut Dice, purpose: &str) -> Result<ExprOutcome, DiceExprError> {
        let start = dice.rolls().len();
        dice.reserve(self.ast.dice_written());
        let evaluator = eval::Evaluator::new(roll::Roller::new(dice, purpose), self.ast.node_count());
        let (tree, root) = evaluator.run(&self.ast)?;
        let total = tree.total(root)?.trunc();
        let rolled = dice.rolls().get(start..).unwrap_or_default().to_vec();
        let rendered = rendered(&tree, root, total, self.text.len() + 8 * rolled.len());
        let terms = terms(&tree, root)?;
        Ok(ExprOutcome { total, rendered, dice: rolled, terms, comment: self.comment().map(str::to_owned) })
    }
}

/// The byte range of `text[start..]` without its leading and trailing whitespace.
fn trimmed(text: &str, start: usize) -> Range<usize> {
    let rest = text.get(start..).unwrap_or_default();
    let from = start + (rest.len() - rest.trim_start().len());
    from..from + rest.trim().len()
}

/// The breakdown and its `= total` ending, in one buffer sized for the usual expression.
/// `room` is the text's length plus a few characters per die.
fn rendered(tree: &node::Tree, root: node::NodeId, total: i64, room: usize) -> String {
    let mut out = String::with_capacity(room + 32);
    render::render(tree, root, &mut out);
    out.push_str(" = ");
    render::write_int(total, &mut out);
    out
}

/// The annotated terms of a rolled tree, innermost first, left to right.
fn terms(tree: &node::Tree, root: node::NodeId) -> Result<Vec<Term>, DiceExprError> {
    let mut found = Vec::new();
    collect_terms(tree, root, &mut found)?;
    Ok(found)
}

fn collect_terms(tree: &node::Tree, id: node::NodeId, found: &mut Vec<Term>) -> Result<(), DiceExprError> {
    use node::Kind;
    match &tree.node(id).kind {
        Kind::Literal { .. } | Kind::Dice { .. } => {}
        Kind::Set { elements, .. } => {
            tree.elements(elements).iter().try_for_each(|&element| collect_terms(tree, element, found))?
        }
        Kind::Paren { inner, .. } | Kind::Neg { inner, .. } => collect_terms(tree, *inner, found)?,
        Kind::Binary { lhs, rhs, .. } => {
            collect_terms(tree, *lhs, found)?;
            collect_terms(tree, *rhs, found)?;
        }
        Kind::Annotated { inner, annotation, text, dice } => {
            collect_terms(tree, *inner, found)?;
            let (text, annotation, dice) =
                ((*text).to_owned(), (*annotation).to_owned(), dice.clone().collect());
            found.push(Term { text, annotation, total: tree.total(id)?, dice });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
