//! Cepheus Engine timing over HTTP (issue 28): a delayer acting now interrupts the running turn,
//! which resumes afterwards with the actions it has left (cepheus-engine.txt, "Delay": "even
//! interrupting another's actions"); hasten only at the start of a round ("Dynamic Initiative":
//! "At the start of each combat round a character may declare that he is acting hastily").

use crate::cepheus_fight::{combatant, expected_order, kinds, order};
use crate::helpers::{TestApp, cepheus, pluck, spawn_app, text};
use serde_json::{Value, json};

/// Vasquez (DEX 10) on 10, Hicks (DEX 7) on 7, Rook (DEX 9) on 6; returns the encounter and ids.
async fn three(app: &TestApp) -> (String, [String; 3]) {
    let encounter = app.create_encounter_id("cepheus-engine", "Interrupts").await;
    let mut ids = Vec::new();
    for (name, dex) in [("Vasquez", 10), ("Hicks", 7), ("Rook", 9)] {
        ids.push(app.add_combatant(&encounter, name, "x", cepheus(dex)).await);
    }
    let fixed: Vec<Value> =
        ids.iter().zip([10, 7, 6]).map(|(id, value)| json!({"combatant_id": id, "value": value})).collect();
    app.roll_initiative(&encounter, json!({"fixed": fixed})).await;
    (encounter, ids.try_into().unwrap_or_else(|ids| panic!("three ids, got {ids:?}")))
}

async fn act(app: &TestApp, encounter: &str, body: Value) -> Value {
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/cepheus-engine/actions"), &body).await;
    reply.expect_status(200, "action").body
}

fn summaries(body: &Value) -> Vec<String> {
    pluck(&body["events"], "summary").iter().map(text).collect()
}

#[tokio::test]
async fn acting_from_a_delay_interrupts_a_turn_that_then_resumes() {
    let app = spawn_app().await;
    let (encounter, [vasquez, hicks, _]) = three(&app).await;
    let path = format!("/v1/encounters/{encounter}/advance");
    app.advance(&encounter, "next_turn").await; // round 1: Vasquez
    assert_eq!(app.advance(&encounter, "delay").await["current_turn"]["name"], json!("Hicks"));
    // Hicks moves (a minor action), then Vasquez acts from his delay in the middle of Hicks's turn.
    act(&app, &encounter, json!({"action": "move", "combatant_id": hicks, "metres": 6})).await;
    let acted = app.post_json(&path, &json!({"to": "act_now", "combatant_id": vasquez})).await;
    assert_eq!(acted.status, 200, "{}", acted.body);
    assert_eq!(acted.body["current_turn"]["name"], json!("Vasquez"));
    assert_eq!(kinds(&acted.body), ["turn_interrupted", "initiative_changed", "turn_started"]);
    assert_eq!(
        summaries(&acted.body),
        [
            "Vasquez acts from a delay, interrupting Hicks's turn",
            "Vasquez's initiative 10 → 7 (acted from a delay on this count)",
            "Vasquez's turn"
        ]
    );
    let logged = app.logged(&encounter, &acted.body).await;
    assert_eq!(
        logged[0]["data"],
        json!({"kind": "turn_interrupted", "combatant_id": hicks, "name": "Hicks",
               "by_id": vasquez, "by_name": "Vasquez"})
    );
    // Vasquez 7 and Hicks 7: the higher DEX (10) lists Vasquez first.
    assert_eq!(order(&acted.body), expected_order(&[("Vasquez", 7), ("Hicks", 7), ("Rook", 6)]));
    let now = app.encounter(&encounter).await;
    assert_eq!(combatant(&now, &hicks)["state"]["suspended_turn"], json!({"by": vasquez, "depth": 1}));
    assert_eq!(combatant(&now, &hicks)["acted_this_round"], json!(false));

    // Hicks may not act while Vasquez does; Vasquez shoots nobody but takes his significant action.
    let refused = app
        .post_json(
            &format!("/v1/encounters/{encounter}/cepheus-engine/actions"),
            &json!({"action": "other_minor", "combatant_id": hicks}),
        )
        .await;
    refused.assert_problem(422, Some("combatant_id"), "Hicks while Vasquez interrupts");
    act(&app, &encounter, json!({"action": "other_significant", "combatant_id": vasquez})).await;

    // Vasquez's turn ends; Hicks's resumes with his significant action still his.
    let resumed = app.advance(&encounter, "next_turn").await;
    assert_eq!(summaries(&resumed), ["Vasquez's turn ends", "Hicks's turn resumes"]);
    assert_eq!(resumed["current_turn"]["name"], json!("Hicks"));
    let now = app.encounter(&encounter).await;
    assert_eq!(combatant(&now, &hicks)["state"].get("suspended_turn"), None);
    assert_eq!(
        combatant(&now, &hicks)["state"]["economy"],
        json!({"round": 1, "significant": 0, "minor": 1, "significant_lost": false})
    );
    let lead = act(&app, &encounter, json!({"action": "other_significant", "combatant_id": hicks})).await;
    assert_eq!(
        lead["result"]["economy"],
        json!({"round": 1, "significant": 1, "minor": 1, "significant_lost": false})
    );
    assert_eq!(app.advance(&encounter, "next_turn").await["current_turn"]["name"], json!("Rook"));
}

#[tokio::test]
async fn hasten_is_refused_once_the_round_has_begun_and_taken_at_its_start() {
    let app = spawn_app().await;
    let (encounter, [_, _, rook]) = three(&app).await;
    app.advance(&encounter, "next_turn").await; // round 1 starts with Vasquez's turn
    let path = format!("/v1/encounters/{encounter}/cepheus-engine/actions");
    let hasten = json!({"action": "hasten", "combatant_id": rook});

    // Rook has not acted, but the round is under way.
    let before = app.snapshot(&encounter).await;
    let reply = app.post_json(&path, &hasten).await;
    reply.assert_problem(422, Some("action"), "hasten mid-round");
    assert!(
        text(&reply.body["detail"]).contains("round 1 is under way (Vasquez's turn is running)"),
        "{}",
        reply.body
    );
    assert_eq!(app.snapshot(&encounter).await, before);

    // At the start of round 2 (`start_round`): Rook 6 + 2 = 8 for the round, ahead of Hicks (7).
    let start = app.advance(&encounter, "start_round").await;
    assert_eq!((start["round"].clone(), start["moment"].clone()), (json!(2), json!("round_start")));
    let hastened = act(&app, &encounter, hasten.clone()).await;
    assert_eq!(kinds(&hastened), ["action_taken", "initiative_changed"]);
    assert_eq!(
        order(&app.encounter(&encounter).await),
        expected_order(&[("Vasquez", 10), ("Rook", 8), ("Hicks", 7)])
    );
}

#[tokio::test]
async fn flags_the_encounter_records_are_derived_and_a_contradiction_refused() {
    let app = spawn_app().await;
    let (encounter, [vasquez, hicks, rook]) = three(&app).await;
    app.advance(&encounter, "next_turn").await; // round 1: Vasquez
    let actions = format!("/v1/encounters/{encounter}/cepheus-engine/actions");

    // "Unconsciousness": +1 DM per check failed before. Fatigue on fatigue knocks Rook out here,
    // so the engine counts his failed checks; a different `failed_checks` is refused.
    for _ in 0..2 {
        act(&app, &encounter, json!({"action": "fatigue", "combatant_id": rook})).await;
    }
    let before = app.snapshot(&encounter).await;
    let wrong = app
        .post_json(
            &actions,
            &json!({"action": "regain_consciousness", "combatant_id": rook, "failed_checks": 3}),
        )
        .await;
    wrong.assert_problem(422, Some("failed_checks"), "3 claimed, 0 recorded");
    assert_eq!(app.snapshot(&encounter).await, before);
    // END 7 (DM +0), fatigued −2: 3 + 4 − 2 = 5, fails; the next is at +1.
    let woke = act(
        &app,
        &encounter,
        json!({"action": "regain_consciousness", "combatant_id": rook, "rolls": [3, 4]}),
    )
    .await;
    assert_eq!(woke["result"]["check"]["roll"]["total"], json!(5));
    let now = app.encounter(&encounter).await;
    assert_eq!(combatant(&now, &rook)["state"]["wake_checks_failed"], json!(1));

    // "Extreme Range Firing": the firer must be stationary. Vasquez moves, then may not fire at
    // extreme range this round (the refusal comes before the skill check, so his level is moot).
    act(&app, &encounter, json!({"action": "move", "combatant_id": vasquez, "metres": 3})).await;
    let attack = app
        .post_json(
            &format!("/v1/encounters/{encounter}/cepheus-engine/attacks"),
            &json!({"attacker_id": vasquez, "target_id": hicks,
                    "weapon": {"weapon_type": "rifle", "damage_dice": 3},
                    "range_band": "distant", "extreme_range": true, "braced": true}),
        )
        .await;
    attack.assert_problem(422, Some("extreme_range"), "moved this round");
    assert!(text(&attack.body["detail"]).contains("Vasquez moved this round"), "{}", attack.body);
}

#[tokio::test]
async fn infra_red_sees_through_smoke_and_a_prone_attacker_in_full_cover_cannot_fire() {
    let app = spawn_app().await;
    let (encounter, [vasquez, hicks, _]) = three(&app).await;
    app.advance(&encounter, "next_turn").await; // round 1: Vasquez
    let path = format!("/v1/encounters/{encounter}/cepheus-engine/attacks");
    // "Battlefield Sensors": infra-red negates concealment from smoke. Vasquez (DEX 10, +1;
    // unskilled −3), rifle at Medium: Average (+0); thick smoke listed at 0. DM −2.
    // Dice 6 + 5 = 11 − 2 = 9: Effect 1. Damage 3D6 (1 + 1 + 1) + 1 = 4: Hicks's END 7 → 3.
    let shot = app
        .post_json(
            &path,
            &json!({"attacker_id": vasquez, "target_id": hicks, "rolls": [6, 5, 1, 1, 1],
                    "weapon": {"weapon_type": "rifle", "damage_dice": 3}, "range_band": "medium",
                    "smoke": "thick", "infra_red": true}),
        )
        .await
        .expect_status(200, "infra-red shot")
        .body;
    let outcome = &shot["result"]["outcome"];
    assert_eq!((&outcome["total_dm"], &outcome["effect"]), (&json!(-2), &json!(1)));
    let smoke: Vec<&Value> =
        outcome["modifiers"].as_array().unwrap().iter().filter(|m| m["code"] == "smoke").collect();
    assert_eq!(
        smoke,
        [&json!({"code": "smoke", "reason": "thick smoke, seen through with infra-red sensors", "value": 0})]
    );
    assert_eq!(shot["result"]["target_hit"]["stats_after"]["damage"]["end"], json!(4));

    // "Cover": prone in full cover, Hicks is impossible to hit but cannot return fire.
    app.advance(&encounter, "next_turn").await; // Hicks
    act(&app, &encounter, json!({"action": "change_stance", "combatant_id": hicks, "stance": "prone"})).await;
    let before = app.snapshot(&encounter).await;
    let back = app
        .post_json(
            &path,
            &json!({"attacker_id": hicks, "target_id": vasquez, "attacker_cover": "full",
                    "weapon": {"weapon_type": "rifle", "damage_dice": 3}, "range_band": "medium"}),
        )
        .await;
    back.assert_problem(422, Some("attacker_cover"), "prone in full cover");
    assert_eq!(app.snapshot(&encounter).await, before);
}
