//! spycraft2 over HTTP: an ambush with a surprise round, group initiative, two rounds of fire in
//! which a hit, a critical and failed saves move the Counts and reorder the next round, a
//! character driven to a Count of 0 or less, every die in the log in order, the stateless twins,
//! and the refusals (4xx naming the field, nothing stored). Numbers are worked from
//! shared/rules/spycraft2.txt in the comments.

use crate::helpers::{TestApp, pluck, spawn_app, text};
use serde_json::{Value, json};

async fn op(app: &TestApp, encounter: &str, name: &str, body: Value) -> Value {
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/spycraft2/{name}"), &body).await;
    reply.expect_status(200, name).body
}

async fn refused(app: &TestApp, encounter: &str, name: &str, body: Value, field: &str, case: &str) -> String {
    let before = app.snapshot(encounter).await;
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/spycraft2/{name}"), &body).await;
    reply.assert_problem(422, Some(field), case);
    assert_eq!(app.snapshot(encounter).await, before, "{case}: nothing stored");
    text(&reply.body["detail"])
}

fn pistol() -> Value {
    json!({"name": "Pistol", "damage": {"count": 2, "sides": 6}, "threat_range": 19})
}

fn scores(order: &Value) -> Vec<(String, i64)> {
    order
        .as_array()
        .unwrap_or_else(|| panic!("no order in {order}"))
        .iter()
        .map(|slot| (text(&slot["name"]), slot["initiative"].as_i64().unwrap_or_default()))
        .collect()
}

/// Every die the log records, in order: initiative and roll-off dice, then the dice inside each
/// spycraft2 report (distance, team checks, group checks, attacks and damage, saves).
fn logged_dice(events: &[Value]) -> Vec<i64> {
    let values = |array: &Value| pluck(array, "value").iter().filter_map(Value::as_i64).collect::<Vec<_>>();
    let numbers = |array: &Value| {
        array.as_array().map(|a| a.iter().filter_map(Value::as_i64).collect::<Vec<i64>>()).unwrap_or_default()
    };
    let mut dice = Vec::new();
    for event in events {
        let data = &event["data"];
        let report = &data["report"];
        match text(&event["kind"]).as_str() {
            "initiative_set" | "initiative_tie_broken" => dice.extend(values(&data["dice"])),
            "attack_resolved" => {
                dice.push(report["die"].as_i64().unwrap_or_default());
                dice.extend(numbers(&report["outcome"]["damage_dice"]));
            }
            "action_taken" => match text(&data["action"]).as_str() {
                "base_encounter_distance" => dice.extend(numbers(&report["base"]["dice"])),
                "surprise" => dice.extend(pluck(&report["checks"], "die").iter().filter_map(Value::as_i64)),
                "group_initiative" => {
                    dice.extend(pluck(&report["groups"], "die").iter().filter_map(Value::as_i64))
                }
                "save" => dice.push(report["die"].as_i64().unwrap_or_default()),
                _ => {}
            },
            _ => {}
        }
    }
    dice
}

#[tokio::test]
async fn an_ambush_and_two_rounds_of_fire_move_the_counts_and_reorder_the_fight() {
    let app = spawn_app().await;
    let enc = app.create_encounter_id("spycraft2", "Embassy").await;
    let ana = app
        .add_combatant(
            &enc,
            "Ana",
            "agents",
            json!({"initiative_bonus": 4, "attack_bonus": 5, "visual_range_ft": 150}),
        )
        .await;
    let bo = app.add_combatant(&enc, "Bo", "agents", json!({"initiative_bonus": 2, "attack_bonus": 3})).await;
    let cy = app
        .add_combatant(
            &enc,
            "Cy",
            "guards",
            json!({"initiative_bonus": 1, "defense": 14, "vulnerable_defense": 2,
            "vitality": 6, "wounds": 8}),
        )
        .await;
    let dee = app
        .add_combatant(&enc, "Dee", "guards", json!({"initiative_bonus": 1, "defense": 13, "wounds": 6}))
        .await;

    // Step 2: outdoor urban, 4d6 × 10 ft. = (3 + 4 + 5 + 6) × 10 = 180 ft., beyond Ana's 150 ft.
    // eyesight (the farthest sense present): 150 ft.
    let distance =
        op(&app, &enc, "distance", json!({"terrain": "outdoor_urban", "rolls": [3, 4, 5, 6]})).await;
    assert_eq!(distance["result"]["base"]["rolled_ft"], json!(180));
    assert_eq!(
        (distance["result"]["capped"].clone(), distance["result"]["distance_ft"].clone()),
        (json!(true), json!(150))
    );

    // Step 4, some groups aware: the agents (acting) roll 15 + 6 = 21 against the guards' 9 + 2 =
    // 11 and win: both agents act in the surprise round.
    let ambush = op(
        &app,
        &enc,
        "surprise",
        json!({"awareness": "some_aware", "groups": [
        {"side": "agents", "bonus": 6, "acting": true}, {"side": "guards", "bonus": 2}], "rolls": [15, 9]}),
    )
    .await;
    assert_eq!(ambush["result"]["ruling"], json!({"ruling": "surprise_round", "side": "agents"}));
    assert_eq!(pluck(&ambush["result"]["acting"], "name"), vec![json!("Ana"), json!("Bo")]);

    // Step 3: the agents roll their own checks: Ana 14 + 4 = 18, Bo 9 + 2 = 11. The guards roll
    // once as a group: 4 + Cy's +1 = 5 for both; tied with equal bonuses, they roll off: Cy 8,
    // Dee 15 → Dee first.
    app.roll_initiative(&enc, json!({"combatant_ids": [ana, bo], "rolls": [14, 9]})).await;
    let group = op(
        &app,
        &enc,
        "group-initiative",
        json!({"groups": [
        {"name": "Guards", "combatant_ids": [cy, dee]}], "rolls": [4, 8, 15]}),
    )
    .await;
    assert_eq!(group["result"]["groups"][0]["count"], json!(5));
    let order: Vec<Value> = pluck(&group["result"]["order"], "name");
    assert_eq!(order, vec![json!("Ana"), json!("Bo"), json!("Dee"), json!("Cy")]);

    // Round 1 is the surprise round. Ana shoots flat-footed Cy: 11 + 5 = 16 against Defense
    // 14 − 2 (flat-footed) = 12: a hit. 2d6 = 6 + 5 = 11: 6 vitality, then 5 wounds → Cy −2.
    let started = app.advance(&enc, "next_turn").await;
    assert_eq!(started["current_turn"]["name"], json!("Ana"));
    let shot = op(
        &app,
        &enc,
        "attacks",
        json!({"attacker_id": ana, "target_id": cy, "weapon": pistol(),
        "rolls": [11, 6, 5]}),
    )
    .await;
    assert_eq!((shot["result"]["total"].clone(), shot["result"]["defense"].clone()), (json!(16), json!(12)));
    let damage = &shot["result"]["damage"];
    assert_eq!((damage["to_vitality"].clone(), damage["to_wounds"].clone()), (json!(6), json!(5)));
    assert_eq!(shot["events"][0]["kind"], json!("attack_resolved"));

    // A second half action would split the surprise round's full action.
    let split = refused(
        &app,
        &enc,
        "actions",
        json!({"combatant_id": ana, "action": {"action": "aim"}}),
        "action",
        "split",
    )
    .await;
    assert!(split.contains("may not be split"), "{split}");
    app.advance(&enc, "next_turn").await; // Bo: one free action, not two.
    op(
        &app,
        &enc,
        "actions",
        json!({"combatant_id": bo, "action": {"action": "other", "name": "signal", "cost": "free"}}),
    )
    .await;
    let second = refused(
        &app,
        &enc,
        "actions",
        json!({"combatant_id": bo, "action": {"action": "other", "name": "shout", "cost": "free"}}),
        "action",
        "second free",
    )
    .await;
    assert!(second.contains("at most 1 free action"), "{second}");
    app.advance(&enc, "next_turn").await; // Dee lost the team check: no surprise action.
    refused(
        &app,
        &enc,
        "actions",
        json!({"combatant_id": dee, "action": {"action": "brace"}}),
        "combatant_id",
        "not eligible",
    )
    .await;
    app.advance(&enc, "next_turn").await; // Cy's (empty) turn.

    // End of the surprise round: Cy 5 − 2 = 3; nobody else moves.
    let round2 = app.advance(&enc, "next_turn").await;
    assert_eq!(round2["round"], json!(2));
    assert_eq!(
        scores(&round2["turn_order"]),
        [("Ana".into(), 18), ("Bo".into(), 11), ("Dee".into(), 5), ("Cy".into(), 3)]
    );
    let logged = app.logged(&enc, &round2).await;
    let changed: Vec<&Value> =
        logged.as_array().unwrap().iter().filter(|e| e["kind"] == json!("initiative_changed")).collect();
    assert_eq!(changed.len(), 1);
    assert!(text(&changed[0]["data"]["reason"]).contains("lost 5 wounds -2"));

    // Round 2. Ana aims (+1), then shoots Dee (still flat-footed, Defense 13): 19 + 5 = 24, a
    // threat (19–20) activated with an Action Die: a critical hit, 2d6 = 3 + 2 = 5 straight to
    // wounds (6 → 1) → Dee −5 (not −7).
    op(&app, &enc, "actions", json!({"combatant_id": ana, "action": {"action": "aim"}})).await;
    let critical = op(
        &app,
        &enc,
        "attacks",
        json!({"attacker_id": ana, "target_id": dee, "weapon": pistol(),
        "activate_threat": true, "rolls": [19, 3, 2]}),
    )
    .await;
    assert_eq!(critical["result"]["outcome"]["result"], json!("critical_hit"));
    assert_eq!(critical["result"]["damage"]["wounds_left"], json!(1));
    // Dee fails a Will save against a stress condition: 3 against DC 15 → −2 and −5.
    let will = op(
        &app,
        &enc,
        "saves",
        json!({"combatant_id": dee, "save": "will", "dc": 15, "against": "stress", "rolls": [3]}),
    )
    .await;
    assert_eq!(will["result"]["success"], json!(false));
    app.advance(&enc, "next_turn").await;
    // Bo fires a tactical SMG at Cy: 10 + 3 = 13 against Defense 14 (Cy was hit: no longer
    // flat-footed): a miss; the tactical weapon still costs Bo 2. Cy fails an ordinary Reflex
    // save (5 against DC 15): −2.
    let smg = json!({"name": "SMG", "damage": {"count": 2, "sides": 6}, "tactical": true});
    let miss =
        op(&app, &enc, "attacks", json!({"attacker_id": bo, "target_id": cy, "weapon": smg, "rolls": [10]}))
            .await;
    assert_eq!(miss["result"]["outcome"], json!({"result": "miss"}));
    op(&app, &enc, "saves", json!({"combatant_id": cy, "save": "reflex", "dc": 15, "rolls": [5]})).await;
    app.advance(&enc, "next_turn").await;
    app.advance(&enc, "next_turn").await;

    // End of round 2: Ana 18 + 1 = 19; Bo 11 − 2 = 9; Cy 3 − 2 = 1; Dee −5 −2 −5 = −12, held to
    // −10: 5 − 10 = −5 → reeling, flat-footed, then −5 + 20 = 15. Dee now acts before Bo.
    let round3 = app.advance(&enc, "next_turn").await;
    assert_eq!(
        scores(&round3["turn_order"]),
        [("Ana".into(), 19), ("Dee".into(), 15), ("Bo".into(), 9), ("Cy".into(), 1)]
    );
    let end = app
        .logged(&enc, &round3)
        .await
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["data"]["action"] == json!("end_of_round"))
        .cloned()
        .unwrap();
    let dee_change = end["data"]["report"]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == json!("Dee"))
        .cloned()
        .unwrap();
    assert_eq!(
        (dee_change["table_total"].clone(), dee_change["capped_total"].clone()),
        (json!(-12), json!(-10))
    );
    assert_eq!(dee_change["consequence"], json!({"kind": "reeling", "from": -5, "raised_to": 15}));
    let state = app.encounter(&enc).await;
    let dee_state =
        state["combatants"].as_array().unwrap().iter().find(|c| c["name"] == json!("Dee")).cloned().unwrap();
    assert_eq!(
        (dee_state["state"]["reeling"].clone(), dee_state["state"]["flat_footed"].clone()),
        (json!(true), json!(true))
    );

    // Every die the log holds, in the order rolled.
    let dice = logged_dice(&app.events(&enc).await);
    assert_eq!(dice, vec![3, 4, 5, 6, 15, 9, 14, 9, 4, 8, 15, 11, 6, 5, 19, 3, 2, 3, 10, 5]);
}

#[tokio::test]
async fn a_press_is_forced_after_fifty_and_out_of_turn_actions_are_refused() {
    let app = spawn_app().await;
    let enc = app.create_encounter_id("spycraft2", "Rooftop").await;
    let ana = app.add_combatant(&enc, "Ana", "agents", json!({"initiative_bonus": 4})).await;
    let cy = app.add_combatant(&enc, "Cy", "guards", json!({"initiative_bonus": 1})).await;
    app.roll_initiative(
        &enc,
        json!({"fixed": [{"combatant_id": ana, "value": 45}, {"combatant_id": cy, "value": 10}]}),
    )
    .await;
    app.advance(&enc, "next_turn").await;
    // Out of turn: Cy shoots on Ana's count.
    let body = json!({"attacker_id": cy, "target_id": ana, "weapon": pistol(), "rolls": [10]});
    let detail = refused(&app, &enc, "attacks", body, "attacker_id", "out of turn").await;
    assert!(detail.contains("not Cy's Initiative Count"), "{detail}");
    // A Triumph (+10): 45 → 55 at the end of the round.
    op(&app, &enc, "actions", json!({"combatant_id": ana, "action": {"action": "triumph"}})).await;
    let next = app.advance(&enc, "next_round").await;
    assert_eq!(scores(&next["turn_order"])[0], ("Ana".into(), 55));
    // Round 2: Ana's first action must be a Press.
    let detail = refused(
        &app,
        &enc,
        "actions",
        json!({"combatant_id": ana, "action": {"action": "aim"}}),
        "action",
        "press",
    )
    .await;
    assert!(detail.contains("must be a Press"), "{detail}");
    let attack = json!({"attacker_id": ana, "target_id": cy, "weapon": pistol(), "rolls": [10]});
    refused(&app, &enc, "attacks", attack, "attacker_id", "press before attacking").await;
    op(
        &app,
        &enc,
        "actions",
        json!({"combatant_id": ana, "action": {"action": "press", "count_change": -15}}),
    )
    .await;
    // A choice without fields may be its bare name (docs/api-conventions.md): "aim" is {"action": "aim"}.
    op(&app, &enc, "actions", json!({"combatant_id": ana, "action": "aim"})).await;
    // Press needs its count_change, so its bare name is refused, naming the field.
    let path = format!("/v1/encounters/{enc}/spycraft2/actions");
    let bare_press = app.post_json(&path, &json!({"combatant_id": ana, "action": "press"})).await;
    bare_press.assert_problem(422, Some("action"), "bare press");
    // Press is outside the ±10 cap: 55 + 1 − 15 = 41.
    let after = app.advance(&enc, "next_round").await;
    assert_eq!(scores(&after["turn_order"])[0], ("Ana".into(), 41));
    // Bounds and unknown fields name the field.
    let reply = app
        .post_json(
            &format!("/v1/encounters/{enc}/spycraft2/actions"),
            &json!({"combatant_id": ana, "action": {"action": "press", "count_change": 51}}),
        )
        .await;
    assert!(reply.status == 400 || reply.status == 422, "{}", reply.body);
}

#[tokio::test]
async fn the_stateless_twins_answer_with_the_same_reports() {
    let app = spawn_app().await;
    // An attack between inline stat blocks: 12 + 5 = 17 ≥ 15; 2d6 = 4 + 3 = 7 against 4 vitality:
    // 4 vitality, 3 wounds.
    let reply = app
        .post_json(
            "/v1/rulesets/spycraft2/attacks",
            &json!({"attacker": {"initiative_bonus": 3, "attack_bonus": 5},
            "target": {"initiative_bonus": 1, "defense": 15, "vitality": 4},
            "weapon": {"name": "Pistol", "damage": {"count": 2, "sides": 6}}, "rolls": [12, 4, 3]}),
        )
        .await
        .expect_status(200, "inline attack");
    let damage = &reply.body["result"]["damage"];
    assert_eq!((damage["to_vitality"].clone(), damage["to_wounds"].clone()), (json!(4), json!(3)));
    assert!(text(&reply.body["summary"]).contains("hit"));
    // Jungle: 2d6 × 10 = (2 + 5) × 10 = 70 ft., under the 100-ft. cap.
    let distance = app
        .post_json(
            "/v1/rulesets/spycraft2/distance",
            &json!({"terrain": "jungle", "senses_ft": [100, 40], "rolls": [2, 5]}),
        )
        .await
        .expect_status(200, "inline distance");
    assert_eq!(distance.body["result"]["distance_ft"], json!(70));
    let save = app
        .post_json(
            "/v1/rulesets/spycraft2/saves",
            &json!({"stats": {"initiative_bonus": 0, "reflex": 4},
            "save": "reflex", "dc": 15, "against": "blast", "rolls": [9]}),
        )
        .await
        .expect_status(200, "inline save");
    assert_eq!(pluck(&save.body["result"]["fluid"], "value"), vec![json!(-2), json!(-5)]);
    let hurt = app
        .post_json(
            "/v1/rulesets/spycraft2/damage",
            &json!({"target": {"initiative_bonus": 0, "vitality": 5},
            "amount": 9, "critical": true}),
        )
        .await
        .expect_status(200, "inline damage");
    assert_eq!(hurt.body["result"]["damage"]["to_wounds"], json!(9));
    let bad = app
        .post_json("/v1/rulesets/spycraft2/distance", &json!({"terrain": "plains", "line_of_sight_ft": 50}))
        .await;
    bad.assert_problem(422, Some("line_of_sight_ft"), "line of sight outdoors");
}

#[tokio::test]
async fn action_dice_boost_the_initiative_check_and_a_split_skill_check_is_rolled_when_it_resolves() {
    let app = spawn_app().await;
    let enc = app.create_encounter_id("spycraft2", "Server room").await;
    let ana = app
        .add_combatant(
            &enc,
            "Ana",
            "agents",
            json!({"initiative_bonus": 4, "action_dice": 3, "action_die": "d6"}),
        )
        .await;
    let bo = app.add_combatant(&enc, "Bo", "guards", json!({"initiative_bonus": 2})).await;
    let path = format!("/v1/encounters/{enc}/initiative");

    // Refused, nothing stored: more Action Dice than Ana holds, 0 dice, and any for Bo, whose
    // stat block records none.
    for (body, field, case) in [
        (json!({"action_dice": [{"combatant_id": ana, "dice": 4}]}), "action_dice[0].dice", "more than held"),
        (json!({"action_dice": [{"combatant_id": ana, "dice": 0}]}), "action_dice[0].dice", "zero dice"),
        (json!({"action_dice": [{"combatant_id": bo, "dice": 1}]}), "action_dice[0].dice", "none recorded"),
        (
            json!({"fixed": [{"combatant_id": ana, "value": 12}], "action_dice": [{"combatant_id": ana, "dice": 1}]}),
            "action_dice[0].combatant_id",
            "a fixed value",
        ),
    ] {
        let before = app.snapshot(&enc).await;
        app.post_json(&path, &body).await.assert_problem(422, Some(field), case);
        assert_eq!(app.snapshot(&enc).await, before, "{case}: nothing stored");
    }

    // Step 3, Special Note: Ana spends 2 of her 3 Action Dice (d6) on her check: 1d20 (7) + 4 =
    // 11, + 5 + 3 = 19. Bo: 9 + 2 = 11. Every die comes back with its purpose.
    let rolled = app
        .roll_initiative(
            &enc,
            json!({"rolls": [7, 5, 3, 9], "action_dice": [{"combatant_id": ana, "dice": 2}]}),
        )
        .await;
    let dice: Vec<(i64, i64, String)> = rolled["dice"]
        .as_array()
        .expect("dice")
        .iter()
        .map(|d| (d["sides"].as_i64().unwrap_or(0), d["value"].as_i64().unwrap_or(0), text(&d["purpose"])))
        .collect();
    assert_eq!(
        dice,
        vec![
            (20, 7, "initiative: Ana".into()),
            (6, 5, "initiative boost: Ana".into()),
            (6, 3, "initiative boost: Ana".into()),
            (20, 9, "initiative: Bo".into())
        ]
    );
    assert_eq!(scores(&rolled["turn_order"]), vec![("Ana".into(), 19), ("Bo".into(), 11)]);
    let state = app.encounter(&enc).await;
    assert_eq!(state["combatants"][0]["state"]["action_dice_spent"], json!(2));

    // Once combat begins the Count may not be boosted: Ana's last die is refused.
    app.advance(&enc, "next_turn").await;
    let before = app.snapshot(&enc).await;
    let again = json!({"combatant_ids": [ana], "action_dice": [{"combatant_id": ana, "dice": 1}]});
    app.post_json(&path, &again).await.assert_problem(422, Some("action_dice[0].combatant_id"), "in combat");
    assert_eq!(app.snapshot(&enc).await, before, "in combat: nothing stored");

    // Step 5: Ana moves (1 half action left), then begins a full-action Computers check: split,
    // no die rolled. Round 2, her first action finishes it and the server rolls it then:
    // 1d20 (12) + 6 + 2 (tools) = 20 against DC 18, a success.
    op(&app, &enc, "actions", json!({"combatant_id": ana, "action": {"action": "move"}})).await;
    let begun = op(&app, &enc, "actions", json!({"combatant_id": ana, "action": {"action": "skill_check",
        "name": "Computers", "cost": "full", "bonus": 6, "dc": 18, "modifiers": [{"value": 2, "reason": "tools"}]},
        "rolls": [12]})).await;
    assert_eq!(begun["result"]["spent"], json!({"spent": "split_started"}));
    assert_eq!((begun["result"].get("check"), begun["dice"].clone()), (None, json!([])));
    app.advance(&enc, "next_turn").await;
    app.advance(&enc, "next_turn").await;
    let finished = op(
        &app,
        &enc,
        "actions",
        json!({"combatant_id": ana, "action": {"action": "finish_skill_check"},
        "rolls": [12]}),
    )
    .await;
    let check = &finished["result"]["check"];
    assert_eq!(
        (check["die"].clone(), check["total"].clone(), check["success"].clone()),
        (json!(12), json!(20), json!(true))
    );
    assert_eq!(finished["dice"][0]["purpose"], json!("skill check (Computers): Ana"));
    assert!(
        text(&finished["summary"]).contains("Computers check 20 (d20 12) against DC 18: success"),
        "{}",
        finished["summary"]
    );
}

#[tokio::test]
async fn off_count_on_the_own_count_and_a_threat_without_action_dice_are_refused() {
    let app = spawn_app().await;
    let enc = app.create_encounter_id("spycraft2", "Dock").await;
    let ana = app
        .add_combatant(
            &enc,
            "Ana",
            "agents",
            json!({"initiative_bonus": 4, "attack_bonus": 5, "action_dice": 0}),
        )
        .await;
    let cy = app.add_combatant(&enc, "Cy", "guards", json!({"initiative_bonus": 1, "defense": 14})).await;
    app.roll_initiative(
        &enc,
        json!({"fixed": [{"combatant_id": ana, "value": 18}, {"combatant_id": cy, "value": 14}]}),
    )
    .await;
    app.advance(&enc, "next_turn").await;
    // Ana's own Count: an action "prompted at another time" contradicts the encounter.
    refused(
        &app,
        &enc,
        "actions",
        json!({"combatant_id": ana, "action": {"action": "aim"}, "off_count": true}),
        "off_count",
        "off_count on the own Count",
    )
    .await;
    // Her stat block records 0 Action Dice: none to activate a threat with.
    let detail = refused(
        &app,
        &enc,
        "attacks",
        json!({"attacker_id": ana, "target_id": cy, "weapon": pistol(),
        "activate_threat": true, "rolls": [19, 3, 4]}),
        "activate_threat",
        "no Action Dice left",
    )
    .await;
    assert!(detail.contains("Ana has no Action Dice left"), "{detail}");
}

/// docs/api-conventions.md: a weapon's damage may be Avrae notation: `"2d6"` is `{count: 2, sides: 6}`.
#[tokio::test]
async fn a_weapon_damage_may_be_written_in_avrae_notation() {
    let app = spawn_app().await;
    let enc = app.create_encounter_id("spycraft2", "Notation").await;
    let ana =
        app.add_combatant(&enc, "Ana", "agents", json!({"initiative_bonus": 4, "attack_bonus": 5})).await;
    let cy = app
        .add_combatant(
            &enc,
            "Cy",
            "guards",
            json!({"initiative_bonus": 1, "defense": 14, "vitality": 6, "wounds": 8}),
        )
        .await;
    app.roll_initiative(&enc, json!({"rolls": [14, 4]})).await;
    app.advance(&enc, "next_turn").await;
    // d20 11 + 5 = 16 against Defense 14 − 2 (flat-footed) = 12: a hit; 2d6 6 + 5 = 11: 6 vitality, 5 wounds.
    let shot = op(
        &app,
        &enc,
        "attacks",
        json!({"attacker_id": ana, "target_id": cy,
        "weapon": {"name": "Pistol", "damage": "2d6", "threat_range": 19}, "rolls": [11, 6, 5]}),
    )
    .await;
    let damage = &shot["result"]["damage"];
    assert_eq!((damage["to_vitality"].clone(), damage["to_wounds"].clone()), (json!(6), json!(5)));
    let too_many = json!({"attacker_id": ana, "target_id": cy,
        "weapon": {"name": "Pistol", "damage": "30d6"}, "rolls": [11]});
    let detail = refused(&app, &enc, "attacks", too_many, "weapon.damage", "30 dice").await;
    assert!(detail.contains("30 is out of range"), "{detail}");
}
