//! Lur-Asko encounter settings: how the defense roll is rolled, which the text leaves open
//! (lur-asko.txt, "Critical Hits").
//!
//! Decisions:
//! - The defense die is not named in the chapter; its example (TN 14, a critical on 34 or more)
//!   needs a die reaching past 34, so the default is `1d100`. Any dice expression may be set.
//! - Hindrance from voluntary reductions lands on the attacker's offense roll, which this chapter
//!   does not cover: it is reported as a count, and turned into a defense-TN change only when
//!   `tn_per_hindrance` is set (0 by default).

use crate::dice::DiceExpr;
use crate::rulesets::RuleError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// The defense die when the encounter names none.
pub const DEFAULT_DEFENSE_DICE: &str = "1d100";

/// A TN change per Hindrance.
pub type TnStep = Score<-100, 100>;

/// Lur-Asko encounter settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoOptions))]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// The defense roll as a dice expression (default `1d100`); at most the TN defends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defense_dice: Option<String>,
    /// TN change per Hindrance of a voluntary reduction (default 0: Hindrance only reported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tn_per_hindrance: Option<TnStep>,
}

impl Options {
    /// The defense dice, parsed; `field` names where they came from.
    pub fn defense_dice(&self, field: &str) -> Result<DiceExpr, RuleError> {
        let text = self.defense_dice.as_deref().unwrap_or(DEFAULT_DEFENSE_DICE);
        text.parse().map_err(|error: crate::dice::DiceExprError| RuleError::invalid(field, error.to_string()))
    }

    pub fn tn_per_hindrance(&self) -> i32 {
        self.tn_per_hindrance.map_or(0, Score::get)
    }
}
