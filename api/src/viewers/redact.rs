//! What a viewer may see of an encounter and its log.
//!
//! A hidden combatant is absent from everything: the combatant list, the turn order, the
//! current turn, effects that name it, and events that name it. Whether a combatant is named is
//! decided by scanning for combatant ids (`cmb_…`, always made by the server) in the rendered
//! JSON, so an event or effect kind added later is covered without a rule of its own; an event
//! whose summary contains a hidden combatant's name is withheld too. Events that name a
//! combatant no longer in the encounter are withheld as well, since whether it was hidden is
//! no longer known. Stat blocks, ruleset state, status (health, conditions, what it may still do:
//! issue 27) and initiative explanations are GM-only unless the combatant is public (a public
//! combatant's status lists only the effects the viewer sees); an event naming a non-public combatant keeps its summary but not
//! its `data`.

use crate::wire::{
    CurrentTurn, EffectResponse, EventResponse, StateJson, TurnSlotResponse, ViewerCombatant,
    ViewerEncounterResponse, ViewerEventResponse, ViewerInitiative,
};
use serde_json::Value;
use skirmish_db::{StoredEncounter, StoredEvent};
use skirmish_domain::encounter::{Combatant, Effect, Encounter, turn_order};
use skirmish_domain::rulesets::status::status_with_effects;
use std::collections::HashMap;

/// The prefix of every combatant id.
const COMBATANT_ID_PREFIX: &str = "cmb_";

/// Which combatants a viewer sees, and which of them are public.
#[derive(Debug, Clone, Default)]
pub struct Visibility {
    /// Visible combatant id → public.
    shown: HashMap<String, bool>,
    hidden_names: Vec<String>,
}

/// How much of something naming combatants a viewer may see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// Names only public combatants (or none).
    Fully,
    /// Names a visible combatant that is not public.
    WithoutDetails,
    /// Names a hidden or unknown combatant.
    Not,
}

impl Visibility {
    pub fn of(encounter: &Encounter) -> Self {
        let (shown, hidden): (Vec<&Combatant>, Vec<&Combatant>) =
            encounter.combatants.iter().partition(|c| !c.flags.hidden);
        Self {
            shown: shown.into_iter().map(|c| (c.id.0.clone(), c.flags.public)).collect(),
            hidden_names: hidden.into_iter().map(|c| c.name.clone()).collect(),
        }
    }

    pub fn shows(&self, combatant_id: &str) -> bool {
        self.shown.contains_key(combatant_id)
    }

    /// How much of `value` (rendered JSON) may be seen, by the combatants it names.
    pub fn judge(&self, value: &Value) -> Seen {
        let mut seen = Seen::Fully;
        for id in named_combatants(value) {
            match self.shown.get(id) {
                None => return Seen::Not,
                Some(false) => seen = Seen::WithoutDetails,
                Some(true) => {}
            }
        }
        seen
    }

    fn names_hidden(&self, text: &str) -> bool {
        self.hidden_names.iter().any(|name| text.contains(name.as_str()))
    }
}

/// Every combatant id in `value`, keys and values alike.
fn named_combatants(value: &Value) -> Vec<&str> {
    let mut found = Vec::new();
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::String(text) if text.starts_with(COMBATANT_ID_PREFIX) => found.push(text.as_str()),
            Value::Array(items) => pending.extend(items),
            Value::Object(fields) => {
                found
                    .extend(fields.keys().map(String::as_str).filter(|k| k.starts_with(COMBATANT_ID_PREFIX)));
                pending.extend(fields.values());
            }
            _ => {}
        }
    }
    found
}

/// The event as a viewer sees it, or `None` when it must not see it at all.
pub fn viewer_event(visibility: &Visibility, event: StoredEvent) -> Option<ViewerEventResponse> {
    let event = EventResponse::from(event);
    let seen = visibility.judge(&event.data);
    if seen == Seen::Not || visibility.names_hidden(&event.summary) {
        return None;
    }
    let data = (seen == Seen::Fully).then_some(event.data);
    Some(ViewerEventResponse { seq: event.seq, at: event.at, kind: event.kind, summary: event.summary, data })
}

/// The encounter as a viewer sees it.
pub fn viewer_encounter(stored: StoredEncounter) -> ViewerEncounterResponse {
    let encounter = stored.encounter;
    let visibility = Visibility::of(&encounter);
    let turn_order = visible_turn_order(&encounter, &visibility);
    let current_turn = encounter
        .current
        .as_ref()
        .filter(|id| visibility.shows(id.as_str()))
        .map(|id| CurrentTurn { combatant_id: id.0.clone(), name: encounter.name_of(id) });
    let seen_effects: Vec<&Effect> = encounter
        .effects
        .iter()
        .filter(|effect| {
            let rendered =
                serde_json::to_value(EffectResponse::from((*effect).clone())).unwrap_or(Value::Null);
            visibility.judge(&rendered) != Seen::Not && !visibility.names_hidden(&effect.name)
        })
        .collect();
    let effects = seen_effects.iter().map(|effect| EffectResponse::from((*effect).clone())).collect();
    let combatants = encounter
        .combatants
        .iter()
        .filter(|c| !c.flags.hidden)
        .map(|c| viewer_combatant(&encounter, c, &seen_effects))
        .collect();
    ViewerEncounterResponse {
        id: encounter.id.0.clone(),
        ruleset: encounter.ruleset,
        name: encounter.name.clone(),
        status: encounter.status.into(),
        round: encounter.round,
        current_turn,
        version: encounter.version,
        updated_at: stored.updated_at,
        combatants,
        turn_order,
        effects,
    }
}

/// A visible combatant as a viewer sees it; its status (like its state) only when it is public,
/// counting only the effects the viewer sees.
fn viewer_combatant(
    encounter: &Encounter,
    combatant: &Combatant,
    seen_effects: &[&Effect],
) -> ViewerCombatant {
    let public = combatant.flags.public;
    ViewerCombatant {
        id: combatant.id.0.clone(),
        ruleset: combatant.stats.ruleset(),
        name: combatant.name.clone(),
        side: combatant.side.clone(),
        public,
        initiative: combatant.initiative.as_ref().map(|i| ViewerInitiative {
            score: i.score,
            roll_off: i.roll_off.clone(),
            explanation: public.then(|| i.explanation.clone()),
        }),
        surprised: combatant.flags.surprised,
        defeated: combatant.flags.defeated,
        acted_this_round: combatant.acted_this_round,
        delaying: combatant.delaying,
        stats: public.then(|| combatant.stats.clone()),
        // Rulesets that keep no state have nothing to show.
        state: public.then(|| StateJson(combatant.state.clone())).filter(|state| !state.is_empty()),
        status: public.then(|| status_with_effects(encounter, combatant, seen_effects.iter().copied())),
    }
}

/// The turn order without hidden combatants, its slots renumbered 1, 2, … so that no gap
/// betrays one, and `simultaneous` only where two visible combatants share a slot.
fn visible_turn_order(encounter: &Encounter, visibility: &Visibility) -> Vec<TurnSlotResponse> {
    let slots: Vec<_> =
        turn_order(encounter).into_iter().filter(|s| visibility.shows(s.combatant_id.as_str())).collect();
    let mut renumbered: Vec<TurnSlotResponse> = Vec::with_capacity(slots.len());
    let mut previous_slot = None;
    for slot in slots {
        let shares = previous_slot == Some(slot.slot);
        previous_slot = Some(slot.slot);
        let mut response = TurnSlotResponse::from(slot);
        response.slot = match renumbered.last_mut() {
            Some(last) if shares => {
                last.simultaneous = true;
                last.slot
            }
            Some(last) => last.slot + 1,
            None => 1,
        };
        response.simultaneous = shares;
        renumbered.push(response);
    }
    renumbered
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn visibility() -> Visibility {
        let shown = [("cmb_pub".to_owned(), true), ("cmb_gm".to_owned(), false)].into_iter().collect();
        Visibility { shown, hidden_names: vec!["Assassin".into()] }
    }

    fn event(data: Value, summary: &str) -> StoredEvent {
        let mut data = data;
        data["summary"] = json!(summary);
        StoredEvent { seq: 3, kind: "attack".into(), data, created_at: "T".into() }
    }

    #[test]
    fn an_event_naming_only_public_combatants_keeps_its_data() {
        let seen = viewer_event(&visibility(), event(json!({"attacker_id": "cmb_pub"}), "Hicks attacks"));

        assert_eq!(seen.and_then(|e| e.data), Some(json!({"attacker_id": "cmb_pub"})));
    }

    #[test]
    fn an_event_naming_a_gm_only_combatant_keeps_its_summary_without_data() {
        let data = json!({"attacker_id": "cmb_pub", "target": {"id": "cmb_gm"}});

        let seen = viewer_event(&visibility(), event(data, "Hicks hits the goblin")).expect("shown");

        assert_eq!((seen.summary.as_str(), seen.data), ("Hicks hits the goblin", None));
    }

    #[test]
    fn an_event_naming_a_hidden_or_unknown_combatant_or_a_hidden_name_is_withheld() {
        let cases = [
            (json!({"dice": [{"purpose": "x"}], "ids": ["cmb_pub", "cmb_hidden"]}), "Hicks attacks"),
            (json!({"by_combatant": {"cmb_gone": 3}}), "Round 2"),
            (json!({}), "The Assassin strikes"),
        ];
        for (data, summary) in cases {
            assert!(viewer_event(&visibility(), event(data.clone(), summary)).is_none(), "{data} {summary}");
        }
    }
}
