//! Effects: adding, durations counted at the right moments, recurring effects, removal.

use crate::helpers::{TestApp, pluck, spawn_app};
use serde_json::{Value, json};

/// A lur-asko encounter where Aro (10) acts before Bel (5); returns (encounter, aro, bel).
async fn two_combatants(app: &TestApp) -> (String, String, String) {
    let encounter = app.create_encounter_id("lur-asko", "Effects").await;
    let aro = app.add_combatant(&encounter, "Aro", "a", json!({})).await;
    let bel = app.add_combatant(&encounter, "Bel", "b", json!({})).await;
    let fixed = json!([{"combatant_id": aro, "value": 10}, {"combatant_id": bel, "value": 5}]);
    app.roll_initiative(&encounter, json!({"fixed": fixed})).await;
    (encounter, aro, bel)
}

/// Names of the effects that expired in an advance response.
fn expired(body: &Value) -> Vec<Value> {
    pluck(&body["expired"], "name")
}

#[tokio::test]
async fn an_added_effect_is_returned_with_its_duration() {
    let app = spawn_app().await;
    let (encounter, aro, bel) = two_combatants(&app).await;
    let body = json!({
        "name": "stunned", "target_id": bel, "source_id": aro, "note": "flash-bang",
        "ends": {"ends": "end_of_turn", "combatant_id": bel}
    });

    let reply = app.post_json(&format!("/v1/encounters/{encounter}/effects"), &body).await;

    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!((reply.body["version"].clone(), reply.etag()), (json!(5), Some("\"5\"")));
    let effect = &reply.body["effect"];
    let id = effect["id"].as_str().unwrap();
    assert!(id.starts_with("eff_"), "id {id}");
    assert_eq!(
        effect,
        &json!({
            "id": id, "name": "stunned", "target_id": bel, "source_id": aro, "note": "flash-bang",
            "fires_at": null, "ends": {"ends": "end_of_turn", "combatant_id": bel, "remaining": 1},
            "applied_round": 0
        })
    );
    assert_eq!(reply.body["events"][0]["kind"], json!("effect_added"));
    assert_eq!(app.encounter(&encounter).await["effects"], json!([effect]));
}

#[tokio::test]
async fn an_end_of_turn_effect_expires_when_that_turn_ends() {
    let app = spawn_app().await;
    let (encounter, _, bel) = two_combatants(&app).await;
    app.add_effect(
        &encounter,
        json!({"name": "stunned", "target_id": bel, "ends": {"ends": "end_of_turn", "combatant_id": bel}}),
    )
    .await;

    let start = app.advance(&encounter, "next_turn").await; // Aro's turn
    let aro_done = app.advance(&encounter, "next_turn").await; // Bel's turn
    let bel_done = app.advance(&encounter, "next_turn").await; // round 2

    assert_eq!((expired(&start), expired(&aro_done)), (vec![], vec![]));
    assert_eq!(expired(&bel_done), [json!("stunned")]);
    assert_eq!(bel_done["expired"][0]["reason"], json!("end of Bel's turn"));
    assert_eq!(app.encounter(&encounter).await["effects"], json!([]));
}

#[tokio::test]
async fn a_start_of_turn_effect_expires_when_that_turn_starts() {
    let app = spawn_app().await;
    let (encounter, _, bel) = two_combatants(&app).await;
    app.add_effect(
        &encounter,
        json!({"name": "aiming", "ends": {"ends": "start_of_turn", "combatant_id": bel}}),
    )
    .await;

    let start = app.advance(&encounter, "next_turn").await;
    let bel_starts = app.advance(&encounter, "next_turn").await;

    assert_eq!(expired(&start), Vec::<Value>::new());
    assert_eq!(expired(&bel_starts), [json!("aiming")]);
    assert_eq!(bel_starts["expired"][0]["reason"], json!("start of Bel's turn"));
}

#[tokio::test]
async fn an_effect_lasting_two_turns_expires_at_the_end_of_the_second() {
    let app = spawn_app().await;
    let (encounter, aro, _) = two_combatants(&app).await;
    let body = json!({"name": "rallied", "ends": {"ends": "end_of_turn", "combatant_id": aro, "turns": 2}});
    app.add_effect(&encounter, body).await;

    let mut expired_at = Vec::new();
    for step in 1..=5 {
        let reply = app.advance(&encounter, "next_turn").await;
        if !expired(&reply).is_empty() {
            expired_at.push(step);
        }
    }

    // Aro's turns end at advances 2 (round 1) and 4 (round 2).
    assert_eq!(expired_at, [4]);
}

#[tokio::test]
async fn end_of_round_and_after_rounds_count_ends_of_rounds() {
    let app = spawn_app().await;
    let (encounter, _, _) = two_combatants(&app).await;
    app.add_effect(&encounter, json!({"name": "smoke", "ends": {"ends": "end_of_round"}})).await;
    app.add_effect(&encounter, json!({"name": "haste", "ends": {"ends": "after_rounds", "rounds": 2}})).await;
    let stored = app.encounter(&encounter).await;
    assert_eq!(
        pluck(&stored["effects"], "ends"),
        [json!({"ends": "end_of_round", "remaining": 1}), json!({"ends": "end_of_round", "remaining": 2})]
    );

    let names: Vec<Vec<Value>> = {
        let mut all = Vec::new();
        for _ in 0..5 {
            all.push(expired(&app.advance(&encounter, "next_turn").await));
        }
        all
    };

    // Advances: start (Aro), Bel, round 2 (end of round 1), Bel, round 3 (end of round 2).
    assert_eq!(names, [vec![], vec![], vec![json!("smoke")], vec![], vec![json!("haste")]]);
}

#[tokio::test]
async fn a_recurring_effect_fires_at_its_moment() {
    let app = spawn_app().await;
    let (encounter, _, bel) = two_combatants(&app).await;
    let body = json!({
        "name": "bleeding", "target_id": bel,
        "fires_at": {"at": "start_of_turn", "combatant_id": bel},
        "ends": {"ends": "start_of_turn", "combatant_id": bel, "turns": 2}
    });
    let effect = app.add_effect(&encounter, body).await;

    let start = app.advance(&encounter, "next_turn").await;
    let first = app.advance(&encounter, "next_turn").await; // Bel's turn, round 1
    app.advance(&encounter, "next_turn").await;
    let second = app.advance(&encounter, "next_turn").await; // Bel's turn, round 2

    assert_eq!(start["fired"], json!([]));
    assert_eq!(
        first["fired"],
        json!([{"effect_id": effect, "name": "bleeding", "reason": "start of Bel's turn"}])
    );
    assert_eq!(expired(&first), Vec::<Value>::new());
    // Fires first, then counts down: it fires on the turn it expires.
    assert_eq!(pluck(&second["fired"], "name"), [json!("bleeding")]);
    assert_eq!(expired(&second), [json!("bleeding")]);
    let kinds = pluck(&second["events"], "kind");
    assert_eq!(&kinds[kinds.len() - 2..], [json!("effect_fired"), json!("effect_expired")]);
}

#[tokio::test]
async fn ending_the_encounter_expires_every_effect() {
    let app = spawn_app().await;
    let (encounter, aro, _) = two_combatants(&app).await;
    app.add_effect(&encounter, json!({"name": "blessed", "ends": {"ends": "end_of_encounter"}})).await;
    app.add_effect(
        &encounter,
        json!({"name": "marked", "ends": {"ends": "end_of_turn", "combatant_id": aro, "turns": 9}}),
    )
    .await;
    app.advance(&encounter, "next_turn").await;

    let reply = app.advance(&encounter, "end_encounter").await;

    assert_eq!(expired(&reply), [json!("blessed"), json!("marked")]);
    assert_eq!(pluck(&reply["expired"], "reason"), vec![json!("end of encounter"); 2]);
    assert_eq!(app.encounter(&encounter).await["effects"], json!([]));
}

#[tokio::test]
async fn removing_an_effect_ends_it_early() {
    let app = spawn_app().await;
    let (encounter, _, _) = two_combatants(&app).await;
    let effect = app.add_effect(&encounter, json!({"name": "prone", "ends": {"ends": "end_of_round"}})).await;

    let reply = app.delete(&format!("/v1/encounters/{encounter}/effects/{effect}")).await;

    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!((reply.body["version"].clone(), reply.etag()), (json!(6), Some("\"6\"")));
    assert_eq!(reply.body["events"][0]["kind"], json!("effect_removed"));
    assert_eq!(
        app.logged(&encounter, &reply.body).await[0]["data"],
        json!({"kind": "effect_removed", "effect_id": effect, "name": "prone"})
    );
    assert_eq!(app.encounter(&encounter).await["effects"], json!([]));
    let again = app.delete(&format!("/v1/encounters/{encounter}/effects/{effect}")).await;
    again.assert_problem(404, None, "already removed");
}

#[tokio::test]
async fn unknown_effects_and_encounters_are_not_found() {
    let app = spawn_app().await;
    let (encounter, _, _) = two_combatants(&app).await;
    let before = app.snapshot(&encounter).await;
    let body = json!({"name": "prone", "ends": {"ends": "end_of_round"}});

    app.delete(&format!("/v1/encounters/{encounter}/effects/eff_missing"))
        .await
        .assert_problem(404, None, "effect");
    app.post_json("/v1/encounters/enc_missing/effects", &body).await.assert_problem(404, None, "add");
    app.delete("/v1/encounters/enc_missing/effects/eff_missing").await.assert_problem(404, None, "remove");
    assert_eq!(app.snapshot(&encounter).await, before);
}

#[tokio::test]
async fn bad_effects_are_refused_naming_the_field_and_change_nothing() {
    let app = spawn_app().await;
    let (encounter, aro, _) = two_combatants(&app).await;
    let before = app.snapshot(&encounter).await;
    let round = json!({"ends": "end_of_round"});
    let cases: Vec<(Value, u16, &str, &str)> = vec![
        (json!({"name": " ", "ends": round}), 422, "name", "blank name"),
        (json!({"name": "x".repeat(101), "ends": round}), 422, "name", "long name"),
        (json!({"name": "n", "note": "x".repeat(1001), "ends": round}), 422, "note", "long note"),
        (
            json!({"name": "n", "ends": {"ends": "end_of_turn", "combatant_id": "cmb_missing"}}),
            422,
            "ends.combatant_id",
            "unknown expiry combatant",
        ),
        (
            json!({"name": "n", "fires_at": {"at": "end_of_turn", "combatant_id": "cmb_missing"}, "ends": round}),
            422,
            "fires_at.combatant_id",
            "unknown fires_at combatant",
        ),
        (json!({"name": "n", "ends": {"ends": "after_rounds", "rounds": 0}}), 422, "ends", "zero rounds"),
        (
            json!({"name": "n", "ends": {"ends": "after_rounds", "rounds": 10_001}}),
            422,
            "ends",
            "too many rounds",
        ),
        (
            json!({"name": "n", "ends": {"ends": "end_of_turn", "combatant_id": aro, "turns": 0}}),
            422,
            "ends",
            "zero turns",
        ),
        (json!({"name": "n"}), 400, "body", "missing ends"),
        (json!({"name": "n", "ends": {"ends": "never"}}), 400, "ends.ends", "unknown expiry"),
        (json!({"name": "n", "ends": {"ends": "after_rounds"}}), 400, "ends", "rounds missing"),
        (
            json!({"name": "n", "fires_at": {"at": "noon"}, "ends": round}),
            400,
            "fires_at.at",
            "unknown moment",
        ),
        (json!({"name": "n", "ends": round, "duration": 3}), 400, "duration", "unknown field"),
    ];

    for (body, status, field, case) in cases {
        let reply = app.post_json(&format!("/v1/encounters/{encounter}/effects"), &body).await;
        reply.assert_problem(status, Some(field), case);
        assert_eq!(app.snapshot(&encounter).await, before, "{case}: nothing changed");
    }
}

#[tokio::test]

async fn an_unknown_target_or_source_names_the_request_field() {
    let app = spawn_app().await;
    let (encounter, _, _) = two_combatants(&app).await;
    let round = json!({"ends": "end_of_round"});

    let target = app
        .post_json(
            &format!("/v1/encounters/{encounter}/effects"),
            &json!({"name": "n", "target_id": "cmb_x", "ends": round}),
        )
        .await;
    let source = app
        .post_json(
            &format!("/v1/encounters/{encounter}/effects"),
            &json!({"name": "n", "source_id": "cmb_x", "ends": round}),
        )
        .await;

    target.assert_problem(422, Some("target_id"), "unknown target");
    source.assert_problem(422, Some("source_id"), "unknown source");
}

#[tokio::test]
async fn effects_cannot_be_added_once_the_encounter_has_ended() {
    let app = spawn_app().await;
    let (encounter, _, _) = two_combatants(&app).await;
    app.advance(&encounter, "end_encounter").await;
    let before = app.snapshot(&encounter).await;

    let reply = app
        .post_json(
            &format!("/v1/encounters/{encounter}/effects"),
            &json!({"name": "late", "ends": {"ends": "end_of_round"}}),
        )
        .await;

    reply.assert_problem(409, None, "ended encounter");
    assert_eq!(app.snapshot(&encounter).await, before);
}
