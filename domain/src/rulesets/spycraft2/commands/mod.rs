//! Spycraft 2.0 operations on a stored encounter, one file per operation group, and their
//! stateless twins where the operation makes sense on inline stat blocks.
//!
//! Every command works on a clone of what it changes and writes it back only once it has
//! succeeded, so a refused command changes nothing (dice already rolled are discarded).
//!
//! Decisions:
//! - A character's own actions (actions, attacks, saves excepted) are taken on its turn
//!   (`encounter.current`). An action prompted at another time is sent with `off_count: true`:
//!   it is that one action only, is not spent from the round's actions (whatever prompted it
//!   paid for it) and may not be the bonus 5-ft. step or the start of a split skill check
//!   (spycraft2.txt, "Step 5", the first Special Note).
//! - GC declarations (conditions, critical injuries, Triumphs, critical failures, other
//!   abilities' Count changes, granted half actions) and saving throws may come at any time.
//! - Round 1 is the surprise round when one was declared (see `surprise.rs`).

pub mod actions;
pub mod attacks;
pub mod damage;
pub mod distance;
pub mod enter;
pub mod group_initiative;
pub mod saves;
pub mod surprise;

use super::Spycraft2;
use super::state::{CombatState, SurpriseRole};
use super::stats::Stats;
use crate::encounter::{CombatantId, Encounter, EncounterError};
use super::state::store;
use crate::rulesets::plugin::{self, combatant, combatant_mut, ensure_turn};
use crate::rulesets::{Registered, RuleError};

/// A combatant's name, stat block and combat state, cloned (errors name `field`).
pub(crate) fn snapshot(
    encounter: &mut Encounter,
    id: &CombatantId,
    field: &str,
) -> Result<(String, Stats, CombatState), EncounterError> {
    let combatant = combatant_mut(encounter, id, field)?;
    let name = combatant.name.clone();
    let (stats, state) = plugin::parts_mut::<Spycraft2>(combatant, field)?;
    Ok((name, stats.clone(), state.clone()))
}

/// Round 1 of an encounter for which a surprise round was declared.
pub(crate) fn surprise_round(encounter: &Encounter) -> bool {
    encounter.round == 1
        && encounter
            .combatants
            .iter()
            .filter_map(|c| <Spycraft2 as Registered>::state(&c.state))
            .any(|state| matches!(state.surprise, SurpriseRole::Acts | SurpriseRole::Waits))
}

/// Checks that `id` may take one of its own actions now: the encounter is running, the
/// character is in the fight, and it is its turn (or the action was prompted off its count).
pub(crate) fn ensure_may_act(
    encounter: &Encounter,
    id: &CombatantId,
    field: &str,
    off_count: bool,
) -> Result<(), EncounterError> {
    plugin::ensure_active::<Spycraft2>(encounter)?;
    let actor = combatant(encounter, id, field)?;
    if actor.flags.defeated {
        return Err(EncounterError::invalid(field, format!("{} is out of the fight", actor.name)));
    }
    if actor.initiative.is_none() {
        return Err(EncounterError::invalid(
            field,
            format!("{} has not entered the fight: roll its Initiative check first (enter)", actor.name),
        ));
    }
    if off_count {
        // Derived, not declared: the encounter knows whose Count it is (Step 5, first Special
        // Note: an action prompted at a time other than the character's Initiative Count).
        if encounter.current.as_ref() == Some(id) {
            let message = format!("it is {}'s own Initiative Count: an action now is not prompted at another time", actor.name);
            return Err(EncounterError::invalid("off_count", message));
        }
        return Ok(());
    }
    ensure_turn(encounter, id, field).map_err(|_| {
        EncounterError::invalid(
            field,
            format!(
                "it is not {}'s Initiative Count; an action prompted at another time is sent with off_count",
                actor.name
            ),
        )
    })
}

/// A refusal of a stateless operation (nothing stored, so only field errors and dice remain).
pub(crate) fn into_rule(error: EncounterError) -> RuleError {
    match error {
        EncounterError::Invalid { field, message } => RuleError::invalid(field, message),
        EncounterError::Refused { field, message } => RuleError::Refused { field, message },
        EncounterError::Dice(dice) => RuleError::Dice(dice),
        other => RuleError::invalid("request", other.to_string()),
    }
}

#[cfg(test)]
mod derived_tests;
#[cfg(test)]
mod skill_tests;
#[cfg(test)]
mod stored_tests;
