//! The grapple action (cepheus-engine.txt, "Grappling"; decisions in `actions.rs`).

use super::super::allocation::{AllocationChoice, allocate_damage};
use super::super::attack_request::MeleeCharacteristic;
use super::super::character::Physical;
use super::super::grapple::{
    GrappleOption, GrappleOutcome, GrappleRequest, GrappleRole, GrappleSide, resolve_grapple,
};
use super::super::modifier::total_dm;
use super::super::range::RangeBand;
use super::super::stance::Stance;
use super::apply::apply_hit;
use super::super::economy::Cost;
use super::{
    combatant,
    own_check_modifiers, parts, state_mut,
};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};
use crate::rulesets::RuleError;
use super::action_request::Action;
use super::action_report::ActionReport;
use super::{check_turn_action, invalid, lose_aim, other};

/// One side's opposed Natural Weapons DM.
pub(super) fn grapple_side(
    encounter: &Encounter,
    id: &CombatantId,
    field: &str,
    characteristic: Option<MeleeCharacteristic>,
) -> Result<(i32, u32), EncounterError> {
    let (stats, state) = parts(combatant(encounter, id, field)?, field)?;
    let (str_dm, dex_dm) = (stats.current_dm(Physical::Str), stats.current_dm(Physical::Dex));
    let characteristic_dm = match characteristic {
        Some(MeleeCharacteristic::Str) => str_dm,
        Some(MeleeCharacteristic::Dex) => dex_dm,
        None => str_dm.max(dex_dm),
    };
    let own = total_dm(&own_check_modifiers(stats, state, encounter.round));
    let armour = u32::try_from(stats.armour.get()).unwrap_or(0);
    Ok((stats.skill_dm("natural_weapons") + characteristic_dm + own, armour))
}

pub(super) fn grapple_field(error: RuleError) -> EncounterError {
    let RuleError::Invalid { field, message } = error else { return error.into() };
    let renamed = if let Some(rest) = field.strip_prefix("attacker.choice") {
        format!("choice{rest}")
    } else if let Some(rest) = field.strip_prefix("defender.choice") {
        format!("target_choice{rest}")
    } else {
        field
    };
    EncounterError::invalid(renamed, message)
}

/// The split of a grapple's damage fits its loser (`[attacker, defender]`), checked before the
/// grapple changes anything (cepheus-engine.txt, "Grappling", "Damage").
fn check_split(
    encounter: &Encounter,
    sides: [&CombatantId; 2],
    outcome: &GrappleOutcome,
    choice: &AllocationChoice,
) -> Result<(), EncounterError> {
    let Some(done) = &outcome.action else { return Ok(()) };
    let Some(damage) = &done.damage else { return Ok(()) };
    let loser = if done.by == GrappleRole::Attacker { sides[1] } else { sides[0] };
    let (stats, _) = parts(combatant(encounter, loser, "target_id")?, "target_id")?;
    allocate_damage(stats, damage.after_armour, choice)?;
    Ok(())
}

/// Grappling (cepheus-engine.txt, "Grappling"). The check is rolled, and the split of its damage
/// checked against the loser, before the action is spent.
pub(super) fn grapple(
    encounter: &mut Encounter,
    action: &Action,
    mut report: ActionReport,
    dice: &mut Dice,
) -> Result<ActionReport, EncounterError> {
    let Action::Grapple {
        combatant_id: id,
        target_id: target,
        characteristic,
        target_characteristic,
        choice,
        target_choice,
        overflow_to,
        allocation,
    } = action
    else {
        unreachable!("called for grapple actions only")
    };
    let target_name = other(encounter, id, target)?;
    let (_, state) = parts(combatant(encounter, id, "combatant_id")?, "combatant_id")?;
    if let Some(partner) = &state.grappling_with
        && partner != target
    {
        return Err(invalid(
            "target_id",
            format!("{} is locked in a grapple with {}", report.name, encounter.name_of(partner)),
        ));
    }
    let in_grapple = state.grappling_with.as_ref() == Some(target);
    let (attacker_dm, attacker_armour) = grapple_side(encounter, id, "combatant_id", *characteristic)?;
    let (defender_dm, defender_armour) =
        grapple_side(encounter, target, "target_id", *target_characteristic)?;
    let request = GrappleRequest {
        range: RangeBand::Personal,
        in_grapple,
        attacker: GrappleSide { dm: attacker_dm, armour: attacker_armour, choice: *choice },
        defender: GrappleSide { dm: defender_dm, armour: defender_armour, choice: *target_choice },
    };
    let spending = check_turn_action(encounter, id, Cost::Significant, "a grapple check", true)?;
    let outcome = resolve_grapple(&request, dice).map_err(grapple_field)?;
    let choice = AllocationChoice { overflow_to: *overflow_to, allocation: allocation.map(Into::into) };
    check_split(encounter, [id, target], &outcome, &choice)?;
    report.economy = Some(spending.record(encounter, id)?);
    lose_aim(encounter, id, &mut report)?;
    if let Some(done) = &outcome.action {
        let loser = match done.by {
            GrappleRole::Attacker => target,
            GrappleRole::Defender => id,
        };
        if done.loser_prone {
            state_mut(encounter, loser, "target_id")?.stance = Stance::Prone;
        }
        if let Some(damage) = &done.damage {
            report.hit = Some(apply_hit(encounter, loser, damage.after_armour, &choice, dice, "target_id")?);
        }
        let winner = if done.by == GrappleRole::Attacker { &report.name } else { &target_name };
        report.description = format!("{winner} wins the grapple and {}", done.description);
        if done.option == GrappleOption::Escape {
            report.notes.push("the winner moves away as with a movement action".into());
        }
    } else {
        report.description = if in_grapple {
            "neither side wins: the grapple holds".to_string()
        } else {
            format!("{} fails to grapple {target_name}", report.name)
        };
    }
    let still = outcome.grappling && report.hit.as_ref().is_none_or(|hit| !hit.defeated);
    state_mut(encounter, id, "combatant_id")?.grappling_with = still.then(|| target.clone());
    state_mut(encounter, target, "target_id")?.grappling_with = still.then(|| id.clone());
    report.target_id = Some(target.clone());
    report.grapple = Some(outcome);
    Ok(report)
}
