//! Conditions and effects with durations. An effect may recur (fire as a reminder at a chosen
//! moment) and expires at the start or end of a chosen combatant's turn, at the end of a round,
//! after N rounds, or with the encounter. At each moment, recurring effects fire first, then
//! durations count down, so "3 turns of bleeding at the start of its turn" fires three times.

use super::error::EncounterError;
use super::events::Event;
use super::model::{CombatantId, EffectId, Encounter, EncounterStatus, MAX_EFFECTS, validate_name};
use crate::rulesets::receiving::{self, Delivery, Receipt};
use serde::{Deserialize, Serialize};

/// Longest count an expiry may carry (turns or rounds).
pub const MAX_DURATION: u32 = 10_000;

/// A point in the flow of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "at", rename_all = "snake_case")]
pub enum Moment {
    StartOfRound,
    EndOfRound,
    StartOfTurn { combatant_id: CombatantId },
    EndOfTurn { combatant_id: CombatantId },
}

/// When an effect ends. `remaining` counts the matching moments still to pass: 1 means "at the
/// next one", 3 means "at the third one from now".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "ends", rename_all = "snake_case")]
pub enum Expiry {
    StartOfTurn {
        combatant_id: CombatantId,
        remaining: u32,
    },
    EndOfTurn {
        combatant_id: CombatantId,
        remaining: u32,
    },
    /// "At the end of the round" is `remaining: 1`; "after N rounds" is `remaining: N`.
    EndOfRound {
        remaining: u32,
    },
    EndOfEncounter,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct Effect {
    pub id: EffectId,
    pub name: String,
    /// The combatant the effect is on, if any.
    pub target: Option<CombatantId>,
    /// The combatant that caused it, if any.
    pub source: Option<CombatantId>,
    pub note: Option<String>,
    /// A moment at which the effect recurs (e.g. damage at the start of the target's turn).
    pub fires_at: Option<Moment>,
    pub expiry: Expiry,
    /// The round in which it was applied (0 during setup).
    pub applied_round: u32,
}

/// An effect as a client asks for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEffect {
    pub id: EffectId,
    pub name: String,
    pub target: Option<CombatantId>,
    pub source: Option<CombatantId>,
    pub note: Option<String>,
    pub fires_at: Option<Moment>,
    pub expiry: Expiry,
}

impl Expiry {
    fn matches(&self, moment: &Moment) -> bool {
        match (self, moment) {
            (Self::StartOfTurn { combatant_id: a, .. }, Moment::StartOfTurn { combatant_id: b })
            | (Self::EndOfTurn { combatant_id: a, .. }, Moment::EndOfTurn { combatant_id: b }) => a == b,
            (Self::EndOfRound { .. }, Moment::EndOfRound) => true,
            _ => false,
        }
    }

    fn remaining(&self) -> Option<u32> {
        match self {
            Self::StartOfTurn { remaining, .. }
            | Self::EndOfTurn { remaining, .. }
            | Self::EndOfRound { remaining } => Some(*remaining),
            Self::EndOfEncounter => None,
        }
    }

    fn remaining_mut(&mut self) -> Option<&mut u32> {
        match self {
            Self::StartOfTurn { remaining, .. }
            | Self::EndOfTurn { remaining, .. }
            | Self::EndOfRound { remaining } => Some(remaining),
            Self::EndOfEncounter => None,
        }
    }

    fn combatant(&self) -> Option<&CombatantId> {
        match self {
            Self::StartOfTurn { combatant_id, .. } | Self::EndOfTurn { combatant_id, .. } => {
                Some(combatant_id)
            }
            Self::EndOfRound { .. } | Self::EndOfEncounter => None,
        }
    }
}

impl Moment {
    fn combatant(&self) -> Option<&CombatantId> {
        match self {
            Self::StartOfTurn { combatant_id } | Self::EndOfTurn { combatant_id } => Some(combatant_id),
            Self::StartOfRound | Self::EndOfRound => None,
        }
    }
}

impl Effect {
    /// Whether the effect names this combatant anywhere (target, source, or its timing).
    fn involves(&self, id: &CombatantId) -> bool {
        self.target.as_ref() == Some(id)
            || self.source.as_ref() == Some(id)
            || self.expiry.combatant() == Some(id)
            || self.fires_at.as_ref().and_then(Moment::combatant) == Some(id)
    }
}

/// Puts an effect on the encounter.
pub fn add_effect(encounter: &mut Encounter, new: NewEffect) -> Result<Vec<Event>, EncounterError> {
    validate_new_effect(encounter, &new)?;
    let effect = Effect {
        id: new.id,
        name: new.name,
        target: new.target,
        source: new.source,
        note: new.note,
        fires_at: new.fires_at,
        expiry: new.expiry,
        applied_round: encounter.round,
    };
    encounter.effects.push(effect.clone());
    Ok(vec![Event::EffectAdded { effect }])
}

fn validate_new_effect(encounter: &Encounter, new: &NewEffect) -> Result<(), EncounterError> {
    if encounter.status == EncounterStatus::Ended {
        return Err(EncounterError::Conflict("the encounter has ended".into()));
    }
    if encounter.effects.len() >= MAX_EFFECTS {
        return Err(EncounterError::invalid(
            "effects",
            format!("at most {MAX_EFFECTS} effects per encounter"),
        ));
    }
    validate_name("name", &new.name)?;
    if new.note.as_ref().is_some_and(|note| note.chars().count() > 1000) {
        return Err(EncounterError::invalid("note", "must be at most 1000 characters"));
    }
    let named = [
        ("target_id", new.target.as_ref()),
        ("source_id", new.source.as_ref()),
        ("ends.combatant_id", new.expiry.combatant()),
        ("fires_at.combatant_id", new.fires_at.as_ref().and_then(Moment::combatant)),
    ];
    for (field, id) in named {
        if let Some(id) = id.filter(|id| encounter.combatant(id).is_none()) {
            return Err(EncounterError::invalid(field, format!("combatant '{id}' is not in this encounter")));
        }
    }
    if let Some(remaining) = new.expiry.remaining()
        && !(1..=MAX_DURATION).contains(&remaining)
    {
        return Err(EncounterError::invalid("ends", format!("the count must be 1 to {MAX_DURATION}")));
    }
    // The effect's target receives a condition: its ruleset's one rule for the dead answers.
    if let Some(target) = &new.target {
        receiving::check(encounter, &Delivery::new(target, "target_id", Receipt::Condition))?;
    }
    Ok(())
}

/// Takes an effect off the encounter before its time.
pub fn remove_effect(encounter: &mut Encounter, id: &EffectId) -> Result<Vec<Event>, EncounterError> {
    let index = encounter
        .effects
        .iter()
        .position(|e| &e.id == id)
        .ok_or_else(|| EncounterError::UnknownEffect(id.clone()))?;
    let effect = encounter.effects.remove(index);
    Ok(vec![Event::EffectRemoved { effect_id: effect.id, name: effect.name }])
}

/// Passes one moment: recurring effects due now fire, then matching durations count down and
/// the ones that reach zero expire.
pub(crate) fn pass_moment(encounter: &mut Encounter, moment: &Moment, events: &mut Vec<Event>) {
    for effect in encounter.effects.iter().filter(|e| e.fires_at.as_ref() == Some(moment)) {
        events.push(Event::EffectFired {
            effect_id: effect.id.clone(),
            name: effect.name.clone(),
            moment: moment.clone(),
        });
    }
    let mut kept = Vec::with_capacity(encounter.effects.len());
    for mut effect in std::mem::take(&mut encounter.effects) {
        let expired = effect.expiry.matches(moment)
            && effect.expiry.remaining_mut().is_some_and(|remaining| {
                *remaining -= 1;
                *remaining == 0
            });
        if expired {
            let reason = describe(moment, encounter);
            events.push(Event::EffectExpired { effect_id: effect.id, name: effect.name, reason });
        } else {
            kept.push(effect);
        }
    }
    encounter.effects = kept;
}

/// Ends every effect (the encounter is over).
pub(crate) fn expire_all(encounter: &mut Encounter, reason: &str, events: &mut Vec<Event>) {
    for effect in std::mem::take(&mut encounter.effects) {
        events.push(Event::EffectExpired { effect_id: effect.id, name: effect.name, reason: reason.into() });
    }
}

/// Ends the effects that name a combatant who leaves the encounter.
pub(crate) fn expire_involving(encounter: &mut Encounter, id: &CombatantId, events: &mut Vec<Event>) {
    let (gone, kept): (Vec<_>, Vec<_>) =
        std::mem::take(&mut encounter.effects).into_iter().partition(|e| e.involves(id));
    encounter.effects = kept;
    for effect in gone {
        let reason = format!("combatant '{id}' left the encounter");
        events.push(Event::EffectExpired { effect_id: effect.id, name: effect.name, reason });
    }
}

fn describe(moment: &Moment, encounter: &Encounter) -> String {
    match moment {
        Moment::StartOfRound => format!("start of round {}", encounter.round),
        Moment::EndOfRound => format!("end of round {}", encounter.round),
        Moment::StartOfTurn { combatant_id } => {
            format!("start of {}'s turn", encounter.name_of(combatant_id))
        }
        Moment::EndOfTurn { combatant_id } => format!("end of {}'s turn", encounter.name_of(combatant_id)),
    }
}
