//! One rule for what a combatant may receive, in every ruleset (issue 30, item 6).
//!
//! Each operation says whom it delivers what to ([`Command::deliveries`],
//! [`Stateless::inline_deliveries`]): damage, a condition, healing, or an action the combatant
//! takes. Each ruleset answers, from a combatant's stat block and combat state, whether it may
//! receive it ([`Ruleset::may_receive`](super::Ruleset::may_receive)), citing its rule text: a
//! dead combatant receives nothing more, a defeated but living one everything. [`run`] and
//! [`run_inline`] ask before every operation runs, stored or stateless alike, so no operation
//! decides it on its own; a refusal is a [`Refusal`] naming the field and the combatant, and
//! nothing changes.

use super::RuleError;
use super::plugin::{Command, Registered, Ruleset, Stateless, combatant};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use std::borrow::Cow;

/// What an operation delivers to a combatant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Receipt {
    /// Damage, or an attack that may deal it.
    Damage,
    /// A condition put on, changed or taken off.
    Condition,
    /// Vitality, wounds or hit points given back.
    Healing,
    /// An action the combatant takes.
    Action,
}

impl Receipt {
    pub fn noun(self) -> &'static str {
        match self {
            Self::Damage => "damage or an attack",
            Self::Condition => "a condition",
            Self::Healing => "healing",
            Self::Action => "an action",
        }
    }
}

/// Why a combatant may not receive something: what the ruleset's rule says it is, with the rule
/// cited, e.g. `dead (arrgs.txt, "Death": …)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal(pub String);

/// A stored combatant a request delivers something to, named by the request's `field`.
#[derive(Debug, Clone)]
pub struct Delivery<'a> {
    pub combatant: &'a CombatantId,
    pub field: String,
    pub receipt: Receipt,
}

impl<'a> Delivery<'a> {
    pub fn new(combatant: &'a CombatantId, field: impl Into<String>, receipt: Receipt) -> Self {
        Self { combatant, field: field.into(), receipt }
    }
}

/// A combatant sent inline that a stateless request delivers something to.
#[derive(Debug, Clone)]
pub struct InlineDelivery<'a, R: Ruleset> {
    pub name: &'a str,
    pub field: String,
    pub stats: &'a R::Stats,
    pub state: Cow<'a, R::State>,
    pub receipt: Receipt,
}

fn refused(name: &str, receipt: Receipt, refusal: Refusal) -> String {
    format!("{name} is {} and may not receive {}", refusal.0, receipt.noun())
}

/// Asks the stored combatant's own ruleset whether it may receive what `delivery` brings; the
/// one check for ruleset commands ([`run`]) and the generic routes (an effect put on a
/// combatant, `crate::encounter::add_effect`).
pub fn check(encounter: &Encounter, delivery: &Delivery<'_>) -> Result<(), EncounterError> {
    let found = combatant(encounter, delivery.combatant, &delivery.field)?;
    found.stats.may_receive(&found.state, delivery.receipt).map_err(|refusal| EncounterError::Refused {
        field: delivery.field.clone(),
        message: refused(&found.name, delivery.receipt, refusal),
    })
}

/// Asks the ruleset about each stored combatant the request names, then runs the operation.
pub fn run<C: Command>(
    encounter: &mut Encounter,
    request: C::Request,
    dice: &mut Dice,
) -> Result<(Vec<Event>, C::Report), EncounterError> {
    for delivery in C::deliveries(&request) {
        let found = combatant(encounter, delivery.combatant, &delivery.field)?;
        // A combatant of another ruleset is left to the operation, which refuses it by name.
        if C::Ruleset::stats(&found.stats).is_none() {
            continue;
        }
        check(encounter, &delivery)?;
    }
    C::run(encounter, request, dice)
}

/// Asks the ruleset about each combatant the stateless request sends, then runs the operation.
pub fn run_inline<C: Stateless>(request: C::InlineRequest, dice: &mut Dice) -> Result<C::Report, RuleError> {
    for delivery in C::inline_deliveries(&request) {
        if let Err(refusal) = C::Ruleset::may_receive(delivery.stats, &delivery.state, delivery.receipt) {
            let message = refused(delivery.name, delivery.receipt, refusal);
            return Err(RuleError::Refused { field: delivery.field, message });
        }
    }
    C::run_inline(request, dice)
}
