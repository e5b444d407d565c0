//! The combatant `status` (issue 27, item 2) over HTTP: in each of the five rulesets a stored
//! damage operation changes health, then `GET /v1/encounters/{id}` shows the exact tracks,
//! derived conditions and summary line (numbers worked from the rule texts in the comments);
//! an effect on a combatant is listed with its remaining duration; a viewer sees the status of
//! public combatants only.

use crate::helpers::{TestApp, cepheus, spawn_app, text};
use serde_json::{Value, json};

/// Stores `name` on the encounter's ruleset route, expecting 200.
async fn op(app: &TestApp, encounter: &str, ruleset: &str, name: &str, body: Value) -> Value {
    let path = format!("/v1/encounters/{encounter}/{ruleset}/{name}");
    app.post_json(&path, &body).await.expect_status(200, name).body
}

/// The status of combatant `id` as `GET /v1/encounters/{id}` shows it.
async fn status_of(app: &TestApp, encounter: &str, id: &str) -> Value {
    let body = app.encounter(encounter).await;
    let combatants = body["combatants"].as_array().cloned().unwrap_or_default();
    let found = combatants.into_iter().find(|c| c["id"] == json!(id));
    found.map_or(Value::Null, |c| c["status"].clone())
}

/// `(code, current, maximum)` of each health track.
fn tracks(status: &Value) -> Vec<(String, i64, Option<i64>)> {
    let tracks = status["health"].as_array().cloned().unwrap_or_default();
    tracks
        .iter()
        .map(|t| (text(&t["code"]), t["current"].as_i64().unwrap_or(i64::MIN), t["maximum"].as_i64()))
        .collect()
}

/// `(code, value)` of each condition.
fn conditions(status: &Value) -> Vec<(String, Option<i64>)> {
    let list = status["conditions"].as_array().cloned().unwrap_or_default();
    list.iter().map(|c| (text(&c["code"]), c["value"].as_i64())).collect()
}

fn owned(items: &[(&str, i64, Option<i64>)]) -> Vec<(String, i64, Option<i64>)> {
    items.iter().map(|(code, now, max)| ((*code).to_owned(), *now, *max)).collect()
}

#[tokio::test]
async fn arrgs_vitality_below_zero_is_disabled_then_dying() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Bridge").await;
    let stats =
        json!({"agility": 12, "initiative": 15, "vitality": 20, "checks": {"fortitude": {"skill": 1}}});
    let rook = app.add_combatant(&encounter, "Rook", "heroes", stats).await;
    // 22 damage, no resistance: Current Vitality 20 − 22 = −2, Disabled at 0 or less
    // (arrgs.txt, "Vitality", "Disabled").
    op(&app, &encounter, "arrgs", "damage", json!({"target_id": rook, "amount": 22})).await;
    let status = status_of(&app, &encounter, &rook).await;
    assert_eq!(tracks(&status), owned(&[("vitality", -2, Some(20))]));
    assert_eq!(conditions(&status), vec![("disabled".to_owned(), None)]);
    assert_eq!(status["summary"], json!("Rook: Vitality -2/20, Disabled"));
    assert_eq!(status["can_act"], json!(true));
    // Dying [1]: Disabled gives way to Dying, 1 point a round ("Dying [n]").
    let dying = json!({"combatant_id": rook, "change": {"type": "dying", "applications": 1}});
    op(&app, &encounter, "arrgs", "conditions", dying).await;
    let status = status_of(&app, &encounter, &rook).await;
    assert_eq!(status["summary"], json!("Rook: Vitality -2/20, Dying 1"));
    let limit =
        status["actions"].as_array().unwrap().iter().find(|a| a["code"] == json!("condition_limit")).cloned();
    assert_eq!(limit.map(|a| (a["remaining"].clone(), a["maximum"].clone())), Some((json!(1), json!(1))));
}

#[tokio::test]
async fn adeva_wounds_left_after_damage() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("adeva-d100", "Hive").await;
    let stats = json!({"ws": 30, "bs": 30, "s": 30, "t": 30, "ag": 30, "int": 30, "per": 30, "wp": 30, "fel": 30,
        "wounds": 12});
    let bo = app.add_combatant(&encounter, "Bo", "gangers", stats).await;
    // 9 damage without soak: 12 − 9 = 3 wounds left (adeva-d100.txt, "Attacking", Step Seven).
    op(&app, &encounter, "adeva-d100", "damage", json!({"combatant_id": bo, "amount": 9})).await;
    let status = status_of(&app, &encounter, &bo).await;
    assert_eq!(
        tracks(&status),
        owned(&[("wounds", 3, Some(12)), ("fate_points", 0, None), ("fatigue", 0, None)])
    );
    assert!(conditions(&status).is_empty());
    assert_eq!(status["summary"], json!("Bo: Wounds 3/12"));
    // 3 more: 0 wounds without Fate Points is death (Step Seven).
    op(&app, &encounter, "adeva-d100", "damage", json!({"combatant_id": bo, "amount": 3})).await;
    let status = status_of(&app, &encounter, &bo).await;
    assert_eq!(conditions(&status)[0], ("dead".to_owned(), None));
    assert_eq!(status["can_act"], json!(false));
}

#[tokio::test]
async fn spycraft2_vitality_then_wounds() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("spycraft2", "Casino").await;
    let stats = json!({"initiative_bonus": 2, "vitality": 12, "wounds": 10});
    let agent = app.add_combatant(&encounter, "Agent", "agency", stats).await;
    // 15 damage: 12 from vitality, the other 3 from wounds (spycraft2.txt, "Damage").
    op(&app, &encounter, "spycraft2", "damage", json!({"combatant_id": agent, "amount": 15})).await;
    let status = status_of(&app, &encounter, &agent).await;
    assert_eq!(tracks(&status), owned(&[("vitality", 0, Some(12)), ("wounds", 7, Some(10))]));
    // Everyone starts flat-footed (Step 1) until its first action.
    assert_eq!(conditions(&status), vec![("flat_footed".to_owned(), None)]);
    assert_eq!(status["summary"], json!("Agent: Vitality 0/12, Wounds 7/10, Flat-footed"));
}

#[tokio::test]
async fn cepheus_first_damage_goes_to_endurance() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Starport").await;
    let vasquez = app.add_combatant(&encounter, "Vasquez", "marines", cepheus(7)).await;
    // The first damage goes to Endurance: 7 − 7 = 0; one characteristic at zero → wounded
    // (cepheus-engine.txt, "Damage", Damage Results).
    op(&app, &encounter, "cepheus-engine", "damage", json!({"target_id": vasquez, "damage": 7})).await;
    let status = status_of(&app, &encounter, &vasquez).await;
    assert_eq!(tracks(&status), owned(&[("str", 7, Some(7)), ("dex", 7, Some(7)), ("end", 0, Some(7))]));
    assert_eq!(conditions(&status), vec![("wounded".to_owned(), None)]);
    assert_eq!(status["summary"], json!("Vasquez: STR 7/7, DEX 7/7, END 0/7, Wounded"));
}

#[tokio::test]
async fn lur_asko_damage_crosses_degrees_of_injury() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Pass").await;
    let ana = app.add_combatant(&encounter, "Ana", "wardens", json!({"injury_factor": 10})).await;
    app.roll_initiative(&encounter, json!({"fixed": [{"combatant_id": ana, "value": 12}]})).await;
    app.advance(&encounter, "next_turn").await;
    // 17 damage, no armour: it crosses 10 once → 1 degree of injury of the rolled type
    // (lur-asko.txt, "Damage, Drive, & Armor Ranges").
    let axe = json!({"target_id": ana, "attack": {"weapons": [{"name": "Axe", "delivery": "melee", "damage": 17,
        "drive": 20}], "injury_type": "Limb"}});
    op(&app, &encounter, "lur-asko", "damage", axe).await;
    let status = status_of(&app, &encounter, &ana).await;
    assert_eq!(
        tracks(&status),
        owned(&[("damage_taken", 17, None), ("degrees", 1, None), ("fatigue", 0, None)])
    );
    assert_eq!(conditions(&status), vec![("injury".to_owned(), Some(1))]);
    assert_eq!(status["summary"], json!("Ana: Damage taken 17, Degrees of injury 1, Injury: Limb 1"));
}

#[tokio::test]
async fn effects_are_listed_with_their_remaining_duration_and_viewers_see_public_status_only() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Ambush").await;
    let add = |name: &'static str, flags: Value| {
        let mut body = json!({"name": name, "side": "marines", "stats": cepheus(7)});
        body.as_object_mut().unwrap().extend(flags.as_object().unwrap().clone());
        let path = format!("/v1/encounters/{encounter}/combatants");
        let app = &app;
        async move { text(&app.post_json(&path, &body).await.expect_status(201, name).body["combatant"]["id"]) }
    };
    let hicks = add("Hicks", json!({"public": true})).await;
    let goblin = add("Goblin", json!({})).await;
    let assassin = add("Assassin", json!({"hidden": true})).await;
    let stunned =
        json!({"name": "stunned", "target_id": hicks, "ends": {"ends": "after_rounds", "rounds": 2}});
    app.add_effect(&encounter, stunned).await;
    let marked = json!({"name": "marked", "target_id": hicks, "source_id": assassin,
        "ends": {"ends": "after_rounds", "rounds": 3}});
    app.add_effect(&encounter, marked).await;
    let status = status_of(&app, &encounter, &hicks).await;
    let effects: Vec<_> = status["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                text(&c["name"]),
                text(&c["source"]),
                c["remaining"]["ends"].clone(),
                c["remaining"]["count"].clone(),
            )
        })
        .collect();
    assert_eq!(
        effects,
        vec![
            ("stunned".to_owned(), "effect".to_owned(), json!("end_of_round"), json!(2)),
            ("marked".to_owned(), "effect".to_owned(), json!("end_of_round"), json!(3)),
        ]
    );
    assert_eq!(status["summary"], json!("Hicks: STR 7/7, DEX 7/7, END 7/7, stunned, marked"));

    let created = app.post_json(&format!("/v1/encounters/{encounter}/viewers"), &json!({})).await;
    let token = text(&created.expect_status(201, "viewer link").body["token"]);
    let seen = app.get(&format!("/view/{token}/encounter")).await.expect_status(200, "viewer encounter").body;
    let combatants = seen["combatants"].as_array().unwrap();
    assert_eq!(combatants.len(), 2, "the hidden Assassin is left out: {seen}");
    let public = combatants.iter().find(|c| c["id"] == json!(hicks)).unwrap();
    // The effect naming the hidden Assassin is not shown, so not counted either.
    assert_eq!(public["status"]["summary"], json!("Hicks: STR 7/7, DEX 7/7, END 7/7, stunned"));
    let private = combatants.iter().find(|c| c["id"] == json!(goblin)).unwrap();
    assert!(private.get("status").is_none(), "GM-only status leaked: {private}");
    assert!(!seen.to_string().contains(&assassin));
}
