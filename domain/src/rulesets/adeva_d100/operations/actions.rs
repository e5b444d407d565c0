//! Declared actions on a stored encounter (adeva-d100.txt, "Action List", "Altitude",
//! "Characteristic Decay").
//!
//! Decisions:
//! - `declared` spends any Action List action on the actor's `TurnBudget` on its turn (attacks
//!   go through the attack command) and stores what lingers: Aim (in the budget), Guard Mode's
//!   modifier on attacks against the actor. Its tests are reported for the table to roll.
//! - `fall` starts a fall from the actor's band; `resolve_crash` rolls and applies a pending
//!   crash (1d10 + squares, `altitude.rs`, soaked by TB + AP). `fatigue` adds levels; `decay`
//!   adds a characteristic decay. These three are the GM's and need no turn.

use super::super::actions::declared::DeclaredAction;
use super::super::actions::{ActionSpec, LingeringEffect, action_spec};
use super::super::altitude::{AltitudeBand, crash_squares};
use super::super::decay::{CharacteristicDecay, check_decays};
use super::super::test_modifiers::within;
use super::damage_op::apply;
use super::{ensure_active, ensure_turn, parts_mut, snapshot};
use crate::dice::{Dice, DieRoll};
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::RulesetReport;
use serde::{Deserialize, Serialize};

/// POST /v1/encounters/{id}/actions for adeva-d100.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    Declared { actor_id: CombatantId, declared: DeclaredAction },
    Fall { actor_id: CombatantId },
    ResolveCrash { actor_id: CombatantId },
    Fatigue { actor_id: CombatantId, levels: u32 },
    Decay { actor_id: CombatantId, decay: CharacteristicDecay },
}

/// What an action did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ActionOutcome {
    Declared { spec: Box<ActionSpec> },
    Fell { from: AltitudeBand, to: AltitudeBand, crashed: bool },
    FallStarted { from: AltitudeBand },
    Crash { damage: u32, wounds_after: u32, defeated: bool },
    Fatigue { levels: u32 },
    Decay { decays: Vec<CharacteristicDecay> },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionReport {
    pub combatant_id: CombatantId,
    pub action: String,
    pub outcome: ActionOutcome,
    pub notes: Vec<String>,
    pub dice: Vec<DieRoll>,
}

pub fn act(
    encounter: &mut Encounter,
    action: Action,
    dice: &mut Dice,
) -> Result<(Vec<Event>, ActionReport), EncounterError> {
    ensure_active(encounter)?;
    let mut draft = encounter.clone();
    let start = dice.rolls().len();
    let (id, name, outcome, notes) = run(&mut draft, action, dice)?;
    let report = ActionReport {
        combatant_id: id.clone(),
        action: name.clone(),
        outcome,
        notes,
        dice: dice.rolls()[start..].to_vec(),
    };
    let events = vec![Event::ActionTaken {
        combatant_id: id,
        action: name,
        report: RulesetReport::AdevaAction(Box::new(report.clone())),
    }];
    *encounter = draft;
    Ok((events, report))
}

type Ran = (CombatantId, String, ActionOutcome, Vec<String>);

fn run(draft: &mut Encounter, action: Action, dice: &mut Dice) -> Result<Ran, EncounterError> {
    match action {
        Action::Declared { actor_id, declared } => {
            ensure_turn(draft, &actor_id, "actor_id")?;
            let spec = action_spec(&declared).map_err(|error| within("declared", error))?;
            if super::core::attack_weapon(&declared).is_ok() {
                return Err(EncounterError::invalid(
                    "declared",
                    "attacks are resolved by the attack command",
                ));
            }
            snapshot(draft, &actor_id, "actor_id")?;
            let (_, state, _) = parts_mut(draft, &actor_id, "actor_id")?;
            state.budget.spend(&spec)?;
            for effect in &spec.lingering {
                if let LingeringEffect::AttacksAgainst { modifier, .. } = effect {
                    state.attacks_against = Some(modifier.clone());
                }
            }
            let notes = spec.notes.clone();
            Ok((actor_id, spec.name(), ActionOutcome::Declared { spec: Box::new(spec) }, notes))
        }
        Action::Fall { actor_id } => {
            let (stats, state, _) = parts_mut(draft, &actor_id, "actor_id")?;
            if stats.altitude == AltitudeBand::Ground || stats.falling {
                return Err(EncounterError::invalid(
                    "actor_id",
                    "only a flier not already falling can start to fall",
                ));
            }
            stats.falling = true;
            state.fall_started_at = Some(stats.altitude);
            let from = stats.altitude;
            Ok((
                actor_id,
                "fall".into(),
                ActionOutcome::FallStarted { from },
                vec!["drops one band at the end of each round".into()],
            ))
        }
        Action::ResolveCrash { actor_id } => {
            let (stats, state, flags) = parts_mut(draft, &actor_id, "actor_id")?;
            let Some(started) = state.pending_crash else {
                return Err(EncounterError::invalid("actor_id", "no crash is pending for this combatant"));
            };
            let die = dice.roll(10, format!("falling damage: crash after a fall from {started:?}"))?;
            let damage = die + crash_squares(started);
            let (_, wounds, notes) = apply(stats, damage, true, 0, "actor_id")?;
            let max = stats.wounds.unwrap_or(0);
            stats.wounds_taken = max - wounds.after.min(max);
            state.pending_crash = None;
            flags.defeated |= wounds.dead;
            let outcome =
                ActionOutcome::Crash { damage, wounds_after: wounds.after, defeated: flags.defeated };
            Ok((actor_id, "resolve_crash".into(), outcome, notes))
        }
        Action::Fatigue { actor_id, levels } => {
            let (stats, _, _) = parts_mut(draft, &actor_id, "actor_id")?;
            if levels == 0 || levels > 100 {
                return Err(EncounterError::invalid("levels", "between 1 and 100 levels"));
            }
            stats.fatigue = (stats.fatigue + levels).min(1000);
            Ok((actor_id, "fatigue".into(), ActionOutcome::Fatigue { levels: stats.fatigue }, Vec::new()))
        }
        Action::Decay { actor_id, decay } => {
            let (stats, _, _) = parts_mut(draft, &actor_id, "actor_id")?;
            let mut decays = stats.decays.clone();
            decays.push(decay);
            check_decays("decay", &decays)?;
            stats.decays = decays.clone();
            Ok((actor_id, "decay".into(), ActionOutcome::Decay { decays }, Vec::new()))
        }
    }
}
