//! Storing what an attack did to each target (see the decisions in `mod.rs`; adeva-d100.txt,
//! "Attacking", "Feint", "Counter-Attack").

use super::super::evasion::EvasionKind;
use super::attack::{EncounterAttack, TargetReport, apply_outcome};
use super::core::{TargetOutcome, TargetSide};
use super::refreshed_mut;
use crate::encounter::{CombatantId, Encounter, EncounterError};

/// One named target: its id, the field naming it and the field naming its evasion.
type NamedTarget = (CombatantId, String, String);

/// Stores each target's outcome (wounds, reaction spent, feint used, defeat) and reports it.
pub(super) fn store_outcomes(
    encounter: &mut Encounter,
    request: &EncounterAttack,
    ids: &[NamedTarget],
    sides: &[TargetSide],
    outcomes: Vec<TargetOutcome>,
    melee: bool,
) -> Result<Vec<TargetReport>, EncounterError> {
    let mut targets = Vec::new();
    for (((id, field, _), side), outcome) in ids.iter().zip(sides).zip(outcomes) {
        let reacted = side.evasion.is_reaction() && outcome.evasion.is_some();
        // A successful parry of a melee attack opens a Counter-Attack on the attacker
        // ("Counter-Attack"); any other outcome of the latest attack on it closes it.
        let parried = melee
            && outcome.evasion.as_ref().is_some_and(|e| e.kind == EvasionKind::Parry && e.test.test.passed);
        let surprised = side.surprised;
        if reacted {
            // A reaction is an action of the target's: its own Feint opening lapses ("Feint").
            super::lapse_openings(encounter, id);
        }
        let (stats, state, flags) = refreshed_mut(encounter, id, field)?;
        if reacted {
            state.budget.reaction_used = true;
            state.budget.aim = None;
            // A dodge is an action: it ends a standing Overwatch ("Overwatch").
            state.overwatch = None;
        }
        state.parried = parried.then(|| request.attacker_id.clone());
        apply_outcome(stats, &outcome);
        // A Feint opens only the feinter's next attack (adeva-d100.txt, "Feint").
        if state.feinted_by.as_ref() == Some(&request.attacker_id) {
            state.feinted_by = None;
        }
        if outcome.wounds.dead {
            flags.defeated = true;
        }
        let stats_after = stats.clone();
        let target_name = encounter.name_of(id);
        targets.push(TargetReport { target_id: Some(id.clone()), target_name, surprised, outcome, stats_after });
    }
    Ok(targets)
}
