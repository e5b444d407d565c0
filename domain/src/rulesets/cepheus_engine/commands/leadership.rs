//! Skill checks of declared actions, and the two that move initiative: Leadership and Tactics
//! (cepheus-engine.txt, "Tactics and Leadership"; decisions in `actions.rs`).

use super::super::dynamic::{initiative_score, leadership_boost, tactics_boost};
use super::super::modifier::{Modifier, ModifierCode, total_dm};
use super::super::opposed::roll_check;
use super::super::Stats;
use super::super::economy::Cost;
use super::{
    CharacteristicName, combatant, ensure_can_act,
    own_check_modifiers, parts,
};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event, MAX_COMBATANTS};
use super::action_report::{ActionReport, CheckReport};
use super::{check_turn_action, invalid, lose_aim, other};

pub(super) fn skill_modifier(stats: &Stats, skill: &str) -> Modifier {
    match stats.skill_level(skill) {
        Some(level) => Modifier::new(ModifierCode::Skill, format!("{skill} {level}"), level),
        None => Modifier::new(ModifierCode::Skill, format!("unskilled in {skill}"), stats.skill_dm(skill)),
    }
}

/// 2D6 + skill + characteristic + own penalties, against 8.
pub(super) fn skill_check(
    encounter: &Encounter,
    id: &CombatantId,
    skill: &str,
    characteristic: CharacteristicName,
    purpose: &str,
    dice: &mut Dice,
) -> Result<CheckReport, EncounterError> {
    let found = combatant(encounter, id, "combatant_id")?;
    let (stats, state) = parts(found, "combatant_id")?;
    let mut modifiers = vec![skill_modifier(stats, skill)];
    let dm = characteristic.dm(stats);
    modifiers.push(Modifier::new(ModifierCode::CharacteristicDm, format!("{} DM", characteristic.label()), dm));
    modifiers.extend(own_check_modifiers(stats, state, encounter.round));
    let roll = roll_check(total_dm(&modifiers), dice, purpose)?;
    Ok(CheckReport { purpose: purpose.to_string(), modifiers, roll })
}

/// Leadership (cepheus-engine.txt, "Tactics and Leadership", "Battlefield Comms"). The check is
/// rolled, and the target's initiative looked up, before the action is spent.
pub(super) fn leadership(
    encounter: &mut Encounter,
    id: &CombatantId,
    target: &CombatantId,
    characteristic: CharacteristicName,
    mut report: ActionReport,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<ActionReport, EncounterError> {
    let target_name = other(encounter, id, target)?;
    let (_, target_state) = parts(combatant(encounter, target, "target_id")?, "target_id")?;
    if target_state.cut_off {
        return Err(invalid(
            "target_id",
            format!("{target_name} is cut off from comms and cannot benefit from Leadership"),
        ));
    }
    let (_, own) = parts(combatant(encounter, id, "combatant_id")?, "combatant_id")?;
    if own.cut_off {
        return Err(invalid(
            "combatant_id",
            format!("{} is cut off from comms and cannot lead", report.name),
        ));
    }
    let spending = check_turn_action(encounter, id, Cost::Significant, "a Leadership check", false)?;
    let check = skill_check(encounter, id, "leadership", characteristic, "Leadership check", dice)?;
    let effect = check.roll.effect;
    if effect > 0 {
        initiative_score(encounter, target)?;
    }
    report.economy = Some(spending.record(encounter, id)?);
    lose_aim(encounter, id, &mut report)?;
    leadership_boost(encounter, target, effect, events)?;
    report.description = if effect > 0 {
        format!(
            "{}'s Leadership (Effect {effect:+}) raises {target_name}'s Initiative by {effect} for one round",
            report.name
        )
    } else {
        format!("{}'s Leadership check (Effect {effect:+}) has no effect", report.name)
    };
    report.target_id = Some(target.clone());
    report.check = Some(check);
    Ok(report)
}

/// Tactics (cepheus-engine.txt, "Initiative", "Tactics and Leadership", "Battlefield Comms").
pub(super) fn tactics(
    encounter: &mut Encounter,
    id: &CombatantId,
    unit: &[CombatantId],
    characteristic: CharacteristicName,
    mut report: ActionReport,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<ActionReport, EncounterError> {
    let found = combatant(encounter, id, "combatant_id")?;
    ensure_can_act(found, "combatant_id")?;
    let (_, state) = parts(found, "combatant_id")?;
    let has_acted = found.acted_this_round
        || (state.economy.round == encounter.round && (state.economy.significant + state.economy.minor) > 0);
    if encounter.round != 1 || has_acted {
        return Err(invalid(
            "action",
            "a Tactics check is made at the start of combat: in round 1, before the commander acts",
        ));
    }
    if unit.is_empty() || unit.len() > MAX_COMBATANTS {
        return Err(invalid("unit_ids", format!("list 1 to {MAX_COMBATANTS} unit members")));
    }
    let mut in_contact = Vec::new();
    for (index, member) in unit.iter().enumerate() {
        let field = format!("unit_ids[{index}]");
        let found = combatant(encounter, member, &field)?;
        let (_, state) = parts(found, &field)?;
        if unit[..index].contains(member) {
            return Err(invalid(&field, format!("{} is listed twice", found.name)));
        }
        if found.initiative.is_none() {
            return Err(invalid(&field, format!("{} has no initiative yet", found.name)));
        }
        if state.tactics_bonus != 0 {
            return Err(invalid(&field, format!("{} already has a Tactics bonus this combat", found.name)));
        }
        if state.cut_off {
            report.notes.push(format!("{} is cut off from comms and gains nothing", found.name));
        } else {
            in_contact.push(member.clone());
        }
    }
    let check = skill_check(encounter, id, "tactics", characteristic, "Tactics check", dice)?;
    let effect = check.roll.effect;
    tactics_boost(encounter, &in_contact, effect, events)?;
    if effect > 0 {
        report.boosted = in_contact;
        report.description = format!(
            "{}'s Tactics (Effect {effect:+}) raises the unit's Initiative by {effect} for the combat",
            report.name
        );
    } else {
        report.description = format!("{}'s Tactics check (Effect {effect:+}) has no effect", report.name);
    }
    report.check = Some(check);
    Ok(report)
}
