//! What Cepheus Engine tracks per combatant during a fight: one-round initiative changes and
//! check penalties (`dynamic.rs`), the turn's action economy (`economy.rs`), stance, aim, an
//! extended action, suppression and evasive action. Nothing here imports a command.

use super::economy::ActionEconomy;
use super::stance::Stance;
use super::suppression::SuppressionMark;
use crate::encounter::CombatantId;
use serde::{Deserialize, Serialize};

/// A change to initiative that holds for one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineInitiativeChange))]
pub struct InitiativeChange {
    pub amount: i32,
    /// The round in which it holds.
    pub round: u32,
    pub reason: String,
}

/// A DM on every check the combatant makes during one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineCheckPenalty))]
pub struct CheckPenalty {
    #[serde(rename = "value", alias = "dm")]
    pub dm: i32,
    pub round: u32,
    pub reason: String,
}

/// What Cepheus Engine tracks per combatant during a fight.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineCombatState))]
#[serde(default)]
pub struct CombatState {
    pub initiative_changes: Vec<InitiativeChange>,
    pub check_penalties: Vec<CheckPenalty>,
    /// Hastening is allowed once per combat.
    pub has_hastened: bool,
    /// The Tactics bonus this combatant's unit gained at the start of combat.
    pub tactics_bonus: i32,
    /// Out of communication with its commander: the Tactics bonus is withdrawn.
    pub cut_off: bool,
    pub stance: Stance,
    /// Minor actions spent aiming at `aim_target` (ordinary aim, then aiming for the kill).
    pub aim: u8,
    pub aim_for_kill: u8,
    pub aim_target: Option<CombatantId>,
    /// Dived for cover: the next significant action is lost.
    pub loses_next_significant_action: bool,
    /// Actions recorded in the combatant's turn this round (`economy`).
    pub economy: ActionEconomy,
    /// An extended action in progress (`commands::extended`).
    pub extended: Option<ExtendedAction>,
    /// When suppression fire last affected the combatant (`suppression`).
    pub suppressed: Option<SuppressionMark>,
    /// Locked in a grapple with this combatant.
    pub grappling_with: Option<CombatantId>,
    /// This driver's evasive action (`commands::vehicle_actions`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evasive: Option<EvasiveMark>,
    /// The combatant's turn is suspended: a delayer interrupted it and it resumes when the
    /// interrupter's turn ends (`round.rs`; cepheus-engine.txt, "Delay").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspended_turn: Option<SuspendedTurn>,
    /// The round of the combatant's last `move` (or, for a driver, `drive`): extreme-range fire
    /// needs a stationary firer and vehicle (cepheus-engine.txt, "Extreme Range Firing").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved_round: Option<u32>,
    /// Endurance checks to come round failed since the engine knocked the combatant out (absent
    /// when it was knocked out outside the engine: then the caller says; "Unconsciousness").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wake_checks_failed: Option<u32>,
}

/// A turn a delayer interrupted (cepheus-engine.txt, "Delay": "even interrupting another's
/// actions"): the actions it has left stay its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineSuspendedTurn))]
pub struct SuspendedTurn {
    /// The delayer that interrupted it.
    pub by: CombatantId,
    /// 1 for the first turn suspended, 2 for a turn suspended while an interrupter acted, …: the
    /// highest resumes first.
    pub depth: u32,
}

/// A driver's evasive action: −`dm` on attacks against and from the vehicle, set in `round`, until
/// the driver's next turn (cepheus-engine.txt, "Vehicular Actions").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineEvasiveMark))]
pub struct EvasiveMark {
    #[serde(rename = "value", alias = "dm")]
    pub dm: i32,
    pub round: u32,
}

/// An extended action in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineExtendedAction))]
pub struct ExtendedAction {
    /// The skill in question (normalised name).
    pub skill: String,
    /// Rounds of work the task needs.
    pub rounds: u32,
    /// Rounds of work that have counted so far.
    pub completed: u32,
    pub started_round: u32,
    /// A round whose work a hit spoiled.
    #[serde(default)]
    pub spoiled_round: Option<u32>,
}
