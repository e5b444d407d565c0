//! Lur-Asko combat (shared/rules/lur-asko.txt).

use super::{InitiativeRoll, RuleError, TiePolicy};
use serde::{Deserialize, Serialize};

/// Lur-Asko's combat text needs no statistic for turn order; later rules add fields here.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoStats))]
#[serde(deny_unknown_fields)]
pub struct Stats {}

/// The text sets no tie-break; combatants on the same value keep the order they joined in.
pub const TIE_POLICY: TiePolicy = TiePolicy::JoinOrder;

/// The Lur-Asko text gives no initiative formula: the caller sets each value.
pub fn initiative() -> Result<InitiativeRoll, RuleError> {
    Err(RuleError::invalid(
        "fixed",
        "lur-asko sets no initiative roll: send a fixed value for each combatant",
    ))
}

/// Lur-Asko as a plug-in (lur-asko.txt, "Back in Combat").
pub struct LurAsko;

impl super::Ruleset for LurAsko {
    const ID: super::RulesetId = super::RulesetId::LurAsko;
    const SCHEMA_PREFIX: &'static str = "LurAsko";
    const INFO: super::RulesetInfo = super::RulesetInfo {
        name: "Lur-Asko (damage and drive against armour ranges)",
        source: "Lur-Asko rules, \"Back in Combat\" chapter (damage, drive and armour ranges)",
        initiative: "no formula in the rule text: send a fixed value per combatant",
        tie_break: "combatants on the same value keep the order they joined in",
    };
    const TIE_POLICY: TiePolicy = TIE_POLICY;
    const STATS_EXAMPLE: &'static str = "{}";
    type Stats = Stats;
    type State = super::NoState;
    type Options = super::NoOptions;
    type Report = super::NoReport;

    fn initiative(
        _stats: &Stats,
        _context: super::InitiativeContext,
        _dice: &mut crate::dice::Dice,
        _purpose: &str,
    ) -> Result<InitiativeRoll, RuleError> {
        initiative()
    }

    fn tie_keys(_stats: &Stats) -> Vec<i32> {
        Vec::new()
    }

    fn commands<V: super::CommandVisitor>(_visitor: &mut V) {}
}
