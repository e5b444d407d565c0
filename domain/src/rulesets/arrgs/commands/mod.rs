//! The ARRGS operations, each a typed route: `attacks` and `damage` (also stateless),
//! `actions`, `conditions` and `end-of-round`.

pub mod actions;
pub mod area;
pub mod attacks;
pub mod conditions;
pub mod damage;
pub mod end_of_round;

use super::Arrgs;
use crate::rulesets::CommandVisitor;
use crate::rulesets::plugin::Registered;

pub(crate) fn register<V: CommandVisitor>(visitor: &mut V) {
    visitor.stateless::<attacks::Attacks>();
    visitor.stateless::<damage::Damage>();
    visitor.command::<actions::Actions>();
    visitor.command::<area::AreaAttacks>();
    visitor.command::<conditions::Conditions>();
    visitor.command::<end_of_round::EndOfRound>();
}

/// Wraps a report for an event.
pub(crate) fn event_report(report: super::Report) -> crate::rulesets::RulesetReport {
    Arrgs::report(report)
}

#[cfg(test)]
mod stored_tests;
