//! POST /v1/encounters/{id}/initiative for each ruleset: formulas, tie-breaks, scripted rolls,
//! seeds, fixed values, and the errors.

use crate::helpers::{TestApp, adeva, cepheus, pluck, spawn_app, text};
use serde_json::{Value, json};

/// The names in the response's turn order.
fn order_names(body: &Value) -> Vec<String> {
    pluck(&body["turn_order"], "name").iter().map(text).collect()
}

/// (name, initiative) for every slot of the turn order.
fn scores(body: &Value) -> Vec<(String, i64)> {
    body["turn_order"]
        .as_array()
        .unwrap_or_else(|| panic!("no turn_order in {body}"))
        .iter()
        .map(|slot| (text(&slot["name"]), slot["initiative"].as_i64().unwrap_or_default()))
        .collect()
}

fn owned(pairs: &[(&str, i64)]) -> Vec<(String, i64)> {
    pairs.iter().map(|(name, score)| ((*name).to_owned(), *score)).collect()
}

async fn encounter_with(app: &TestApp, ruleset: &str, combatants: &[(&str, Value)]) -> (String, Vec<String>) {
    let encounter = app.create_encounter_id(ruleset, "Initiative").await;
    let mut ids = Vec::new();
    for (name, stats) in combatants {
        ids.push(app.add_combatant(&encounter, name, "side", stats.clone()).await);
    }
    (encounter, ids)
}

#[tokio::test]
async fn cepheus_scripted_initiative_rolls_are_used_exactly() {
    let app = spawn_app().await;
    let (encounter, ids) = encounter_with(&app, "cepheus-engine", &[("Vasquez", cepheus(10))]).await;

    let reply =
        app.post_json(&format!("/v1/encounters/{encounter}/initiative"), &json!({"rolls": [4, 3]})).await;

    // 2D6 (4 + 3) + DEX DM +1 (DEX 10) = 8.
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!((reply.body["version"].clone(), reply.etag()), (json!(3), Some("\"3\"")));
    assert_eq!(
        reply.body["dice"],
        json!([
            {"sides": 6, "value": 4, "purpose": "initiative: Vasquez", "status": "kept", "source": "scripted"},
            {"sides": 6, "value": 3, "purpose": "initiative: Vasquez", "status": "kept", "source": "scripted"}
        ])
    );
    assert_eq!(
        reply.body["turn_order"],
        json!([{"combatant_id": ids[0], "name": "Vasquez", "initiative": 8, "slot": 1, "simultaneous": false,
                "acted": false, "defeated": false}])
    );
    let event = &app.logged(&encounter, &reply.body).await[0];
    assert_eq!(event["kind"], json!("initiative_set"));
    assert_eq!(event["data"]["score"], json!(8));
    assert_eq!(event["data"]["explanation"], json!("2D6 (4+3) + DEX DM +1 = 8"));
    assert_eq!(event["data"]["dice"], reply.body["dice"]);
    let combatant = &app.encounter(&encounter).await["combatants"][0];
    assert_eq!(
        combatant["initiative"],
        json!({"score": 8, "roll_off": [], "explanation": "2D6 (4+3) + DEX DM +1 = 8"})
    );
}

#[tokio::test]
async fn cepheus_dex_dm_follows_the_characteristic_table() {
    let app = spawn_app().await;
    let table = [
        (0, -3),
        (1, -2),
        (2, -2),
        (3, -1),
        (5, -1),
        (6, 0),
        (8, 0),
        (9, 1),
        (11, 1),
        (12, 2),
        (14, 2),
        (15, 3),
        (30, 3),
    ];
    let combatants: Vec<(String, Value)> =
        table.iter().map(|(dex, _)| (format!("DEX {dex}"), cepheus(*dex))).collect();
    let named: Vec<(&str, Value)> = combatants.iter().map(|(n, s)| (n.as_str(), s.clone())).collect();
    let (encounter, _) = encounter_with(&app, "cepheus-engine", &named).await;

    // Every combatant rolls double ones, so each score is 2 + DM.
    let body = app.roll_initiative(&encounter, json!({"rolls": vec![1; 2 * table.len()]})).await;

    let by_name: Vec<(String, i64)> = scores(&body);
    for (dex, dm) in table {
        let name = format!("DEX {dex}");
        let score = by_name.iter().find(|(n, _)| *n == name).map(|(_, s)| *s);
        assert_eq!(score, Some(2 + dm), "{name}");
    }
}

#[tokio::test]
async fn cepheus_ambush_gives_the_aware_an_automatic_12_plus_dex_dm() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Ambush").await;
    app.add_combatant(&encounter, "Sniper", "raiders", cepheus(10)).await;
    let body = json!({"name": "Guard", "side": "port", "stats": cepheus(6), "surprised": true});
    app.post_json(&format!("/v1/encounters/{encounter}/combatants"), &body).await.expect_status(201, "guard");

    let reply = app.roll_initiative(&encounter, json!({"rolls": [2, 3]})).await;

    // The aware sniper: 12 + DM +1 = 13, no dice. The surprised guard rolls: 2 + 3 + 0 = 5.
    assert_eq!(scores(&reply), owned(&[("Sniper", 13), ("Guard", 5)]));
    assert_eq!(pluck(&reply["dice"], "purpose"), [json!("initiative: Guard"), json!("initiative: Guard")]);
    assert_eq!(
        app.logged(&encounter, &reply).await[0]["data"]["explanation"],
        json!("ambush: automatic 12 + DEX DM +1 = 13")
    );
}

#[tokio::test]
async fn cepheus_ties_go_to_higher_dex_then_share_a_slot() {
    let app = spawn_app().await;
    let (encounter, _) = encounter_with(
        &app,
        "cepheus-engine",
        &[("Ash", cepheus(7)), ("Ripley", cepheus(7)), ("Dallas", cepheus(9))],
    )
    .await;

    // Ash 3+4+0 = 7, Ripley 6+1+0 = 7, Dallas 3+3+1 = 7: Dallas has the higher DEX; Ash and
    // Ripley are level on DEX too and act simultaneously in slot 2.
    let reply = app.roll_initiative(&encounter, json!({"rolls": [3, 4, 6, 1, 3, 3]})).await;

    assert_eq!(order_names(&reply), ["Dallas", "Ash", "Ripley"]);
    assert_eq!(pluck(&reply["turn_order"], "slot"), [json!(1), json!(2), json!(2)]);
    assert_eq!(pluck(&reply["turn_order"], "simultaneous"), [json!(false), json!(true), json!(true)]);
    assert_eq!(reply["dice"].as_array().unwrap().len(), 6, "no roll-off in Cepheus Engine");
}

#[tokio::test]
async fn adeva_initiative_is_d10_plus_agility_bonus_with_agility_then_roll_off_ties() {
    let app = spawn_app().await;
    let (encounter, ids) =
        encounter_with(&app, "adeva-d100", &[("Xan", adeva(34)), ("Yara", adeva(41)), ("Zed", adeva(34))])
            .await;

    // Xan 7 + 3 = 10, Yara 6 + 4 = 10, Zed 7 + 3 = 10. Yara has the higher Ag. Xan and Zed
    // roll off: 3 v 3 (tied again, re-roll), then 2 v 9: Zed goes first.
    let reply = app.roll_initiative(&encounter, json!({"rolls": [7, 6, 7, 3, 3, 2, 9]})).await;

    assert_eq!(scores(&reply), owned(&[("Yara", 10), ("Zed", 10), ("Xan", 10)]));
    assert_eq!(pluck(&reply["dice"], "value"), [7, 6, 7, 3, 3, 2, 9].map(|v| json!(v)));
    assert_eq!(pluck(&reply["dice"], "sides"), vec![json!(10); 7]);
    let purposes = ["initiative: Xan", "initiative: Yara", "initiative: Zed"]
        .into_iter()
        .chain(["initiative roll-off: Xan", "initiative roll-off: Zed"].repeat(2));
    assert_eq!(pluck(&reply["dice"], "purpose"), purposes.map(|p| json!(p)).collect::<Vec<_>>());
    let kinds = pluck(&reply["events"], "kind");
    assert_eq!(
        kinds,
        ["initiative_set", "initiative_set", "initiative_set", "initiative_tie_broken"].map(|k| json!(k))
    );
    let logged = app.logged(&encounter, &reply).await;
    let tie = &logged[3]["data"];
    assert_eq!(tie["combatant_ids"], json!([ids[0], ids[2]]));
    assert_eq!(pluck(&tie["dice"], "value"), [3, 3, 2, 9].map(|v| json!(v)));
    assert_eq!(logged[0]["data"]["explanation"], json!("1d10 (7) + AB 3 = 10"));
    let stored = app.encounter(&encounter).await;
    assert_eq!(stored["combatants"][0]["initiative"]["roll_off"], json!([3, 2]));
    assert_eq!(stored["combatants"][2]["initiative"]["roll_off"], json!([3, 9]));
}

#[tokio::test]
async fn spycraft_initiative_is_d20_plus_bonus_with_bonus_then_roll_off_ties() {
    let app = spawn_app().await;
    let bonus = |b: i64| json!({"initiative_bonus": b});
    let (encounter, _) =
        encounter_with(&app, "spycraft2", &[("Pike", bonus(4)), ("Quinn", bonus(2)), ("Reyes", bonus(4))])
            .await;

    // Pike 10 + 4, Quinn 12 + 2, Reyes 10 + 4: all 14. Quinn's bonus is lower; Pike and Reyes
    // roll off 15 v 8.
    let reply = app.roll_initiative(&encounter, json!({"rolls": [10, 12, 10, 15, 8]})).await;

    assert_eq!(scores(&reply), owned(&[("Pike", 14), ("Reyes", 14), ("Quinn", 14)]));
    assert_eq!(pluck(&reply["dice"], "sides"), vec![json!(20); 5]);
    assert_eq!(
        app.logged(&encounter, &reply).await[1]["data"]["explanation"],
        json!("1d20 (12) + Initiative bonus +2 = 14")
    );
}

#[tokio::test]
async fn arrgs_initiative_is_read_from_the_stat_block_with_agility_then_roll_off_ties() {
    let app = spawn_app().await;
    let stats = |agility: i64, initiative: i64| json!({"agility": agility, "initiative": initiative});
    let (encounter, _) = encounter_with(
        &app,
        "arrgs",
        &[("Anne", stats(14, 12)), ("Bart", stats(10, 15)), ("Cole", stats(14, 12))],
    )
    .await;

    // No initiative dice: Bart 15; Anne and Cole are level on 12 and Agility 14, roll off 5 v 17.
    let reply = app.roll_initiative(&encounter, json!({"rolls": [5, 17]})).await;

    assert_eq!(scores(&reply), owned(&[("Bart", 15), ("Cole", 12), ("Anne", 12)]));
    assert_eq!(
        pluck(&reply["dice"], "purpose"),
        [json!("initiative roll-off: Anne"), json!("initiative roll-off: Cole")]
    );
    assert_eq!(pluck(&reply["dice"], "sides"), [json!(20), json!(20)]);
    let logged = app.logged(&encounter, &reply).await;
    assert_eq!(logged[1]["data"]["explanation"], json!("Initiative score 15 from the stat block"));
    assert_eq!(logged[1]["data"]["dice"], json!([]));
}

#[tokio::test]
async fn arrgs_without_an_initiative_score_needs_a_fixed_value() {
    let app = spawn_app().await;
    let (encounter, ids) = encounter_with(&app, "arrgs", &[("Dana", json!({"agility": 11}))]).await;
    let path = format!("/v1/encounters/{encounter}/initiative");

    let refused = app.post_json(&path, &json!({})).await;
    let fixed = app.post_json(&path, &json!({"fixed": [{"combatant_id": ids[0], "value": 9}]})).await;

    refused.assert_problem(422, Some("fixed"), "no score and no fixed value");
    assert_eq!(fixed.status, 200, "{}", fixed.body);
    assert_eq!(scores(&fixed.body), owned(&[("Dana", 9)]));
    assert_eq!(fixed.body["version"], json!(3), "the refused roll did not count");
}

#[tokio::test]
async fn lur_asko_takes_fixed_values_and_keeps_join_order_on_ties() {
    let app = spawn_app().await;
    let (encounter, ids) =
        encounter_with(&app, "lur-asko", &[("Aro", json!({})), ("Bel", json!({})), ("Cai", json!({}))]).await;
    let path = format!("/v1/encounters/{encounter}/initiative");

    let refused = app.post_json(&path, &json!({"seed": 3})).await;
    let fixed = json!([{"combatant_id": ids[0], "value": 5}, {"combatant_id": ids[1], "value": 9},
                       {"combatant_id": ids[2], "value": 5}]);
    let reply = app.post_json(&path, &json!({"fixed": fixed})).await;

    refused.assert_problem(422, Some("fixed"), "lur-asko without fixed values");
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(scores(&reply.body), owned(&[("Bel", 9), ("Aro", 5), ("Cai", 5)]));
    assert_eq!(reply.body["dice"], json!([]));
    assert_eq!(pluck(&reply.body["turn_order"], "slot"), [json!(1), json!(2), json!(3)]);
    assert_eq!(
        app.logged(&encounter, &reply.body).await[0]["data"]["explanation"],
        json!("5, set by the caller")
    );
}

#[tokio::test]
async fn seeded_initiative_is_identical_on_two_fresh_apps() {
    let mut results = Vec::new();
    for _ in 0..2 {
        let app = spawn_app().await;
        let (encounter, _) = encounter_with(
            &app,
            "adeva-d100",
            &[("Xan", adeva(30)), ("Yara", adeva(30)), ("Zed", adeva(30))],
        )
        .await;

        let reply = app.roll_initiative(&encounter, json!({"seed": 1234})).await;

        assert_eq!(reply["seed"], json!(1234));
        results.push((reply["dice"].clone(), scores(&reply)));
    }
    assert_eq!(results[0], results[1]);
}

#[tokio::test]
async fn only_the_listed_combatants_roll() {
    let app = spawn_app().await;
    let (encounter, ids) = encounter_with(
        &app,
        "cepheus-engine",
        &[("Ash", cepheus(7)), ("Kane", cepheus(7)), ("Lamb", cepheus(7))],
    )
    .await;

    let reply = app
        .roll_initiative(
            &encounter,
            json!({"combatant_ids": [ids[2]], "fixed": [{"combatant_id": ids[0], "value": 4}], "rolls": [6, 5]}),
        )
        .await;

    // Ash is fixed at 4 and Lamb rolls 6 + 5 = 11; Kane is not listed and stays without one.
    assert_eq!(scores(&reply), owned(&[("Lamb", 11), ("Ash", 4)]));
    assert_eq!(app.encounter(&encounter).await["combatants"][1]["initiative"], Value::Null);
}

#[tokio::test]
async fn a_combatant_placed_ahead_of_the_current_turn_acts_from_the_next_round() {
    let app = spawn_app().await;
    let (encounter, ids) = encounter_with(&app, "lur-asko", &[("Aro", json!({})), ("Bel", json!({}))]).await;
    let fixed = json!([{"combatant_id": ids[0], "value": 10}, {"combatant_id": ids[1], "value": 5}]);
    app.roll_initiative(&encounter, json!({"fixed": fixed})).await;
    app.advance(&encounter, "next_turn").await;
    app.advance(&encounter, "next_turn").await; // Bel's turn, round 1.
    let early = app.add_combatant(&encounter, "Cai", "side", json!({})).await;
    let late = app.add_combatant(&encounter, "Dov", "side", json!({})).await;

    let reply = app
        .roll_initiative(
            &encounter,
            json!({"combatant_ids": [], "fixed": [{"combatant_id": early, "value": 12}, {"combatant_id": late, "value": 3}]}),
        )
        .await;

    assert_eq!(order_names(&reply), ["Cai", "Aro", "Bel", "Dov"]);
    assert_eq!(pluck(&reply["turn_order"], "acted"), [json!(true), json!(true), json!(false), json!(false)]);
    let next = app.advance(&encounter, "next_turn").await;
    assert_eq!((next["round"].clone(), text(&next["current_turn"]["name"])), (json!(1), "Dov".to_owned()));
    let next = app.advance(&encounter, "next_turn").await;
    assert_eq!((next["round"].clone(), text(&next["current_turn"]["name"])), (json!(2), "Cai".to_owned()));
}

#[tokio::test]
async fn bad_initiative_requests_are_refused_naming_the_field_and_change_nothing() {
    let app = spawn_app().await;
    let (encounter, ids) =
        encounter_with(&app, "cepheus-engine", &[("Ash", cepheus(7)), ("Kane", cepheus(7))]).await;
    let path = format!("/v1/encounters/{encounter}/initiative");
    let before = app.snapshot(&encounter).await;
    let cases: Vec<(Value, u16, &str, &str)> = vec![
        (json!({"rolls": [7]}), 422, "rolls[0]", "7 on a d6"),
        (json!({"rolls": [4, 3, 0]}), 422, "rolls[2]", "0 on Kane's first die"),
        (json!({"rolls": vec![1; 1001]}), 422, "rolls", "over 1000 scripted rolls"),
        (json!({"seed": 9_007_199_254_740_992_u64}), 422, "seed", "seed above 2^53 - 1"),
        (json!({"combatant_ids": ["cmb_missing"]}), 422, "combatant_ids[0]", "unknown combatant"),
        (json!({"combatant_ids": []}), 422, "combatant_ids", "nobody to roll for"),
        (
            json!({"fixed": [{"combatant_id": "cmb_missing", "value": 3}]}),
            422,
            "fixed[0].combatant_id",
            "unknown",
        ),
        (
            json!({"fixed": [{"combatant_id": ids[0], "value": 10_001}]}),
            422,
            "fixed[0].value",
            "fixed too high",
        ),
        (
            json!({"fixed": [{"combatant_id": ids[0], "value": -10_001}]}),
            422,
            "fixed[0].value",
            "fixed too low",
        ),
        (
            json!({"fixed": [{"combatant_id": ids[0], "value": 1}, {"combatant_id": ids[0], "value": 2}]}),
            422,
            "fixed[1].combatant_id",
            "listed twice",
        ),
        (
            json!({"fixed": [{"combatant_id": ids[0], "value": "high"}]}),
            422,
            "fixed[0].value",
            "value not a number",
        ),
        (json!({"fixed": [{"combatant_id": ids[0]}]}), 422, "fixed[0]", "missing value"),
        (json!({"dice": [4]}), 422, "dice", "unknown field"),
    ];

    for (body, status, field, case) in cases {
        app.post_json(&path, &body).await.assert_problem(status, Some(field), case);
        assert_eq!(app.snapshot(&encounter).await, before, "{case}: nothing changed");
    }
}

#[tokio::test]
async fn initiative_for_an_unknown_encounter_is_not_found() {
    let app = spawn_app().await;

    let reply = app.post_json("/v1/encounters/enc_missing/initiative", &json!({})).await;

    reply.assert_problem(404, None, "unknown encounter");
}

#[tokio::test]
async fn initiative_cannot_be_rolled_once_the_encounter_has_ended() {
    let app = spawn_app().await;
    let (encounter, _) = encounter_with(&app, "cepheus-engine", &[("Ash", cepheus(7))]).await;
    app.advance(&encounter, "end_encounter").await;
    let before = app.snapshot(&encounter).await;

    let reply = app.post_json(&format!("/v1/encounters/{encounter}/initiative"), &json!({"seed": 1})).await;

    reply.assert_problem(409, None, "ended encounter");
    assert_eq!(app.snapshot(&encounter).await, before);
}

#[tokio::test]
async fn a_fixed_initiative_of_i32_min_is_refused_and_changes_nothing() {
    // Issue 12, item 2: −2147483648 passed a check on its absolute value (which wraps) and a
    // Cepheus dodge (−2) then wrapped it to the top of the order.
    let app = spawn_app().await;
    let (encounter, ids) = encounter_with(&app, "cepheus-engine", &[("Vasquez", cepheus(7))]).await;
    let before = app.encounter(&encounter).await;

    for value in [i64::from(i32::MIN), -10_001, 10_001, i64::from(i32::MAX)] {
        let body = json!({"fixed": [{"combatant_id": ids[0], "value": value}]});
        let reply = app.post_json(&format!("/v1/encounters/{encounter}/initiative"), &body).await;
        reply.assert_problem(422, Some("fixed[0].value"), &format!("fixed value {value}"));
    }

    assert_eq!(app.encounter(&encounter).await, before, "nothing changed");
}
