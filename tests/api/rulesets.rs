//! GET /v1/rulesets and the stateless ruleset operations.

use crate::helpers::{pluck, spawn_app, text};
use serde_json::json;

const RULESETS: [&str; 5] = ["adeva-d100", "arrgs", "spycraft2", "cepheus-engine", "lur-asko"];

#[tokio::test]
async fn the_five_rulesets_are_listed_with_what_they_implement() {
    let app = spawn_app().await;

    let reply = app.get("/v1/rulesets").await;

    assert_eq!(reply.status, 200);
    assert_eq!(pluck(&reply.body, "id"), RULESETS.map(|id| json!(id)));
    for ruleset in reply.body.as_array().unwrap() {
        let id = text(&ruleset["id"]);
        let expected = if ["cepheus-engine", "adeva-d100", "lur-asko"].contains(&id.as_str()) {
            json!(["initiative", "attacks", "damage", "actions"])
        } else if id == "arrgs" {
            json!([
                "initiative",
                "attacks",
                "damage",
                "actions",
                "area-attacks",
                "conditions",
                "end-of-round"
            ])
        } else if id == "spycraft2" {
            json!([
                "initiative",
                "distance",
                "surprise",
                "group-initiative",
                "enter",
                "actions",
                "attacks",
                "damage",
                "saves"
            ])
        } else {
            json!(["initiative"])
        };
        assert_eq!(ruleset["operations"], expected, "{id}");
        let source = text(&ruleset["source_text"]);
        assert!(
            !source.contains("shared/"),
            "{id}: the source names the game and chapter, not a path: {source}"
        );
        for field in ["name", "initiative", "tie_break"] {
            assert!(ruleset[field].is_string(), "{id}: {field}");
        }
    }
}

#[tokio::test]
async fn every_stats_example_is_a_valid_stat_block_for_its_ruleset() {
    let app = spawn_app().await;
    let rulesets = app.get("/v1/rulesets").await.body;

    for ruleset in rulesets.as_array().unwrap() {
        let id = text(&ruleset["id"]);
        let encounter = app.create_encounter_id(&id, "example").await;
        let body = json!({"name": "Example", "side": "party", "stats": ruleset["stats_example"]});

        let reply = app.post_json(&format!("/v1/encounters/{encounter}/combatants"), &body).await;

        assert_eq!(reply.status, 201, "{id}: {}", reply.body);
        assert_eq!(reply.body["combatant"]["stats"], ruleset["stats_example"], "{id}");
    }
}

#[tokio::test]
async fn a_stateless_operation_a_ruleset_lacks_is_not_implemented() {
    let app = spawn_app().await;

    // `distance` is spycraft2's alone; every other ruleset answers 501 naming what it has.
    for ruleset in RULESETS.into_iter().filter(|id| *id != "spycraft2") {
        let path = format!("/v1/rulesets/{ruleset}/distance");

        let reply = app.post_json(&path, &json!({})).await;

        reply.assert_problem(501, None, &path);
        assert_eq!(reply.body["type"], json!("urn:skirmish:problem:not-implemented"));
        let detail = text(&reply.body["detail"]);
        assert!(detail.contains(ruleset) && detail.contains("attacks"), "{path}: {detail}");
    }
}

#[tokio::test]
async fn operations_of_an_unknown_ruleset_are_not_found() {
    let app = spawn_app().await;

    for operation in ["attacks", "damage"] {
        let reply = app.post_json(&format!("/v1/rulesets/dnd5e/{operation}"), &json!({})).await;

        reply.assert_problem(404, None, operation);
        assert!(text(&reply.body["detail"]).contains("dnd5e"));
    }
}
