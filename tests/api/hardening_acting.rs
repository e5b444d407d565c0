//! Issue 30 item 6, the acting side: a dead combatant acting is answered by its ruleset's one
//! rule (`Ruleset::may_receive` with an action receipt), the same 409 naming the field, the
//! combatant and the rule as damage and conditions on the dead, in cepheus-engine, adeva-d100
//! and arrgs, stored and inline. (These were 422s from older per-ruleset checks.) The same for the
//! dead an action names (cepheus-engine's aim, Leadership, grapple and ram targets and vehicle
//! occupants) and for adeva-d100's GM actions on the dead (a fall, a crash, an interruption);
//! and a defeated but living adeva-d100 combatant still receives them.

use crate::hardening_rulesets::assert_refused;
use crate::helpers::{TestApp, spawn_app};
use serde_json::{Value, json};

/// An encounter of `ruleset` with Victim (first in the order, on its turn) and Other, and the
/// killing blow on Victim; returns the encounter and Victim's id.
async fn dead_on_its_turn(app: &TestApp, ruleset: &str, stats: Value, damage: Value) -> (String, String) {
    let encounter = app.create_encounter_id(ruleset, "Last act").await;
    let victim = app.add_combatant(&encounter, "Victim", "prey", stats.clone()).await;
    let other = app.add_combatant(&encounter, "Other", "hunters", stats).await;
    let fixed =
        json!({"fixed": [{"combatant_id": victim, "value": 20}, {"combatant_id": other, "value": 10}]});
    app.roll_initiative(&encounter, fixed).await;
    app.advance(&encounter, "next_turn").await;
    let mut damage = damage;
    let field = damage["field"].as_str().unwrap_or("target_id").to_owned();
    damage.as_object_mut().map(|body| body.remove("field"));
    damage[field.as_str()] = json!(victim);
    app.post_json(&format!("/v1/encounters/{encounter}/{ruleset}/damage"), &damage)
        .await
        .expect_status(200, &format!("{ruleset}: the killing blow"));
    (encounter, victim)
}

#[tokio::test]
async fn the_dead_act_no_more_in_any_ruleset_one_answer() {
    let app = spawn_app().await;
    let mut adeva = crate::helpers::adeva(30);
    adeva["wounds"] = json!(10);
    let arrgs = json!({"agility": 8, "vitality": 10});
    // (ruleset, stats, killing blow, an action by the victim with the field naming it)
    let cases = [
        (
            "cepheus-engine",
            crate::helpers::cepheus(7),
            json!({"damage": 100}),
            json!({"action": "hasten"}),
            "combatant_id",
        ),
        (
            "adeva-d100",
            adeva,
            json!({"amount": 100, "field": "combatant_id"}),
            json!({"action": "aim", "action_type": "half"}),
            "combatant_id",
        ),
        (
            "arrgs",
            arrgs,
            json!({"amount": 100}),
            json!({"manoeuvre": {"type": "movement", "squares": 5}}),
            "combatant_id",
        ),
    ];
    for (ruleset, stats, damage, action, field) in cases {
        let (encounter, victim) = dead_on_its_turn(&app, ruleset, stats, damage).await;
        let dead = app.snapshot(&encounter).await;
        let mut action = action;
        action[field] = json!(victim);

        let acting = app.post_json(&format!("/v1/encounters/{encounter}/{ruleset}/actions"), &action).await;

        assert_refused(&acting, field, "Victim", &format!("{ruleset}: the dead act"));
        assert_eq!(app.snapshot(&encounter).await, dead, "{ruleset}: nothing changed");
    }
}

#[tokio::test]
async fn a_dead_arrgs_attacker_or_opportunist_does_not_act_stored_or_inline() {
    let app = spawn_app().await;
    let stats = json!({"agility": 8, "vitality": 10});
    let (encounter, victim) = dead_on_its_turn(&app, "arrgs", stats.clone(), json!({"amount": 100})).await;
    let other = app.add_combatant(&encounter, "Third", "hunters", stats.clone()).await;
    let read = app.encounter(&encounter).await;
    let ids: Vec<Value> =
        read["combatants"].as_array().cloned().unwrap_or_default().iter().map(|c| c["id"].clone()).collect();
    let living =
        ids.iter().find(|id| **id != json!(victim) && **id != json!(other)).cloned().unwrap_or_default();
    let axe = json!({"name": "Axe", "damage": 7, "types": ["slashing"]});
    let path = |op: &str| format!("/v1/encounters/{encounter}/arrgs/{op}");
    let dead = app.snapshot(&encounter).await;

    let attack = app
        .post_json(&path("attacks"), &json!({"attacker_id": victim, "target_id": other, "weapon": axe}))
        .await;
    let opportunity = json!({"combatant_id": victim, "distance": 1, "weapon": axe});
    let movement = json!({"combatant_id": living, "manoeuvre": {"type": "movement", "squares": 5},
        "opportunities": [opportunity]});
    let provoked = app.post_json(&path("actions"), &movement).await;
    let inline = json!({"attacker": {"name": "Victim", "stats": stats, "state": {"vitality_lost": 20}},
        "target": {"name": "Goblin", "stats": {"agility": 14, "vitality": 12}}, "weapon": axe});
    let twin = app.post_json("/v1/rulesets/arrgs/attacks", &inline).await;

    assert_refused(&attack, "attacker_id", "Victim", "a dead attacker");
    assert_refused(&provoked, "opportunities[0].combatant_id", "Victim", "a dead opportunist");
    assert_refused(&twin, "attacker", "Victim", "a dead inline attacker");
    assert_eq!(app.snapshot(&encounter).await, dead, "nothing changed");
}

#[tokio::test]
async fn a_dead_combatant_named_by_a_cepheus_action_is_refused_by_the_one_rule() {
    let app = spawn_app().await;
    let (encounter, victim) =
        dead_on_its_turn(&app, "cepheus-engine", crate::helpers::cepheus(7), json!({"damage": 100})).await;
    app.advance(&encounter, "next_turn").await;
    let read = app.encounter(&encounter).await;
    let other = read["current_turn"]["combatant_id"].clone();
    assert_ne!(other, json!(victim), "Other has the turn");
    let dead = app.snapshot(&encounter).await;
    let path = format!("/v1/encounters/{encounter}/cepheus-engine/actions");
    // (action, the field naming Victim)
    let cases = [
        (json!({"action": "aim", "target_id": victim}), "target_id"),
        (json!({"action": "aim_for_kill", "target_id": victim}), "target_id"),
        (json!({"action": "leadership", "target_id": victim}), "target_id"),
        (json!({"action": "grapple", "target_id": victim}), "target_id"),
        (json!({"action": "ram", "skill": "drive", "target_id": victim, "speed_kph": 30}), "target_id"),
        (json!({"action": "collision", "speed_kph": 30, "unsecured_ids": [victim]}), "unsecured_ids[0]"),
        (json!({"action": "collision", "speed_kph": 30, "target_ids": [victim]}), "target_ids[0]"),
    ];
    for (action, field) in cases {
        let mut action = action;
        action["combatant_id"] = other.clone();

        let reply = app.post_json(&path, &action).await;

        assert_refused(&reply, field, "Victim", &format!("cepheus-engine {}", action["action"]));
    }
    assert_eq!(app.snapshot(&encounter).await, dead, "nothing changed");
}

#[tokio::test]
async fn adeva_gm_actions_on_the_dead_are_refused_by_the_one_rule() {
    let app = spawn_app().await;
    let mut stats = crate::helpers::adeva(30);
    stats["wounds"] = json!(10);
    let damage = json!({"amount": 100, "field": "combatant_id"});
    let (encounter, victim) = dead_on_its_turn(&app, "adeva-d100", stats, damage).await;
    let dead = app.snapshot(&encounter).await;
    let path = format!("/v1/encounters/{encounter}/adeva-d100/actions");

    for action in ["fall", "resolve_crash", "extended_interrupt"] {
        let reply = app.post_json(&path, &json!({"action": action, "combatant_id": victim})).await;

        assert_refused(&reply, "combatant_id", "Victim", &format!("adeva-d100 {action} on the dead"));
    }
    assert_eq!(app.snapshot(&encounter).await, dead, "nothing changed");
}

#[tokio::test]
async fn a_defeated_but_living_adeva_combatant_still_receives_the_gm_fatigue() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("adeva-d100", "Down, not out").await;
    let mut stats = crate::helpers::adeva(30);
    stats["wounds"] = json!(10);
    let down = app.add_combatant(&encounter, "Down", "prey", stats.clone()).await;
    let up = app.add_combatant(&encounter, "Up", "hunters", stats).await;
    let fixed = json!({"fixed": [{"combatant_id": down, "value": 20}, {"combatant_id": up, "value": 10}]});
    app.roll_initiative(&encounter, fixed).await;
    app.advance(&encounter, "next_turn").await;
    app.patch_json(&format!("/v1/encounters/{encounter}/combatants/{down}"), &json!({"defeated": true}))
        .await
        .expect_status(200, "the GM marks Down defeated");
    let path = format!("/v1/encounters/{encounter}/adeva-d100/actions");

    let fatigue =
        app.post_json(&path, &json!({"action": "fatigue", "combatant_id": down, "levels": 2})).await;

    let body = fatigue.expect_status(200, "fatigue on the defeated but living").body;
    assert_eq!(body["result"]["outcome"], json!({"kind": "fatigue", "levels": 2}), "{body}");
    let read = app.encounter(&encounter).await;
    assert_eq!(read["combatants"][0]["defeated"], json!(true), "still defeated");
    assert_eq!(read["combatants"][0]["stats"]["fatigue"], json!(2));
}
