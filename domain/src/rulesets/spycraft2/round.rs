//! The end of a round: Step 6 (fluid initiative) for everyone, then the round's one-round state
//! is cleared so Step 7's next round runs in the revised order (spycraft2.txt, "Step 6: Fluid
//! Initiative Modifiers", "Step 7: Repeat Steps 5 and 6").
//!
//! Ties the revision creates are broken then, with the advance's dice ("Step 5": equal Counts go
//! to the higher Initiative bonus, then a 1d20 roll-off, re-rolling ties): a combatant whose Count
//! changed has left the place its last roll-off gave it, so it rolls afresh against whoever it
//! now ties with (docs/rulesets/spycraft2.md, "Ties the fluid Counts create").

use super::state::{state_of, store};
use super::fluid::{CountChange, CountConsequence, settle};
use super::{Report, Spycraft2};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event, break_ties, turn_order};
use crate::rulesets::{Registered, Summary, set_initiative};
use serde::{Deserialize, Serialize};

/// One place in the acting order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2OrderEntry))]
pub struct OrderEntry {
    pub combatant_id: CombatantId,
    pub name: String,
    pub count: i32,
}

/// Every combatant with a Count, in acting order.
pub fn order(encounter: &Encounter) -> Vec<OrderEntry> {
    turn_order(encounter)
        .into_iter()
        .map(|slot| OrderEntry { combatant_id: slot.combatant_id, name: slot.name, count: slot.score })
        .collect()
}

/// What the end of a round did to every Count, and the order of the next round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2RoundReport))]
pub struct RoundReport {
    pub round: u32,
    pub changes: Vec<CountChange>,
    /// The revised order the next round runs in.
    pub order: Vec<OrderEntry>,
}

impl Summary for RoundReport {
    fn summary(&self) -> String {
        let moved: Vec<String> = self
            .changes
            .iter()
            .filter(|c| c.from != c.to)
            .map(|c| format!("{} {} → {}", c.name, c.from, c.to))
            .collect();
        let order: Vec<&str> = self.order.iter().map(|o| o.name.as_str()).collect();
        let moved = if moved.is_empty() { "no Count changed".to_owned() } else { moved.join(", ") };
        format!("End of round {}: {moved}; next round: {}", self.round, order.join(", "))
    }
}

/// The reason written on the `initiative_changed` event: every row, the cap and what followed.
fn reason(change: &CountChange) -> String {
    let mut parts: Vec<String> = change.entries.iter().map(|e| format!("{} {:+}", e.reason, e.value)).collect();
    if change.capped_total != change.table_total {
        parts.push(format!("table total {:+} held to {:+}", change.table_total, change.capped_total));
    }
    match change.consequence {
        CountConsequence::PressRequired => parts.push("Count 50+: the next round's first action must be a Press".into()),
        CountConsequence::Reeling { from, raised_to } => parts.push(format!(
            "Count {from} (0 or less): reeling, flat-footed, then raised to {raised_to}"
        )),
        CountConsequence::None => {}
    }
    format!("fluid initiative: {}", parts.join("; "))
}

/// Settles every combatant's round: the table's rows (conditions still held included), the cap,
/// Press, and the 50+ and 0-or-less rules; then clears the round's actions and rows, and rolls
/// off (with `dice`) the ties the new Counts create.
pub fn end_of_round(encounter: &mut Encounter, events: &mut Vec<Event>, dice: &mut Dice) -> Result<(), EncounterError> {
    let round = encounter.round;
    let mut changes = Vec::new();
    let ids: Vec<CombatantId> = encounter.combatants.iter().map(|c| c.id.clone()).collect();
    for id in ids {
        let Some(combatant) = encounter.combatant(&id) else { continue };
        let Some(from) = combatant.initiative.as_ref().map(|i| i.score) else { continue };
        let name = combatant.name.clone();
        if <Spycraft2 as Registered>::stats(&combatant.stats).is_none() {
            continue;
        }
        let mut state = state_of(encounter, &id).cloned().unwrap_or_default();
        // Held conditions add their once-per-round row; a full list (200 rows) just stops adding.
        let _ = state.record_conditions();
        let (table_total, capped_total, press_total, consequence, to) = settle(from, &state.fluid);
        if state.reeling_since_round.is_some_and(|since| since < round) {
            state.reeling = false;
            state.reeling_since_round = None;
        }
        state.press_required = consequence == CountConsequence::PressRequired;
        if let CountConsequence::Reeling { .. } = consequence {
            state.reeling = true;
            state.reeling_since_round = Some(round);
            state.flat_footed = true;
        }
        let change = CountChange {
            combatant_id: id.to_string(),
            name,
            from,
            entries: std::mem::take(&mut state.fluid),
            table_total,
            capped_total,
            press_total,
            consequence,
            to,
        };
        state.new_round();
        store(encounter, &id, state);
        set_initiative(encounter, &id, to, &reason(&change), events);
        if from != to {
            forget_roll_off(encounter, &id);
        }
        changes.push(change);
    }
    let mut tie_events = Vec::new();
    break_ties(encounter, dice, &mut tie_events)?;
    let report = RoundReport { round, changes, order: order(encounter) };
    if let Some(first) = encounter.combatants.first().map(|c| c.id.clone()) {
        events.push(Event::ActionTaken {
            combatant_id: first,
            action: "end_of_round".into(),
            report: Spycraft2::report(Report::Round(Box::new(report))),
            dice: Vec::new(),
        });
    }
    events.extend(tie_events);
    Ok(())
}

/// A Count that moved leaves its old roll-off behind: the next tie at the new Count is rolled.
fn forget_roll_off(encounter: &mut Encounter, id: &CombatantId) {
    if let Some(initiative) = encounter.combatant_mut(id).and_then(|c| c.initiative.as_mut()) {
        initiative.roll_off.clear();
    }
}

#[cfg(test)]
#[path = "round_tests.rs"]
mod tests;
