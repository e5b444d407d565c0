//! Damage applied to a stored combatant outside an attack: falls, fire, a blind-fire pick, a
//! referee's ruling (cepheus-engine.txt, "Damage", "Armor", "Table: Damage Results" and
//! "Extended Actions").
//!
//! Decisions:
//! - `damage` is 0 to 10,000 points. With `armour: true` the target's armour is subtracted first,
//!   and `effect` (−100 to +100, default 0) decides the at-least-one-point rule for Effect 6+;
//!   `effect` without `armour` is refused, since nothing reads it.
//! - Allowed during setup and while active, not once the encounter has ended; no turn is needed
//!   (damage happens to you). A dead target is refused.
//! - What follows from the damage is `apply.rs`'s: status, the defeated flag, lost aim, the
//!   extended-action check.

use super::super::allocation::{AllocationChoice, Overflow, Split};
use super::super::damage::{Status, apply_armour};
use super::apply::{HitResult, apply_hit};
use super::{combatant, ensure_cepheus, parts};
use crate::dice::{Dice, DieRoll};
use crate::encounter::{CombatantId, Encounter, EncounterError, EncounterStatus, Event};
use crate::rulesets::RulesetReport;
use serde::{Deserialize, Serialize};

/// Most damage one request may apply.
pub const MAX_DAMAGE: i32 = 10_000;
/// Largest Effect, either way, a damage request may name.
pub const MAX_EFFECT: i32 = 100;

/// POST /v1/encounters/{id}/damage.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineEncounterDamage))]
#[serde(deny_unknown_fields)]
pub struct EncounterDamage {
    pub target_id: CombatantId,
    /// Points of damage, before armour when `armour` is true.
    pub damage: i32,
    /// Subtract the target's armour first.
    #[serde(default)]
    pub armour: bool,
    /// The Effect of the hit, for the Effect 6+ minimum through armour.
    #[serde(default)]
    pub effect: Option<i32>,
    #[serde(default)]
    pub overflow_to: Option<Overflow>,
    #[serde(default)]
    pub allocation: Option<Split>,
}

/// What the damage did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDamageReport))]
pub struct DamageReport {
    pub target_id: CombatantId,
    pub target_name: String,
    /// As sent.
    pub damage: i32,
    /// Armour subtracted (0 unless `armour` was sent).
    pub armour: u32,
    pub effect: Option<i32>,
    pub after_armour: i32,
    /// Armour would have stopped it all, but Effect 6+ forced one point through.
    pub minimum_one_applied: bool,
    pub hit: HitResult,
    pub dice: Vec<DieRoll>,
}

/// Checks the numbers of a damage request (see the decisions).
pub(crate) fn check_numbers(damage: i32, armour: bool, effect: Option<i32>) -> Result<(), EncounterError> {
    if !(0..=MAX_DAMAGE).contains(&damage) {
        return Err(EncounterError::invalid("damage", "damage must be a whole number from 0 to 10000"));
    }
    if let Some(effect) = effect {
        if !armour {
            return Err(EncounterError::invalid("effect", "effect only matters with armour: true"));
        }
        if effect.abs() > MAX_EFFECT {
            return Err(EncounterError::invalid("effect", "an Effect must lie between −100 and +100"));
        }
    }
    Ok(())
}

/// Armour, then whether Effect 6+ forced a point through (cepheus-engine.txt, "Armor").
pub(crate) fn through_armour(damage: i32, armour: u32, effect: i32) -> (i32, bool) {
    let after = apply_armour(damage, armour, effect);
    let stopped = (damage - i32::try_from(armour).unwrap_or(i32::MAX)).max(0);
    (after, after > stopped)
}

/// Applies damage to a stored combatant (see the module decisions).
pub fn damage(
    encounter: &mut Encounter,
    request: EncounterDamage,
    dice: &mut Dice,
) -> Result<(Vec<Event>, DamageReport), EncounterError> {
    ensure_cepheus(encounter)?;
    if encounter.status == EncounterStatus::Ended {
        return Err(EncounterError::Conflict("the encounter has ended".into()));
    }
    check_numbers(request.damage, request.armour, request.effect)?;
    let target = combatant(encounter, &request.target_id, "target_id")?;
    let target_name = target.name.clone();
    let (stats, _) = parts(target, "target_id")?;
    if stats.status() == Status::Dead {
        return Err(EncounterError::invalid("target_id", format!("{target_name} is already dead")));
    }
    let armour = if request.armour { u32::try_from(stats.armour.get()).unwrap_or(0) } else { 0 };
    let (after_armour, minimum_one_applied) =
        through_armour(request.damage, armour, request.effect.unwrap_or(0));
    let mut draft = encounter.clone();
    let start = dice.rolls().len();
    let choice = AllocationChoice { overflow_to: request.overflow_to, allocation: request.allocation };
    let hit = apply_hit(&mut draft, &request.target_id, after_armour, &choice, dice, "target_id")?;
    let report = DamageReport {
        target_id: request.target_id.clone(),
        target_name,
        damage: request.damage,
        armour,
        effect: request.effect,
        after_armour,
        minimum_one_applied,
        hit,
        dice: dice.rolls()[start..].to_vec(),
    };
    let events = vec![Event::DamageApplied {
        combatant_id: request.target_id,
        report: RulesetReport::CepheusEngine(crate::rulesets::cepheus_engine::Report::Damage(Box::new(report.clone()))),
    }];
    *encounter = draft;
    Ok((events, report))
}
