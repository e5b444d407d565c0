//! Adding, changing and removing combatants.

use crate::helpers::{cepheus, spawn_app, text};
use serde_json::{Value, json};

#[tokio::test]
async fn an_added_combatant_is_returned_with_the_new_version() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Starport").await;
    let body = json!({"name": "Vasquez", "side": "marines", "stats": cepheus(10), "surprised": true});

    let reply = app.post_json(&format!("/v1/encounters/{encounter}/combatants"), &body).await;

    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!(reply.etag(), Some("\"2\""));
    assert_eq!(reply.body["version"], json!(2));
    let combatant = &reply.body["combatant"];
    let id = text(&combatant["id"]);
    assert!(id.starts_with("cmb_"), "id {id}");
    assert_eq!(combatant["state"]["stance"], json!("standing"), "the ruleset's combat state starts fresh");
    // Unhurt: the three physical characteristics whole (issue 27's status; tests/api/status.rs).
    assert_eq!(combatant["status"]["summary"], json!("Vasquez: STR 7/7, DEX 10/10, END 7/7"));
    let mut shown = combatant.clone();
    shown.as_object_mut().unwrap().remove("state");
    shown.as_object_mut().unwrap().remove("status");
    assert_eq!(
        shown,
        json!({
            "id": id, "ruleset": "cepheus-engine", "name": "Vasquez", "side": "marines", "stats": cepheus(10), "initiative": null,
            "surprised": true, "defeated": false, "hidden": false, "public": false, "acted_this_round": false,
            "delaying": false, "creature_id": null, "group": null
        })
    );
    let events = reply.body["events"].as_array().unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["seq"], json!(2));
    assert_eq!(events[0]["kind"], json!("combatant_added"));
    assert_eq!(
        app.logged(&encounter, &reply.body).await[0]["data"],
        json!({"kind": "combatant_added", "combatant_id": id, "name": "Vasquez", "side": "marines"})
    );
    let stored = app.encounter(&encounter).await;
    assert_eq!(stored["combatants"], json!([combatant]));
    assert_eq!(stored["turn_order"], json!([]), "no initiative yet, so no place in the order");
}

#[tokio::test]
async fn a_patch_changes_only_the_fields_it_sends() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Starport").await;
    let id = app.add_combatant(&encounter, "Hicks", "marines", cepheus(7)).await;

    let reply = app
        .patch_json(
            &format!("/v1/encounters/{encounter}/combatants/{id}"),
            &json!({"name": "Cpl. Hicks", "hidden": true, "stats": cepheus(9)}),
        )
        .await;

    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.etag(), Some("\"3\""));
    assert_eq!(reply.body["version"], json!(3));
    let combatant = &reply.body["combatant"];
    assert_eq!(combatant["name"], json!("Cpl. Hicks"));
    assert_eq!(combatant["side"], json!("marines"));
    assert_eq!(combatant["stats"], cepheus(9));
    assert_eq!((combatant["hidden"].clone(), combatant["defeated"].clone()), (json!(true), json!(false)));
    let event = &reply.body["events"][0];
    assert_eq!(event["kind"], json!("combatant_updated"));
    assert_eq!(
        app.logged(&encounter, &reply.body).await[0]["data"]["changed"],
        json!(["name", "stats", "hidden"])
    );
    assert_eq!(app.encounter(&encounter).await["combatants"][0], *combatant);
}

#[tokio::test]
async fn removing_a_combatant_ends_the_effects_that_name_it() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Starport").await;
    let hicks = app.add_combatant(&encounter, "Hicks", "marines", cepheus(7)).await;
    let bishop = app.add_combatant(&encounter, "Bishop", "crew", cepheus(12)).await;
    let effect = app
        .add_effect(
            &encounter,
            json!({"name": "covered", "target_id": hicks, "ends": {"ends": "end_of_encounter"}}),
        )
        .await;

    let reply = app.delete(&format!("/v1/encounters/{encounter}/combatants/{hicks}")).await;

    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!((reply.body["version"].clone(), reply.etag()), (json!(5), Some("\"5\"")));
    let events = reply.body["events"].as_array().unwrap();
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["kind"], json!("combatant_removed"));
    let logged = app.logged(&encounter, &reply.body).await;
    assert_eq!(
        logged[0]["data"],
        json!({"kind": "combatant_removed", "combatant_id": hicks, "name": "Hicks"})
    );
    assert_eq!(events[1]["kind"], json!("effect_expired"));
    assert_eq!(
        logged[1]["data"],
        json!({"kind": "effect_expired", "effect_id": effect, "name": "covered", "reason": format!("combatant '{hicks}' left the encounter")})
    );
    let stored = app.encounter(&encounter).await;
    assert_eq!(stored["combatants"].as_array().unwrap().len(), 1);
    assert_eq!(stored["combatants"][0]["id"], json!(bishop));
    assert_eq!(stored["effects"], json!([]));
}

#[tokio::test]
async fn bad_combatants_are_refused_naming_the_field_and_change_nothing() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Starport").await;
    let before = app.snapshot(&encounter).await;
    let with = |stats: Value| json!({"name": "Vasquez", "side": "marines", "stats": stats});
    let mut missing_dex = cepheus(10);
    missing_dex.as_object_mut().unwrap().remove("dex");
    let mut extra = cepheus(10);
    extra["luck"] = json!(3);
    let cases: Vec<(Value, u16, &str, &str)> = vec![
        (with(cepheus(31)), 422, "stats.dex", "DEX above 30"),
        (with(cepheus(-1)), 422, "stats.dex", "negative DEX"),
        (
            with(json!({"str": 7, "dex": "ten", "end": 7, "int": 7, "edu": 7, "soc": 7})),
            422,
            "stats.dex",
            "text DEX",
        ),
        (with(missing_dex), 422, "stats", "missing DEX"),
        (with(extra), 422, "stats.luck", "unknown stat"),
        (with(json!({"initiative_bonus": 4})), 422, "stats.initiative_bonus", "another ruleset's block"),
        (with(json!("strong")), 422, "stats", "stats not an object"),
        (json!({"name": "  ", "side": "marines", "stats": cepheus(10)}), 422, "name", "blank name"),
        (json!({"name": "V", "side": "", "stats": cepheus(10)}), 422, "side", "empty side"),
        (json!({"name": "V", "side": "s".repeat(101), "stats": cepheus(10)}), 422, "side", "long side"),
        (json!({"name": "V", "side": "marines"}), 400, "body", "missing stats"),
        (json!({"name": "V", "side": "marines", "stats": cepheus(10), "hp": 10}), 400, "hp", "unknown field"),
        (
            json!({"name": "V", "side": "marines", "stats": cepheus(10), "hidden": "yes"}),
            400,
            "hidden",
            "bad flag",
        ),
    ];

    for (body, status, field, case) in cases {
        let reply = app.post_json(&format!("/v1/encounters/{encounter}/combatants"), &body).await;
        reply.assert_problem(status, Some(field), case);
        assert_eq!(app.snapshot(&encounter).await, before, "{case}: nothing changed");
    }
}

#[tokio::test]
async fn each_ruleset_checks_its_own_stat_block() {
    let app = spawn_app().await;
    let cases = [
        ("adeva-d100", crate::helpers::adeva(101), "stats.ag"),
        ("spycraft2", json!({"initiative_bonus": 51}), "stats.initiative_bonus"),
        ("spycraft2", json!({"initiative_bonus": -51}), "stats.initiative_bonus"),
        ("arrgs", json!({"agility": -21}), "stats.agility"),
        ("arrgs", json!({"agility": 10, "initiative": 1001}), "stats.initiative"),
        ("arrgs", json!({"initiative": 10}), "stats"),
        ("lur-asko", json!({"armour": 3}), "stats.armour"),
    ];

    for (ruleset, stats, field) in cases {
        let encounter = app.create_encounter_id(ruleset, "checks").await;
        let body = json!({"name": "X", "side": "a", "stats": stats});

        let reply = app.post_json(&format!("/v1/encounters/{encounter}/combatants"), &body).await;

        reply.assert_problem(422, Some(field), &format!("{ruleset} {stats}"));
        assert_eq!(app.encounter(&encounter).await["version"], json!(1), "{ruleset}: nothing changed");
    }
}

#[tokio::test]
async fn bad_patches_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Starport").await;
    let id = app.add_combatant(&encounter, "Hicks", "marines", cepheus(7)).await;
    let path = format!("/v1/encounters/{encounter}/combatants/{id}");
    let before = app.snapshot(&encounter).await;
    let cases: Vec<(Value, u16, &str, &str)> = vec![
        (json!({"stats": cepheus(31)}), 422, "stats.dex", "DEX above 30"),
        (json!({"name": ""}), 422, "name", "empty name"),
        (json!({"side": " "}), 422, "side", "blank side"),
        (json!({"defeated": "yes"}), 400, "defeated", "flag not a boolean"),
        (json!({"initiative": 12}), 400, "initiative", "unknown field"),
    ];

    for (body, status, field, case) in cases {
        app.patch_json(&path, &body).await.assert_problem(status, Some(field), case);
        assert_eq!(app.snapshot(&encounter).await, before, "{case}: nothing changed");
    }
}

#[tokio::test]
async fn unknown_encounters_and_combatants_are_not_found() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Starport").await;
    app.add_combatant(&encounter, "Hicks", "marines", cepheus(7)).await;
    let before = app.snapshot(&encounter).await;
    let add = json!({"name": "V", "side": "m", "stats": cepheus(10)});

    let replies = [
        ("add to unknown encounter", app.post_json("/v1/encounters/enc_missing/combatants", &add).await),
        (
            "patch unknown combatant",
            app.patch_json(
                &format!("/v1/encounters/{encounter}/combatants/cmb_missing"),
                &json!({"hidden": true}),
            )
            .await,
        ),
        (
            "remove unknown combatant",
            app.delete(&format!("/v1/encounters/{encounter}/combatants/cmb_missing")).await,
        ),
        (
            "patch in unknown encounter",
            app.patch_json("/v1/encounters/enc_missing/combatants/cmb_missing", &json!({})).await,
        ),
    ];

    for (case, reply) in replies {
        reply.assert_problem(404, None, case);
    }
    assert_eq!(app.snapshot(&encounter).await, before);
}

#[tokio::test]

async fn a_stat_block_must_be_a_json_object() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Starport").await;
    let body = json!({"name": "Vasquez", "side": "marines", "stats": [7, 10, 7, 7, 7, 7]});

    let reply = app.post_json(&format!("/v1/encounters/{encounter}/combatants"), &body).await;

    reply.assert_problem(422, Some("stats"), "stats as an array");
    assert_eq!(app.encounter(&encounter).await["version"], json!(1));
}
