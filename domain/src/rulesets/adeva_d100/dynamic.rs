//! What the engine tracks per Adeva combatant during a fight (adeva-d100.txt, "Structured Time",
//! "Actions", "Heavy Attack", "Guard Mode", "Aim", "Counter-Attack", "Altitude").
//!
//! Decisions:
//! - The [`TurnBudget`] is reset lazily: the first command that touches a combatant's budget on its
//!   own turn (it is `encounter.current`) in a round other than `turn_round` starts its turn
//!   (`TurnBudget::start_turn`: actions, reaction and the Counter-Attack limit come back). Touching
//!   it while it is not current ends a turn still marked as under way. Lingering "until the start
//!   of your next turn" effects (Heavy Attack's −30 to Evasion, Guard Mode) end at that same reset.
//! - Surprise is read from the combatant's `flags.surprised` in round 1 (the encounter model's
//!   flag), not from the budget.
//! - End of round: a falling combatant drops one band; reaching the Ground it crashes. The hook
//!   has no dice, so the crash's 1d10 + squares damage is left pending (`pending_crash`) and
//!   rolled and applied by the `resolve_crash` action; the drop is reported as an `ActionTaken`
//!   event (action "fall").

use super::actions::TurnBudget;
use super::altitude::AltitudeBand;
use super::operations::{ActionOutcome, ActionReport};
use super::test_modifiers::Modifier;
use crate::encounter::{CombatantId, Encounter, Event};
use crate::rulesets::{RulesetReport, RulesetState, StatBlock};
use serde::{Deserialize, Serialize};

/// Engine-managed Adeva combat state of one combatant.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CombatState {
    pub budget: TurnBudget,
    /// The round whose turn `budget` was last started for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_round: Option<u32>,
    /// Heavy Attack: its own Evasion tests take this until the start of its next turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own_evasion: Option<Modifier>,
    /// Guard Mode: attacks (and critical confirmations) against it take this until the start of
    /// its next turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attacks_against: Option<Modifier>,
    /// The band a fall began in, while falling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fall_started_at: Option<AltitudeBand>,
    /// A crash the end of a round brought, not yet rolled (see the decisions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_crash: Option<AltitudeBand>,
}

impl CombatState {
    /// Brings the budget up to date for `round`, `own_turn` saying whether the combatant is current.
    pub fn refresh(&mut self, round: u32, own_turn: bool) {
        if own_turn {
            if self.turn_round != Some(round) {
                self.budget.start_turn();
                self.own_evasion = None;
                self.attacks_against = None;
                self.turn_round = Some(round);
            }
        } else if self.budget.on_own_turn {
            self.budget.end_turn();
        }
    }
}

/// End of round: falling combatants drop one band (see the decisions).
pub fn end_of_round(encounter: &mut Encounter, events: &mut Vec<Event>) {
    let ids: Vec<CombatantId> = encounter.combatants.iter().map(|c| c.id.clone()).collect();
    for id in ids {
        let Some(combatant) = encounter.combatant_mut(&id) else { continue };
        let (StatBlock::AdevaD100(stats), RulesetState::AdevaD100(state)) =
            (&mut combatant.stats, &mut combatant.state)
        else {
            continue;
        };
        if !stats.falling {
            continue;
        }
        let from = stats.altitude;
        let started = state.fall_started_at.unwrap_or(from);
        let to = match from {
            AltitudeBand::High => AltitudeBand::Low,
            AltitudeBand::Low | AltitudeBand::Ground => AltitudeBand::Ground,
        };
        stats.altitude = to;
        let mut notes = vec![format!("fell from {from:?} to {to:?} at the end of the round")];
        if to == AltitudeBand::Ground {
            stats.falling = false;
            state.fall_started_at = None;
            state.pending_crash = Some(started);
            notes.push(format!(
                "crashed after a fall from {started:?}: take the resolve_crash action to roll its damage"
            ));
        }
        let report = ActionReport {
            combatant_id: id.clone(),
            action: "fall".into(),
            outcome: ActionOutcome::Fell { from, to, crashed: to == AltitudeBand::Ground },
            notes,
            dice: Vec::new(),
        };
        events.push(Event::ActionTaken {
            combatant_id: id,
            action: "fall".into(),
            report: RulesetReport::AdevaAction(Box::new(report)),
        });
    }
}
