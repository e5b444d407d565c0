//! The action economy (adeva-d100.txt, "Structured Time", "Actions", "Action List" and "Combat
//! Structure", Step Two): what one character may still do this turn and this round.
//!
//! Decisions:
//! - A [`TurnBudget`] lives across the whole encounter. [`TurnBudget::start_turn`] and
//!   [`TurnBudget::end_turn`] bracket the character's own turn; between them only its own actions
//!   are spent, outside them only reactions and free actions.
//! - The reaction comes back, and the Counter-Attack limit lifts, at the start of the character's
//!   own turn ("until the start of your next turn").
//! - The one-Attack and one-Concentration limits count the actions of the character's own turn.
//!   Free actions taken on other characters' turns (Attack of Opportunity, Counter-Attack) stand
//!   outside the turn, as the text says of reactions.
//! - A free action on the character's own turn is always allowed, unless the turn is lost or given
//!   to an extended action; its subtypes still count towards the limits.
//! - An extended action fills the turn: it must be the turn's first action, and nothing else
//!   (free actions included) may follow it in that turn ("may do nothing else that turn").
//! - Surprise: the character's first turn is lost, every action in it is refused, and it may take
//!   no reactions until that turn is over. Free actions on other characters' turns are not barred,
//!   as the text only bars reactions. Surprise ends with the lost turn.
//! - The aim bonus is tracked here ([`TurnBudget::pending_aim`]), and used, kept or lost by each
//!   action as `aim.rs` says.

use super::aim::{AimFate, aim_fate};
use super::{ActionKind, ActionSpec, ActionSubtype, ActionType, LingeringEffect};
use crate::rulesets::RuleError;
use crate::rulesets::adeva_d100::test_modifiers::Modifier;
use serde::{Deserialize, Serialize};

/// What one character has spent this turn and this round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100TurnBudget))]
#[serde(default, deny_unknown_fields)]
pub struct TurnBudget {
    /// Surprised: loses its first turn and takes no reactions until that turn is over.
    pub surprised: bool,
    /// The character's own turn is under way.
    pub on_own_turn: bool,
    /// This turn is the one surprise takes away.
    pub turn_lost: bool,
    pub full_actions: u8,
    pub half_actions: u8,
    /// This turn is given to an extended action.
    pub extended_action: bool,
    /// Any action has been taken this turn.
    pub acted: bool,
    pub attack_actions: u8,
    pub concentration_actions: u8,
    pub reaction_used: bool,
    pub counter_attack_used: bool,
    /// Movement-subtype actions taken this turn (Attack of Opportunity reads the enemy's).
    #[serde(skip_serializing_if = "is_zero")]
    pub movement_actions: u8,
    /// A Half Move was taken this turn (Knock Down's +10).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub half_moved: bool,
    /// This turn the controller took the 'Grapple' Full Action, or the grapple began or changed
    /// hands: the grapple holds through the end of the turn ("Grapple (Initiate)").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub grapple_kept: bool,
    /// An aim bonus waiting for the next attack.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aim: Option<Modifier>,
}

impl TurnBudget {
    /// A budget at the start of an encounter (adeva-d100.txt, "Combat Structure", Step Two).
    pub fn new(surprised: bool) -> Self {
        Self { surprised, ..Self::default() }
    }

    /// The character's turn begins: one Full or two Half Actions, the reaction back, the
    /// Counter-Attack limit lifted; a surprised character's turn is lost (adeva-d100.txt,
    /// "Structured Time", "Counter-Attack", "Combat Structure").
    pub fn start_turn(&mut self) {
        *self = Self {
            surprised: self.surprised,
            on_own_turn: true,
            turn_lost: self.surprised,
            aim: self.aim.take(),
            ..Self::default()
        };
    }

    /// The character's turn is over; a lost turn ends the surprise.
    pub fn end_turn(&mut self) {
        self.on_own_turn = false;
        if self.turn_lost {
            self.turn_lost = false;
            self.surprised = false;
        }
    }

    /// The aim bonus the next attack test gets, if any (adeva-d100.txt, "Aim").
    pub fn pending_aim(&self) -> Option<&Modifier> {
        self.aim.as_ref()
    }

    /// Records `action`, refusing it when the turn or round has no room for it; the message names
    /// the reason (adeva-d100.txt, "Actions", "Action List", "Combat Structure"; see the decisions).
    pub fn spend(&mut self, action: &ActionSpec) -> Result<(), RuleError> {
        let refuse =
            |reason: &str| Err(RuleError::invalid("action", format!("refused {}: {reason}", action.name())));
        let kind = action.action_type;
        if kind == ActionType::Reaction {
            if self.surprised {
                return refuse("a reaction by a surprised character");
            }
            if self.on_own_turn {
                return refuse(
                    "a reaction on the character's own turn (reactions are for other characters' turns)",
                );
            }
            if self.reaction_used {
                return refuse("a second reaction before the character's next turn");
            }
            self.reaction_used = true;
        } else if !self.on_own_turn {
            if kind != ActionType::Free {
                return refuse(&format!("a {} outside the character's own turn", kind.label()));
            }
            self.check_counter_attack(action, refuse)?;
        } else {
            self.check_own_turn(action, refuse)?;
            self.check_counter_attack(action, refuse)?;
            self.acted = true;
            match kind {
                ActionType::Full => self.full_actions += 1,
                ActionType::Half => self.half_actions += 1,
                ActionType::Extended => self.extended_action = true,
                ActionType::Free | ActionType::Reaction => {}
            }
            if action.has_subtype(ActionSubtype::Attack) {
                self.attack_actions += 1;
            }
            if action.has_subtype(ActionSubtype::Concentration) {
                self.concentration_actions += 1;
            }
            if action.has_subtype(ActionSubtype::Movement) {
                self.movement_actions = self.movement_actions.saturating_add(1);
            }
        }
        self.track_aim(action);
        Ok(())
    }

    /// The limits of the character's own turn.
    fn check_own_turn(
        &self,
        action: &ActionSpec,
        refuse: impl Fn(&str) -> Result<(), RuleError>,
    ) -> Result<(), RuleError> {
        if self.turn_lost {
            return refuse("an action in the turn a surprised character loses");
        }
        if self.extended_action {
            return refuse("another action in a turn given to an extended action");
        }
        match action.action_type {
            ActionType::Extended if self.acted => {
                return refuse("an extended action after other actions this turn");
            }
            ActionType::Full if self.full_actions > 0 => return refuse("a second full action in one turn"),
            ActionType::Full if self.half_actions > 0 => return refuse("a full action after a half action"),
            ActionType::Half if self.full_actions > 0 => return refuse("a half action after a full action"),
            ActionType::Half if self.half_actions >= 2 => return refuse("a third half action in one turn"),
            _ => {}
        }
        if action.has_subtype(ActionSubtype::Attack) && self.attack_actions > 0 {
            return refuse("a second attack action in one turn");
        }
        if action.has_subtype(ActionSubtype::Concentration) && self.concentration_actions > 0 {
            return refuse("a second concentration action in one turn");
        }
        Ok(())
    }

    /// One Counter-Attack until the start of the next turn (adeva-d100.txt, "Counter-Attack").
    fn check_counter_attack(
        &mut self,
        action: &ActionSpec,
        refuse: impl Fn(&str) -> Result<(), RuleError>,
    ) -> Result<(), RuleError> {
        if action.action != ActionKind::CounterAttack {
            return Ok(());
        }
        if self.counter_attack_used {
            return refuse("a second counter-attack before the start of the character's next turn");
        }
        self.counter_attack_used = true;
        Ok(())
    }

    /// Sets, uses, keeps or loses the aim bonus (adeva-d100.txt, "Aim").
    fn track_aim(&mut self, action: &ActionSpec) {
        if action.action == ActionKind::Aim {
            self.aim = action.lingering.iter().find_map(|effect| match effect {
                LingeringEffect::NextAttack { modifier } => Some(modifier.clone()),
                _ => None,
            });
        } else if self.aim.is_some() && aim_fate(action) != AimFate::Kept {
            self.aim = None;
        }
    }
}

fn is_zero(value: &u8) -> bool {
    *value == 0
}

/// Progress on an extended action (adeva-d100.txt, "Actions", "Extended Actions").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ExtendedAction))]
#[serde(deny_unknown_fields)]
pub struct ExtendedAction {
    pub name: String,
    /// Turns it takes, when known (the text allows the character not to be told).
    #[serde(default)]
    pub turns_needed: Option<u32>,
    #[serde(default)]
    pub turns_done: u32,
    /// An interruption throws the work away (depends on the action).
    pub restarts_if_interrupted: bool,
}

/// What an interruption did to an extended action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Interruption))]
#[serde(rename_all = "snake_case")]
pub enum Interruption {
    /// The work so far is lost; it must start again.
    MustRestart,
    /// The work so far stands.
    ProgressKept,
}

impl ExtendedAction {
    /// A new extended action; refuses a blank name or a length of 0 turns.
    pub fn new(
        name: &str,
        turns_needed: Option<u32>,
        restarts_if_interrupted: bool,
    ) -> Result<Self, RuleError> {
        if name.trim().is_empty() {
            return Err(RuleError::invalid("name", "name the extended action"));
        }
        if turns_needed == Some(0) {
            return Err(RuleError::invalid("turns_needed", "an extended action takes at least one turn"));
        }
        Ok(Self { name: name.trim().to_string(), turns_needed, turns_done: 0, restarts_if_interrupted })
    }

    /// The action as spent from a [`TurnBudget`]: it fills the turn.
    pub fn spec(&self) -> ActionSpec {
        ActionSpec::new(ActionKind::Other(self.name.clone()), ActionType::Extended, Vec::new())
    }

    /// One more turn of work; true once the known length is reached.
    pub fn work_turn(&mut self) -> bool {
        self.turns_done = self.turns_done.saturating_add(1);
        self.is_complete()
    }

    pub fn is_complete(&self) -> bool {
        self.turns_needed.is_some_and(|needed| self.turns_done >= needed)
    }

    /// The character did something besides the extended action: depending on the action, the work
    /// starts again (adeva-d100.txt, "Extended Actions").
    pub fn interrupt(&mut self) -> Interruption {
        if self.restarts_if_interrupted {
            self.turns_done = 0;
            Interruption::MustRestart
        } else {
            Interruption::ProgressKept
        }
    }
}

#[cfg(test)]
#[path = "economy_tests.rs"]
mod tests;
