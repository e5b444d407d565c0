//! Creating, reading, listing and deleting encounters.

use crate::helpers::{pluck, spawn_app, text};
use serde_json::{Value, json};

#[tokio::test]
async fn a_new_encounter_is_in_setup_at_version_1() {
    let app = spawn_app().await;

    let reply =
        app.post_json("/v1/encounters", &json!({"ruleset": "cepheus-engine", "name": "Starport"})).await;

    assert_eq!(reply.status, 201, "{}", reply.body);
    let id = text(&reply.body["id"]);
    assert!(id.starts_with("enc_"), "id {id}");
    assert_eq!(reply.header("location"), Some(format!("/v1/encounters/{id}").as_str()));
    assert_eq!(reply.etag(), Some("\"1\""));
    let encounter = &reply.body;
    assert_eq!(encounter["version"], json!(1));
    assert_eq!(encounter["ruleset"], json!("cepheus-engine"));
    assert_eq!(encounter["name"], json!("Starport"));
    assert_eq!(encounter["status"], json!("setup"));
    assert_eq!(encounter["round"], json!(0));
    assert_eq!(encounter["current_turn"], Value::Null);
    for list in ["combatants", "turn_order", "effects"] {
        assert_eq!(encounter[list], json!([]), "{list}");
    }
    assert_eq!(encounter["created_at"], encounter["updated_at"]);
}

#[tokio::test]
async fn a_created_encounter_reads_back_the_same_with_its_etag() {
    let app = spawn_app().await;
    let created = app.create_encounter("arrgs", "Boarding action").await;

    let reply = app.get(&format!("/v1/encounters/{}", text(&created["id"]))).await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.etag(), Some("\"1\""));
    assert_eq!(reply.body, created);
}

#[tokio::test]
async fn creation_logs_an_encounter_created_event() {
    let app = spawn_app().await;
    let id = app.create_encounter_id("spycraft2", "Casino").await;

    let events = app.events(&id).await;

    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["seq"], json!(1));
    assert_eq!(events[0]["kind"], json!("encounter_created"));
    assert_eq!(
        events[0]["data"],
        json!({"kind": "encounter_created", "name": "Casino", "ruleset": "spycraft2"})
    );
}

#[tokio::test]
async fn a_name_of_exactly_100_characters_is_accepted() {
    let app = spawn_app().await;
    let name = "n".repeat(100);

    let reply = app.post_json("/v1/encounters", &json!({"ruleset": "arrgs", "name": name})).await;

    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!(reply.body["name"], json!(name));
}

#[tokio::test]
async fn bad_encounters_are_refused_and_nothing_is_stored() {
    let app = spawn_app().await;
    let cases: Vec<(Value, u16, &str, &str)> = vec![
        (json!({"ruleset": "dnd5e", "name": "x"}), 400, "ruleset", "unknown ruleset"),
        (json!({"ruleset": 5, "name": "x"}), 400, "ruleset", "ruleset not a string"),
        (json!({"ruleset": "arrgs", "name": "   "}), 422, "name", "blank name"),
        (json!({"ruleset": "arrgs", "name": ""}), 422, "name", "empty name"),
        (json!({"ruleset": "arrgs", "name": "n".repeat(101)}), 422, "name", "101-character name"),
        (json!({"ruleset": "arrgs", "name": ["x"]}), 400, "name", "name not a string"),
        (json!({"ruleset": "arrgs", "name": "x", "round": 3}), 400, "round", "unknown field"),
        (json!({"name": "x"}), 400, "body", "missing ruleset"),
        (json!("arrgs"), 400, "body", "a string, not an object"),
    ];

    for (body, status, field, case) in cases {
        let reply = app.post_json("/v1/encounters", &body).await;
        reply.assert_problem(status, Some(field), case);
    }
    let list = app.get("/v1/encounters").await;
    assert_eq!(list.body["total"], json!(0));
}

#[tokio::test]
async fn an_unknown_encounter_is_not_found() {
    let app = spawn_app().await;

    for reply in [app.get("/v1/encounters/enc_missing").await, app.delete("/v1/encounters/enc_missing").await]
    {
        reply.assert_problem(404, None, "unknown encounter");
        assert_eq!(reply.body["type"], json!("urn:skirmish:problem:not-found"));
    }
}

#[tokio::test]
async fn deleting_an_encounter_removes_it_and_its_log() {
    let app = spawn_app().await;
    let id = app.create_encounter_id("lur-asko", "Ruins").await;
    let path = format!("/v1/encounters/{id}");

    let reply = app.delete(&path).await;

    assert_eq!(reply.status, 204);
    assert_eq!(reply.body, Value::Null);
    app.get(&path).await.assert_problem(404, None, "get after delete");
    app.get(&format!("{path}/events")).await.assert_problem(404, None, "events after delete");
    app.delete(&path).await.assert_problem(404, None, "second delete");
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(0));
}

#[tokio::test]
async fn the_list_pages_with_limit_offset_and_next_offset() {
    let app = spawn_app().await;
    let mut created = Vec::new();
    for n in 1..=5 {
        created.push(json!(app.create_encounter_id("arrgs", &format!("Fight {n}")).await));
    }

    let first = app.get("/v1/encounters?limit=2").await.body;
    let second = app.get("/v1/encounters?limit=2&offset=2").await.body;
    let last = app.get("/v1/encounters?limit=2&offset=4").await.body;
    let beyond = app.get("/v1/encounters?offset=9").await.body;

    let page = |body: &Value| (body["total"].clone(), body["limit"].clone(), body["offset"].clone());
    assert_eq!(page(&first), (json!(5), json!(2), json!(0)));
    assert_eq!(first["next_offset"], json!(2));
    assert_eq!(page(&second), (json!(5), json!(2), json!(2)));
    assert_eq!(second["next_offset"], json!(4));
    assert_eq!(page(&last), (json!(5), json!(2), json!(4)));
    assert_eq!(last["next_offset"], Value::Null);
    assert_eq!(beyond["items"], json!([]));
    assert_eq!(beyond["next_offset"], Value::Null);
    let mut seen = [&first, &second, &last].iter().flat_map(|p| pluck(&p["items"], "id")).collect::<Vec<_>>();
    assert_eq!(seen.len(), 5);
    seen.sort_by_key(|id| id.to_string());
    created.sort_by_key(|id| id.to_string());
    assert_eq!(seen, created, "the pages together hold every encounter once");
}

#[tokio::test]
async fn the_list_defaults_to_20_items_and_holds_whole_encounters() {
    let app = spawn_app().await;
    for n in 1..=21 {
        app.create_encounter("lur-asko", &format!("Fight {n}")).await;
    }
    let one = app.create_encounter("lur-asko", "Fight 22").await;

    let all = app.get("/v1/encounters?limit=100").await.body;
    let default = app.get("/v1/encounters").await.body;

    assert_eq!((default["limit"].clone(), default["total"].clone()), (json!(20), json!(22)));
    assert_eq!(default["items"].as_array().unwrap().len(), 20);
    assert_eq!(default["next_offset"], json!(20));
    let listed = all["items"].as_array().unwrap().iter().find(|e| e["id"] == one["id"]).unwrap();
    assert_eq!(listed, &one);
}

#[tokio::test]
async fn bad_list_parameters_are_refused_naming_the_parameter() {
    let app = spawn_app().await;
    let cases = [
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=-1", "limit"),
        ("limit=ten", "limit"),
        ("offset=-1", "offset"),
        ("offset=x", "offset"),
        ("page=2", "page"),
    ];

    for (query, field) in cases {
        let reply = app.get(&format!("/v1/encounters?{query}")).await;
        reply.assert_problem(400, Some(field), query);
    }
}

#[tokio::test]

async fn the_list_is_newest_first_even_within_one_millisecond() {
    let app = spawn_app().await;
    let mut created = Vec::new();
    for n in 0..100 {
        created.push(json!(app.create_encounter_id("arrgs", &format!("Fight {n}")).await));
    }

    let list = app.get("/v1/encounters?limit=100").await.body;

    created.reverse();
    assert_eq!(pluck(&list["items"], "id"), created);
}

#[tokio::test]
async fn an_adeva_encounter_carries_its_lethal_damage_table() {
    let app = spawn_app().await;
    let table = json!(["Stunned", "Bleeding", "Maimed", "Crippled", "Slain"]);
    let body = json!({"ruleset": "adeva-d100", "name": "Grim", "options": {"lethal_damage_table": table}});

    let created = app.post_json("/v1/encounters", &body).await;

    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(created.body["options"], json!({"lethal_damage_table": table}));
    let id = created.body["id"].as_str().unwrap();
    assert_eq!(app.encounter(id).await["options"], json!({"lethal_damage_table": table}), "stored");
    let plain = app.create_encounter("arrgs", "No settings").await;
    assert_eq!(plain["options"], json!({}));
}

#[tokio::test]
async fn bad_encounter_options_name_their_field_and_create_nothing() {
    let app = spawn_app().await;
    let cases = [
        (
            json!({"ruleset": "adeva-d100", "name": "x", "options": {"lethal_damage_table": ["a", "b"]}}),
            "options.lethal_damage_table",
        ),
        (
            json!({"ruleset": "adeva-d100", "name": "x", "options": {"lethal_damage_table": ["a", "b", " ", "d", "e"]}}),
            "options.lethal_damage_table[2]",
        ),
        (json!({"ruleset": "adeva-d100", "name": "x", "options": {"surprise": 30}}), "options.surprise"),
        (json!({"ruleset": "arrgs", "name": "x", "options": {"anything": 1}}), "options.anything"),
        (json!({"ruleset": "arrgs", "name": "x", "options": [1]}), "options"),
    ];
    for (body, field) in cases {
        let reply = app.post_json("/v1/encounters", &body).await;
        assert_eq!((reply.status, &reply.body["field"]), (422, &json!(field)), "{field}: {}", reply.body);
    }
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(0));
}

/// The server answers a read of an unchanged encounter from the body it last sent for that
/// version; a change made outside the server (another process on the same file, here a second
/// handle) bumps the version, so the next read shows it.
#[tokio::test]
async fn a_read_after_a_change_made_outside_the_server_shows_the_change() {
    use skirmish_db::StoredResponse;
    use skirmish_domain::encounter::{Encounter, EncounterError, EncounterId, Event};
    let app = spawn_app().await;
    let id = app.create_encounter_id("arrgs", "Before").await;
    let path = format!("/v1/encounters/{id}");
    let first = app.get(&path).await;
    let again = app.get(&path).await;

    let rename = |encounter: &mut Encounter| -> Result<(Vec<Event>, ()), EncounterError> {
        encounter.name = "After".into();
        Ok((vec![], ()))
    };
    let empty =
        |_| Ok::<_, EncounterError>(StoredResponse { status: 200, body: String::new(), headers: vec![] });
    app.store().mutate("default", &EncounterId(id.clone()), None, None, rename, empty).unwrap();
    let after = app.get(&path).await;

    assert_eq!((first.status, again.status), (200, 200));
    assert_eq!(first.body, again.body);
    assert_eq!((first.body["name"].clone(), first.body["version"].clone()), (json!("Before"), json!(1)));
    assert_eq!((after.body["name"].clone(), after.body["version"].clone()), (json!("After"), json!(2)));
    assert_eq!(after.header("etag"), Some("\"2\""));
}
