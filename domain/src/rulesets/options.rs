//! Settings a ruleset reads from the encounter itself (chosen by the game master when the
//! encounter is created), beside each combatant's stat block.

use super::RulesetId;
use serde::{Deserialize, Deserializer, Serialize};

/// Adeva d100 encounter settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdevaOptions {
    /// Names for the five results of the Lethal Damage chart, whose contents the rule text does not
    /// give (adeva-d100.txt, "Attacking", Step Five-A); without it only the 1d5 result is reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lethal_damage_table: Option<Vec<String>>,
}

/// An encounter's ruleset settings. Rulesets without any keep `None` (written as `{}`).
#[derive(Debug, Clone, Default, PartialEq)]
pub enum RulesetOptions {
    #[default]
    None,
    AdevaD100(AdevaOptions),
}

impl Serialize for RulesetOptions {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Self::None => serializer.serialize_map(Some(0))?.end(),
            Self::AdevaD100(options) => options.serialize(serializer),
        }
    }
}

impl RulesetOptions {
    /// Checks values the types cannot: the Lethal Damage table names five results, each 1 to 100
    /// characters.
    pub fn validate(&self) -> Result<(), super::RuleError> {
        let Some(table) = self.adeva().and_then(|options| options.lethal_damage_table.as_ref()) else {
            return Ok(());
        };
        if table.len() != 5 {
            let message = format!("the Lethal Damage chart has five results (1d5), not {}", table.len());
            return Err(super::RuleError::invalid("options.lethal_damage_table", message));
        }
        for (index, name) in table.iter().enumerate() {
            if name.trim().is_empty() || name.chars().count() > 100 {
                let field = format!("options.lethal_damage_table[{index}]");
                return Err(super::RuleError::invalid(field, "must be 1 to 100 characters and not blank"));
            }
        }
        Ok(())
    }

    pub fn adeva(&self) -> Option<&AdevaOptions> {
        match self {
            Self::AdevaD100(options) => Some(options),
            Self::None => None,
        }
    }
}

impl RulesetId {
    /// Reads an encounter's settings for this ruleset from any serde format. Rulesets without
    /// settings accept only an empty object.
    pub fn deserialize_options<'de, D: Deserializer<'de>>(
        self,
        input: D,
    ) -> Result<RulesetOptions, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct NoOptions {}
        Ok(match self {
            Self::AdevaD100 => RulesetOptions::AdevaD100(AdevaOptions::deserialize(input)?),
            _ => {
                NoOptions::deserialize(input)?;
                RulesetOptions::None
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::value::{Error, MapDeserializer};

    fn empty() -> MapDeserializer<'static, std::iter::Empty<(&'static str, &'static str)>, Error> {
        MapDeserializer::new(std::iter::empty())
    }

    #[test]
    fn rulesets_without_settings_take_an_empty_object() {
        assert_eq!(RulesetId::Arrgs.deserialize_options(empty()), Ok(RulesetOptions::None));
        assert_eq!(
            RulesetId::AdevaD100.deserialize_options(empty()),
            Ok(RulesetOptions::AdevaD100(AdevaOptions::default()))
        );
    }
}
