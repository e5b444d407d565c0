//! Coming round and resting (cepheus-engine.txt, "Unconsciousness", "Fatigue"); healing is in
//! `healing.rs`.
//!
//! Decisions:
//! - Both are free actions, as healing is: they take minutes to hours of the table's time, not
//!   turns.
//! - regain_consciousness: only for a character knocked out (fatigue) and not unconscious from
//!   damage (two characteristics at 0); one unconscious from damage stays out until healed, so
//!   the check is refused. 2D6 + END DM (current) + the checks failed before (+1 each) + the
//!   character's own condition DMs (fatigue −2), against 8. Success clears `knocked_out` and the
//!   defeated flag; failure reports the DM of the next try.
//! - The checks failed before are derived when the engine knocked the combatant out (fatigue on
//!   fatigue): it counts them in `state.wake_checks_failed`, and a `failed_checks` that differs
//!   is refused (422 on `failed_checks`). For a combatant knocked out outside the engine (its
//!   stat block sent with `knocked_out`) the caller's `failed_checks` (default 0) is used, and
//!   the engine counts on from there.
//! - rest: refused unless fatigued; clears fatigue and reports 3 − END DM hours (at least 0).

use super::super::damage::Status;
use super::super::fatigue::{finish_rest, regain_consciousness as wake, rest_hours_needed};
use super::super::modifier::{Modifier, ModifierCode, total_dm};
use super::super::opposed::roll_check;
use super::CharacteristicName;
use super::action_report::{ActionReport, CheckReport};
use super::invalid;
use super::{combatant, combatant_mut, parts, parts_mut};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};

/// Most failed checks accepted as a DM.
pub const MAX_FAILED_CHECKS: u32 = 1000;

/// The Endurance check to come round (cepheus-engine.txt, "Unconsciousness").
pub(super) fn regain_consciousness(
    encounter: &mut Encounter,
    id: &CombatantId,
    sent: Option<u32>,
    mut report: ActionReport,
    dice: &mut Dice,
) -> Result<ActionReport, EncounterError> {
    let (stats, state) = parts(combatant(encounter, id, "combatant_id")?, "combatant_id")?;
    let failed_checks = match (state.wake_checks_failed, sent) {
        (Some(recorded), Some(sent)) if sent != recorded => {
            let message = format!(
                "{} has failed {recorded} check(s) to come round since being knocked out here, not {sent}",
                report.name
            );
            return Err(invalid("failed_checks", message));
        }
        (Some(recorded), _) => recorded,
        (None, sent) => sent.unwrap_or(0),
    };
    if failed_checks > MAX_FAILED_CHECKS {
        return Err(invalid("failed_checks", format!("failed_checks is 0 to {MAX_FAILED_CHECKS}")));
    }
    let mut awake = stats.clone();
    awake.knocked_out = false;
    if stats.status() != Status::Unconscious {
        return Err(invalid("combatant_id", format!("{} is not unconscious", report.name)));
    }
    if awake.status() == Status::Unconscious {
        return Err(invalid(
            "combatant_id",
            format!("{} is unconscious from damage and stays so until healed", report.name),
        ));
    }
    let mut modifiers = vec![Modifier::new(ModifierCode::CharacteristicDm, "END DM", CharacteristicName::End.dm(stats))];
    if failed_checks > 0 {
        modifiers.push(Modifier::new(ModifierCode::FailedChecks, "checks failed before", failed_checks as i32));
    }
    modifiers.extend(stats.check_dm_penalties());
    let roll = roll_check(total_dm(&modifiers), dice, "Endurance check to regain consciousness")?;
    if roll.success {
        let combatant = combatant_mut(encounter, id, "combatant_id")?;
        combatant.flags.defeated = false;
        let (stats, state) = parts_mut(combatant, "combatant_id")?;
        wake(stats);
        state.wake_checks_failed = None;
        report.description = format!("{} regains consciousness", report.name);
    } else {
        let state = parts_mut(combatant_mut(encounter, id, "combatant_id")?, "combatant_id")?.1;
        state.wake_checks_failed = Some(failed_checks + 1);
        report.description = format!(
            "{} stays unconscious; the next check, a minute later, is at +{}",
            report.name,
            failed_checks + 1
        );
    }
    report.check = Some(CheckReport { purpose: "regain consciousness".into(), modifiers, roll });
    Ok(report)
}

/// Resting off fatigue (cepheus-engine.txt, "Fatigue").
pub(super) fn rest(
    encounter: &mut Encounter,
    id: &CombatantId,
    mut report: ActionReport,
) -> Result<ActionReport, EncounterError> {
    let (stats, _) = parts_mut(combatant_mut(encounter, id, "combatant_id")?, "combatant_id")?;
    if !stats.fatigued {
        return Err(invalid("combatant_id", format!("{} is not fatigued", report.name)));
    }
    let hours = rest_hours_needed(stats);
    finish_rest(stats);
    report.rest_hours = Some(hours);
    report.description = format!("{} rests {hours} hours and is no longer fatigued", report.name);
    Ok(report)
}
