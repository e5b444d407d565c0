use serde::Serialize;
use skirmish_domain::rulesets::{Ruleset, RulesetId};
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "spycraft2", "name": "Spycraft 2.0", "source_text": "Spycraft 2.0 Rulebook, combat chapter",
    "operations": ["initiative"], "initiative": "1d20 + Initiative bonus", "tie_break": "higher Initiative bonus, then a 1d20 roll-off",
    "stats_example": {"initiative_bonus": 4}}))]
pub struct RulesetResponse {
    pub id: RulesetId,
    pub name: String,
    /// Where a reader finds the rules this ruleset implements (game, chapter, licence).
    pub source_text: String,
    /// Operations the server computes beside initiative, each at
    /// `POST /v1/encounters/{id}/<ruleset>/<operation>` (see the spec's tag for the ruleset).
    pub operations: Vec<String>,
    /// How initiative is reached.
    pub initiative: String,
    /// How ties are broken.
    pub tie_break: String,
    /// A valid stat block for this ruleset.
    #[schema(value_type = Object)]
    pub stats_example: serde_json::Value,
}

impl RulesetResponse {
    pub fn of<R: Ruleset>() -> Self {
        Self {
            id: R::ID,
            name: R::INFO.name.into(),
            source_text: R::INFO.source.into(),
            operations: std::iter::once("initiative").chain(R::ID.operations()).map(str::to_owned).collect(),
            initiative: R::INFO.initiative.into(),
            tie_break: R::INFO.tie_break.into(),
            stats_example: serde_json::from_str(R::STATS_EXAMPLE).unwrap_or_default(),
        }
    }
}
