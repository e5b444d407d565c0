//! Groups that share initiative (issue 29 item 2): put in a group on add, by patch or from a
//! creature; one roll for the group; its members act one after another; reinforcements join the
//! group's place mid-fight; leaving a group, undo, templates, bad names.

use crate::helpers::{TestApp, adeva, pluck, spawn_app, text};
use serde_json::{Value, json};

async fn add(app: &TestApp, encounter: &str, body: Value) -> Value {
    let path = format!("/v1/encounters/{encounter}/combatants");
    app.post_json(&path, &body).await.expect_status(201, "add").body["combatant"].clone()
}

async fn from_creature(app: &TestApp, encounter: &str, body: Value) -> Value {
    let path = format!("/v1/encounters/{encounter}/combatants/from-creature");
    app.post_json(&path, &body).await.expect_status(201, "add from creature").body
}

/// An adeva-d100 fight: the Sergeant (Ag 42, AB 4), three goblins from a creature in group
/// "Goblins" (Ag 30, AB 3), the Heretic (Ag 20, AB 2); initiative rolled with 2, 6, 7.
async fn goblin_fight(app: &TestApp) -> (String, String, Value) {
    let creature = json!({"name": "Goblin", "ruleset": "adeva-d100", "stats": adeva(30), "side": "goblins"});
    let goblin =
        text(&app.post_json("/v1/creatures", &creature).await.expect_status(201, "creature").body["id"]);
    let encounter = app.create_encounter_id("adeva-d100", "Hive").await;
    add(app, &encounter, json!({"name": "Sergeant", "side": "guard", "stats": adeva(42)})).await;
    let goblins =
        from_creature(app, &encounter, json!({"creature_id": goblin, "count": 3, "group": "Goblins"})).await;
    assert_eq!(pluck(&goblins["combatants"], "group"), vec![json!("Goblins"); 3]);
    add(app, &encounter, json!({"name": "Heretic", "side": "cult", "stats": adeva(20)})).await;
    let rolled = app.roll_initiative(&encounter, json!({"rolls": [2, 6, 7]})).await;
    (encounter, goblin, rolled)
}

#[tokio::test]
async fn a_group_rolls_one_initiative_and_its_members_act_one_after_another() {
    let app = spawn_app().await;
    let (encounter, _, rolled) = goblin_fight(&app).await;

    // adeva-d100.txt Step Three: 1d10 + Agility Bonus. Sergeant 2 + 4 = 6; the Goblins 6 + 3 = 9,
    // one die for all three; Heretic 7 + 2 = 9. The tie at 9 goes to the higher Agility (30 > 20).
    let purposes = pluck(&rolled["dice"], "purpose");
    assert_eq!(
        purposes,
        [json!("initiative: Sergeant"), json!("initiative: Goblin 1"), json!("initiative: Heretic")]
    );
    assert_eq!(rolled["unused_rolls"], json!([]));
    let order = pluck(&rolled["turn_order"], "name");
    let expected = ["Goblin 1", "Goblin 2", "Goblin 3", "Heretic", "Sergeant"].map(|n| json!(n));
    assert_eq!(order, expected);
    assert_eq!(pluck(&rolled["turn_order"], "initiative"), [9, 9, 9, 9, 6].map(|n| json!(n)));
    let read = app.encounter(&encounter).await;
    assert_eq!(
        read["combatants"][2]["initiative"]["explanation"],
        json!("9: rolls with its group Goblins (Goblin 1)")
    );
    // They act one after another.
    let mut turns = Vec::new();
    for _ in 0..5 {
        turns.push(app.advance(&encounter, "next_turn").await["current_turn"]["name"].clone());
    }
    assert_eq!(turns, expected);
}

#[tokio::test]
async fn reinforcements_join_their_group_in_its_place_mid_fight() {
    let app = spawn_app().await;
    let (encounter, goblin, _) = goblin_fight(&app).await;
    app.advance(&encounter, "next_turn").await; // round 1: Goblin 1 acts

    let more =
        from_creature(&app, &encounter, json!({"creature_id": goblin, "count": 2, "group": "Goblins"})).await;
    let ids: Vec<Value> = pluck(&more["combatants"], "id");
    assert_eq!(pluck(&more["combatants"], "name"), [json!("Goblin 4"), json!("Goblin 5")]);
    let joined = app.roll_initiative(&encounter, json!({"combatant_ids": ids, "rolls": []})).await;

    assert_eq!(joined["dice"], json!([]), "they take the group's initiative: no die");
    let order = pluck(&joined["turn_order"], "name");
    let expected = ["Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4", "Goblin 5", "Heretic", "Sergeant"];
    assert_eq!(order, expected.map(|n| json!(n)));
    let acted = pluck(&joined["turn_order"], "acted");
    assert_eq!(acted[3..5], [json!(false), json!(false)], "behind the current turn: they act this round");
}

#[tokio::test]
async fn leaving_a_group_is_a_patch_that_undo_takes_back_and_a_template_keeps_groups() {
    let app = spawn_app().await;
    let (encounter, _, _) = goblin_fight(&app).await;
    let read = app.encounter(&encounter).await;
    let goblin_2 = text(&read["combatants"][2]["id"]);
    let path = format!("/v1/encounters/{encounter}/combatants/{goblin_2}");

    let left = app.patch_json(&path, &json!({"group": null})).await.expect_status(200, "leave");
    assert_eq!(left.body["combatant"]["group"], Value::Null);
    assert_eq!(left.body["combatant"]["initiative"]["score"], json!(9), "it keeps its score");
    let undone = app.post_json(&format!("/v1/encounters/{encounter}/undo"), &json!({})).await;
    undone.expect_status(200, "undo the leaving");
    let restored = app.encounter(&encounter).await;
    let same = restored["combatants"] == read["combatants"] && restored["turn_order"] == read["turn_order"];
    assert!(same, "undo restores the group exactly (a new version: only the fight is compared)");
    let moved = app.patch_json(&path, &json!({"group": "Deserters"})).await.expect_status(200, "move");
    assert_eq!(moved.body["combatant"]["group"], json!("Deserters"));
    let groups = pluck(&app.encounter(&encounter).await["combatants"], "group");
    assert_eq!(groups[1..4], [json!("Goblins"), json!("Deserters"), json!("Goblins")], "GET after the move");

    let template = app.post_json("/v1/templates", &json!({"encounter_id": encounter})).await;
    let template = template.expect_status(201, "keep").body;
    assert_eq!(
        pluck(&template["combatants"], "group")[1..4],
        [json!("Goblins"), json!("Deserters"), json!("Goblins")]
    );
    let started =
        app.post_json(&format!("/v1/templates/{}/encounters", text(&template["id"])), &json!({})).await;
    let started = started.expect_status(201, "start").body;
    assert_eq!(pluck(&started["combatants"], "group"), pluck(&template["combatants"], "group"));
}

#[tokio::test]
async fn bad_group_names_are_refused_naming_the_field_and_change_nothing() {
    let app = spawn_app().await;
    let creature = json!({"name": "Rat", "ruleset": "adeva-d100", "stats": adeva(30), "side": "vermin"});
    let rat =
        text(&app.post_json("/v1/creatures", &creature).await.expect_status(201, "creature").body["id"]);
    let encounter = app.create_encounter_id("adeva-d100", "Cellar").await;
    let before = app.snapshot(&encounter).await;
    let long = "g".repeat(101);
    let combatants = format!("/v1/encounters/{encounter}/combatants");
    let from = format!("/v1/encounters/{encounter}/combatants/from-creature");
    let cases = [
        (&combatants, json!({"name": "A", "side": "s", "stats": adeva(30), "group": " "}), "group"),
        (&combatants, json!({"name": "A", "side": "s", "stats": adeva(30), "group": long}), "group"),
        (&from, json!({"creature_id": rat, "group": ""}), "group"),
        (
            &from,
            json!({"creature_id": rat, "count": 2, "instances": [{}, {"group": long}]}),
            "instances[1].group",
        ),
    ];
    for (path, body, field) in cases {
        app.post_json(path, &body).await.assert_problem(422, Some(field), &body.to_string());
    }
    assert_eq!(app.snapshot(&encounter).await, before);
    let id = text(&add(&app, &encounter, json!({"name": "A", "side": "s", "stats": adeva(30)})).await["id"]);
    let patch = app.patch_json(&format!("{combatants}/{id}"), &json!({"group": "\t"})).await;
    patch.assert_problem(422, Some("group"), "a blank group by patch");
    let nameless = app.patch_json(&format!("{combatants}/{id}"), &json!({"name": null})).await;
    nameless.assert_problem(400, Some("name"), "a combatant's name cannot be cleared");
}
