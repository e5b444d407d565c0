use super::RulesetName;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct RulesetResponse {
    pub id: RulesetName,
    pub name: String,
    /// The rule text this ruleset implements.
    pub source_text: String,
    /// Operations the server computes; the others answer 501.
    pub operations: Vec<String>,
    /// How initiative is reached.
    pub initiative: String,
    /// How ties are broken.
    pub tie_break: String,
    /// A valid stat block for this ruleset.
    #[schema(value_type = Object)]
    pub stats_example: serde_json::Value,
}
