//! Putting damage on a stored combatant: allocation, status, the defeated flag, lost aim and the
//! extended-action check (cepheus-engine.txt, "Damage", "Table: Damage Results", "Aiming for the
//! Kill", "Extended Actions", "Coup de Grace").
//!
//! Decisions:
//! - A combatant left unconscious or dead is marked defeated, so its turns are skipped; the flag
//!   is never cleared here (waking up is the table's business).
//! - A coup de grâce kills: every physical characteristic's damage is set to its maximum, so the
//!   stored status is Dead. It is reported as an allocation of each characteristic's remaining
//!   points.
//! - A combatant who is knocked out of the fight also leaves any grapple.

use super::super::Stats;
use super::super::modifier::Reason;
use super::super::allocation::{Allocation, AllocationChoice, allocate_damage, apply};
use super::extended::{ExtendedCheck, check_after_hit};
use super::super::CepheusEngine;
use super::{combatant, combatant_mut, parts_mut, state_mut};
use crate::rulesets::Registered;
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};
use serde::{Deserialize, Serialize};

/// What one hit did to a stored combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineHitResult))]
pub struct HitResult {
    /// The stored combatant hit (absent for an inline stat block).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combatant_id: Option<CombatantId>,
    // Borrowed for an inline target's default name ("target"): no copy of it per hit.
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub name: Reason,
    /// Where the points placed (after armour, `allocation.damage`) went.
    pub allocation: Allocation,
    /// Marked defeated by this hit.
    pub defeated: bool,
    /// The combatant was aiming and lost it.
    pub aim_lost: bool,
    pub extended_check: Option<ExtendedCheck>,
    pub stats_after: Stats,
}

/// Allocates and records `damage` (after armour) on the combatant, then applies what follows
/// from it (see the module decisions). The allocation's refusals (a split that does not fit the
/// damage) come before anything changes.
pub fn apply_hit(
    encounter: &mut Encounter,
    id: &CombatantId,
    damage: i32,
    choice: &AllocationChoice,
    dice: &mut Dice,
    field: &str,
) -> Result<HitResult, EncounterError> {
    let round = encounter.round;
    let stats = <CepheusEngine as Registered>::stats(&combatant(encounter, id, field)?.stats);
    let checked = stats.map(|stats| allocate_damage(stats, damage, choice)).transpose()?;
    let combatant = combatant_mut(encounter, id, field)?;
    let (name, was_defeated) = (combatant.name.clone(), combatant.flags.defeated);
    let (stats, state) = parts_mut(combatant, field)?;
    let allocation = match checked {
        Some(allocation) => allocation,
        None => allocate_damage(stats, damage, choice)?,
    };
    apply(stats, &allocation)?;
    let aim_lost = damage > 0 && (state.aim > 0 || state.aim_for_kill > 0);
    if damage > 0 {
        state.aim = 0;
        state.aim_for_kill = 0;
        state.aim_target = None;
    }
    let extended_check = check_after_hit(stats, state, damage, round, dice)?;
    let stats_after = stats.clone();
    let out = !allocation.status_after.can_act();
    let partner = if out { state.grappling_with.take() } else { None };
    let combatant = combatant_mut(encounter, id, field)?;
    if out {
        combatant.flags.defeated = true;
    }
    if let Some(partner) = partner
        && let Ok(other) = state_mut(encounter, &partner, field)
    {
        other.grappling_with = None;
    }
    Ok(HitResult {
        combatant_id: Some(id.clone()),
        name: name.into(),
        allocation,
        defeated: out && !was_defeated,
        aim_lost,
        extended_check,
        stats_after,
    })
}

/// What a hit did to an inline stat block (nothing else is tracked for it).
pub fn inline_hit(name: &Reason, allocation: Allocation, stats_after: Stats) -> HitResult {
    HitResult {
        combatant_id: None,
        name: name.clone(),
        allocation,
        defeated: !allocation.status_after.can_act(),
        aim_lost: false,
        extended_check: None,
        stats_after,
    }
}

/// A coup de grâce: the helpless target dies (cepheus-engine.txt, "Coup de Grace").
pub fn kill(encounter: &mut Encounter, id: &CombatantId, field: &str) -> Result<HitResult, EncounterError> {
    let combatant = combatant_mut(encounter, id, field)?;
    let (name, was_defeated) = (combatant.name.clone(), combatant.flags.defeated);
    combatant.flags.defeated = true;
    let (stats, state) = parts_mut(combatant, field)?;
    let allocation = super::super::allocation::kill(stats)
        .map_err(|error| EncounterError::invalid(field, error.to_string()))?;
    state.extended = None;
    state.aim = 0;
    state.aim_for_kill = 0;
    state.aim_target = None;
    let partner = state.grappling_with.take();
    let stats_after = stats.clone();
    if let Some(partner) = partner
        && let Ok(other) = state_mut(encounter, &partner, field)
    {
        other.grappling_with = None;
    }
    Ok(HitResult {
        combatant_id: Some(id.clone()),
        name: name.into(),
        allocation,
        defeated: !was_defeated,
        aim_lost: false,
        extended_check: None,
        stats_after,
    })
}
