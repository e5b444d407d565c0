//! Resolving one attack from roll to damage (cepheus-engine.txt, "Attack", "Coup de Grace",
//! "Blind Firing", "Firing into Combat", "Thrown Weapons", "Suppression Fire", "Shotgun Spread",
//! "Damage", "Armor" and "Vehicle Damage").
//!
//! Decisions:
//! - Everything is validated before the first die is rolled; a refused request rolls nothing.
//! - Dice are rolled in this order: the attack check; on a hit, blind fire's target pick, then
//!   damage (weapon dice, extra dice, a dodge from a blast), then vehicle hit locations; on a miss,
//!   the stray-shot 1D6 (firing into combat), then a thrown weapon's scatter direction.
//! - A coup de grâce rolls nothing: it hits, and the target dies. No damage is worked out, because
//!   death makes it moot.
//! - A successful suppression attack does no damage: the shots land close enough to make the
//!   target duck (`suppression`). Its Initiative penalty equals the Effect; a suppressed target
//!   also has −1 DM on skill checks this round and next. Which targets shrug suppression off
//!   (zealots, battle dress and the like) is the referee's call.
//! - Blind fire: after a hit, one die picks which eligible target in the line of fire is hit
//!   (`blind_fire_target`). Damage is still worked out against the defender sent; if the pick is
//!   someone else, the caller applies that combatant's armour to `damage.before_armour`.
//! - A spreading shotgun can also hit anyone at Personal range of its target; the text gives no
//!   procedure, so the hit carries a note and the referee resolves those bystanders.
//! - `dice` in the outcome is every die this attack rolled, with its purpose and status.

use super::attack_damage::{DamageBreakdown, DamageInput, roll_damage};
use super::attack_miss::{Scatter, StrayShot, roll_scatter, roll_stray_shot};
use super::attack_modifiers::damage_modifiers;
use super::attack_request::{AttackKind, AttackRequest, validate_request, within};
use super::attack_roll::{AttackCheck, roll_attack_check};
use super::blind_fire::roll_blind_fire_target;
use super::difficulty::TASK_TARGET;
use super::modifier::{DamageChange, Modifier, Reason};
use super::vehicle_damage::{VehicleDamageOutcome, resolve_vehicle_damage};
use crate::dice::{Dice, DieRoll};
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// What a successful suppression attack does to its target (cepheus-engine.txt, "Suppression
/// Fire").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineSuppressionResult))]
pub struct SuppressionResult {
    /// Added as a penalty to the target's Initiative, stalling its next action.
    pub initiative_penalty: i32,
    /// On the target's skill checks this round and the next.
    pub skill_check_dm: i32,
}

/// The full, self-explaining result of one attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineAttackOutcome))]
pub struct AttackOutcome {
    pub kind: AttackKind,
    /// The total the check must reach: 8.
    pub target: i32,
    /// Every DM on the roll with its reason (empty for a coup de grâce).
    pub modifiers: Vec<Modifier>,
    pub total_dm: i32,
    /// The dice that count toward the check.
    pub kept_dice: Vec<u32>,
    /// Blind fire's removed highest die.
    pub dropped_die: Option<u32>,
    /// `None` for a coup de grâce, which is not rolled.
    pub roll_total: Option<i32>,
    pub effect: Option<i32>,
    pub hit: bool,
    pub coup_de_grace: bool,
    pub target_killed: bool,
    /// Blind fire: which eligible target (1-based) the hit lands on.
    pub blind_fire_target: Option<u32>,
    /// The hit's damage working. Not published here: the report carries it at its top level
    /// (`damage`), as every report does (docs/api-conventions.md).
    #[serde(skip)]
    pub damage: Option<DamageBreakdown>,
    pub suppression: Option<SuppressionResult>,
    pub vehicle: Option<VehicleDamageOutcome>,
    /// A miss fired into combat.
    pub firing_into_combat: Option<StrayShot>,
    /// A thrown miss.
    pub scatter: Option<Scatter>,
    /// What the referee must still decide.
    #[cfg_attr(feature = "schema", schema(value_type = Vec<String>))]
    pub notes: Vec<Reason>,
    /// Every die rolled for this attack. Not published: the report that carries the outcome
    /// lists them (`dice`), so each die appears once.
    #[serde(skip)]
    pub dice: Vec<DieRoll>,
}

/// Resolves one attack: validates it, rolls the check and then the hit's damage or the miss's
/// stray shot and scatter (cepheus-engine.txt, "Attack" and the sections in the module doc).
pub fn resolve_attack(request: &AttackRequest, dice: &mut Dice) -> Result<AttackOutcome, RuleError> {
    validate_request(request)?;
    if request.coup_de_grace {
        return Ok(coup_de_grace(request));
    }
    let start = dice.rolls().len();
    let check = roll_attack_check(request, dice)?;
    let mut outcome = from_check(request.kind(), check);
    if outcome.hit {
        resolve_hit(request, &mut outcome, dice)?;
    } else {
        resolve_miss(request, &mut outcome, dice)?;
    }
    outcome.dice = dice.rolls()[start..].to_vec();
    Ok(outcome)
}

fn from_check(kind: AttackKind, check: AttackCheck) -> AttackOutcome {
    AttackOutcome {
        kind,
        target: TASK_TARGET,
        modifiers: check.modifiers,
        total_dm: check.total_dm,
        kept_dice: check.kept,
        dropped_die: check.dropped,
        roll_total: Some(check.roll_total),
        effect: Some(check.effect),
        hit: check.hit,
        coup_de_grace: false,
        target_killed: false,
        blind_fire_target: None,
        damage: None,
        suppression: None,
        vehicle: None,
        firing_into_combat: None,
        scatter: None,
        notes: Vec::new(),
        dice: Vec::new(),
    }
}

/// A helpless target is hit automatically and dies (cepheus-engine.txt, "Coup de Grace").
fn coup_de_grace(request: &AttackRequest) -> AttackOutcome {
    let mut outcome = from_check(
        request.kind(),
        AttackCheck {
            kept: Vec::new(),
            dropped: None,
            modifiers: Vec::new(),
            total_dm: 0,
            roll_total: 0,
            effect: 0,
            hit: true,
        },
    );
    outcome.roll_total = None;
    outcome.effect = None;
    outcome.coup_de_grace = true;
    outcome.target_killed = true;
    outcome.notes.push("coup de grâce: automatic hit on a helpless target, who dies".into());
    outcome
}

/// Blind fire's target pick, then suppression or damage, then vehicle hits
/// (cepheus-engine.txt, "Blind Firing"; "Suppression Fire"; "Damage"; "Vehicle Damage").
fn resolve_hit(
    request: &AttackRequest,
    outcome: &mut AttackOutcome,
    dice: &mut Dice,
) -> Result<(), RuleError> {
    let effect = outcome.effect.unwrap_or(0);
    if let Some(blind) = request.blind_fire {
        let purpose = "blind fire: which eligible target in the line of fire is hit";
        outcome.blind_fire_target = Some(roll_blind_fire_target(blind.eligible_targets.get().unsigned_abs(), dice, purpose)?);
    }
    if request.circumstances.suppression {
        outcome.suppression = Some(SuppressionResult { initiative_penalty: effect, skill_check_dm: -1 });
        return Ok(());
    }
    let changes = damage_modifiers(&request.circumstances).map_err(|error| within("circumstances", error))?;
    if changes.iter().any(|change| change.change == DamageChange::DiceBecome(2)) {
        outcome
            .notes
            .push("shotgun spread: anyone at Personal range of the target may be hit too".into());
    }
    let input = DamageInput {
        weapon: &request.weapon,
        changes: &changes,
        effect,
        armour: request.defender.armour,
        blast_response: request.defender.blast_response,
    };
    let damage = roll_damage(&input, dice)?;
    if let Some(table) = request.defender.hit_location_table {
        outcome.vehicle = Some(resolve_vehicle_damage(damage.after_armour, table, dice)?);
    }
    outcome.damage = Some(damage);
    Ok(())
}

/// A miss fired into combat may hit the nearest other combatant; a thrown miss that does not
/// scatters (cepheus-engine.txt, "Firing into Combat"; "Thrown Weapons").
fn resolve_miss(
    request: &AttackRequest,
    outcome: &mut AttackOutcome,
    dice: &mut Dice,
) -> Result<(), RuleError> {
    if request.circumstances.firing_into_combat {
        let stray = roll_stray_shot(dice)?;
        outcome.firing_into_combat = Some(stray);
        if stray.hits_nearest_other {
            outcome.notes.push("the miss hits the combatant nearest the original target".into());
            return Ok(());
        }
    }
    if outcome.kind == AttackKind::Thrown {
        outcome.scatter = Some(roll_scatter(outcome.effect.unwrap_or(0), dice)?);
    }
    Ok(())
}

#[cfg(test)]
#[path = "attack_tests.rs"]
mod tests;
