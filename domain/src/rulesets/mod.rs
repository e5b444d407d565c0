//! The five rule systems. Each module holds pure functions over its own typed stat block; the
//! [`RulesetId`] enum and [`StatBlock`] dispatch to them at the boundary.

pub mod adeva_d100;
pub mod arrgs;
pub mod cepheus_engine;
mod guards;
mod hooks;
pub mod lur_asko;
mod options;
pub mod plugin;
mod report;
mod ruleset_id;
pub mod spycraft2;
mod stat_block;
mod state;

pub use hooks::set_initiative;
pub use plugin::{Command, CommandVisitor, Data, Ruleset, RulesetInfo, RulesetVisitor, Stateless, Summary};
pub use options::{AdevaOptions, RulesetOptions};
pub use report::RulesetReport;
pub use ruleset_id::{Operation, RulesetId, UnknownRuleset};
pub use stat_block::{InitiativeContext, InitiativeRoll, RuleError, StatBlock, TiePolicy};
pub use state::RulesetState;
