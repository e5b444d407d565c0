//! Empty settings and state for rulesets that have none.

use serde::{Deserialize, Serialize};

/// The encounter settings of a ruleset that has none: only `{}` is accepted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct NoOptions {}

/// The combat state of a ruleset that tracks none: `{}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct NoState {}

/// The report union of a ruleset with no operations beside initiative (never built).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub enum NoReport {}

impl super::Summary for NoReport {
    fn summary(&self) -> String {
        match *self {}
    }
}
