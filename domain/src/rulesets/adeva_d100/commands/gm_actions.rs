//! The GM's actions, which need no turn: starting a fall, resolving a crash, adding fatigue or a
//! characteristic decay (adeva-d100.txt, "Altitude", "Fatigue", "Characteristic Decay").

use super::action_outcome::{ActionOutcome, Ran};
use super::damage::apply;
use super::refreshed_mut;
use super::super::altitude::{AltitudeBand, crash_squares};
use super::super::decay::{CharacteristicDecay, check_decays};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};
use crate::rulesets::adeva_d100::bounds::Unsigned;

/// The GM starts a flier's fall from its band ("Altitude").
pub(super) fn start_fall(encounter: &mut Encounter, actor_id: CombatantId) -> Result<Ran, EncounterError> {
    let (stats, state, _) = refreshed_mut(encounter, &actor_id, "combatant_id")?;
    if stats.altitude == AltitudeBand::Ground || stats.falling {
        return Err(EncounterError::invalid(
            "combatant_id",
            "only a flier not already falling can start to fall",
        ));
    }
    stats.falling = true;
    state.fall_started_at = Some(stats.altitude);
    let from = stats.altitude;
    Ok((
        actor_id,
        "fall".into(),
        ActionOutcome::FallStarted { from },
        vec!["drops one band at the end of each round".into()],
    ))
}

/// Rolls and applies a pending crash: 1d10 + squares fallen, soaked by TB + AP ("Altitude").
pub(super) fn resolve_crash(encounter: &mut Encounter, actor_id: CombatantId, dice: &mut Dice) -> Result<Ran, EncounterError> {
    let (stats, state, flags) = refreshed_mut(encounter, &actor_id, "combatant_id")?;
    let Some(started) = state.pending_crash else {
        return Err(EncounterError::invalid("combatant_id", "no crash is pending for this combatant"));
    };
    let die = dice.roll(10, format!("falling damage: crash after a fall from {started:?}"))?;
    let damage = die + crash_squares(started);
    let (_, wounds, notes) = apply(stats, damage, true, 0, "combatant_id")?;
    stats.set_wounds_left(wounds.after);
    state.pending_crash = None;
    flags.defeated |= wounds.dead;
    let outcome = ActionOutcome::Crash { damage, wounds_after: wounds.after, defeated: flags.defeated };
    Ok((actor_id, "resolve_crash".into(), outcome, notes))
}

/// The GM adds 1 to 100 levels of fatigue.
pub(super) fn add_fatigue(encounter: &mut Encounter, actor_id: CombatantId, levels: u32) -> Result<Ran, EncounterError> {
    let (stats, _, _) = refreshed_mut(encounter, &actor_id, "combatant_id")?;
    if levels == 0 || levels > 100 {
        return Err(EncounterError::invalid("levels", "between 1 and 100 levels"));
    }
    stats.add_fatigue(levels);
    Ok((actor_id, "fatigue".into(), ActionOutcome::Fatigue { levels: stats.fatigue.n() }, Vec::new()))
}

/// The GM adds a characteristic decay ("Characteristic Decay").
pub(super) fn add_decay(
    encounter: &mut Encounter,
    actor_id: CombatantId,
    decay: CharacteristicDecay,
) -> Result<Ran, EncounterError> {
    let (stats, _, _) = refreshed_mut(encounter, &actor_id, "combatant_id")?;
    let mut decays = stats.decays.clone();
    decays.push(decay);
    check_decays("decay", &decays)?;
    stats.decays = decays.clone();
    Ok((actor_id, "decay".into(), ActionOutcome::Decay { decays }, Vec::new()))
}
