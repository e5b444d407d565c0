//! One whole Cepheus Engine encounter over HTTP: setup, scripted initiative, two full rounds
//! with a defeat and three kinds of effect, the end, and the log of all of it.

use crate::helpers::{TestApp, cepheus, pluck, spawn_app, text};
use serde_json::{Value, json};

/// Advances one turn and checks the round, whose turn it is, and what fired and expired.
async fn step(
    app: &TestApp,
    encounter: &str,
    to: &str,
    expect: (u32, Option<&str>, &[&str], &[&str]),
) -> Value {
    let (round, current, fired, expired) = expect;
    let reply = app.advance(encounter, to).await;
    let what = format!("advance to round {round}, {current:?}");
    assert_eq!(reply["round"], json!(round), "{what}: round");
    assert_eq!(reply["current_turn"]["name"].as_str(), current, "{what}: current turn");
    assert_eq!(
        pluck(&reply["fired"], "name"),
        fired.iter().map(|n| json!(n)).collect::<Vec<_>>(),
        "{what}: fired"
    );
    assert_eq!(
        pluck(&reply["expired"], "name"),
        expired.iter().map(|n| json!(n)).collect::<Vec<_>>(),
        "{what}: expired"
    );
    reply
}

#[tokio::test]
async fn a_whole_encounter_runs_over_http_and_every_change_is_logged_in_order() {
    let app = spawn_app().await;

    // Setup: three marines, then initiative from scripted dice.
    let encounter = app.create_encounter_id("cepheus-engine", "Hadley's Hope").await;
    let vasquez = app.add_combatant(&encounter, "Vasquez", "marines", cepheus(10)).await;
    let hicks = app.add_combatant(&encounter, "Hicks", "marines", cepheus(6)).await;
    let bishop = app.add_combatant(&encounter, "Bishop", "crew", cepheus(12)).await;
    let initiative = app.roll_initiative(&encounter, json!({"rolls": [4, 3, 5, 5, 1, 2]})).await;
    // Vasquez 4 + 3 + 1 = 8, Hicks 5 + 5 + 0 = 10, Bishop 1 + 2 + 2 = 5.
    let order: Vec<(Value, Value)> = initiative["turn_order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].clone(), s["initiative"].clone()))
        .collect();
    assert_eq!(
        order,
        [(json!("Hicks"), json!(10)), (json!("Vasquez"), json!(8)), (json!("Bishop"), json!(5))]
    );
    assert_eq!(pluck(&initiative["dice"], "value"), [4, 3, 5, 5, 1, 2].map(|v| json!(v)));
    let bleeding = app
        .add_effect(
            &encounter,
            json!({"name": "bleeding", "target_id": hicks, "fires_at": {"at": "start_of_turn", "combatant_id": hicks},
                   "ends": {"ends": "end_of_encounter"}}),
        )
        .await;

    // Round 1.
    let start = step(&app, &encounter, "next_turn", (1, Some("Hicks"), &["bleeding"], &[])).await;
    assert_eq!(start["status"], json!("active"));
    assert_eq!(
        start["fired"][0],
        json!({"effect_id": bleeding, "name": "bleeding", "reason": "start of Hicks's turn"})
    );
    let stunned = app
        .add_effect(
            &encounter,
            json!({"name": "stunned", "target_id": vasquez, "ends": {"ends": "end_of_turn", "combatant_id": vasquez}}),
        )
        .await;
    let blessed = app
        .add_effect(&encounter, json!({"name": "blessed", "ends": {"ends": "after_rounds", "rounds": 2}}))
        .await;
    step(&app, &encounter, "next_turn", (1, Some("Vasquez"), &[], &[])).await;
    let vasquez_done = step(&app, &encounter, "next_turn", (1, Some("Bishop"), &[], &["stunned"])).await;
    assert_eq!(
        vasquez_done["expired"][0],
        json!({"effect_id": stunned, "name": "stunned", "reason": "end of Vasquez's turn"})
    );

    // Round 2: Vasquez is defeated and skipped.
    step(&app, &encounter, "next_turn", (2, Some("Hicks"), &["bleeding"], &[])).await;
    app.patch_json(&format!("/v1/encounters/{encounter}/combatants/{vasquez}"), &json!({"defeated": true}))
        .await
        .expect_status(200, "defeat Vasquez");
    let skipped = step(&app, &encounter, "next_turn", (2, Some("Bishop"), &[], &[])).await;
    assert_eq!(skipped["events"][1]["kind"], json!("turn_skipped"));
    assert_eq!(
        app.logged(&encounter, &skipped).await[1]["data"],
        json!({"kind": "turn_skipped", "combatant_id": vasquez, "name": "Vasquez", "reason": "defeated"})
    );

    // The second end of round ends "blessed"; round 3 starts with Hicks.
    let round_three =
        step(&app, &encounter, "next_turn", (3, Some("Hicks"), &["bleeding"], &["blessed"])).await;
    assert_eq!(
        round_three["expired"][0],
        json!({"effect_id": blessed, "name": "blessed", "reason": "end of round 2"})
    );

    // The end: every effect still running expires.
    let end = step(&app, &encounter, "end_encounter", (3, None, &[], &["bleeding"])).await;
    assert_eq!((end["status"].clone(), end["version"].clone()), (json!("ended"), json!(16)));
    assert_eq!(end["expired"][0]["reason"], json!("end of encounter"));
    let after_end = app.post_json(&format!("/v1/encounters/{encounter}/advance"), &json!({})).await;
    after_end.assert_problem(409, None, "advance after the end");

    // The log: every change in order, numbered 1..=36 without gaps.
    let log = app.events(&encounter).await;
    let expected = [
        "encounter_created",
        "combatant_added",
        "combatant_added",
        "combatant_added",
        "initiative_set",
        "initiative_set",
        "initiative_set",
        "effect_added",
        "encounter_started",
        "round_started",
        "turn_started",
        "effect_fired",
        "effect_added",
        "effect_added",
        "turn_ended",
        "turn_started",
        "turn_ended",
        "effect_expired",
        "turn_started",
        "turn_ended",
        "round_ended",
        "round_started",
        "turn_started",
        "effect_fired",
        "combatant_updated",
        "turn_ended",
        "turn_skipped",
        "turn_started",
        "turn_ended",
        "round_ended",
        "effect_expired",
        "round_started",
        "turn_started",
        "effect_fired",
        "effect_expired",
        "encounter_ended",
    ];
    let log_value = Value::from(log.clone());
    assert_eq!(app.event_kinds(&encounter).await, expected);
    assert_eq!(pluck(&log_value, "seq"), (1..=36).map(|n| json!(n)).collect::<Vec<_>>());
    let initiative_dice: Vec<Value> = log[4..7]
        .iter()
        .map(|e| (text(&e["data"]["name"]), pluck(&e["data"]["dice"], "value")))
        .map(|(n, d)| json!([n, d]))
        .collect();
    assert_eq!(
        initiative_dice,
        [json!(["Vasquez", [4, 3]]), json!(["Hicks", [5, 5]]), json!(["Bishop", [1, 2]])]
    );
    assert_eq!(log[4]["data"]["dice"][0]["purpose"], json!("initiative: Vasquez"));
    assert_eq!(log[35]["data"], json!({"kind": "encounter_ended", "round": 3}));
    assert_eq!(log[35]["summary"], json!("The encounter ends after round 3"));
    assert_eq!(log[17]["data"]["effect_id"], json!(stunned));
    assert_eq!(log[24]["data"]["changed"], json!(["defeated"]));
    assert_eq!(pluck(&log_value, "kind").iter().filter(|k| **k == json!("turn_started")).count(), 6);
    let stored = app.encounter(&encounter).await;
    assert_eq!(stored["effects"], json!([]));
    assert_eq!(stored["current_turn"], Value::Null);
    assert_eq!(stored["combatants"][2]["id"], json!(bishop));
}
