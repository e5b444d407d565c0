//! Shared by the arrgs HTTP tests: stat blocks, weapons, and small helpers to add combatants,
//! send an operation, check a refusal stored nothing, and read a combatant back.

use crate::helpers::{TestApp, spawn_app, text};
use serde_json::{Value, json};
use std::collections::HashMap;

/// Melee +6 (skill 4, Body 2), Reflex 12 (10 + skill 1 + Agility 1), Fortitude +3 (skill 1, Body 2),
/// passive Athletics 12 (Body 2). Initiative 15.
pub fn hero() -> Value {
    json!({"agility": 12, "initiative": 15, "vitality": 20, "abilities": {"body": 2, "agility": 1},
           "checks": {"melee": {"skill": 4}, "reflex": {"skill": 1}, "fortitude": {"skill": 1}}})
}

/// Spell +6 (skill 3, Intellect 3); 1 Additional Action Point. Initiative 12.
pub fn mage() -> Value {
    json!({"agility": 11, "initiative": 12, "vitality": 14, "abilities": {"intellect": 3}, "additional_action_points": 1,
           "checks": {"spell": {"skill": 3}}})
}

/// Reflex 12 (skill 2), Fortitude +3 and Athletics +3 (Body 3), DR 2/Slashing, vulnerable to Fire.
pub fn ogre() -> Value {
    json!({"agility": 8, "initiative": 10, "vitality": 40, "abilities": {"body": 3},
           "checks": {"melee": {"skill": 2}, "reflex": {"skill": 2}},
           "resistances": [{"type": "slashing", "value": 2}], "vulnerabilities": ["fire"]})
}

/// Reflex 12 (skill 2), every other check +0, 60 Vitality. Initiative 10.
pub fn troll() -> Value {
    json!({"agility": 8, "initiative": 10, "vitality": 60, "checks": {"reflex": {"skill": 2}}})
}

/// Base damage 4, Slashing, Critical Range 19–20.
pub fn sword() -> Value {
    json!({"name": "Longsword", "damage": 4, "types": ["slashing"], "critical_range": 19})
}

pub fn club() -> Value {
    json!({"name": "Club", "damage": 5, "types": ["bludgeoning"]})
}

pub fn firebolt() -> Value {
    json!({"name": "Firebolt", "kind": "spell", "damage": 5, "types": ["fire"], "spell_level": 1, "range_increment": 10})
}

pub async fn add(
    app: &TestApp,
    encounter: &str,
    name: &str,
    side: &str,
    stats: Value,
    surprised: bool,
) -> String {
    app.add_combatant_surprised(encounter, name, side, stats, surprised).await
}

pub async fn op(app: &TestApp, encounter: &str, name: &str, body: Value, what: &str) -> Value {
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/arrgs/{name}"), &body).await;
    reply.expect_status(200, what).body
}

pub async fn refused(
    app: &TestApp,
    encounter: &str,
    name: &str,
    body: Value,
    status: u16,
    field: Option<&str>,
    what: &str,
) {
    let before = app.snapshot(encounter).await;
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/arrgs/{name}"), &body).await;
    reply.assert_problem(status, field, what);
    assert_eq!(app.snapshot(encounter).await, before, "{what}: nothing stored");
}

/// A combatant as the encounter shows it (stats, state, flags).
pub async fn state(app: &TestApp, encounter: &str, id: &str) -> Value {
    let encounter = app.encounter(encounter).await;
    let combatants = encounter["combatants"].as_array().cloned().unwrap_or_default();
    combatants.into_iter().find(|c| c["id"] == json!(id)).unwrap_or_else(|| panic!("no {id}"))
}

/// Current Vitality from the stat block and the state.
pub async fn vitality(app: &TestApp, encounter: &str, id: &str) -> i64 {
    let combatant = state(app, encounter, id).await;
    let start =
        combatant["stats"]["current_vitality"].as_i64().or_else(|| combatant["stats"]["vitality"].as_i64());
    start.unwrap_or_default() - combatant["state"]["vitality_lost"].as_i64().unwrap_or_default()
}

pub fn naturals(reply: &Value) -> Vec<u64> {
    reply["dice"]
        .as_array()
        .map(|d| d.iter().map(|die| die["value"].as_u64().unwrap_or_default()).collect())
        .unwrap_or_default()
}

/// The codes of a check's modifiers with their values.
pub fn modifiers(check: &Value) -> Vec<(String, i64)> {
    let list = check["modifiers"].as_array().cloned().unwrap_or_default();
    list.iter().map(|m| (text(&m["code"]), m["value"].as_i64().unwrap_or_default())).collect()
}

/// An arrgs encounter of one-combatant sides, initiative rolled, the first turn begun.
pub struct Arena {
    pub app: TestApp,
    pub encounter: String,
    ids: HashMap<String, String>,
}

impl Arena {
    pub async fn new(combatants: &[(&str, Value)]) -> Self {
        let app = spawn_app().await;
        let encounter = app.create_encounter_id("arrgs", "Arena").await;
        let mut ids = HashMap::new();
        for (name, stats) in combatants {
            ids.insert((*name).to_owned(), add(&app, &encounter, name, name, stats.clone(), false).await);
        }
        app.roll_initiative(&encounter, json!({})).await;
        app.advance(&encounter, "next_turn").await;
        Self { app, encounter, ids }
    }

    pub fn id(&self, name: &str) -> String {
        self.ids.get(name).cloned().unwrap_or_else(|| panic!("no {name}"))
    }

    pub async fn op(&self, name: &str, body: Value, what: &str) -> Value {
        op(&self.app, &self.encounter, name, body, what).await
    }

    pub async fn refused(&self, name: &str, body: Value, field: &str, what: &str) {
        refused(&self.app, &self.encounter, name, body, 422, Some(field), what).await;
    }

    pub async fn vitality(&self, name: &str) -> i64 {
        vitality(&self.app, &self.encounter, &self.id(name)).await
    }

    /// The engine state of `name`.
    pub async fn state(&self, name: &str) -> Value {
        state(&self.app, &self.encounter, &self.id(name)).await["state"].clone()
    }

    pub async fn next_turn(&self) {
        self.app.advance(&self.encounter, "next_turn").await;
    }

    /// An attack by `attacker` on `target` with `extra` fields merged in.
    pub fn attack(&self, attacker: &str, target: &str, weapon: Value, extra: Value) -> Value {
        let mut body =
            json!({"attacker_id": self.id(attacker), "target_id": self.id(target), "weapon": weapon});
        merge(&mut body, extra);
        body
    }

    /// An action by `actor` with `extra` fields (pace, opportunities, rolls) merged in.
    pub fn action(&self, actor: &str, manoeuvre: Value, extra: Value) -> Value {
        let mut body = json!({"combatant_id": self.id(actor), "manoeuvre": manoeuvre});
        merge(&mut body, extra);
        body
    }
}

/// Adds the fields of `extra` (an object) to `body`.
pub fn merge(body: &mut Value, extra: Value) {
    if let (Some(body), Value::Object(extra)) = (body.as_object_mut(), extra) {
        body.extend(extra);
    }
}

/// The first strike of an attack reply.
pub fn first_strike(reply: &Value) -> Value {
    reply["result"]["outcome"]["strikes"][0].clone()
}
