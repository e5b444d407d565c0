//! The action economy of a round and of the surprise round (spycraft2.txt, "Step 4: Surprise
//! Round", "Running a Surprise Round" and "Step 5: Combat Round").

use super::state::{CombatState, ExtraHalf, SurpriseRole};
use crate::encounter::EncounterError;
use serde::{Deserialize, Serialize};

/// How much of a round an action takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Cost))]
#[serde(rename_all = "snake_case")]
pub enum Cost {
    Free,
    Half,
    Full,
}

/// What the economy needs to know about an action.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spend {
    pub cost: Option<Cost>,
    /// An attack: cannot be split across rounds, nor use a half action whose source forbids it.
    pub attack: bool,
    /// A move action (no bonus 5-ft. step in the same round).
    pub movement: bool,
    /// The bonus 5-ft. step itself (costs nothing).
    pub bonus_step: bool,
    pub press: bool,
    /// A full-action skill check that may be split over two rounds (its name).
    pub splittable: Option<String>,
    /// Finishes a split skill check.
    pub finish_split: bool,
}

/// What was spent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Spent))]
#[serde(tag = "spent", rename_all = "snake_case")]
pub enum Spent {
    Free,
    /// The bonus 5-ft. step.
    BonusStep,
    /// A half action; `source` names a granted half action when one was used.
    Half {
        source: Option<String>,
    },
    /// A full action; `sources` names granted half actions combined into it.
    Full {
        sources: Vec<String>,
    },
    /// The first half of a full-action skill check split over this round and the next.
    SplitStarted,
}

fn refuse(message: impl Into<String>) -> EncounterError {
    EncounterError::invalid("action", message.into())
}

/// Checks an action against what the character has left and spends it.
pub fn spend(state: &mut CombatState, spend: &Spend, surprise_round: bool) -> Result<Spent, EncounterError> {
    if surprise_round {
        return spend_in_surprise_round(state, spend);
    }
    if state.press_required && state.budget.actions == 0 && !spend.press {
        return Err(refuse(
            "the Initiative Count reached 50 or more: the first action this round must be a Press",
        ));
    }
    if let Some(check) = &state.split_check
        && !spend.finish_split
        && spend.cost != Some(Cost::Free)
    {
        return Err(refuse(format!(
            "the split skill check '{check}' must be finished as the first action this round"
        )));
    }
    if spend.finish_split && state.split_check.is_none() {
        return Err(refuse("no split skill check is waiting to be finished"));
    }
    let spent = if spend.bonus_step {
        bonus_step(state)?
    } else {
        if spend.movement && state.budget.bonus_step {
            return Err(refuse("took the bonus 5-ft. step this round, so no other move action"));
        }
        match spend.cost {
            None | Some(Cost::Free) => {
                state.budget.free_actions += 1;
                Spent::Free
            }
            Some(Cost::Half) => half(state, spend.attack)?,
            Some(Cost::Full) => full(state, spend)?,
        }
    };
    if spend.movement {
        state.budget.moved = true;
    }
    if spend.finish_split {
        state.split_check = None;
    }
    if spend.press {
        state.press_required = false;
    }
    state.budget.first = state.budget.first.or(spend.cost);
    state.budget.actions += 1;
    Ok(spent)
}

/// In the surprise round an eligible character takes exactly one action: 1 free, 1 half or 1
/// full; a full action is not split into halves and there is no second free action.
fn spend_in_surprise_round(state: &mut CombatState, spend: &Spend) -> Result<Spent, EncounterError> {
    if state.surprise != SurpriseRole::Acts {
        return Err(EncounterError::invalid(
            "combatant_id",
            "did not win surprise (or did not take part in the team check) and may not act in the surprise round",
        ));
    }
    if spend.bonus_step {
        return Err(refuse(
            "no bonus 5-ft. step in the surprise round: it allows 1 free, 1 half or 1 full action",
        ));
    }
    if state.budget.actions > 0 {
        let message = match (state.budget.first, spend.cost) {
            (Some(Cost::Free), Some(Cost::Free) | None) => {
                "at most 1 free action in the surprise round".to_owned()
            }
            (Some(Cost::Half), Some(Cost::Half)) => {
                "the surprise round's full action may not be split into 2 half actions".to_owned()
            }
            _ => "the surprise round allows only 1 free, 1 half or 1 full action".to_owned(),
        };
        return Err(refuse(message));
    }
    let spent = match spend.cost {
        None | Some(Cost::Free) => {
            state.budget.free_actions = 1;
            Spent::Free
        }
        Some(Cost::Half) => {
            state.budget.halves_used = 1;
            Spent::Half { source: None }
        }
        Some(Cost::Full) => {
            state.budget.halves_used = 2;
            Spent::Full { sources: Vec::new() }
        }
    };
    state.budget.first = spend.cost.or(Some(Cost::Free));
    state.budget.actions = 1;
    Ok(spent)
}

fn bonus_step(state: &mut CombatState) -> Result<Spent, EncounterError> {
    if state.budget.moved {
        return Err(refuse("took a move action this round, so no bonus 5-ft. step"));
    }
    if state.budget.bonus_step {
        return Err(refuse("already took the bonus 5-ft. step this round"));
    }
    state.budget.bonus_step = true;
    Ok(Spent::BonusStep)
}

/// Takes a granted half action usable for this action (unrestricted ones first).
fn take_extra(state: &mut CombatState, attack: bool) -> Option<ExtraHalf> {
    let usable = |half: &ExtraHalf| !(attack && half.forbids_attack);
    let position = state
        .budget
        .extra_halves
        .iter()
        .position(|half| !half.forbids_attack)
        .or_else(|| state.budget.extra_halves.iter().position(usable))?;
    let half = state.budget.extra_halves.get(position)?;
    usable(half).then(|| state.budget.extra_halves.remove(position))
}

fn half(state: &mut CombatState, attack: bool) -> Result<Spent, EncounterError> {
    if state.budget.halves_used < 2 {
        state.budget.halves_used += 1;
        return Ok(Spent::Half { source: None });
    }
    match take_extra(state, attack) {
        Some(extra) => Ok(Spent::Half { source: Some(extra.source) }),
        None if attack && !state.budget.extra_halves.is_empty() => {
            Err(refuse("the half actions left come from sources that forbid attacking with them"))
        }
        None => Err(refuse("no half action left this round (1 full action or 2 half actions per round)")),
    }
}

/// A full action: the round's 2 half actions, or half actions from different sources combined
/// (the restrictions of either apply to the whole).
fn full(state: &mut CombatState, spend: &Spend) -> Result<Spent, EncounterError> {
    let base_left = 2 - state.budget.halves_used.min(2);
    let usable_extras =
        state.budget.extra_halves.iter().filter(|half| !(spend.attack && half.forbids_attack)).count() as u32;
    if base_left + usable_extras >= 2 {
        let mut draft = state.clone();
        let base_taken = base_left.min(2);
        draft.budget.halves_used += base_taken;
        let mut sources = Vec::new();
        for _ in base_taken..2 {
            let extra = take_extra(&mut draft, spend.attack)
                .ok_or_else(|| refuse("not enough half actions left for a full action"))?;
            sources.push(extra.source);
        }
        *state = draft;
        return Ok(Spent::Full { sources });
    }
    if spend.attack {
        let all_halves = base_left + state.budget.extra_halves.len() as u32;
        if all_halves >= 2 {
            return Err(refuse(
                "combined half actions keep their restrictions: a half action left here forbids attacking",
            ));
        }
        return Err(refuse(
            "a full-action attack needs 2 half actions now: attack checks must be completed in the round they begin",
        ));
    }
    if let Some(check) = &spend.splittable
        && base_left + usable_extras == 1
    {
        let _ = half(state, false)?;
        state.split_check = Some(check.clone());
        return Ok(Spent::SplitStarted);
    }
    Err(refuse(format!("a full action needs 2 half actions; {} left this round", base_left + usable_extras)))
}

#[cfg(test)]
#[path = "economy_tests.rs"]
mod tests;
