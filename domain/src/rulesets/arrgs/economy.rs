//! Action Points and Additional Action Points (arrgs.txt, "Structure", "Surprise Round", "A
//! Turn", "Actions and Action Points", "Combat Actions", "Swift Actions", "Immediate Actions",
//! "Ready Manoeuvre"; "Conditions": Disabled, Dying [n], Staggered [n], Unconscious).
//!
//! Decisions:
//! - Standard actions (AP) and Swift actions (AAP) are taken on the actor's own turn, Immediate
//!   actions (AAP) on someone else's. The triggers of Immediate actions are checked by each
//!   operation (an Opportunity, a readied trigger, an incoming attack, a spell being cast).
//! - Points swapped by Ready count as used only when they are spent.
//! - Staggered reduces the round's Additional Action Points first, then Action Points; applied
//!   mid-round it lowers what is left. With 0 Action Points left by it, the character may do
//!   nothing on its own turn (Immediate actions on others' turns remain possible).
//! - The Disabled (2) and Dying (1) limits count every point used this round, AP and AAP.

use super::check::multiple_actions;
use super::fighter::{Fighter, Scene};
use super::modifier::Modifier;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// How an action is paid for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsPace))]
#[serde(rename_all = "snake_case")]
pub enum Pace {
    /// With Action Points, on the actor's turn.
    #[default]
    Standard,
    /// With Additional Action Points, on the actor's turn.
    Swift,
    /// With Additional Action Points, on another's turn, when a trigger is met.
    Immediate,
}

/// The points a combatant has for the round, after the surprise round, Staggered and Ready.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsPoints))]
pub struct Points {
    pub action_points: i32,
    pub additional_action_points: i32,
}

/// The round's allotment (arrgs.txt, "Surprise Round": AP − 1 and AAP − 1 for the unsurprised;
/// "Staggered [n]": AAP first, then AP; "Ready Manoeuvre": AP become AAP).
pub fn allotment(fighter: &Fighter, scene: &Scene) -> Points {
    let mut ap = fighter.stats.action_points();
    let mut aap = fighter.stats.additional_action_points();
    if scene.surprise_round && !fighter.surprised {
        ap = (ap - 1).max(0);
        aap = (aap - 1).max(0);
    }
    let staggered = i32::try_from(fighter.state.staggered).unwrap_or(i32::MAX);
    let from_aap = staggered.min(aap);
    aap -= from_aap;
    ap = (ap - (staggered - from_aap)).max(0);
    let readied = fighter.state.round.readied;
    Points { action_points: ap - readied, additional_action_points: aap + readied }
}

/// What is left this round.
pub fn remaining(fighter: &Fighter, scene: &Scene) -> Points {
    let allotted = allotment(fighter, scene);
    let used = &fighter.state.round;
    Points {
        action_points: (allotted.action_points - used.action_points_spent).max(0),
        additional_action_points: (allotted.additional_action_points - used.additional_points_spent).max(0),
    }
}

/// Refuses any action by a combatant who cannot act: Unconscious, or Surprised in the surprise
/// round (arrgs.txt, "Unconscious", "Surprise Round"). The dead are refused before any operation
/// runs, by the ruleset's one rule (`Arrgs::may_receive`, asked by `rulesets::receiving`).
pub fn ensure_can_act(fighter: &Fighter, scene: &Scene) -> Result<(), RuleError> {
    let why = if fighter.state.unconscious {
        Some("is Unconscious and may not take any actions")
    } else if scene.surprise_round && fighter.surprised {
        Some("is Surprised and may not act in the surprise round")
    } else if scene.round > 0 && fighter.state.end_of_round_done == scene.round {
        Some("has already been through this round's End of Round")
    } else {
        None
    };
    match why {
        Some(why) => Err(RuleError::invalid(fighter.field.clone(), format!("{} {why}", fighter.name))),
        None => Ok(()),
    }
}

/// Points spent on one action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsSpend))]
pub struct Spend {
    pub pace: Pace,
    pub points: i32,
    /// Points used this round before this action (AP and AAP).
    pub used_before: i32,
    /// The Multiple Actions penalty on this action's checks, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty: Option<Modifier>,
    /// What is left afterwards.
    pub remaining: Points,
}

/// Spends `points` for an action at `pace`, or refuses naming `pace_field`. Counts the action.
pub fn spend(
    fighter: &mut Fighter,
    scene: &Scene,
    pace: Pace,
    points: i32,
    pace_field: &str,
) -> Result<Spend, RuleError> {
    ensure_can_act(fighter, scene)?;
    check_timing(fighter, scene, pace, pace_field)?;
    let left = remaining(fighter, scene);
    let (have, pool) = match pace {
        Pace::Standard => (left.action_points, "Action Points"),
        Pace::Swift | Pace::Immediate => (left.additional_action_points, "Additional Action Points"),
    };
    if have < points {
        let message = format!("{} needs {points} {pool} for this and has {have} left this round", fighter.name);
        return Err(RuleError::invalid(pace_field, message));
    }
    let used_before = fighter.state.round.points_used();
    check_condition_limit(fighter, used_before, points, pace_field)?;
    let round = &mut fighter.state.round;
    match pace {
        Pace::Standard => round.action_points_spent += points,
        Pace::Swift | Pace::Immediate => round.additional_points_spent += points,
    }
    round.actions += 1;
    Ok(Spend { pace, points, used_before, penalty: multiple_actions(used_before), remaining: remaining(fighter, scene) })
}

fn check_timing(fighter: &Fighter, scene: &Scene, pace: Pace, field: &str) -> Result<(), RuleError> {
    let own_turn = scene.current.as_ref() == Some(&fighter.id);
    let message = match pace {
        Pace::Standard | Pace::Swift if !own_turn => {
            Some(format!("{}: standard and swift actions are taken on one's own turn", fighter.name))
        }
        Pace::Immediate if own_turn => {
            Some(format!("{}: immediate actions are taken during another character's turn", fighter.name))
        }
        _ => None,
    };
    if let Some(message) = message {
        return Err(RuleError::invalid(field, message));
    }
    if own_turn && staggered_to_zero(fighter, scene) {
        let message = format!("{} is Staggered to 0 Action Points and may do nothing this turn", fighter.name);
        return Err(RuleError::invalid(fighter.field.clone(), message));
    }
    Ok(())
}

/// Staggered down to 0 Action Points this round (arrgs.txt, "Staggered [n]").
pub fn staggered_to_zero(fighter: &Fighter, scene: &Scene) -> bool {
    fighter.state.staggered > 0 && allotment(fighter, scene).action_points + fighter.state.round.readied <= 0
}

/// Disabled: 2 points a round; Dying: 1 (arrgs.txt, "Disabled", "Dying [n]").
fn check_condition_limit(fighter: &Fighter, used: i32, points: i32, field: &str) -> Result<(), RuleError> {
    let (limit, condition) = if fighter.state.dying > 0 {
        (1, "Dying")
    } else if fighter.is_disabled() {
        (2, "Disabled")
    } else {
        return Ok(());
    };
    if used + points > limit {
        let message = format!(
            "{} is {condition} and may use only {limit} point(s) a round; {used} used, this needs {points}",
            fighter.name
        );
        return Err(RuleError::invalid(field, message));
    }
    Ok(())
}

/// Ready: swaps `points` Action Points for Additional Action Points until the End of Round
/// (arrgs.txt, "Ready Manoeuvre").
pub fn ready(fighter: &mut Fighter, scene: &Scene, points: i32, trigger: String, field: &str) -> Result<Points, RuleError> {
    ensure_can_act(fighter, scene)?;
    check_timing(fighter, scene, Pace::Standard, "pace")?;
    let left = remaining(fighter, scene).action_points;
    if points > left {
        let message = format!("{} has {left} Action Points left to ready, not {points}", fighter.name);
        return Err(RuleError::invalid(field, message));
    }
    fighter.state.round.readied += points;
    fighter.state.round.ready_trigger = Some(trigger);
    fighter.state.round.actions += 1;
    Ok(remaining(fighter, scene))
}

#[cfg(test)]
#[path = "economy_tests.rs"]
mod tests;
