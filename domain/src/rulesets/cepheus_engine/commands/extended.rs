//! Extended actions: skill checks that take several combat rounds (cepheus-engine.txt, "Extended
//! Actions").
//!
//! Decisions:
//! - The number of rounds comes from the table's Timing roll, so the client sends it: 2 to 1,000
//!   rounds (one round is an ordinary significant action).
//! - Starting one is the combatant's whole turn (its significant action, and every minor action
//!   is then used up). The round it starts in counts as the first round of work. At the end of
//!   each round the work counts unless a hit spoiled it; when enough rounds count, the action is
//!   complete and an `ActionTaken` event ("extended_action_completed") is logged.
//! - While it runs, the combatant can take no minor or significant action and cannot react (the
//!   text: it cannot do anything else); it may abandon the action at any time, on or off its turn.
//! - A hit that gets damage through armour calls for the 8+ check with the skill's DM (−3
//!   unskilled) less the damage, plus the combatant's own check penalties. A failure spoils this
//!   round's work; a failure by 6 or more (Effect −6 or worse) ruins the task, which ends.
//! - A hit that leaves the combatant unconscious or dead ends the task without a roll.

use super::super::modifier::{Modifier, ModifierCode, total_dm};
use super::super::opposed::{CheckRoll, roll_check};
use super::super::Stats;
use super::super::state::{CombatState, ExtendedAction};
use super::action_report::ActionReport;
use super::super::economy::Cost;
use super::{check_turn_action, invalid, lose_aim};
use super::{own_check_modifiers, state_mut};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::{RuleError, RulesetReport, RulesetState};
use serde::{Deserialize, Serialize};

/// Longest extended action accepted, in rounds.
pub const MAX_EXTENDED_ROUNDS: u32 = 1000;

/// What the 8+ check after a hit decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineExtendedCheckOutcome))]
#[serde(rename_all = "snake_case")]
pub enum ExtendedCheckOutcome {
    /// Passed: the work goes on.
    WorkCounts,
    /// Failed: this round's work does not count.
    RoundLost,
    /// Failed by 6 or more: the task is ruined and must start again.
    Ruined,
    /// Knocked unconscious or killed: the task ends without a roll.
    Interrupted,
}

/// The check an extended action's worker makes when hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineExtendedCheck))]
pub struct ExtendedCheck {
    pub skill: String,
    pub modifiers: Vec<Modifier>,
    /// `None` when the hit left the worker unable to act.
    pub roll: Option<CheckRoll>,
    pub outcome: ExtendedCheckOutcome,
}

/// The 8+ check for a worker hit for `damage` points after armour (cepheus-engine.txt,
/// "Extended Actions"). Changes the state: spoils the round or ends the task.
pub fn check_after_hit(
    stats: &Stats,
    state: &mut CombatState,
    damage: i32,
    round: u32,
    dice: &mut Dice,
) -> Result<Option<ExtendedCheck>, RuleError> {
    let Some(extended) = state.extended.clone() else { return Ok(None) };
    if damage <= 0 {
        return Ok(None);
    }
    if !stats.status().can_act() {
        state.extended = None;
        return Ok(Some(ExtendedCheck {
            skill: extended.skill,
            modifiers: Vec::new(),
            roll: None,
            outcome: ExtendedCheckOutcome::Interrupted,
        }));
    }
    let level = stats.skill_level(&extended.skill);
    let mut modifiers = vec![match level {
        Some(level) => Modifier::new(ModifierCode::Skill, format!("{} {level}", extended.skill), level),
        None => Modifier::new(ModifierCode::Skill, format!("unskilled in {}", extended.skill), stats.skill_dm(&extended.skill)),
    }];
    modifiers.push(Modifier::new(ModifierCode::DamageTaken, format!("hit for {damage} damage after armour"), -damage));
    modifiers.extend(own_check_modifiers(stats, state, round));
    let purpose = format!("extended action ({}): 8+ after being hit", extended.skill);
    let roll = roll_check(total_dm(&modifiers), dice, &purpose)?;
    let outcome = if roll.effect <= -6 {
        state.extended = None;
        ExtendedCheckOutcome::Ruined
    } else if roll.effect < 0 {
        if let Some(running) = state.extended.as_mut() {
            running.spoiled_round = Some(round);
        }
        ExtendedCheckOutcome::RoundLost
    } else {
        ExtendedCheckOutcome::WorkCounts
    };
    Ok(Some(ExtendedCheck { skill: extended.skill, modifiers, roll: Some(roll), outcome }))
}

/// Starts an extended action (see the decisions): validates the skill name and rounds.
pub fn start(
    state: &mut CombatState,
    skill: &str,
    rounds: u32,
    round: u32,
) -> Result<ExtendedAction, EncounterError> {
    let skill = check_start(skill, rounds)?;
    let extended = ExtendedAction { skill, rounds, completed: 0, started_round: round, spoiled_round: None };
    state.extended = Some(extended.clone());
    Ok(extended)
}

/// [`start`]'s refusals, changing nothing: the skill's normalised name.
fn check_start(skill: &str, rounds: u32) -> Result<String, EncounterError> {
    let skill = super::super::skills::normalise_skill_name(skill);
    if skill.is_empty() || skill.chars().count() > 64 {
        return Err(EncounterError::invalid("skill", "name the skill in question (1 to 64 characters)"));
    }
    if !(2..=MAX_EXTENDED_ROUNDS).contains(&rounds) {
        return Err(EncounterError::invalid(
            "rounds",
            "an extended action takes 2 to 1000 rounds; a one-round task is a significant action",
        ));
    }
    Ok(skill)
}

/// At the end of a round, every extended action whose work counted moves on a round; finished
/// ones end with an `ActionTaken` event (cepheus-engine.txt, "Extended Actions").
pub fn progress_at_end_of_round(encounter: &mut Encounter, ending: u32, events: &mut Vec<Event>) {
    let mut finished: Vec<(CombatantId, String, ExtendedAction)> = Vec::new();
    for combatant in &mut encounter.combatants {
        let RulesetState::CepheusEngine(state) = &mut combatant.state else { continue };
        let Some(extended) = state.extended.as_mut() else { continue };
        if extended.spoiled_round != Some(ending) && extended.started_round <= ending {
            extended.completed += 1;
        }
        if extended.completed >= extended.rounds {
            finished.push((combatant.id.clone(), combatant.name.clone(), extended.clone()));
            state.extended = None;
        }
    }
    for (id, name, extended) in finished {
        let mut report = ActionReport::new(&id, &name, "extended_action_completed", Cost::Free);
        report.description = format!(
            "{name} completes the extended action ({}) after {} rounds of work",
            extended.skill, extended.completed
        );
        report.extended = Some(extended);
        events.push(Event::ActionTaken {
            combatant_id: id,
            action: "extended_action_completed".into(),
            report: RulesetReport::CepheusEngine(crate::rulesets::cepheus_engine::Report::Action(Box::new(report))),
            dice: Vec::new(),
        });
    }
}

/// Starts an extended action, a significant action; this round is its first.
pub(super) fn start_extended_action(
    encounter: &mut Encounter,
    id: &CombatantId,
    skill: &str,
    rounds: u32,
    mut report: ActionReport,
) -> Result<ActionReport, EncounterError> {
    let spending = check_turn_action(encounter, id, Cost::Significant, "an extended action", false)?;
    check_start(skill, rounds)?;
    report.economy = Some(spending.record(encounter, id)?);
    lose_aim(encounter, id, &mut report)?;
    let round = encounter.round;
    let state = state_mut(encounter, id, "combatant_id")?;
    let started = start(state, skill, rounds, round)?;
    report.description = format!(
        "{} starts an extended action ({}) of {} rounds; this round is the first",
        report.name, started.skill, started.rounds
    );
    report.extended = Some(started);
    Ok(report)
}

/// Abandons the extended action under way, at any time.
pub(super) fn abandon_extended_action(
    encounter: &mut Encounter,
    id: &CombatantId,
    mut report: ActionReport,
) -> Result<ActionReport, EncounterError> {
    let state = state_mut(encounter, id, "combatant_id")?;
    let Some(abandoned) = state.extended.take() else {
        return Err(invalid("action", format!("{} has no extended action to abandon", report.name)));
    };
    report.description = format!(
        "{} abandons the extended action ({}) after {} of {} rounds",
        report.name, abandoned.skill, abandoned.completed, abandoned.rounds
    );
    report.extended = Some(abandoned);
    Ok(report)
}
