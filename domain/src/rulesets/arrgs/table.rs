//! Between stored encounters and the rules: a combatant becomes a [`Fighter`] for one operation
//! and its state is written back; the encounter gives the [`Scene`].

use super::fighter::{Fighter, Scene};
use super::{Arrgs, CombatState};
use crate::encounter::{CombatantId, Encounter, EncounterError};
use crate::rulesets::plugin::{Registered, combatant, combatant_mut, options};

/// Round 1 is the surprise round when someone is Surprised (arrgs.txt, "Structure", step 2; the
/// flag is cleared at that round's End of Round).
pub fn scene(encounter: &Encounter) -> Scene {
    let surprise_round = encounter.round == 1 && encounter.combatants.iter().any(|c| c.flags.surprised);
    Scene {
        round: encounter.round,
        surprise_round,
        current: encounter.current.clone(),
        options: options::<Arrgs>(encounter),
    }
}

/// The combatant `id` as a fighter, or a refusal naming `field`.
pub fn fighter(encounter: &Encounter, id: &CombatantId, field: &str) -> Result<Fighter, EncounterError> {
    let found = combatant(encounter, id, field)?;
    let stats = Arrgs::stats(&found.stats)
        .ok_or_else(|| EncounterError::invalid(field, format!("{} is not an arrgs combatant", found.name)))?;
    let state = Arrgs::state(&found.state).cloned().unwrap_or_else(CombatState::default);
    let mut fighter = Fighter {
        id: found.id.clone(),
        name: found.name.clone(),
        stats: stats.clone(),
        state,
        surprised: found.flags.surprised,
        field: field.to_owned(),
    };
    super::items::adopt_sheet(&mut fighter);
    Ok(fighter)
}

/// Writes a fighter's state back; a dead combatant is marked defeated (it takes no more turns).
pub fn store(encounter: &mut Encounter, fighter: &Fighter) -> Result<(), EncounterError> {
    let dead = fighter.is_dead();
    let stored = combatant_mut(encounter, &fighter.id, &fighter.field)?;
    let (_, state) = crate::rulesets::plugin::parts_mut::<Arrgs>(stored, &fighter.field)?;
    *state = fighter.state.clone();
    if dead {
        stored.flags.defeated = true;
    }
    Ok(())
}

/// Refuses a second mention of the same combatant where two are needed.
pub fn ensure_distinct(a: &CombatantId, b: &CombatantId, field: &str) -> Result<(), EncounterError> {
    if a == b {
        return Err(EncounterError::invalid(field, "must name a different combatant"));
    }
    Ok(())
}
