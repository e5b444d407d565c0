//! Row types and their conversion to and from domain types. Common fields are columns; the
//! ruleset's stat block and effects are JSON text.

use crate::error::DbError;
use crate::schema::{combatants, effects, encounters, events};
use diesel::prelude::*;
use skirmish_domain::encounter::{
    Combatant, CombatantId, Effect, Encounter, EncounterId, EncounterStatus, Event, Flags, Initiative,
};
use skirmish_domain::rulesets::RulesetId;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = encounters)]
pub(crate) struct EncounterRow {
    pub id: String,
    pub ruleset: String,
    pub name: String,
    pub status: String,
    pub round: i32,
    pub current_combatant: Option<String>,
    pub version: i64,
    pub created_at: String,
    pub updated_at: String,
    pub options: String,
}

/// A new encounter row: its state and the tenant that owns it.
#[derive(Debug, Insertable)]
#[diesel(table_name = encounters)]
pub(crate) struct NewEncounterRow<'a> {
    #[diesel(embed)]
    pub state: EncounterChanges<'a>,
    pub tenant: &'a str,
}

#[derive(Debug, Insertable, AsChangeset)]
#[diesel(table_name = encounters, treat_none_as_null = true)]
pub(crate) struct EncounterChanges<'a> {
    pub id: &'a str,
    pub ruleset: &'a str,
    pub name: &'a str,
    pub status: &'a str,
    pub round: i32,
    pub current_combatant: Option<&'a str>,
    pub version: i64,
    pub options: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, serde::Serialize, serde::Deserialize)]
#[diesel(table_name = combatants)]
pub(crate) struct CombatantRow {
    pub encounter_id: String,
    pub id: String,
    pub position: i32,
    pub name: String,
    pub side: String,
    pub stats: String,
    pub initiative: Option<i32>,
    pub initiative_roll_off: String,
    pub initiative_explanation: Option<String>,
    pub surprised: bool,
    pub defeated: bool,
    pub hidden: bool,
    pub acted_this_round: bool,
    pub delaying: bool,
    pub state: String,
    /// Snapshots taken before the flag existed lack it.
    #[serde(default)]
    pub public: bool,
    /// The library creature it was added from; snapshots taken before the library lack it.
    #[serde(default)]
    pub creature_id: Option<String>,
    /// The group it shares initiative with; snapshots taken before groups lack it.
    #[serde(default)]
    pub group_name: Option<String>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, serde::Serialize, serde::Deserialize)]
#[diesel(table_name = effects)]
pub(crate) struct EffectRow {
    pub encounter_id: String,
    pub id: String,
    pub position: i32,
    pub data: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = events)]
pub(crate) struct EventRow {
    pub encounter_id: String,
    pub seq: i64,
    pub kind: String,
    pub data: String,
    pub created_at: String,
}

fn corrupt(what: &str, error: impl std::fmt::Display) -> DbError {
    DbError::Corrupt(format!("{what}: {error}"))
}

fn to_json<T: serde::Serialize>(what: &str, value: &T) -> Result<String, DbError> {
    serde_json::to_string(value).map_err(|e| corrupt(what, e))
}

fn count(what: &str, value: impl TryInto<i32>) -> Result<i32, DbError> {
    value.try_into().map_err(|_| DbError::Corrupt(format!("{what} does not fit a column")))
}

impl<'a> EncounterChanges<'a> {
    pub fn from_domain(encounter: &'a Encounter) -> Result<Self, DbError> {
        Ok(Self {
            id: encounter.id.as_str(),
            ruleset: encounter.ruleset.as_str(),
            name: &encounter.name,
            status: encounter.status.as_str(),
            round: count("round", encounter.round)?,
            current_combatant: encounter.current.as_ref().map(CombatantId::as_str),
            version: encounter.version,
            options: to_json("options", &encounter.options)?,
        })
    }
}

/// The row of the combatant at `position` in the encounter.
pub(crate) fn combatant_row(encounter: &Encounter, position: usize) -> Result<CombatantRow, DbError> {
    let c = encounter.combatants.get(position).ok_or_else(|| corrupt("combatant", position))?;
    Ok(CombatantRow {
        encounter_id: encounter.id.0.clone(),
        id: c.id.0.clone(),
        position: count("position", position)?,
        name: c.name.clone(),
        side: c.side.clone(),
        stats: to_json("stats", &c.stats)?,
        initiative: c.initiative.as_ref().map(|i| i.score),
        initiative_roll_off: to_json(
            "roll-off",
            &c.initiative.as_ref().map_or(&[][..], |i| &i.roll_off[..]),
        )?,
        initiative_explanation: c.initiative.as_ref().map(|i| i.explanation.clone()),
        surprised: c.flags.surprised,
        defeated: c.flags.defeated,
        hidden: c.flags.hidden,
        acted_this_round: c.acted_this_round,
        delaying: c.delaying,
        state: to_json("state", &c.state)?,
        public: c.flags.public,
        creature_id: c.creature_id.clone(),
        group_name: c.group.clone(),
    })
}

/// The row of the effect at `position` in the encounter.
pub(crate) fn effect_row(encounter: &Encounter, position: usize) -> Result<EffectRow, DbError> {
    let effect = encounter.effects.get(position).ok_or_else(|| corrupt("effect", position))?;
    Ok(EffectRow {
        encounter_id: encounter.id.0.clone(),
        id: effect.id.0.clone(),
        position: count("position", position)?,
        data: to_json("effect", effect)?,
    })
}

/// The row of an event stamped `now`, and the event as JSON (with its summary): serialised once,
/// for the row's text and for the answer.
pub(crate) fn event_row(
    encounter_id: &EncounterId,
    seq: i64,
    now: &str,
    event: &Event,
) -> Result<(EventRow, serde_json::Value), DbError> {
    let mut data = serde_json::to_value(event).map_err(|e| corrupt("event", e))?;
    if let Some(fields) = data.as_object_mut() {
        fields.insert("summary".into(), event.summary().into());
    }
    let kind = data.get("kind").and_then(|k| k.as_str()).unwrap_or("unknown").to_owned();
    let row = EventRow {
        encounter_id: encounter_id.0.clone(),
        seq,
        kind,
        // Straight into a buffer: the same text as `data.to_string()`, without `fmt`'s
        // per-piece writes.
        data: to_json("event", &data)?,
        created_at: now.to_owned(),
    };
    Ok((row, data))
}

fn parse_status(status: &str) -> Result<EncounterStatus, DbError> {
    match status {
        "setup" => Ok(EncounterStatus::Setup),
        "active" => Ok(EncounterStatus::Active),
        "ended" => Ok(EncounterStatus::Ended),
        other => Err(corrupt("status", other)),
    }
}

fn combatant_from_row(ruleset: RulesetId, row: CombatantRow) -> Result<Combatant, DbError> {
    let mut stats_json = serde_json::Deserializer::from_str(&row.stats);
    let stats = ruleset.deserialize_stats(&mut stats_json).map_err(|e| corrupt("stats", e))?;
    let roll_off: Vec<u32> =
        serde_json::from_str(&row.initiative_roll_off).map_err(|e| corrupt("roll-off", e))?;
    let initiative = row.initiative.map(|score| Initiative {
        score,
        roll_off,
        explanation: row.initiative_explanation.unwrap_or_default(),
    });
    Ok(Combatant {
        id: CombatantId(row.id),
        name: row.name,
        side: row.side,
        stats,
        initiative,
        flags: Flags {
            surprised: row.surprised,
            defeated: row.defeated,
            hidden: row.hidden,
            public: row.public,
        },
        acted_this_round: row.acted_this_round,
        delaying: row.delaying,
        state: serde_json::from_str(&row.state).map_err(|e| corrupt("state", e))?,
        creature_id: row.creature_id,
        group: row.group_name,
    })
}

/// Rebuilds the domain encounter from its rows (combatants and effects in position order).
pub(crate) fn encounter_from_rows(
    row: EncounterRow,
    combatant_rows: Vec<CombatantRow>,
    effect_rows: Vec<EffectRow>,
) -> Result<Encounter, DbError> {
    let ruleset: RulesetId = row.ruleset.parse().map_err(|e| corrupt("ruleset", e))?;
    let mut options_json = serde_json::Deserializer::from_str(&row.options);
    let options = ruleset.deserialize_options(&mut options_json).map_err(|e| corrupt("options", e))?;
    let combatants =
        combatant_rows.into_iter().map(|r| combatant_from_row(ruleset, r)).collect::<Result<Vec<_>, _>>()?;
    let effects = effect_rows
        .into_iter()
        .map(|r| serde_json::from_str::<Effect>(&r.data).map_err(|e| corrupt("effect", e)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Encounter {
        id: EncounterId(row.id),
        ruleset,
        name: row.name,
        status: parse_status(&row.status)?,
        round: u32::try_from(row.round).map_err(|e| corrupt("round", e))?,
        current: row.current_combatant.map(CombatantId),
        version: row.version,
        combatants,
        effects,
        options,
    })
}
