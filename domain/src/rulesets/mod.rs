//! The five rule systems, each a plug-in (see [`plugin`]): one folder per ruleset and one
//! registration line below. `registry!` generates [`RulesetId`], the unions [`StatBlock`],
//! [`RulesetState`], [`RulesetOptions`] and [`RulesetReport`], and every dispatch.

mod guards;
mod hooks;
mod options;
pub mod plugin;
pub mod receiving;
mod registry;
mod ruleset_id;
mod stat_block;
pub mod status;

pub use hooks::set_initiative;
pub use options::{NoOptions, NoReport, NoState};
pub use plugin::{
    Command, CommandVisitor, Data, Input, Output, Registered, Ruleset, RulesetInfo, RulesetVisitor,
    Stateless, Summary,
};
pub use receiving::{Delivery, InlineDelivery, Receipt, Refusal};
pub use ruleset_id::UnknownRuleset;
pub use stat_block::{InitiativeContext, InitiativeExtension, InitiativeRoll, RuleError, TiePolicy};
pub use status::{CombatantStatus, RulesetStatus, StatusContext};

use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, Event};
use registry::{CommandNames, registry};

registry! {
    AdevaD100("adeva-d100") = adeva_d100::AdevaD100,
    Arrgs("arrgs") = arrgs::Arrgs,
    Spycraft2("spycraft2") = spycraft2::Spycraft2,
    CepheusEngine("cepheus-engine") = cepheus_engine::CepheusEngine,
    LurAsko("lur-asko") = lur_asko::LurAsko,
}
