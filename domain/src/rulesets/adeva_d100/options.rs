//! Adeva d100 encounter settings, chosen by the game master when the encounter is created.

use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Adeva d100 encounter settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Options))]
pub struct AdevaOptions {
    /// Names for the five results of the Lethal Damage chart, whose contents the rule text does not
    /// give (adeva-d100.txt, "Attacking", Step Five-A); without it only the 1d5 result is reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schema(min_items = 5, max_items = 5))]
    pub lethal_damage_table: Option<Vec<String>>,
}

impl AdevaOptions {
    /// Checks values the types cannot: the Lethal Damage table names five results, each 1 to 100
    /// characters.
    pub fn validate(&self) -> Result<(), RuleError> {
        let Some(table) = self.lethal_damage_table.as_ref() else {
            return Ok(());
        };
        if table.len() != 5 {
            let message = format!("the Lethal Damage chart has five results (1d5), not {}", table.len());
            return Err(RuleError::invalid("options.lethal_damage_table", message));
        }
        for (index, name) in table.iter().enumerate() {
            if name.trim().is_empty() || name.chars().count() > 100 {
                let field = format!("options.lethal_damage_table[{index}]");
                return Err(RuleError::invalid(field, "must be 1 to 100 characters and not blank"));
            }
        }
        Ok(())
    }
}
