//! The occupants of a recorded vehicle (`vehicle_track.rs`): stored combatants take passenger,
//! pilot and explosion hits like any hit (`apply.rs`); an inline vehicle's occupants are only
//! named, so they are taken as alive and the hits are reported, not applied.
//!
//! Decisions:
//! - An occupant id that is not in the encounter is refused (422 on `target_id`): the vehicle's
//!   record names someone who is not there.
//! - An occupant that is itself a vehicle is refused too: people ride in vehicles.

use super::super::Stats;
use super::super::allocation::AllocationChoice;
use super::super::damage::{Status, apply_armour};
use super::super::vehicle_track::{OccupantHit, OccupantHitCause, Occupants};
use super::apply::apply_hit;
use super::{combatant, parts};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};
use crate::rulesets::RuleError;

/// Occupants who are stored combatants of `encounter`.
pub struct StoredOccupants<'a> {
    pub encounter: &'a mut Encounter,
}

impl StoredOccupants<'_> {
    fn stats(&self, id: &CombatantId) -> Result<&Stats, EncounterError> {
        let found = combatant(self.encounter, id, "target_id")
            .map_err(|_| EncounterError::invalid("target_id", format!("the vehicle's occupant '{id}' is not in this encounter")))?;
        let (stats, _) = parts(found, "target_id")?;
        if stats.vehicle.is_some() {
            return Err(EncounterError::invalid("target_id", format!("the vehicle's occupant '{id}' is a vehicle")));
        }
        Ok(stats)
    }
}

fn blast_armour(stats: &Stats, cause: OccupantHitCause) -> u32 {
    if cause == OccupantHitCause::Explosion { stats.armour.get().unsigned_abs() } else { 0 }
}

impl Occupants for StoredOccupants<'_> {
    type Error = EncounterError;

    fn alive(&self, id: &CombatantId) -> Result<bool, EncounterError> {
        Ok(self.stats(id)?.status() != Status::Dead)
    }

    fn hit(
        &mut self,
        id: &CombatantId,
        damage: i32,
        cause: OccupantHitCause,
        dice: &mut Dice,
    ) -> Result<OccupantHit, EncounterError> {
        let armour = blast_armour(self.stats(id)?, cause);
        let through = apply_armour(damage, armour, 0);
        let hit = apply_hit(self.encounter, id, through, &AllocationChoice::default(), dice, "target_id")?;
        Ok(OccupantHit { combatant_id: id.clone(), cause, damage, armour, hit: Some(hit) })
    }
}

/// Occupants of an inline vehicle: named only.
pub struct NamedOccupants;

impl Occupants for NamedOccupants {
    type Error = RuleError;

    fn alive(&self, _: &CombatantId) -> Result<bool, RuleError> {
        Ok(true)
    }

    fn hit(&mut self, id: &CombatantId, damage: i32, cause: OccupantHitCause, _: &mut Dice) -> Result<OccupantHit, RuleError> {
        Ok(OccupantHit { combatant_id: id.clone(), cause, damage, armour: 0, hit: None })
    }
}
