//! Suppression fire landing on a target (cepheus-engine.txt, "Suppression Fire").
//!
//! Decisions:
//! - The Initiative penalty equals the attack's Effect and holds for one round like any other
//!   dynamic change (`dynamic::change_for_one_round`): this round if the target has yet to act,
//!   otherwise the next. That is the "stalled next action". Effect 0 costs no Initiative but the
//!   DM still applies.
//! - The −1 DM is stored as two check penalties, one for the current round and one for the next;
//!   `dynamic::end_of_round` drops each when its round ends.
//! - A target must have had a turn since it was last suppressed before suppression affects it
//!   again. The attack is still rolled and reported; it simply has no effect on the target.
//! - Immune targets (zealots, androids, battle dress, the suicidal) are the caller's call:
//!   `suppression_immune: true`. Vehicles are already refused by the attack rules.

use super::dynamic::{change_for_one_round, initiative_score};
use super::state::CheckPenalty;
use super::CepheusEngine;
use crate::rulesets::plugin::{self, combatant, combatant_mut};
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use serde::{Deserialize, Serialize};

/// When suppression last affected a combatant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineSuppressionMark))]
pub struct SuppressionMark {
    pub round: u32,
    /// The combatant had already had its turn that round when suppressed.
    pub had_acted: bool,
}

/// What suppression did to its target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineSuppressionApplied))]
pub struct SuppressionApplied {
    pub applied: bool,
    pub initiative_penalty: i32,
    pub check_dm: i32,
    /// The rounds in which the −1 DM applies.
    pub check_dm_rounds: Vec<u32>,
    pub note: String,
}

/// Whether the target has had a turn since it was last suppressed.
fn has_had_a_turn_since(mark: SuppressionMark, round: u32, acted_now: bool) -> bool {
    let next_turn_round = if mark.had_acted { mark.round + 1 } else { mark.round };
    round > next_turn_round || (round == next_turn_round && acted_now)
}

/// [`apply`]'s one refusal, changing nothing: a target that suppression moves must have an
/// initiative to move.
pub fn check(encounter: &Encounter, target: &CombatantId, effect: i32, immune: bool) -> Result<(), EncounterError> {
    let found = combatant(encounter, target, "target_id")?;
    let (_, state) = plugin::parts::<CepheusEngine>(found, "target_id")?;
    let shrugged = state.suppressed.is_some_and(|mark| !has_had_a_turn_since(mark, encounter.round, found.acted_this_round));
    if !immune && !shrugged && effect > 0 {
        initiative_score(encounter, target)?;
    }
    Ok(())
}

/// Applies a successful suppression attack's Effect to the target (cepheus-engine.txt,
/// "Suppression Fire").
pub fn apply(
    encounter: &mut Encounter,
    target: &CombatantId,
    effect: i32,
    immune: bool,
    events: &mut Vec<Event>,
) -> Result<SuppressionApplied, EncounterError> {
    let round = encounter.round;
    let (acted, name, mark) = {
        let found = combatant(encounter, target, "target_id")?;
        let (_, state) = plugin::parts::<CepheusEngine>(found, "target_id")?;
        (found.acted_this_round, found.name.clone(), state.suppressed)
    };
    let mut result = SuppressionApplied {
        applied: false,
        initiative_penalty: 0,
        check_dm: 0,
        check_dm_rounds: Vec::new(),
        note: String::new(),
    };
    if immune {
        result.note = format!("{name} does not care about suppression fire (immune)");
        return Ok(result);
    }
    if mark.is_some_and(|mark| !has_had_a_turn_since(mark, round, acted)) {
        result.note = format!("{name} has not acted since it was last suppressed: no further effect");
        return Ok(result);
    }
    let reason = "suppressed";
    if effect > 0 {
        change_for_one_round(encounter, target, -effect, &format!("suppressed (Effect {effect})"), events)?;
    }
    let (_, state) = plugin::parts_mut::<CepheusEngine>(combatant_mut(encounter, target, "target_id")?, "target_id")?;
    for applies_in in [round, round + 1] {
        state.check_penalties.push(CheckPenalty { dm: -1, round: applies_in, reason: reason.into() });
    }
    state.suppressed = Some(SuppressionMark { round, had_acted: acted });
    result.applied = true;
    result.initiative_penalty = effect.max(0);
    result.check_dm = -1;
    result.check_dm_rounds = vec![round, round + 1];
    result.note = format!(
        "{name} ducks away: Initiative −{} for one round, −1 DM on checks in rounds {} and {}",
        effect.max(0),
        round,
        round + 1
    );
    Ok(result)
}
