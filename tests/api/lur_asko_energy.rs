//! lur-asko over HTTP: one weapon carrying two energy portions (lur-asko.txt, "Combined
//! Energy/Normal Damage"; docs/rulesets/lur-asko.md): each portion settled against the normal
//! drive by itself, stored and stateless alike, and a repeated energy type refused naming the
//! field with nothing stored.

use crate::helpers::{spawn_app, text};
use serde_json::{Value, json};

/// A blade of 32 (15 drive) carrying 8 heat and 24 electric.
fn blade() -> Value {
    json!({"weapons": [{"name": "Storm blade", "delivery": "melee", "damage": 32, "drive": 15,
        "energy": {"type": "heat", "damage": 8}, "extra_energy": [{"type": "electric", "damage": 24}]}],
        "injury_type": "Limb"})
}

fn portions(report: &Value) -> Vec<(String, i64, i64)> {
    report["portions"]
        .as_array()
        .unwrap_or_else(|| panic!("no portions in {report}"))
        .iter()
        .map(|p| (text(&p["element"]), p["damage"].as_i64().unwrap_or(-1), p["drive"].as_i64().unwrap_or(-1)))
        .collect()
}

#[tokio::test]
async fn a_blade_with_heat_and_electric_settles_each_portion_against_its_normal_drive() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Forge").await;
    let ward = app
        .add_combatant(
            &encounter,
            "Ward",
            "crew",
            json!({"injury_factor": 10, "armour": {"low": 16, "high": 28, "metallic": true}}),
        )
        .await;
    let raider = app.add_combatant(&encounter, "Raider", "raiders", json!({"injury_factor": 10})).await;
    let fixed =
        json!({"fixed": [{"combatant_id": raider, "value": 12}, {"combatant_id": ward, "value": 10}]});
    app.roll_initiative(&encounter, fixed).await;
    app.advance(&encounter, "next_turn").await;
    // Roll 20 against TN 14 fails by 6: a hit, not critical. Normal 32 at 15 and heat 8 (riding
    // at the higher normal drive 15) are below 16: 0. Electric 24 keeps drive 24, inside metallic
    // 16-28: not halved, 24. Injury factor 10: 2 degrees, electric 24 / 10 = 2: stunned.
    let body = json!({"attacker_id": raider, "target_id": ward, "attack": blade(),
        "defense": {"defense": "roll", "tn": 14}, "rolls": [20]});
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/lur-asko/attacks"), &body).await;
    let report = reply.expect_status(200, "attack").body["result"].clone();
    let expected: Vec<(String, i64, i64)> =
        vec![("normal".into(), 0, 15), ("heat".into(), 0, 15), ("electric".into(), 24, 24)];
    assert_eq!(portions(&report), expected);
    assert_eq!(report["injury"]["degrees"], json!(2));
    assert_eq!(report["effects"][0]["effect"], json!("stunned"));
    assert_eq!(report["standings"][0]["damage_taken"], json!(24));
    // The stateless twin answers the same portions.
    let inline = json!({"attacker": {"name": "Raider", "stats": {"injury_factor": 10}},
        "target": {"name": "Ward", "stats": {"injury_factor": 10, "armour": {"low": 16, "high": 28, "metallic": true}}},
        "attack": blade(), "defense": {"defense": "roll", "tn": 14}, "rolls": [20]});
    let twin =
        app.post_json("/v1/rulesets/lur-asko/attacks", &inline).await.expect_status(200, "inline").body;
    assert_eq!(portions(&twin["result"]), expected);
    // Heat twice on one weapon: 422 naming the repeated type, nothing stored.
    let before = app.snapshot(&encounter).await;
    let mut twice = body.clone();
    twice["attack"]["weapons"][0]["extra_energy"] = json!([{"type": "heat", "damage": 4}]);
    let refused = app.post_json(&format!("/v1/encounters/{encounter}/lur-asko/attacks"), &twice).await;
    refused.assert_problem(422, Some("attack.weapons[0].extra_energy[0].type"), "heat twice");
    assert_eq!(app.snapshot(&encounter).await, before, "nothing of the refused attack is stored");
}
