//! adeva-d100 over HTTP, issue 28: what the encounter records is derived, and a caller flag that
//! contradicts it is refused with a 422 naming the field, storing nothing; a grapple whose
//! controller skips the 'Grapple' Full Action ends with its turn. Numbers from
//! shared/rules/adeva-d100.txt (DoS = (target − roll) / 10 + 1 on a pass).

use crate::helpers::{TestApp, spawn_app};
use serde_json::{Value, json};

fn stats(ws: i64) -> Value {
    json!({"ws": ws, "bs": 40, "s": 30, "t": 30, "ag": 30, "int": 30, "per": 30, "wp": 30, "fel": 30,
           "wounds": 10})
}

/// Ana (WS 40) and Bo (WS 30), both S 30, T 30, Ag 30 (Half Move 3); round 1, Ana's turn.
async fn duel(app: &TestApp) -> (String, String, String) {
    let encounter = app.create_encounter_id("adeva-d100", "Derived").await;
    let ana = app.add_combatant(&encounter, "Ana", "a", stats(40)).await;
    let bo = app.add_combatant(&encounter, "Bo", "b", stats(30)).await;
    let fixed = json!([{"combatant_id": ana, "value": 10}, {"combatant_id": bo, "value": 8}]);
    app.roll_initiative(&encounter, json!({"combatant_ids": [], "fixed": fixed})).await;
    app.advance(&encounter, "next_turn").await;
    (encounter, ana, bo)
}

async fn ok(app: &TestApp, encounter: &str, route: &str, body: &Value, what: &str) -> Value {
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/adeva-d100/{route}"), body).await;
    reply.expect_status(200, what).body
}

/// A 422 naming `field`, nothing stored.
async fn refused(app: &TestApp, encounter: &str, route: &str, body: &Value, field: &str, case: &str) {
    let before = app.snapshot(encounter).await;
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/adeva-d100/{route}"), body).await;
    reply.assert_problem(422, Some(field), case);
    assert_eq!(app.snapshot(encounter).await, before, "{case}: nothing stored");
}

/// Ana grapples Bo: WS 40, d100 30 → pass; Bo does not dodge.
async fn grapple(app: &TestApp, encounter: &str, ana: &str, bo: &str) {
    let body =
        json!({"action": "grapple", "combatant_id": ana, "target_id": bo, "hand_free": true, "rolls": [30]});
    let reply = ok(app, encounter, "actions", &body, "grapple").await;
    assert_eq!(reply["result"]["outcome"]["started"], json!(true), "{reply}");
}

fn sword() -> Value {
    json!({"name": "Sword", "class": "melee"})
}

#[tokio::test]
async fn a_grapple_ends_with_the_controllers_turn_without_the_grapple_action() {
    let app = spawn_app().await;
    let (encounter, ana, bo) = duel(&app).await;
    grapple(&app, &encounter, &ana, &bo).await;
    app.advance(&encounter, "next_turn").await; // Ana's turn ends: begun this turn, it holds
    app.advance(&encounter, "next_turn").await; // Bo's ends; round 2, Ana's turn
    let now = app.encounter(&encounter).await;
    assert_eq!(now["combatants"][0]["state"]["grappled_with"], json!(bo), "{now}");
    // Round 2: Ana's turn ends without the 'Grapple' Full Action.
    let reply = app.advance(&encounter, "next_turn").await;
    let summaries: Vec<&Value> = reply["events"].as_array().unwrap().iter().map(|e| &e["summary"]).collect();
    assert!(
        summaries.contains(&&json!(
            "Ana: grapple ended (Ana did not take the 'Grapple' Full Action on its turn: the grapple with Bo ends)"
        )),
        "{reply}"
    );
    let now = app.encounter(&encounter).await;
    for index in 0..2 {
        assert_eq!(now["combatants"][index]["state"]["grappled_with"], Value::Null, "{now}");
    }
}

#[tokio::test]
async fn grapple_push_and_stand_flags_that_contradict_the_record_are_refused() {
    let app = spawn_app().await;
    let (encounter, ana, bo) = duel(&app).await;
    grapple(&app, &encounter, &ana, &bo).await;
    app.advance(&encounter, "next_turn").await;
    app.advance(&encounter, "next_turn").await;
    // Ana's Half Move is 3 (Ag 30 → AB 3): a Push claiming 5 is refused.
    let push = json!({"action": "grapple_action", "combatant_id": ana, "move": {"kind": "grapple",
        "then": {"kind": "push", "half_move_squares": 5, "move_with_target": true}}, "rolls": [10, 90]});
    refused(&app, &encounter, "actions", &push, "move.then.half_move_squares", "a Push beyond the Half Move")
        .await;
    // Nobody is prone: a Stand claiming both are on the ground is refused.
    let stand = json!({"action": "grapple_action", "combatant_id": ana, "move": {"kind": "grapple",
        "then": {"kind": "stand", "both_on_ground": true, "drag_opponent": true}}, "rolls": [10, 90]});
    refused(&app, &encounter, "actions", &stand, "move.then.both_on_ground", "a Stand while standing").await;
}

#[tokio::test]
async fn knock_down_after_half_move_is_derived_from_the_turn() {
    let app = spawn_app().await;
    let (encounter, ana, bo) = duel(&app).await;
    let claimed = json!({"action": "knock_down", "combatant_id": ana, "target_id": bo, "after_half_move": true,
        "rolls": [35, 90]});
    refused(&app, &encounter, "actions", &claimed, "after_half_move", "+10 with no Half Move").await;
    ok(
        &app,
        &encounter,
        "actions",
        &json!({"action": "move", "combatant_id": ana, "kind": "half_move"}),
        "move",
    )
    .await;
    // S 30 + 10 = 40, d100 35 → 1 DoS; Bo d100 90 fails: Bo prone.
    let body = json!({"action": "knock_down", "combatant_id": ana, "target_id": bo, "rolls": [35, 90]});
    let reply = ok(&app, &encounter, "actions", &body, "knock down").await;
    assert_eq!(reply["result"]["outcome"]["outcome"], json!("target_prone"), "{reply}");
}

#[tokio::test]
async fn opportunity_and_counter_attack_flags_need_the_recorded_move_and_parry() {
    let app = spawn_app().await;
    let (encounter, ana, bo) = duel(&app).await;
    app.advance(&encounter, "next_turn").await; // Bo's turn
    let opportunity = json!({"attacker_id": ana, "target_id": bo,
        "action": {"action": "attack_of_opportunity", "weapon": sword(), "enemy_engaged": true,
                   "enemy_moves_away": true},
        "damage": {"count": 1, "sides": 10}, "rolls": [25, 5]});
    refused(&app, &encounter, "attacks", &opportunity, "action.enemy_moves_away", "Bo has not moved").await;
    // Bo WS 30 + 10 = 40, d100 30 → hit; Ana dodges, Ag 30, d100 10 → 3 DoS: dodged, not parried.
    let strike = json!({"attacker_id": bo, "target_id": ana,
        "action": {"action": "standard_attack", "weapon": sword()},
        "damage": {"count": 1, "sides": 10}, "evasion": "dodge", "rolls": [30, 10]});
    ok(&app, &encounter, "attacks", &strike, "Bo's strike").await;
    let counter = json!({"attacker_id": ana, "target_id": bo,
        "action": {"action": "counter_attack", "weapon": sword(), "has_talent": true,
                   "parried_melee_attack": true},
        "damage": {"count": 1, "sides": 10}, "rolls": [15, 4]});
    refused(&app, &encounter, "attacks", &counter, "action.parried_melee_attack", "after a dodge").await;
}

#[tokio::test]
async fn a_charge_ending_in_a_grapple_is_rolled_and_stored() {
    let app = spawn_app().await;
    let (encounter, ana, bo) = duel(&app).await;
    // Ana WS 40 + 20 (Charge) = 60, d100 55 → pass; no dodge: the grapple starts, Ana in control.
    let body = json!({"action": "charge", "combatant_id": ana, "target_id": bo, "distance_squares": 6,
        "straight_line_squares": 4, "strike": {"kind": "grapple", "hand_free": true}, "rolls": [55]});
    let reply = ok(&app, &encounter, "actions", &body, "charge into a grapple").await;
    assert_eq!(reply["result"]["outcome"]["started"], json!(true), "{reply}");
    let now = app.encounter(&encounter).await;
    assert_eq!(now["combatants"][0]["state"]["grappled_with"], json!(bo), "{now}");
}

#[tokio::test]
async fn the_attacker_names_the_hit_its_degrees_of_success_go_to() {
    let app = spawn_app().await;
    let (encounter, ana, bo) = duel(&app).await;
    // Flurry of 3: WS 40 + 10 − 15 = 35, d100 5 → 4 DoS → 3 hits; dice 2, 1, 2; SB 3; soak TB 3.
    // dos_hit 2: 5 → 2, (1 → 4) + 3 = 7 → 4, 5 → 2: 8 wounds.
    let body = json!({"attacker_id": ana, "target_id": bo,
        "action": {"action": "flurry", "declared_hits": 3,
                   "weapon": {"name": "Sword", "class": "melee", "hit_rating": 3}},
        "damage": {"count": 1, "sides": 10}, "dos_hit": 2, "rolls": [5, 2, 1, 2]});
    let reply = ok(&app, &encounter, "attacks", &body, "a flurry").await;
    assert_eq!(reply["result"]["targets"][0]["wounds"]["lost"], json!(8), "{reply}");
}

#[tokio::test]
async fn the_grapples_standard_attack_is_rolled_over_http() {
    let app = spawn_app().await;
    let (encounter, ana, bo) = duel(&app).await;
    grapple(&app, &encounter, &ana, &bo).await;
    app.advance(&encounter, "next_turn").await;
    app.advance(&encounter, "next_turn").await;
    // Round 2: 'Grapple', then a small melee Standard Attack: WS 40 + 10 = 50, d100 25 → 3 DoS;
    // 1d5 = 2 → 3 (DoS) + SB 3 = 6 against soak TB 3 → 3 wounds.
    let body = json!({"action": "grapple_action", "combatant_id": ana, "move": {"kind": "grapple",
        "then": {"kind": "standard_attack", "weapon": "small_melee"}}, "rolls": [25, 2]});
    let reply = ok(&app, &encounter, "actions", &body, "the grapple's standard attack").await;
    assert_eq!(reply["result"]["outcome"]["attack"]["targets"][0]["wounds"]["lost"], json!(3), "{reply}");
}
