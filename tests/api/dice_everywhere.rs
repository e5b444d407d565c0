//! Issue 27, item 3: every die scriptable on every route that rolls. `initiative` and `advance`
//! take `rolls`, `seed` and `strict_rolls` and answer `dice` and `unused_rolls` as operations do;
//! a strict refusal says how many dice were needed and what for.

use crate::helpers::{TestApp, spawn_app, text};
use serde_json::{Value, json};

fn agent(bonus: i64) -> Value {
    json!({"initiative_bonus": bonus, "attack_bonus": 5, "defense": 16, "vulnerable_defense": 3,
        "vitality": 24, "wounds": 12, "damage_reduction": 2, "fortitude": 3, "reflex": 4, "will": 1,
        "int_modifier": 1, "visual_range_ft": 300, "hearing_range_ft": 150, "action_dice": 3,
        "action_die": "d4"})
}

/// A spycraft2 encounter of Vasquez, Hicks and Drone, all Initiative +2 (1d20 + 2 each).
async fn squad(app: &TestApp) -> String {
    let encounter = app.create_encounter_id("spycraft2", "Squad").await;
    for name in ["Vasquez", "Hicks", "Drone"] {
        app.add_combatant(&encounter, name, name, agent(2)).await;
    }
    encounter
}

#[tokio::test]
async fn strict_initiative_with_too_few_or_too_many_dice_is_422_saying_how_many() {
    let app = spawn_app().await;
    let encounter = squad(&app).await;
    let path = format!("/v1/encounters/{encounter}/initiative");
    let before = app.snapshot(&encounter).await;
    let short = app.post_json(&path, &json!({"rolls": [10, 11], "strict_rolls": true, "seed": 3})).await;
    short.assert_problem(422, Some("rolls"), "too few");
    let detail = text(&short.body["detail"]);
    assert!(detail.starts_with("needs 3 dice, 2 sent (strict_rolls): "), "{detail}");
    assert!(
        detail.contains("1d20 for initiative: Vasquez") && detail.contains("1d20 for initiative: Drone"),
        "{detail}"
    );
    let long = app.post_json(&path, &json!({"rolls": [10, 11, 12, 13], "strict_rolls": true})).await;
    long.assert_problem(422, Some("rolls"), "too many");
    let detail = text(&long.body["detail"]);
    assert_eq!(
        detail,
        "needs 3 dice, 4 sent (strict_rolls): 1d20 for initiative: Vasquez, 1d20 for initiative: Hicks, \
         1d20 for initiative: Drone"
    );
    assert_eq!(app.snapshot(&encounter).await, before, "nothing stored");
    // Exactly three: taken.
    let exact = app.post_json(&path, &json!({"rolls": [10, 11, 12], "strict_rolls": true})).await;
    exact.expect_status(200, "exact dice");
}

#[tokio::test]
async fn initiative_reports_unused_rolls_and_whom_it_rolled_for() {
    let app = spawn_app().await;
    let encounter = squad(&app).await;
    let path = format!("/v1/encounters/{encounter}/initiative");
    let ids: Vec<String> = app.encounter(&encounter).await["combatants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| text(&c["id"]))
        .collect();
    // Vasquez is fixed at 15; Hicks and Drone are not listed and roll visibly: 10 + 2, 11 + 2.
    let body = json!({"fixed": [{"combatant_id": ids[0], "value": 15}], "rolls": [10, 11, 12, 13]});
    let reply = app.post_json(&path, &body).await.expect_status(200, "initiative").body;
    assert_eq!(reply["unused_rolls"], json!([12, 13]));
    assert_eq!(reply["rolled"], json!([ids[1], ids[2]]));
    let dice: Vec<(Value, Value, Value)> = reply["dice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["value"].clone(), d["purpose"].clone(), d["source"].clone()))
        .collect();
    assert_eq!(
        dice,
        [
            (json!(10), json!("initiative: Hicks"), json!("scripted")),
            (json!(11), json!("initiative: Drone"), json!("scripted")),
        ]
    );
}

#[tokio::test]
async fn unknown_or_malformed_initiative_and_advance_fields_are_422_naming_them() {
    let app = spawn_app().await;
    let encounter = squad(&app).await;
    let initiative = format!("/v1/encounters/{encounter}/initiative");
    app.post_json(&initiative, &json!({"bogus": 1})).await.assert_problem(
        422,
        Some("bogus"),
        "unknown field",
    );
    app.post_json(&initiative, &json!({"strict_rolls": "yes"})).await.assert_problem(
        422,
        Some("strict_rolls"),
        "malformed strict_rolls",
    );
    app.post_json(&initiative, &json!({"rolls": [1, "two"]})).await.assert_problem(
        422,
        Some("rolls[1]"),
        "bad die",
    );
    let advance = format!("/v1/encounters/{encounter}/advance");
    app.post_json(&advance, &json!({"bogus": 1})).await.assert_problem(
        422,
        Some("bogus"),
        "unknown advance field",
    );
    app.post_json(&advance, &json!({"seed": -1})).await.assert_problem(422, Some("seed"), "negative seed");
}

const HERO: &str = r#"{"agility": 12, "initiative": 15, "vitality": 20, "abilities": {"body": 2, "agility": 1},
    "checks": {"melee": {"skill": 4}, "reflex": {"skill": 1}, "fortitude": {"skill": 1}}}"#;
const OGRE: &str = r#"{"agility": 8, "initiative": 10, "vitality": 12, "abilities": {"body": 3},
    "checks": {"melee": {"skill": 2}, "reflex": {"skill": 2}},
    "resistances": [{"type": "slashing", "value": 2}], "vulnerabilities": ["fire"]}"#;

#[tokio::test]
async fn advance_rolls_an_arrgs_dying_check_with_the_scripted_dice_it_is_sent() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Dying").await;
    let hero = app.add_combatant(&encounter, "Hero", "heroes", serde_json::from_str(HERO).unwrap()).await;
    let ogre = app
        .add_combatant_surprised(&encounter, "Ogre", "ogres", serde_json::from_str(OGRE).unwrap(), true)
        .await;
    app.roll_initiative(&encounter, json!({})).await;
    app.advance(&encounter, "next_turn").await;
    let weapon = json!({"name": "Longsword", "damage": 6, "types": ["slashing"], "critical_range": 19});
    let attack = json!({"attacker_id": hero, "target_id": ogre, "weapon": weapon, "rolls": [19, 5]});
    app.post_json(&format!("/v1/encounters/{encounter}/arrgs/attacks"), &attack)
        .await
        .expect_status(200, "attack");
    app.advance(&encounter, "next_turn").await; // the Ogre's turn
    // The round ends: Ogre at −10, Dying [1], DC 10 + 1 = 11 (arrgs.txt, "Dying [n]"); Fortitude
    // +3 (Body) with the scripted d20 9 → 12: a success, Dying [0], Disabled.
    let path = format!("/v1/encounters/{encounter}/advance");
    let reply =
        app.post_json(&path, &json!({"rolls": [9, 4], "seed": 11})).await.expect_status(200, "advance").body;
    assert_eq!(reply["seed"], json!(11));
    assert_eq!(reply["unused_rolls"], json!([4]));
    let dice = reply["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 1, "{reply}");
    assert_eq!(
        (&dice[0]["sides"], &dice[0]["value"], &dice[0]["source"]),
        (&json!(20), &json!(9), &json!("scripted"))
    );
    assert!(dice[0]["purpose"].is_string());
    assert_eq!(reply["round"], json!(2));
    // Strict: the next round's end needs no die for a Disabled Ogre at Dying [0]; one sent is refused.
    app.advance(&encounter, "next_turn").await;
    let strict = app.post_json(&path, &json!({"rolls": [9], "strict_rolls": true})).await;
    strict.assert_problem(422, Some("rolls"), "a die the advance never rolls");
    assert!(text(&strict.body["detail"]).starts_with("needs 0 dice, 1 sent"), "{}", strict.body);
    // Without a body the advance still works and reports the seed it drew.
    let plain = app.post_json(&path, &json!({})).await.expect_status(200, "plain advance").body;
    assert!(plain["seed"].is_u64() && plain["dice"].is_array() && plain["unused_rolls"] == json!([]));
}
