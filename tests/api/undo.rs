//! Undo over HTTP: `POST /v1/encounters/{id}/undo` puts back an earlier state as a new version,
//! with an `undone` event, through the same change path as every other change (If-Match,
//! Idempotency-Key). Cepheus numbers are worked by hand from shared/rules/cepheus-engine.txt in
//! `cepheus_fight.rs` (the same opening shot is used here).

use crate::cepheus_fight::{attack, combatant, expected_order, order};
use crate::helpers::{Reply, TestApp, spawn_app, text};
use reqwest::Method;
use serde_json::{Value, json};

fn undo_path(encounter: &str) -> String {
    format!("/v1/encounters/{encounter}/undo")
}

async fn undo(app: &TestApp, encounter: &str, body: Option<&Value>, headers: &[(&str, &str)]) -> Reply {
    app.send(Method::POST, &undo_path(encounter), body, headers).await
}

/// The encounter without what an undo may change besides the state: its version and timestamps.
fn state(encounter: &Value) -> Value {
    let mut state = encounter.clone();
    if let Some(fields) = state.as_object_mut() {
        for stamp in ["version", "updated_at", "created_at"] {
            fields.remove(stamp);
        }
    }
    state
}

fn version(body: &Value) -> i64 {
    body["version"].as_i64().unwrap_or_else(|| panic!("no version in {body}"))
}

/// A Cepheus encounter in round 1 at Vasquez's turn: initiative 2D6 + DEX DM in join order,
/// Vasquez 5 + 4 + 1 = 10, Hicks 4 + 4 + 0 = 8, Rook 3 + 5 + 1 = 9. Returns (encounter,
/// Vasquez, Rook).
async fn round_one(app: &TestApp) -> (String, String, String) {
    let encounter = app.create_encounter_id("cepheus-engine", "Undo at the listening post").await;
    let vasquez = app
        .add_combatant(
            &encounter,
            "Vasquez",
            "marines",
            json!({"str": 8, "dex": 10, "end": 9, "int": 7, "edu": 7, "soc": 8, "skills": {"Gun Combat": 2}}),
        )
        .await;
    app.add_combatant(
        &encounter,
        "Hicks",
        "marines",
        json!({"str": 7, "dex": 7, "end": 8, "int": 8, "edu": 8, "soc": 9, "skills": {"gun_combat": 1}}),
    )
    .await;
    let rook = app
        .add_combatant(
            &encounter,
            "Rook",
            "raiders",
            json!({"str": 8, "dex": 9, "end": 7, "int": 6, "edu": 5, "soc": 4,
                   "skills": {"gun_combat": 1}, "armour": 2}),
        )
        .await;
    app.roll_initiative(&encounter, json!({"rolls": [5, 4, 4, 4, 3, 5]})).await;
    app.advance(&encounter, "next_turn").await;
    (encounter, vasquez, rook)
}

/// Vasquez's rifle shot at Rook, who dodges (cepheus_fight.rs works it out): a hit for 5 on END
/// (7 → 2) and Rook's initiative 9 → 7, so Rook drops behind Hicks.
fn the_shot(vasquez: &str, rook: &str) -> Value {
    json!({"attacker_id": vasquez, "target_id": rook, "rolls": [4, 3, 2, 3, 1],
           "weapon": {"weapon_type": "rifle", "damage_dice": 3}, "distance_m": 20, "reaction": "dodge"})
}

#[tokio::test]
async fn undo_of_an_attack_restores_every_stat_and_the_turn_order_and_logs_both() {
    let app = spawn_app().await;
    let (encounter, vasquez, rook) = round_one(&app).await;
    let before = app.encounter(&encounter).await;
    assert_eq!(order(&before), expected_order(&[("Vasquez", 10), ("Rook", 9), ("Hicks", 8)]));

    attack(&app, &encounter, the_shot(&vasquez, &rook)).await;
    let hit = app.encounter(&encounter).await;
    assert_eq!(order(&hit), expected_order(&[("Vasquez", 10), ("Hicks", 8), ("Rook", 7)]));
    assert_eq!(combatant(&hit, &rook)["stats"]["damage"], json!({"str": 0, "dex": 0, "end": 5}));
    assert_eq!(version(&hit), version(&before) + 1);

    let reply = undo(&app, &encounter, None, &[]).await.expect_status(200, "undo");
    let undone = version(&hit) + 1;
    assert_eq!(
        (version(&reply.body), &reply.body["from_version"], &reply.body["to_version"]),
        (undone, &json!(version(&hit)), &json!(version(&before)))
    );
    assert_eq!(reply.etag(), Some(format!("\"{undone}\"").as_str()));
    assert_eq!(state(&reply.body["encounter"]), state(&before), "the response holds the old state");
    let after = app.encounter(&encounter).await;
    assert_eq!(state(&after), state(&before), "every stat, flag and the turn order as before");
    assert_eq!(version(&after), undone, "the version keeps rising");

    let log = app.events(&encounter).await;
    let kinds: Vec<String> = log.iter().map(|e| text(&e["kind"])).collect();
    assert_eq!(kinds[kinds.len() - 3..], ["initiative_changed", "attack_resolved", "undone"]);
    let last = &log[log.len() - 1];
    assert_eq!(
        last["data"],
        json!({"kind": "undone", "from_version": version(&hit), "to_version": version(&before)})
    );
    assert_eq!(
        last["summary"],
        json!(format!(
            "Undo: back to the state of version {} (from version {})",
            version(&before),
            version(&hit)
        ))
    );
    assert_eq!(reply.body["events"][0]["seq"], last["seq"]);

    // An ETag from before the undo is stale, even the one whose state is back.
    for old in [version(&before), version(&hit)] {
        let if_match = format!("\"{old}\"");
        let stale = undo(&app, &encounter, None, &[("If-Match", &if_match)]).await;
        stale.assert_problem(412, Some("If-Match"), &format!("If-Match {old}"));
    }
    assert_eq!(app.encounter(&encounter).await, after, "a refused undo changes nothing");

    // The dice are not restored: the same shot only lands the same because the same rolls are
    // sent again.
    attack(&app, &encounter, the_shot(&vasquez, &rook)).await;
    assert_eq!(state(&app.encounter(&encounter).await), state(&hit));
}

#[tokio::test]
async fn to_version_restores_a_state_two_changes_back_and_an_undo_can_be_undone() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Two back").await;
    let stats = json!({"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7});
    app.add_combatant(&encounter, "Ash", "crew", stats.clone()).await;
    let two_back = app.encounter(&encounter).await;
    app.add_combatant(&encounter, "Bishop", "crew", stats.clone()).await;
    app.add_combatant(&encounter, "Call", "crew", stats).await;
    let latest = app.encounter(&encounter).await;
    assert_eq!((version(&two_back), version(&latest)), (2, 4));

    let body = json!({"to_version": 2});
    let reply = undo(&app, &encounter, Some(&body), &[]).await.expect_status(200, "undo to 2");
    assert_eq!((&reply.body["from_version"], &reply.body["to_version"]), (&json!(4), &json!(2)));
    let now = app.encounter(&encounter).await;
    assert_eq!(state(&now), state(&two_back));
    assert_eq!(version(&now), 5);

    // Undo with no body undoes the last change, here the undo itself.
    let again = undo(&app, &encounter, None, &[]).await.expect_status(200, "undo the undo");
    assert_eq!((&again.body["from_version"], &again.body["to_version"]), (&json!(5), &json!(4)));
    assert_eq!(state(&app.encounter(&encounter).await), state(&latest));
    let kinds = app.event_kinds(&encounter).await;
    assert_eq!(kinds.iter().filter(|k| *k == "undone").count(), 2);
    assert_eq!(kinds.iter().filter(|k| *k == "combatant_added").count(), 3, "nothing left the log");
}

#[tokio::test]
async fn to_version_beyond_the_depth_or_not_earlier_is_refused_and_nothing_changes() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Deep history").await;
    let stats = json!({"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7});
    let ash = app.add_combatant(&encounter, "Ash", "crew", stats).await;
    // 60 renames: versions 3 to 62.
    let path = format!("/v1/encounters/{encounter}/combatants/{ash}");
    for n in 1..=60 {
        let reply = app.patch_json(&path, &json!({"name": format!("Ash {n}")})).await;
        reply.expect_status(200, "rename");
    }
    let before = app.snapshot(&encounter).await;
    assert_eq!(version(&before.encounter), 62);

    // After the change to version 62, versions 12 to 61 are kept (50).
    let refusals = [(json!(11), 422), (json!(1), 422), (json!(62), 422), (json!(63), 422), (json!(0), 400)];
    for (to_version, status) in refusals {
        let reply = undo(&app, &encounter, Some(&json!({"to_version": to_version})), &[]).await;
        reply.assert_problem(status, Some("to_version"), &format!("to_version {to_version}"));
    }
    assert_eq!(app.snapshot(&encounter).await, before, "nothing changed, nothing logged");

    let oldest = undo(&app, &encounter, Some(&json!({"to_version": 12})), &[]).await;
    oldest.expect_status(200, "the oldest kept version");
    let restored = app.encounter(&encounter).await;
    assert_eq!(combatant(&restored, &ash)["name"], json!("Ash 10"), "version 12 came from rename 10");
}

#[tokio::test]
async fn nothing_to_undo_on_a_fresh_encounter_is_a_conflict() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Fresh").await;
    let before = app.snapshot(&encounter).await;

    undo(&app, &encounter, None, &[]).await.assert_problem(409, None, "fresh encounter");
    let missing = undo(&app, "enc_missing", None, &[]).await;
    missing.assert_problem(404, None, "no such encounter");
    assert_eq!(app.snapshot(&encounter).await, before);
}

#[tokio::test]
async fn an_undo_retried_with_its_idempotency_key_is_replayed_not_applied_twice() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Retry").await;
    let stats = json!({"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7});
    app.add_combatant(&encounter, "Ash", "crew", stats.clone()).await;
    app.add_combatant(&encounter, "Bishop", "crew", stats).await;

    let key = [("Idempotency-Key", "undo-once")];
    let first = undo(&app, &encounter, None, &key).await.expect_status(200, "first undo");
    let retry = undo(&app, &encounter, None, &key).await.expect_status(200, "retried undo");

    assert_eq!(retry.body, first.body);
    assert_eq!(retry.header("idempotent-replayed"), Some("true"));
    assert_eq!(version(&app.encounter(&encounter).await), 4, "one undo: 3 → 4");
    let kinds = app.event_kinds(&encounter).await;
    assert_eq!(kinds.iter().filter(|k| *k == "undone").count(), 1);
}
