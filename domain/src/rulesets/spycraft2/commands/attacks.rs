//! `attacks`: one attack check on a stored target, and its stateless twin on inline stat
//! blocks (the attack model of `attack.rs`; the economy of spycraft2.txt, "Step 5").

use super::{ensure_may_act, into_rule, snapshot, store, surprise_round};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::plugin::combatant;
use crate::rulesets::spycraft2::action_dice;
use crate::rulesets::spycraft2::attack::{AttackChoices, AttackOutcome, AttackReport, Sides, Weapon, resolve};
use crate::rulesets::spycraft2::economy::{self, Cost, Spend};
use crate::rulesets::spycraft2::modifier::{CallerModifier, caller_modifiers, check_text};
use crate::rulesets::spycraft2::state::CombatState;
use crate::rulesets::spycraft2::stats::Stats;
use crate::rulesets::spycraft2::{Report, Spycraft2};
use crate::rulesets::{Registered, RuleError};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// `POST /v1/encounters/{id}/spycraft2/attacks`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2AttackRequest))]
#[serde(deny_unknown_fields)]
pub struct AttackRequest {
    pub attacker_id: CombatantId,
    pub target_id: CombatantId,
    pub weapon: Weapon,
    /// A full-action attack (2 half actions, never split across rounds); a half action otherwise.
    #[serde(default)]
    pub full_action: bool,
    /// A final attack: costs no action, and −2 on the attacker's Count.
    #[serde(default)]
    pub final_attack: bool,
    #[serde(default)]
    pub modifiers: Vec<CallerModifier>,
    /// Spend an Action Die to activate a threat, should the attack threaten and hit.
    #[serde(default)]
    pub activate_threat: bool,
    /// Action Dice the GC spends to activate an error, should the attack err (0: none).
    #[serde(default)]
    pub error_action_dice: Option<Score<0, 10>>,
    /// Prompted at a time other than the attacker's Initiative Count (only this attack).
    #[serde(default)]
    pub off_count: bool,
}

/// `POST /v1/rulesets/spycraft2/attacks`: the same attack between inline stat blocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2InlineAttackRequest))]
#[serde(deny_unknown_fields)]
pub struct InlineAttackRequest {
    pub attacker: Stats,
    pub target: Stats,
    pub weapon: Weapon,
    /// The target is flat-footed (loses its Dexterity and dodge bonuses to Defense).
    #[serde(default)]
    pub target_flat_footed: bool,
    #[serde(default)]
    pub target_vitality_lost: Option<Score<0, 1000>>,
    #[serde(default)]
    pub target_wounds_lost: Option<Score<0, 110>>,
    #[serde(default)]
    pub final_attack: bool,
    #[serde(default)]
    pub modifiers: Vec<CallerModifier>,
    #[serde(default)]
    pub activate_threat: bool,
    #[serde(default)]
    pub error_action_dice: Option<Score<0, 10>>,
}

fn choices(
    modifiers: &[CallerModifier],
    activate_threat: bool,
    error_action_dice: Option<Score<0, 10>>,
    final_attack: bool,
) -> Result<AttackChoices, EncounterError> {
    Ok(AttackChoices {
        modifiers: caller_modifiers("modifiers", modifiers)?,
        activate_threat,
        error_action_dice: error_action_dice.map_or(0, Score::get),
        final_attack,
    })
}

fn check_weapon(weapon: &Weapon) -> Result<(), EncounterError> {
    check_text("weapon.name", &weapon.name)?;
    if weapon.error_to() >= weapon.threat_from() {
        return Err(EncounterError::invalid(
            "weapon.error_range",
            "the error range must lie below the threat range",
        ));
    }
    Ok(())
}

/// Resolves an attack between stored combatants on the attacker's Initiative Count.
pub fn attack(
    encounter: &mut Encounter,
    request: AttackRequest,
    dice: &mut Dice,
) -> Result<(Vec<Event>, AttackReport), EncounterError> {
    check_weapon(&request.weapon)?;
    let choices = choices(&request.modifiers, request.activate_threat, request.error_action_dice, request.final_attack)?;
    ensure_may_act(encounter, &request.attacker_id, "attacker_id", request.off_count)?;
    combatant(encounter, &request.target_id, "target_id")?;
    if request.target_id == request.attacker_id {
        return Err(EncounterError::invalid("target_id", "a character does not attack itself"));
    }
    let surprise = surprise_round(encounter);
    let (attacker_name, attacker, mut attacker_state) = snapshot(encounter, &request.attacker_id, "attacker_id")?;
    let (target_name, target, mut target_state) = snapshot(encounter, &request.target_id, "target_id")?;
    if request.activate_threat && action_dice::left(&attacker, &attacker_state) == Some(0) {
        let message = format!("{attacker_name} has no Action Dice left to activate a threat");
        return Err(EncounterError::invalid("activate_threat", message));
    }
    if !request.off_count {
        let cost = match (request.final_attack, request.full_action) {
            (true, _) => Cost::Free,
            (false, true) => Cost::Full,
            (false, false) => Cost::Half,
        };
        let spend = Spend { cost: Some(cost), attack: true, ..Spend::default() };
        let field = if request.full_action { "full_action" } else { "attacker_id" };
        economy::spend(&mut attacker_state, &spend, surprise).map_err(|error| match error {
            EncounterError::Invalid { message, .. } => EncounterError::invalid(field, message),
            other => other,
        })?;
    }
    attacker_state.flat_footed = false;
    let sides = Sides {
        attacker_name: &attacker_name,
        attacker: &attacker,
        attacker_state: &mut attacker_state,
        target_name: &target_name,
        target: &target,
        target_state: &mut target_state,
    };
    let report = resolve(sides, &request.weapon, &choices, dice)?;
    // The activated threat spends one of the attacker's recorded Action Dice.
    if matches!(report.outcome, AttackOutcome::CriticalHit { .. }) && attacker.action_dice.is_some() {
        attacker_state.action_dice_spent += 1;
    }
    let down = target_state.wounds_lost >= target.wounds.get();
    store(encounter, &request.attacker_id, attacker_state);
    store(encounter, &request.target_id, target_state);
    if down && let Some(target) = encounter.combatant_mut(&request.target_id) {
        target.flags.defeated = true;
    }
    let event = Event::AttackResolved {
        attacker_id: request.attacker_id,
        target_id: request.target_id,
        report: Spycraft2::report(Report::Attack(Box::new(report.clone()))),
        dice: dice.rolls().to_vec(),
    };
    Ok((vec![event], report))
}

/// The same attack between inline stat blocks; nothing is stored.
pub fn attack_inline(request: InlineAttackRequest, dice: &mut Dice) -> Result<AttackReport, RuleError> {
    check_weapon(&request.weapon).map_err(into_rule)?;
    let choices = choices(&request.modifiers, request.activate_threat, request.error_action_dice, request.final_attack)
        .map_err(into_rule)?;
    let mut attacker_state = CombatState { flat_footed: false, ..CombatState::default() };
    let mut target_state = CombatState {
        flat_footed: request.target_flat_footed,
        vitality_lost: request.target_vitality_lost.map_or(0, Score::get),
        wounds_lost: request.target_wounds_lost.map_or(0, Score::get),
        ..CombatState::default()
    };
    let sides = Sides {
        attacker_name: "the attacker",
        attacker: &request.attacker,
        attacker_state: &mut attacker_state,
        target_name: "the target",
        target: &request.target,
        target_state: &mut target_state,
    };
    resolve(sides, &request.weapon, &choices, dice).map_err(into_rule)
}
