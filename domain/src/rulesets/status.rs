//! What a combatant is now, in one ruleset-neutral shape a bot can print (issue 27, item 2):
//! health now and at most in the ruleset's own terms, the conditions derived from it and the
//! encounter's effects on the combatant with their remaining duration, what it may still do this
//! turn or round, and a one-line summary.
//!
//! Each ruleset supplies the part its rules decide ([`RulesetStatus`], from
//! [`Ruleset::status`](super::Ruleset::status)); the effects and the summary line are added here,
//! once for all rulesets ([`status_of`]).

use crate::encounter::{Combatant, Effect, Encounter, Expiry};
use serde::Serialize;

/// One health track in the ruleset's own terms (Wounds, Vitality, a characteristic, …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct HealthTrack {
    /// Stable machine name, e.g. `vitality`, `wounds`, `end`.
    pub code: String,
    /// As the rule text names it, e.g. "Vitality".
    pub name: String,
    /// The value now (may be negative where the rules allow it, e.g. ARRGS Vitality).
    pub current: i32,
    /// The value at full health; absent for a track that only counts up (e.g. damage taken).
    pub maximum: Option<i32>,
}

impl HealthTrack {
    pub fn new(code: &str, name: &str, current: i32, maximum: Option<i32>) -> Self {
        Self { code: code.into(), name: name.into(), current, maximum }
    }

    /// e.g. "Vitality -2/20", or "Damage taken 7" without a maximum.
    pub fn label(&self) -> String {
        match self.maximum {
            Some(maximum) => format!("{} {}/{maximum}", self.name, self.current),
            None => format!("{} {}", self.name, self.current),
        }
    }
}

/// Where a condition comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ConditionSource {
    /// Derived by the ruleset from health and combat state.
    Derived,
    /// An effect recorded on the encounter (`POST /v1/encounters/{id}/effects` or a ruleset
    /// operation) naming this combatant as its target.
    Effect,
}

/// When an effect-borne condition ends, as the generic effect engine counts it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct ConditionRemaining {
    /// The moment it ends at: `start_of_turn`, `end_of_turn`, `end_of_round` or
    /// `end_of_encounter`.
    pub ends: String,
    /// For `start_of_turn` / `end_of_turn`: whose turn.
    pub combatant_id: Option<String>,
    /// How many of those moments are still to pass (1: at the next one); absent for
    /// `end_of_encounter`.
    pub count: Option<u32>,
}

/// One condition the combatant has now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct StatusCondition {
    /// Stable machine name, e.g. `disabled`, `dying`, `unconscious`; for an effect, `effect`.
    pub code: String,
    /// As the rule text (or the effect) names it, e.g. "Dying".
    pub name: String,
    pub source: ConditionSource,
    /// The condition's number where it has one (e.g. ARRGS "Dying [2]" → 2).
    pub value: Option<i32>,
    /// For an effect: its id.
    pub effect_id: Option<String>,
    /// For an effect: when it ends.
    pub remaining: Option<ConditionRemaining>,
}

impl StatusCondition {
    pub fn derived(code: &str, name: &str, value: Option<i32>) -> Self {
        Self {
            code: code.into(),
            name: name.into(),
            source: ConditionSource::Derived,
            value,
            effect_id: None,
            remaining: None,
        }
    }

    /// An effect on the combatant, with what the effect engine knows of its end.
    pub fn of_effect(effect: &Effect) -> Self {
        let (ends, combatant_id, count) = match &effect.expiry {
            Expiry::StartOfTurn { combatant_id, remaining } => {
                ("start_of_turn", Some(combatant_id.0.clone()), Some(*remaining))
            }
            Expiry::EndOfTurn { combatant_id, remaining } => {
                ("end_of_turn", Some(combatant_id.0.clone()), Some(*remaining))
            }
            Expiry::EndOfRound { remaining } => ("end_of_round", None, Some(*remaining)),
            Expiry::EndOfEncounter => ("end_of_encounter", None, None),
        };
        Self {
            code: "effect".into(),
            name: effect.name.clone(),
            source: ConditionSource::Effect,
            value: None,
            effect_id: Some(effect.id.0.clone()),
            remaining: Some(ConditionRemaining { ends: ends.into(), combatant_id, count }),
        }
    }

    /// e.g. "Dying 1", "Disabled".
    pub fn label(&self) -> String {
        match self.value {
            Some(value) => format!("{} {value}", self.name),
            None => self.name.clone(),
        }
    }
}

/// One kind of action (or point) the combatant may still use this turn or round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct ActionAllowance {
    /// Stable machine name, e.g. `action_points`, `half_actions`, `minor`.
    pub code: String,
    /// As the rule text names it, e.g. "Action Points".
    pub name: String,
    /// Still available now.
    pub remaining: i32,
    /// The allotment it was counted from, when the ruleset has one.
    pub maximum: Option<i32>,
}

impl ActionAllowance {
    pub fn new(code: &str, name: &str, remaining: i32, maximum: Option<i32>) -> Self {
        Self { code: code.into(), name: name.into(), remaining, maximum }
    }
}

/// What a ruleset decides of a combatant's status from its stat block and combat state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RulesetStatus {
    pub health: Vec<HealthTrack>,
    /// Derived conditions only; the effects are added by [`status_of`].
    pub conditions: Vec<StatusCondition>,
    pub actions: Vec<ActionAllowance>,
    /// Whether the rules let it take any action now (false when dead, unconscious, …).
    pub can_act: bool,
}

/// Where in the fight the status is read: what a ruleset whose counters reset by round or by
/// turn needs to know to tell stale counters from current ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatusContext {
    /// The encounter's round (0 during setup).
    pub round: u32,
    /// It is this combatant's turn.
    pub own_turn: bool,
    /// It has had (or skipped) its turn this round.
    pub acted_this_round: bool,
    /// Flagged surprised.
    pub surprised: bool,
    /// Round 1 of an encounter in which someone is surprised.
    pub surprise_round: bool,
    /// Flagged defeated (out of the fight).
    pub defeated: bool,
}

impl StatusContext {
    pub fn of(encounter: &Encounter, combatant: &Combatant) -> Self {
        Self {
            round: encounter.round,
            own_turn: encounter.current.as_ref() == Some(&combatant.id),
            acted_this_round: combatant.acted_this_round,
            surprised: combatant.flags.surprised,
            surprise_round: encounter.round == 1 && encounter.combatants.iter().any(|c| c.flags.surprised),
            defeated: combatant.flags.defeated,
        }
    }
}

/// A combatant's status: health, conditions (derived, then effects), allowances and a summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct CombatantStatus {
    /// Health now and at most, in the ruleset's own terms.
    pub health: Vec<HealthTrack>,
    /// Derived conditions first (rule order), then effects on the combatant (oldest first).
    pub conditions: Vec<StatusCondition>,
    /// What it may still use this turn or round.
    pub actions: Vec<ActionAllowance>,
    /// Whether it may take any action now: the ruleset's answer, false when defeated.
    pub can_act: bool,
    /// One line, e.g. "Rook: Vitality -2/20, Disabled, Dying 1".
    pub summary: String,
}

/// The status of `combatant` in `encounter`, counting only the effects in `effects` (the caller
/// passes the encounter's effects, or those a viewer may see).
pub fn status_with_effects<'a>(
    encounter: &Encounter,
    combatant: &Combatant,
    effects: impl IntoIterator<Item = &'a Effect>,
) -> CombatantStatus {
    let context = StatusContext::of(encounter, combatant);
    let ruleset = combatant.stats.status(&combatant.state, &context);
    let mut conditions = ruleset.conditions;
    if context.defeated {
        conditions.push(StatusCondition::derived("defeated", "Defeated", None));
    }
    conditions.extend(
        effects
            .into_iter()
            .filter(|e| e.target.as_ref() == Some(&combatant.id))
            .map(StatusCondition::of_effect),
    );
    let summary = summary(&combatant.name, &ruleset.health, &conditions);
    CombatantStatus {
        health: ruleset.health,
        conditions,
        actions: ruleset.actions,
        can_act: ruleset.can_act && !context.defeated,
        summary,
    }
}

/// The status of `combatant` with every effect of the encounter.
pub fn status_of(encounter: &Encounter, combatant: &Combatant) -> CombatantStatus {
    status_with_effects(encounter, combatant, &encounter.effects)
}

/// "Name: track, track, condition, condition". A track without a maximum (a count such as
/// fatigue or damage taken) is left out of the line while it is 0; with nothing left to say the
/// line is "Name: unhurt", or "Name: no health tracked" when the ruleset tracks none.
pub fn summary(name: &str, health: &[HealthTrack], conditions: &[StatusCondition]) -> String {
    let parts: Vec<String> = health
        .iter()
        .filter(|track| track.maximum.is_some() || track.current != 0)
        .map(HealthTrack::label)
        .chain(conditions.iter().map(StatusCondition::label))
        .collect();
    match (parts.is_empty(), health.is_empty()) {
        (false, _) => format!("{name}: {}", parts.join(", ")),
        (true, true) => format!("{name}: no health tracked"),
        (true, false) => format!("{name}: unhurt"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_lists_tracks_then_conditions() {
        let health = [HealthTrack::new("vitality", "Vitality", -2, Some(20))];
        let conditions = [
            StatusCondition::derived("disabled", "Disabled", None),
            StatusCondition::derived("dying", "Dying", Some(1)),
        ];
        assert_eq!(summary("Rook", &health, &conditions), "Rook: Vitality -2/20, Disabled, Dying 1");
        assert_eq!(summary("Rook", &[], &[]), "Rook: no health tracked");
        let counts = [
            HealthTrack::new("fatigue", "Fatigue", 0, None),
            HealthTrack::new("degrees", "Degrees", 1, None),
        ];
        assert_eq!(summary("Ana", &counts, &[]), "Ana: Degrees 1");
        assert_eq!(summary("Ana", &counts[..1], &[]), "Ana: unhurt");
    }
}
