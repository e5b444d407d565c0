//! The action economy of one turn (cepheus-engine.txt, "The Combat Round", "Minor Actions",
//! "Significant Actions", "Free Actions", "Injury and Recovery", "Explosions" and "Extended
//! Actions").
//!
//! Decisions:
//! - A turn allows one significant action and one minor action, or up to three minor actions and
//!   no significant action. Free actions are unlimited (the referee may charge for many; that is
//!   left to the table).
//! - A seriously wounded character loses the minor action: one significant action and no minor
//!   one, or two minor actions ("Significant Actions" lets two minor actions replace the
//!   significant one) and no significant one.
//! - The counters belong to a round: the first minor or significant action a combatant records in
//!   a round (always on its own turn) starts them afresh. Free actions never touch them.
//! - Diving for cover sets `loses_next_significant_action`. The first time the counters start
//!   afresh after that, the flag is cleared and that turn has no significant action; only the
//!   turn's own minor action (none when seriously wounded) is left, since turning the lost
//!   significant action into minor actions would undo the loss. A dive before the diver's turn
//!   therefore costs this round's significant action, a dive after it costs the next round's.
//! - A combatant busy with an extended action cannot take minor or significant actions; a
//!   combatant locked in a grapple can take none except the grapple check itself (`actions.rs`).

use super::damage::Status;
use super::CepheusEngine;
use crate::rulesets::plugin::{self, combatant_mut};
use crate::encounter::{CombatantId, Encounter, EncounterError};
use serde::{Deserialize, Serialize};

/// What an action costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineCost))]
#[serde(rename_all = "snake_case")]
pub enum Cost {
    Free,
    Minor,
    Significant,
}

/// The actions a combatant has recorded in its turn this round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineActionEconomy))]
#[serde(default)]
pub struct ActionEconomy {
    /// The round these counters belong to.
    pub round: u32,
    pub significant: u8,
    pub minor: u8,
    /// This turn's significant action was lost (dived for cover).
    pub significant_lost: bool,
}

/// How many minor actions fit beside a significant action, and how many without one.
fn minor_limits(status: Status) -> (u8, u8) {
    if status.loses_minor_action() { (0, 2) } else { (1, 3) }
}

fn refuse(message: String) -> EncounterError {
    EncounterError::invalid("action", message)
}

/// An action's spending, checked and not yet recorded: the counters after it, and whether it
/// clears the lost-significant-action flag (see the decisions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spending {
    pub economy: ActionEconomy,
    clears_flag: bool,
    record: bool,
}

impl Spending {
    /// Stores the counters on the combatant (nothing for a free action).
    pub fn record(self, encounter: &mut Encounter, id: &CombatantId) -> Result<ActionEconomy, EncounterError> {
        if self.record {
            let state = plugin::parts_mut::<CepheusEngine>(combatant_mut(encounter, id, "combatant_id")?, "combatant_id")?.1;
            if self.clears_flag {
                state.loses_next_significant_action = false;
            }
            state.economy = self.economy.clone();
        }
        Ok(self.economy)
    }
}

/// Checks an action of this cost for the combatant, refusing one its turn has no room for
/// (cepheus-engine.txt, "Minor Actions", "Significant Actions", "Injury and Recovery";
/// "Explosions" for the lost significant action), and returns the counters after it. Nothing
/// changes until [`Spending::record`] stores them.
pub fn check_spend(
    encounter: &Encounter,
    id: &CombatantId,
    cost: Cost,
    what: &str,
) -> Result<Spending, EncounterError> {
    let round = encounter.round;
    let combatant = plugin::combatant(encounter, id, "combatant_id")?;
    let name = &combatant.name;
    let (stats, state) = plugin::parts::<CepheusEngine>(combatant, "combatant_id")?;
    if cost == Cost::Free {
        return Ok(Spending { economy: state.economy.clone(), clears_flag: false, record: false });
    }
    if let Some(extended) = &state.extended {
        return Err(refuse(format!(
            "{name} is busy with an extended action ({}); abandon it first",
            extended.skill
        )));
    }
    let mut economy = state.economy.clone();
    let mut clears_flag = false;
    if economy.round != round {
        economy = ActionEconomy { round, ..ActionEconomy::default() };
        if state.loses_next_significant_action {
            economy.significant_lost = true;
            clears_flag = true;
        }
    }
    let status = stats.status();
    let (with_significant, without) = minor_limits(status);
    let wounded = if status.loses_minor_action() { " (seriously wounded: no minor action)" } else { "" };
    match cost {
        Cost::Free => {}
        Cost::Significant => {
            if economy.significant_lost {
                return Err(refuse(format!(
                    "{name} dived for cover and has lost this turn's significant action; {what} is not possible"
                )));
            }
            if economy.significant >= 1 {
                return Err(refuse(format!("{name} has already taken a significant action this turn")));
            }
            if economy.minor > with_significant {
                return Err(refuse(format!(
                    "{name} has taken {} minor actions this turn, so no significant action is left{wounded}",
                    economy.minor
                )));
            }
            economy.significant = 1;
        }
        Cost::Minor => {
            let limit =
                if economy.significant >= 1 || economy.significant_lost { with_significant } else { without };
            if economy.minor >= limit {
                return Err(refuse(format!(
                    "{name} has no minor action left this turn ({} significant, {} minor taken){wounded}",
                    economy.significant, economy.minor
                )));
            }
            economy.minor += 1;
        }
    }
    Ok(Spending { economy, clears_flag, record: true })
}
