//! A combatant as the ARRGS rules see it during one operation (stat block, combat state and the
//! request field that named it), and the moment of the fight the operation happens in.

use super::state::{CombatState, VITALITY_LOST};
use super::stats::Stats;
use crate::encounter::CombatantId;
use crate::rulesets::RuleError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// ARRGS encounter settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsOptions))]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// DC of the Fortitude check a Disabled character makes on every action (default 10; the
    /// text gives none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disabled_dc: Option<Score<0, 50>>,
}

impl Options {
    pub fn disabled_dc(&self) -> i32 {
        self.disabled_dc.map_or(10, Score::get)
    }
}

/// When in the fight an operation happens.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scene {
    pub round: u32,
    /// Round 1 of a fight that began with someone Surprised (arrgs.txt, "Surprise Round").
    pub surprise_round: bool,
    /// Whose turn it is.
    pub current: Option<CombatantId>,
    pub options: Options,
}

/// One combatant taking part in an operation.
#[derive(Debug, Clone, PartialEq)]
pub struct Fighter {
    pub id: CombatantId,
    pub name: String,
    pub stats: Stats,
    pub state: CombatState,
    /// Has the Surprised condition.
    pub surprised: bool,
    /// The request field that named this combatant, for refusals.
    pub field: String,
}

impl Fighter {
    pub fn new(id: CombatantId, name: impl Into<String>, stats: Stats, field: impl Into<String>) -> Self {
        Self {
            id,
            name: name.into(),
            stats,
            state: CombatState::default(),
            surprised: false,
            field: field.into(),
        }
    }

    /// Total Vitality, or a refusal naming the request field.
    pub fn total_vitality(&self) -> Result<i32, RuleError> {
        self.stats.vitality.map(Score::get).ok_or_else(|| {
            RuleError::invalid(
                self.field.clone(),
                format!("{} has no Vitality: set stats.vitality to track it", self.name),
            )
        })
    }

    /// Current Vitality (0 when the stat block has none).
    pub fn current_vitality(&self) -> i32 {
        self.stats.starting_vitality().unwrap_or(0).saturating_sub(self.state.vitality_lost)
    }

    /// Loses Vitality (negative gains it back), within [`VITALITY_LOST`], the bound the stateless
    /// form checks, so the stored loss never leaves it. A dead character takes nothing more (see
    /// `Arrgs::may_receive`), so only the blow that kills may go past the death line.
    pub fn lose_vitality(&mut self, amount: i32) {
        let lost = self.state.vitality_lost.saturating_add(amount);
        self.state.vitality_lost = lost.clamp(VITALITY_LOST.0, VITALITY_LOST.1);
    }

    /// "A character dies when it reaches Negative vitality equal to its Total Vitality" (arrgs.txt,
    /// "Death").
    pub fn is_dead(&self) -> bool {
        is_dead(&self.stats, &self.state)
    }

    /// Disabled: at 0 Current Vitality or less, or after Dying ran out, and not Dying (arrgs.txt,
    /// "Disabled", "Dying [n]").
    pub fn is_disabled(&self) -> bool {
        self.stats.vitality.is_some()
            && self.state.dying == 0
            && (self.current_vitality() <= 0 || self.state.disabled_after_dying)
    }

    /// Negative Vitality as a positive number (0 when Current Vitality is 0 or more).
    pub fn negative_vitality(&self) -> i32 {
        self.current_vitality().min(0).saturating_neg()
    }

    /// Movement Increment reached this round: squares moved as a multiple of Base Movement Speed,
    /// rounded up (arrgs.txt, "Movement Increment": 0–5 squares at speed 5 is the first).
    pub fn movement_increment(&self) -> i32 {
        increment(self.state.round.squares_moved, self.stats.speed())
    }

    /// The conditions the combatant has now.
    pub fn conditions(&self) -> Vec<Condition> {
        let mut conditions = Vec::new();
        if self.is_dead() {
            conditions.push(Condition::Dead);
        }
        if self.state.dying > 0 {
            conditions.push(Condition::Dying { applications: self.state.dying });
        }
        if self.is_disabled() {
            conditions.push(Condition::Disabled);
        }
        if self.state.unconscious {
            conditions.push(Condition::Unconscious);
        }
        if self.state.staggered > 0 {
            conditions.push(Condition::Staggered { applications: self.state.staggered });
        }
        if self.state.prone {
            conditions.push(Condition::Prone);
        }
        if self.surprised {
            conditions.push(Condition::Surprised);
        }
        conditions
    }

    /// Vitality and conditions, for reports.
    pub fn standing(&self) -> Standing {
        Standing {
            combatant_id: self.id.clone(),
            name: self.name.clone(),
            vitality: self.stats.vitality.map(|_| self.current_vitality()),
            total_vitality: self.stats.vitality.map(Score::get),
            conditions: self.conditions(),
        }
    }
}

/// The Threat Range with any Change Reach shift.
pub fn threat_range(fighter: &Fighter) -> (i32, i32) {
    let (min, max) = fighter.stats.threat_range();
    let shift = fighter.state.reach_shift;
    ((min + shift).max(0), (max + shift).max(0))
}

/// Movement Increment of `squares` at `speed` (rounded up; a speed of 0 counts as 1).
pub fn increment(squares: i32, speed: i32) -> i32 {
    let speed = speed.max(1);
    squares.max(0).saturating_add(speed - 1) / speed
}

/// A condition from the ARRGS combat chapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsCondition))]
#[serde(tag = "condition", rename_all = "snake_case")]
pub enum Condition {
    Dead,
    Dying { applications: u32 },
    Disabled,
    Unconscious,
    Staggered { applications: u32 },
    Prone,
    Surprised,
}

impl Condition {
    pub fn label(self) -> String {
        match self {
            Self::Dead => "dead".into(),
            Self::Dying { applications } => format!("Dying [{applications}]"),
            Self::Disabled => "Disabled".into(),
            Self::Unconscious => "Unconscious".into(),
            Self::Staggered { applications } => format!("Staggered [{applications}]"),
            Self::Prone => "Prone".into(),
            Self::Surprised => "Surprised".into(),
        }
    }
}

/// A combatant's Vitality and conditions after an operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsStanding))]
pub struct Standing {
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub combatant_id: CombatantId,
    pub name: String,
    /// Current Vitality (absent when the stat block has no Vitality).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vitality: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_vitality: Option<i32>,
    pub conditions: Vec<Condition>,
}

impl Standing {
    /// e.g. "Vitality 4/20, Disabled".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let (Some(now), Some(total)) = (self.vitality, self.total_vitality) {
            parts.push(format!("Vitality {now}/{total}"));
        }
        parts.extend(self.conditions.iter().map(|c| c.label()));
        parts.join(", ")
    }
}

/// Whether a character with this stat block and combat state is dead: Current Vitality at its
/// negative Total Vitality (arrgs.txt, "Death"; see [`Fighter::is_dead`]).
pub fn is_dead(stats: &Stats, state: &CombatState) -> bool {
    let current = stats.starting_vitality().unwrap_or(0).saturating_sub(state.vitality_lost);
    stats.vitality.is_some_and(|total| current <= -total.get())
}
