use super::{RulesetId, adeva_d100, arrgs, cepheus_engine, lur_asko, spycraft2};
use crate::dice::{Dice, DiceError};
use serde::{Deserialize, Deserializer, Serialize};

/// A combatant's ruleset-specific statistics.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum StatBlock {
    AdevaD100(adeva_d100::Stats),
    Arrgs(arrgs::Stats),
    Spycraft2(spycraft2::Stats),
    CepheusEngine(cepheus_engine::Stats),
    LurAsko(lur_asko::Stats),
}

/// How a ruleset orders combatants whose initiative and tie keys are all equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TiePolicy {
    /// Each tied combatant rolls this die; higher goes first; ties re-roll.
    RollOff { sides: u32 },
    /// Tied combatants share one slot and act simultaneously.
    Simultaneous,
    /// Tied combatants keep the order in which they joined the encounter.
    JoinOrder,
}

/// What a ruleset's initiative function may need beyond the stat block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InitiativeContext {
    /// Some, but not all, combatants are surprised (an ambush).
    pub ambush: bool,
    /// This combatant is surprised (unaware of its opponents).
    pub surprised: bool,
}

/// The result of one combatant's initiative: the score and how it was reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitiativeRoll {
    pub score: i32,
    /// Human-readable working, e.g. "2D6 (4+3) + DEX DM +1 = 8".
    pub explanation: String,
}

/// A rule that cannot be applied to the given input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("{field}: {message}")]
    Invalid { field: String, message: String },
    #[error(transparent)]
    Dice(#[from] DiceError),
}

impl RuleError {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Invalid { field: field.into(), message: message.into() }
    }
}

impl RulesetId {
    /// Reads a stat block for this ruleset from any serde format (the API's JSON, the
    /// database's JSON text). Unknown fields are refused so typos surface.
    pub fn deserialize_stats<'de, D: Deserializer<'de>>(self, input: D) -> Result<StatBlock, D::Error> {
        Ok(match self {
            Self::AdevaD100 => StatBlock::AdevaD100(adeva_d100::Stats::deserialize(input)?),
            Self::Arrgs => StatBlock::Arrgs(arrgs::Stats::deserialize(input)?),
            Self::Spycraft2 => StatBlock::Spycraft2(spycraft2::Stats::deserialize(input)?),
            Self::CepheusEngine => StatBlock::CepheusEngine(cepheus_engine::Stats::deserialize(input)?),
            Self::LurAsko => StatBlock::LurAsko(lur_asko::Stats::deserialize(input)?),
        })
    }

    pub fn tie_policy(self) -> TiePolicy {
        match self {
            Self::AdevaD100 => adeva_d100::TIE_POLICY,
            Self::Arrgs => arrgs::TIE_POLICY,
            Self::Spycraft2 => spycraft2::TIE_POLICY,
            Self::CepheusEngine => cepheus_engine::TIE_POLICY,
            Self::LurAsko => lur_asko::TIE_POLICY,
        }
    }
}

impl StatBlock {
    pub fn ruleset(&self) -> RulesetId {
        match self {
            Self::AdevaD100(_) => RulesetId::AdevaD100,
            Self::Arrgs(_) => RulesetId::Arrgs,
            Self::Spycraft2(_) => RulesetId::Spycraft2,
            Self::CepheusEngine(_) => RulesetId::CepheusEngine,
            Self::LurAsko(_) => RulesetId::LurAsko,
        }
    }

    /// Rolls (or reads) this combatant's initiative by its ruleset's formula.
    pub fn roll_initiative(
        &self,
        context: InitiativeContext,
        dice: &mut Dice,
        purpose: &str,
    ) -> Result<InitiativeRoll, RuleError> {
        match self {
            Self::AdevaD100(stats) => adeva_d100::roll_initiative(stats, dice, purpose),
            Self::Arrgs(stats) => arrgs::initiative(stats),
            Self::Spycraft2(stats) => spycraft2::roll_initiative(stats, dice, purpose),
            Self::CepheusEngine(stats) => cepheus_engine::roll_initiative(stats, context, dice, purpose),
            Self::LurAsko(_) => lur_asko::initiative(),
        }
    }

    /// Keys compared, highest first, when two initiative scores are equal.
    pub fn tie_keys(&self) -> Vec<i32> {
        match self {
            Self::AdevaD100(stats) => adeva_d100::tie_keys(stats),
            Self::Arrgs(stats) => arrgs::tie_keys(stats),
            Self::Spycraft2(stats) => spycraft2::tie_keys(stats),
            Self::CepheusEngine(stats) => cepheus_engine::tie_keys(stats),
            Self::LurAsko(_) => Vec::new(),
        }
    }
}
