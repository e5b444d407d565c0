//! The glue between the pure rules and a stored encounter: shields gathered and written back,
//! damage and conditions applied, auras that lapse.
//!
//! Decisions:
//! - Conditions become encounter effects: stunned ends at the end of the attacker's next turn
//!   (the attacker's current turn does not count); deafened ends at the end of the victim's sixth
//!   turn after the hit; ignited, knocked down and a war-fever roll owed last until removed (the
//!   last one until the encounter ends, when the roll is due).
//! - Auras that lapse because their owner cannot act are `super::super::round`'s: it reads the
//!   owner's recorded conditions at the end of each of its turns.

use super::super::LurAsko;
use super::super::outcome::{EnergyEffect, Injury};
use super::super::shielding::Pool;
use super::super::state::{CombatState, InjuryRecord, Precision, WarFeverRoll};
use super::super::stats::Stats;
use super::report::{Condition, Standing};
use crate::encounter::{CombatantId, EffectId, Encounter, EncounterError, Event, Expiry, NewEffect, add_effect};
use crate::rulesets::plugin::{parts, parts_mut};

/// Where each gathered pool lives: (combatant index, shield index).
pub type PoolRefs = Vec<(usize, usize)>;

/// The stat block and state of a Lur-Asko combatant.
pub fn lur<'a>(encounter: &'a Encounter, id: &CombatantId, field: &str) -> Result<(&'a str, &'a Stats, &'a CombatState), EncounterError> {
    let combatant = crate::rulesets::plugin::combatant(encounter, id, field)?;
    let (stats, state) = parts::<LurAsko>(combatant, field)?;
    Ok((&combatant.name, stats, state))
}

/// Every shield protecting `target`, in join order of their owners, then in each owner's list;
/// only high precision when `only_high`.
pub fn pools_for(encounter: &Encounter, target: &CombatantId, only_high: bool) -> (Vec<Pool>, PoolRefs) {
    let mut pools = Vec::new();
    let mut refs = Vec::new();
    for (owner_index, owner) in encounter.combatants.iter().enumerate() {
        let Ok((_, state)) = parts::<LurAsko>(owner, "combatants") else { continue };
        for (shield_index, shield) in state.shields.iter().enumerate() {
            if shield.protects.contains(target) && (!only_high || shield.precision == Precision::High) {
                pools.push(Pool {
                    owner: owner.name.clone(),
                    name: shield.name.clone(),
                    precision: shield.precision,
                    points: shield.points,
                    techshield: shield.techshield,
                });
                refs.push((owner_index, shield_index));
            }
        }
    }
    (pools, refs)
}

/// Writes the points left in `pools` back to their owners.
pub fn write_pools(encounter: &mut Encounter, pools: &[Pool], refs: &PoolRefs) {
    for (pool, (owner_index, shield_index)) in pools.iter().zip(refs) {
        let Some(owner) = encounter.combatants.get_mut(*owner_index) else { continue };
        if let Ok((_, state)) = parts_mut::<LurAsko>(owner, "combatants")
            && let Some(shield) = state.shields.get_mut(*shield_index)
        {
            shield.points = pool.points;
        }
    }
}

/// Makes effect ids unique within one mutation of the encounter.
pub struct EffectIds {
    version: i64,
    next: u32,
}

impl EffectIds {
    pub fn new(encounter: &Encounter) -> Self {
        Self { version: encounter.version, next: 0 }
    }

    fn next(&mut self) -> EffectId {
        self.next += 1;
        EffectId(format!("eff_lurasko_{}_{}", self.version, self.next))
    }
}

/// One hit landing on a stored combatant: damage, injuries, fatigue, war fever, and its
/// conditions as encounter effects. `attacker` anchors "the attacker's next turn".
pub struct Landing<'a> {
    pub target: &'a CombatantId,
    pub attacker: &'a CombatantId,
    pub injury: &'a Injury,
    pub effects: &'a [EnergyEffect],
}

pub fn land(
    encounter: &mut Encounter,
    landing: Landing<'_>,
    ids: &mut EffectIds,
    conditions: &mut Vec<Condition>,
    events: &mut Vec<Event>,
) -> Result<Standing, EncounterError> {
    let current = encounter.current.clone();
    let turns_after = |id: &CombatantId, turns: u32| if current.as_ref() == Some(id) { turns + 1 } else { turns };
    let target_name = encounter.name_of(landing.target);
    let attacker_name = encounter.name_of(landing.attacker);
    let standing = {
        let combatant = crate::rulesets::plugin::combatant_mut(encounter, landing.target, "target_id")?;
        let (_, state) = parts_mut::<LurAsko>(combatant, "target_id")?;
        state.damage_taken = landing.injury.damage_after;
        if landing.injury.degrees > 0 {
            let injury_type = landing.injury.injury_type.clone();
            state.injuries.push(InjuryRecord { injury_type, degrees: landing.injury.degrees });
        }
        for effect in landing.effects {
            match effect {
                EnergyEffect::Fatigue { fatigue, .. } => state.fatigue = state.fatigue.saturating_add(*fatigue),
                EnergyEffect::WarFeverRoll { degrees, hindrance } => {
                    let roll = WarFeverRoll { degrees: *degrees, hindrance: *hindrance };
                    state.war_fever_rolls.owe(roll, "war_fever_rolls", &target_name)?;
                }
                _ => {}
            }
        }
        Standing {
            combatant: target_name.clone(),
            damage_taken: state.damage_taken,
            degrees: state.degrees(),
            fatigue: state.fatigue,
        }
    };
    for effect in landing.effects {
        let (name, expiry, ends) = match effect {
            EnergyEffect::Stunned { .. } => (
                "stunned".to_owned(),
                Expiry::EndOfTurn { combatant_id: landing.attacker.clone(), remaining: turns_after(landing.attacker, 1) },
                format!("end of {attacker_name}'s next turn"),
            ),
            EnergyEffect::Deafened { turns } => (
                "deafened".to_owned(),
                Expiry::EndOfTurn { combatant_id: landing.target.clone(), remaining: turns_after(landing.target, *turns) },
                format!("end of {target_name}'s {turns}th turn from now"),
            ),
            EnergyEffect::Ignited { .. } => ("ignited".to_owned(), Expiry::EndOfEncounter, "until extinguished".to_owned()),
            EnergyEffect::KnockedDown { .. } => {
                ("knocked_down".to_owned(), Expiry::EndOfEncounter, "until the character stands".to_owned())
            }
            EnergyEffect::WarFeverRoll { hindrance, .. } => (
                format!("war fever roll owed ({hindrance} Hindrance)"),
                Expiry::EndOfEncounter,
                "end of the combat, when the roll is made".to_owned(),
            ),
            EnergyEffect::Fatigue { .. } | EnergyEffect::Prevented { .. } => continue,
        };
        add(encounter, ids, landing.target, landing.attacker, &name, expiry, events)?;
        conditions.push(Condition { combatant: target_name.clone(), name, ends });
    }
    Ok(standing)
}

fn add(
    encounter: &mut Encounter,
    ids: &mut EffectIds,
    target: &CombatantId,
    source: &CombatantId,
    name: &str,
    expiry: Expiry,
    events: &mut Vec<Event>,
) -> Result<EffectId, EncounterError> {
    let id = ids.next();
    let new = NewEffect {
        id: id.clone(),
        name: name.to_owned(),
        target: Some(target.clone()),
        source: Some(source.clone()),
        note: None,
        fires_at: None,
        expiry,
    };
    events.extend(add_effect(encounter, new)?);
    Ok(id)
}
