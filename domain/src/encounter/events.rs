use super::effects::{Effect, Moment};
use super::model::{CombatantId, EffectId};
use crate::dice::DieRoll;
use crate::rulesets::RulesetReport;
use serde::Serialize;

/// One entry of an encounter's append-only log. Every state change and every die appears here.
/// Only written out: the store keeps events as JSON text and reads them back as plain JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    EncounterCreated {
        name: String,
        ruleset: String,
    },
    CombatantAdded {
        combatant_id: CombatantId,
        name: String,
        side: String,
        /// The library creature it was added from.
        #[serde(skip_serializing_if = "Option::is_none")]
        creature_id: Option<String>,
    },
    CombatantUpdated {
        combatant_id: CombatantId,
        name: String,
        changed: Vec<String>,
    },
    CombatantRemoved {
        combatant_id: CombatantId,
        name: String,
    },
    InitiativeSet {
        combatant_id: CombatantId,
        name: String,
        score: i32,
        explanation: String,
        dice: Vec<DieRoll>,
    },
    /// Tied combatants rolled off; `dice` are the roll-off dice in order.
    InitiativeTieBroken {
        combatant_ids: Vec<CombatantId>,
        dice: Vec<DieRoll>,
    },
    EncounterStarted,
    RoundStarted {
        round: u32,
    },
    TurnStarted {
        combatant_id: CombatantId,
        name: String,
    },
    TurnEnded {
        combatant_id: CombatantId,
        name: String,
    },
    /// A defeated combatant's turn passes without actions (its turn moments still happen).
    TurnSkipped {
        combatant_id: CombatantId,
        name: String,
        reason: String,
    },
    /// The combatant holds its action; it may act later this round.
    TurnDelayed {
        combatant_id: CombatantId,
        name: String,
    },
    /// A delaying combatant (`by_id`) acts now, interrupting this combatant's turn: the turn is
    /// suspended, not ended, and resumes when the interrupter's turn ends.
    TurnInterrupted {
        combatant_id: CombatantId,
        name: String,
        by_id: CombatantId,
        by_name: String,
    },
    /// A suspended turn goes on where it stopped (its actions left are still its own).
    TurnResumed {
        combatant_id: CombatantId,
        name: String,
    },
    /// A ruleset rule moved a combatant's initiative.
    InitiativeChanged {
        combatant_id: CombatantId,
        name: String,
        from: i32,
        to: i32,
        reason: String,
    },
    RoundEnded {
        round: u32,
    },
    EffectAdded {
        effect: Effect,
    },
    /// A recurring effect reached the moment it acts at (a reminder for the table).
    EffectFired {
        effect_id: EffectId,
        name: String,
        moment: Moment,
    },
    EffectExpired {
        effect_id: EffectId,
        name: String,
        reason: String,
    },
    EffectRemoved {
        effect_id: EffectId,
        name: String,
    },
    EncounterEnded {
        round: u32,
    },
    /// A ruleset resolved an attack; `report` holds every modifier and consequence, `dice` every
    /// die the attack rolled.
    AttackResolved {
        attacker_id: CombatantId,
        target_id: CombatantId,
        report: RulesetReport,
        dice: Vec<DieRoll>,
    },
    /// Damage was applied to a combatant outside an attack (`dice`: the dice it rolled).
    DamageApplied {
        combatant_id: CombatantId,
        report: RulesetReport,
        dice: Vec<DieRoll>,
    },
    /// A combatant took a declared action (aim, stance, leadership, grapple, …; `dice`: the dice
    /// it rolled).
    ActionTaken {
        combatant_id: CombatantId,
        action: String,
        report: RulesetReport,
        dice: Vec<DieRoll>,
    },
    /// The encounter went back to the state it had at `to_version`; `from_version` is the
    /// version the undo replaced. The log keeps everything in between, and the dice stay rolled.
    Undone {
        from_version: i64,
        to_version: i64,
    },
}

impl Event {
    /// The event in one plain-English line, as a chat bot posts it.
    pub fn summary(&self) -> String {
        use crate::rulesets::Summary;
        match self {
            Self::EncounterCreated { name, ruleset } => format!("Encounter \"{name}\" created ({ruleset})"),
            Self::CombatantAdded { name, side, .. } => format!("{name} joins the fight ({side})"),
            Self::CombatantUpdated { name, changed, .. } => format!("{name} updated: {}", changed.join(", ")),
            Self::CombatantRemoved { name, .. } => format!("{name} leaves the fight"),
            Self::InitiativeSet { name, score, explanation, .. } => {
                format!("{name} has initiative {score} ({explanation})")
            }
            Self::InitiativeTieBroken { combatant_ids, .. } => {
                format!("a roll-off breaks the tie between {} combatants", combatant_ids.len())
            }
            Self::EncounterStarted => "The encounter begins".into(),
            Self::RoundStarted { round } => format!("Round {round} begins"),
            Self::TurnStarted { name, .. } => format!("{name}'s turn"),
            Self::TurnEnded { name, .. } => format!("{name}'s turn ends"),
            Self::TurnSkipped { name, reason, .. } => format!("{name}'s turn is skipped ({reason})"),
            Self::TurnDelayed { name, .. } => format!("{name} delays"),
            Self::TurnInterrupted { name, by_name, .. } => {
                format!("{by_name} acts from a delay, interrupting {name}'s turn")
            }
            Self::TurnResumed { name, .. } => format!("{name}'s turn resumes"),
            Self::InitiativeChanged { name, from, to, reason, .. } => {
                format!("{name}'s initiative {from} → {to} ({reason})")
            }
            Self::RoundEnded { round } => format!("Round {round} ends"),
            Self::EffectAdded { effect } => format!("{} takes effect", effect.name),
            Self::EffectFired { name, .. } => format!("{name} acts"),
            Self::EffectExpired { name, reason, .. } => format!("{name} ends ({reason})"),
            Self::EffectRemoved { name, .. } => format!("{name} is removed"),
            Self::EncounterEnded { round } => format!("The encounter ends after round {round}"),
            Self::AttackResolved { report, .. }
            | Self::DamageApplied { report, .. }
            | Self::ActionTaken { report, .. } => report.summary(),
            Self::Undone { from_version, to_version } => {
                format!("Undo: back to the state of version {to_version} (from version {from_version})")
            }
        }
    }
}
