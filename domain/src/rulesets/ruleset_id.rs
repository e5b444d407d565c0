use serde::{Deserialize, Serialize};
use std::{fmt, str::FromStr};

/// The id of a rule system, as used in the API (the rule text's file name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RulesetId {
    #[serde(rename = "adeva-d100")]
    AdevaD100,
    Arrgs,
    Spycraft2,
    CepheusEngine,
    LurAsko,
}

/// A combat operation a ruleset may implement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operation {
    Initiative,
    Attacks,
    Damage,
    Actions,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown ruleset '{0}' (known: adeva-d100, arrgs, spycraft2, cepheus-engine, lur-asko)")]
pub struct UnknownRuleset(pub String);

impl RulesetId {
    pub const ALL: [RulesetId; 5] =
        [Self::AdevaD100, Self::Arrgs, Self::Spycraft2, Self::CepheusEngine, Self::LurAsko];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::AdevaD100 => "adeva-d100",
            Self::Arrgs => "arrgs",
            Self::Spycraft2 => "spycraft2",
            Self::CepheusEngine => "cepheus-engine",
            Self::LurAsko => "lur-asko",
        }
    }

    /// A human-readable name of the rule system.
    pub fn name(self) -> &'static str {
        match self {
            Self::AdevaD100 => "Adeva d100 (roll-under, degrees of success)",
            Self::Arrgs => "ARRGS (d20 success value, action points, vitality)",
            Self::Spycraft2 => "Spycraft 2.0 (d20 initiative, surprise, fluid initiative)",
            Self::CepheusEngine => "Cepheus Engine (2D6 + DMs, range bands, dynamic initiative)",
            Self::LurAsko => "Lur-Asko (damage and drive against armour ranges)",
        }
    }

    /// The rule text this ruleset implements.
    pub fn source_text(self) -> String {
        format!("shared/rules/{}.txt", self.as_str())
    }

    /// The operations the server computes for this ruleset today. Anything else answers 501.
    pub fn operations(self) -> &'static [Operation] {
        match self {
            Self::CepheusEngine | Self::AdevaD100 => {
                &[Operation::Initiative, Operation::Attacks, Operation::Damage, Operation::Actions]
            }
            _ => &[Operation::Initiative],
        }
    }

    pub fn implements(self, operation: Operation) -> bool {
        self.operations().contains(&operation)
    }
}

impl fmt::Display for RulesetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RulesetId {
    type Err = UnknownRuleset;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL.into_iter().find(|id| id.as_str() == s).ok_or_else(|| UnknownRuleset(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_through_text_and_serde() {
        for id in RulesetId::ALL {
            assert_eq!(id.as_str().parse::<RulesetId>(), Ok(id));
            let quoted = format!("\"{}\"", id.as_str());
            let back: RulesetId = serde_json_free_parse(&quoted);
            assert_eq!(back, id);
        }
        assert_eq!("d&d".parse::<RulesetId>(), Err(UnknownRuleset("d&d".into())));
    }

    /// Deserialises a quoted id through serde's value machinery without serde_json.
    fn serde_json_free_parse(quoted: &str) -> RulesetId {
        use serde::de::{IntoDeserializer, value::StrDeserializer};
        let inner = quoted.trim_matches('"');
        let de: StrDeserializer<'_, serde::de::value::Error> = inner.into_deserializer();
        RulesetId::deserialize(de).unwrap()
    }
}
