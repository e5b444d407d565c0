//! One whole Cepheus Engine fight over HTTP, three rounds of it: two marines against two raiders,
//! scripted initiative, a dodge that drops the dodger down the order, a delayed action, a grouped
//! and a sprayed burst, cover, a raider knocked unconscious and then skipped, another killed, and
//! at the end the log holding every die and every modifier in order. Every number is worked by hand
//! from shared/rules/cepheus-engine.txt in the comments.
//!
//! DM table (the SRD's, `characteristic_dm`): 6–8 → +0, 9–11 → +1.

use crate::helpers::{TestApp, pluck, spawn_app, text};
use serde_json::{Value, json};

/// Posts an attack, which must succeed; returns the response body.
pub async fn attack(app: &TestApp, encounter: &str, body: Value) -> Value {
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/cepheus-engine/attacks"), &body).await;
    reply.expect_status(200, "attack").body
}

/// (name, initiative) in turn order, from an encounter or an advance response.
pub fn order(body: &Value) -> Vec<(String, i64)> {
    body["turn_order"]
        .as_array()
        .unwrap_or_else(|| panic!("no turn_order in {body}"))
        .iter()
        .map(|slot| (text(&slot["name"]), slot["initiative"].as_i64().unwrap_or_default()))
        .collect()
}

/// The same, to compare with.
pub fn expected_order(slots: &[(&str, i64)]) -> Vec<(String, i64)> {
    slots.iter().map(|(name, score)| ((*name).to_owned(), *score)).collect()
}

/// The kinds of the events in a response.
pub fn kinds(body: &Value) -> Vec<String> {
    pluck(&body["events"], "kind").iter().map(text).collect()
}

/// One combatant of an encounter, by id.
pub fn combatant<'a>(encounter: &'a Value, id: &str) -> &'a Value {
    encounter["combatants"]
        .as_array()
        .and_then(|all| all.iter().find(|c| c["id"] == json!(id)))
        .unwrap_or_else(|| panic!("no combatant {id} in {encounter}"))
}

fn dice_values(dice: &Value) -> Vec<u64> {
    pluck(dice, "value").iter().map(|v| v.as_u64().unwrap_or_else(|| panic!("a die value: {v}"))).collect()
}

fn purposes(dice: &Value) -> Vec<String> {
    pluck(dice, "purpose").iter().map(text).collect()
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

const INITIATIVE_ROLLS: [u32; 8] = [5, 4, 4, 4, 3, 5, 2, 3];

#[tokio::test]
async fn a_whole_cepheus_fight_over_three_rounds() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Raid on the listening post").await;
    // DEX 10 → +1, DEX 7 → +0, DEX 9 → +1, DEX 6 → +0.
    let vasquez = app
        .add_combatant(
            &encounter,
            "Vasquez",
            "marines",
            json!({"str": 8, "dex": 10, "end": 9, "int": 7, "edu": 7, "soc": 8, "skills": {"Gun Combat": 2}}),
        )
        .await;
    let hicks = app
        .add_combatant(
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
    let kell = app
        .add_combatant(
            &encounter,
            "Kell",
            "raiders",
            json!({"str": 7, "dex": 6, "end": 6, "int": 6, "edu": 5, "soc": 4, "skills": {"gun_combat": 0}}),
        )
        .await;
    let mut sent: Vec<u32> = Vec::new();

    // Initiative, 2D6 + DEX DM, two dice each in join order: Vasquez 5 + 4 + 1 = 10,
    // Hicks 4 + 4 + 0 = 8, Rook 3 + 5 + 1 = 9, Kell 2 + 3 + 0 = 5.
    let initiative = app.roll_initiative(&encounter, json!({"rolls": INITIATIVE_ROLLS})).await;
    sent.extend(INITIATIVE_ROLLS);
    assert_eq!(dice_values(&initiative["dice"]), [5, 4, 4, 4, 3, 5, 2, 3]);
    assert_eq!(purposes(&initiative["dice"])[..2], strings(&["initiative: Vasquez", "initiative: Vasquez"]));
    assert_eq!(
        order(&initiative),
        expected_order(&[("Vasquez", 10), ("Rook", 9), ("Hicks", 8), ("Kell", 5)])
    );

    // ---------------------------------------------------------------- Round 1
    let start = app.advance(&encounter, "next_turn").await;
    assert_eq!((start["round"].clone(), start["current_turn"]["name"].clone()), (json!(1), json!("Vasquez")));

    // Vasquez fires his rifle (3D6) at Rook 20 m away: Medium (12–50 m), Rifle at Medium is
    // Average (+0). Rook has not acted yet and dodges in the open: −1.
    // DM: Gun Combat 2 (+2) + DEX 10 (+1) + 0 − 1 = +2. Dice 4 + 3 = 7 + 2 = 9 ≥ 8: a hit, Effect 1.
    // Damage 3D6 (2 + 3 + 1 = 6) + Effect 1 = 7, less Rook's armour 2 = 5, all on END (his first
    // damage): END 7 → 2, wounded. The dodge costs Rook 2 Initiative this round: 9 → 7.
    let rolls = [4, 3, 2, 3, 1];
    sent.extend(rolls);
    let shot = attack(
        &app,
        &encounter,
        json!({"attacker_id": vasquez, "target_id": rook, "rolls": rolls,
               "weapon": {"weapon_type": "rifle", "damage_dice": 3},
               "distance_m": 20, "reaction": "dodge"}),
    )
    .await;
    assert_eq!(dice_values(&shot["dice"]), [4, 3, 2, 3, 1]);
    assert_eq!(
        purposes(&shot["dice"]),
        strings(&["attack roll", "attack roll", "damage: weapon", "damage: weapon", "damage: weapon"])
    );
    let result = &shot["result"];
    assert_eq!(
        (&result["skill"], &result["skill_level"], &result["range_band"], &result["reaction"]),
        (&json!("gun_combat"), &json!(2), &json!("medium"), &json!("dodge"))
    );
    let outcome = &result["outcome"];
    assert_eq!(
        outcome["modifiers"],
        json!([
            {"code": "skill", "reason": "gun combat skill 2", "value": 2},
            {"code": "characteristic_dm", "reason": "DEX 10 (DM +1)", "value": 1},
            {"code": "range", "reason": "Rifle at Medium range: Average", "value": 0},
            {"code": "dodge", "reason": "target dodges", "value": -1}
        ])
    );
    assert_eq!(
        (&outcome["target"], &outcome["total_dm"], &outcome["kept_dice"], &outcome["roll_total"]),
        (&json!(8), &json!(2), &json!([4, 3]), &json!(9))
    );
    assert_eq!((&outcome["effect"], &outcome["hit"]), (&json!(1), &json!(true)));
    let damage = &result["damage"];
    assert_eq!(
        (&damage["dice"], &damage["dice_total"], &damage["effect_added"]),
        (&json!([2, 3, 1]), &json!(6), &json!(1))
    );
    assert_eq!(
        (
            &damage["before_armour"],
            &damage["armour"],
            &damage["after_armour"],
            &damage["minimum_one_applied"]
        ),
        (&json!(7), &json!(2), &json!(5), &json!(false))
    );
    let hit = &result["target_hit"];
    assert_eq!(
        (&hit["combatant_id"], &hit["allocation"]["damage"], &hit["defeated"]),
        (&json!(rook), &json!(5), &json!(false))
    );
    assert_eq!(
        hit["allocation"],
        json!({"damage": 5, "str": 0, "dex": 0, "end": 5, "excess": 0, "first_damage": true,
               "status_before": "uninjured", "status_after": "wounded"})
    );
    assert_eq!(hit["stats_after"]["damage"], json!({"str": 0, "dex": 0, "end": 5}));
    assert_eq!(
        shot["summary"],
        json!("Vasquez hits Rook (Effect 1): 5 damage to END 7 → 2; Rook is wounded")
    );
    assert_eq!(
        result["economy"],
        json!({"round": 1, "significant": 1, "minor": 0, "significant_lost": false})
    );
    assert_eq!(kinds(&shot), strings(&["initiative_changed", "attack_resolved"]));
    let dodged = &app.logged(&encounter, &shot).await[0]["data"];
    assert_eq!(
        (&dodged["combatant_id"], &dodged["from"], &dodged["to"]),
        (&json!(rook), &json!(9), &json!(7))
    );
    assert_eq!(dodged["reason"], json!("reaction: dodge against Vasquez's attack"));
    // Rook now acts after Hicks this round.
    let now = app.encounter(&encounter).await;
    assert_eq!(order(&now), expected_order(&[("Vasquez", 10), ("Hicks", 8), ("Rook", 7), ("Kell", 5)]));

    // Hicks is next, not Rook; Hicks holds his action and Rook takes his turn.
    let next = app.advance(&encounter, "next_turn").await;
    assert_eq!(next["current_turn"]["name"], json!("Hicks"));
    let held = app.advance(&encounter, "delay").await;
    assert_eq!(held["current_turn"]["name"], json!("Rook"));
    assert_eq!(kinds(&held), strings(&["turn_delayed", "turn_started"]));
    assert_eq!(combatant(&app.encounter(&encounter).await, &hicks)["delaying"], json!(true));

    // Rook fires his pistol (2D6) back at Vasquez 8 m away: Short (3–12 m), Pistol at Short is
    // Average (+0); Vasquez is behind a low wall, 1/2 cover: −1. Rook dodged this round: −1 on his
    // checks. DM: Gun Combat 1 (+1) + DEX 9 (+1) + 0 − 1 − 1 = 0. Dice 6 + 5 = 11: Effect 3.
    // Damage 2D6 (2 + 3 = 5) + 3 = 8, no armour: Vasquez's END 9 → 1 (his first damage).
    let rolls = [6, 5, 2, 3];
    sent.extend(rolls);
    let back = attack(
        &app,
        &encounter,
        json!({"attacker_id": rook, "target_id": vasquez, "rolls": rolls,
               "weapon": {"weapon_type": "pistol", "damage_dice": 2},
               "distance_m": 8, "cover": "half"}),
    )
    .await;
    let outcome = &back["result"]["outcome"];
    assert_eq!(
        outcome["modifiers"],
        json!([
            {"code": "skill", "reason": "gun combat skill 1", "value": 1},
            {"code": "characteristic_dm", "reason": "DEX 9 (DM +1)", "value": 1},
            {"code": "range", "reason": "Pistol at Short range: Average", "value": 0},
            {"code": "cover", "reason": "target in 1/2 cover", "value": -1},
            {"code": "own_penalties", "reason": "own penalties this round (reaction: dodge against Vasquez's attack -1)", "value": -1}
        ])
    );
    assert_eq!(
        (&outcome["total_dm"], &outcome["roll_total"], &outcome["effect"], &outcome["hit"]),
        (&json!(0), &json!(11), &json!(3), &json!(true))
    );
    assert_eq!(
        (&back["result"]["damage"]["dice"], &back["result"]["damage"]["after_armour"]),
        (&json!([2, 3]), &json!(8))
    );
    let hit = &back["result"]["target_hit"];
    assert_eq!(
        (&hit["allocation"]["end"], &hit["allocation"]["status_after"]),
        (&json!(8), &json!("wounded"))
    );
    assert_eq!(back["result"]["range_band"], json!("short"));

    // Hicks acts now, on Rook's count: his Initiative becomes 7. He interrupts Rook's turn, which
    // is suspended, not ended ("Delay": "even interrupting another's actions"; issue 28 — this
    // used to end Rook's turn: `turn_ended` in place of `turn_interrupted`).
    let acted = app
        .post_json(
            &format!("/v1/encounters/{encounter}/advance"),
            &json!({"to": "act_now", "combatant_id": hicks}),
        )
        .await
        .expect_status(200, "act now")
        .body;
    assert_eq!(acted["current_turn"]["name"], json!("Hicks"));
    assert_eq!(kinds(&acted), strings(&["turn_interrupted", "initiative_changed", "turn_started"]));
    let logged = app.logged(&encounter, &acted).await;
    assert_eq!((&logged[1]["data"]["from"], &logged[1]["data"]["to"]), (&json!(8), &json!(7)));
    // Rook and Hicks tie on 7; Rook's higher DEX (9 against 7) lists him first.
    assert_eq!(order(&acted), expected_order(&[("Vasquez", 10), ("Rook", 7), ("Hicks", 7), ("Kell", 5)]));

    // Hicks fires a grouped 4-round burst from his assault weapon (3D6) at Kell 30 m away:
    // Medium, Assault Weapon at Medium is Average (+0); a grouped burst adds no DM but +1D6 damage.
    // DM: Gun Combat 1 (+1) + DEX 7 (+0) + 0 = +1. Dice 6 + 4 = 10 + 1 = 11: Effect 3.
    // Damage 3D6 (5 + 4 + 3 = 12) + burst 1D6 (2) = 14 + Effect 3 = 17, no armour.
    // Kell's first damage: END 6 → 0 (6 points), then STR (7, higher than DEX 6) → 0 (7), the last
    // 4 to DEX 6 → 2. END and STR at 0: unconscious (not dead: DEX is left), so defeated.
    let rolls = [6, 4, 5, 4, 3, 2];
    sent.extend(rolls);
    let burst = attack(
        &app,
        &encounter,
        json!({"attacker_id": hicks, "target_id": kell, "rolls": rolls,
               "weapon": {"weapon_type": "assault_weapon", "damage_dice": 3},
               "distance_m": 30, "burst": {"rounds": 4, "mode": "grouped"}}),
    )
    .await;
    assert_eq!(
        purposes(&burst["dice"]),
        strings(&[
            "attack roll",
            "attack roll",
            "damage: weapon",
            "damage: weapon",
            "damage: weapon",
            "damage: grouped 4-round burst"
        ])
    );
    let outcome = &burst["result"]["outcome"];
    assert_eq!(
        outcome["modifiers"],
        json!([
            {"code": "skill", "reason": "gun combat skill 1", "value": 1},
            {"code": "characteristic_dm", "reason": "DEX 7 (DM +0)", "value": 0},
            {"code": "range", "reason": "Assault Weapon at Medium range: Average", "value": 0}
        ])
    );
    assert_eq!((&outcome["roll_total"], &outcome["effect"]), (&json!(11), &json!(3)));
    let damage = &burst["result"]["damage"];
    assert_eq!(
        damage["steps"],
        json!([
            {"code": "weapon_dice", "value": 12, "reason": "weapon 3D6", "dice": [5, 4, 3], "total": 12},
            {"code": "burst", "value": 2, "reason": "grouped 4-round burst (+1D6)", "dice": [2], "total": 14},
            {"code": "effect", "value": 3, "reason": "attack Effect +3", "dice": [], "total": 17}
        ])
    );
    assert_eq!((&damage["extra"], &damage["after_armour"]), (&json!(2), &json!(17)));
    let hit = &burst["result"]["target_hit"];
    assert_eq!(
        hit["allocation"],
        json!({"damage": 17, "str": 7, "dex": 4, "end": 6, "excess": 0, "first_damage": true,
               "status_before": "uninjured", "status_after": "unconscious"})
    );
    assert_eq!(hit["defeated"], json!(true));
    assert_eq!(hit["stats_after"]["damage"], json!({"str": 7, "dex": 4, "end": 6}));
    assert_eq!(combatant(&app.encounter(&encounter).await, &kell)["defeated"], json!(true));

    // The end of Hicks's turn: Rook's turn resumes where it stopped (his attack spent).
    let resumed = app.advance(&encounter, "next_turn").await;
    assert_eq!(kinds(&resumed), strings(&["turn_ended", "turn_resumed"]));
    assert_eq!(resumed["current_turn"]["name"], json!("Rook"));

    // The end of Rook's turn: Kell's turn is skipped, round 1 ends and Rook's −2 is undone (7 → 9).
    let round_two = app.advance(&encounter, "next_turn").await;
    assert_eq!(
        kinds(&round_two),
        strings(&[
            "turn_ended",
            "turn_skipped",
            "round_ended",
            "initiative_changed",
            "round_started",
            "turn_started"
        ])
    );
    let events = &app.logged(&encounter, &round_two).await;
    assert_eq!(
        events[1]["data"],
        json!({"kind": "turn_skipped", "combatant_id": kell, "name": "Kell", "reason": "defeated"})
    );
    assert_eq!(
        (&events[3]["data"]["combatant_id"], &events[3]["data"]["from"], &events[3]["data"]["to"]),
        (&json!(rook), &json!(7), &json!(9))
    );
    assert_eq!(events[3]["data"]["reason"], json!("one-round changes of round 1 end"));
    assert_eq!(
        (round_two["round"].clone(), round_two["current_turn"]["name"].clone()),
        (json!(2), json!("Vasquez"))
    );
    assert_eq!(order(&round_two), expected_order(&[("Vasquez", 10), ("Rook", 9), ("Hicks", 7), ("Kell", 5)]));

    // ---------------------------------------------------------------- Round 2
    // Vasquez again at Rook (no dodge this time): DM +2 + 1 + 0 = +3. Dice 1 + 2 = 3 + 3 = 6 < 8:
    // a miss (Effect −2), and no damage dice.
    let rolls = [1, 2];
    sent.extend(rolls);
    let miss = attack(
        &app,
        &encounter,
        json!({"attacker_id": vasquez, "target_id": rook, "rolls": rolls,
               "weapon": {"weapon_type": "rifle", "damage_dice": 3}, "distance_m": 20}),
    )
    .await;
    let outcome = &miss["result"]["outcome"];
    assert_eq!(
        (&outcome["total_dm"], &outcome["roll_total"], &outcome["effect"], &outcome["hit"]),
        (&json!(3), &json!(6), &json!(-2), &json!(false))
    );
    assert_eq!((&miss["result"]["damage"], &miss["result"]["target_hit"]), (&Value::Null, &Value::Null));
    assert_eq!(dice_values(&miss["dice"]), [1, 2]);

    // Rook at Vasquez, who dodges after having acted: the −2 waits for round 3 (no change now).
    // DM: +1 + 1 + 0 − 1 (dodge) = +1. Dice 3 + 3 = 6 + 1 = 7 < 8: a miss.
    app.advance(&encounter, "next_turn").await;
    let rolls = [3, 3];
    sent.extend(rolls);
    let dodge = attack(
        &app,
        &encounter,
        json!({"attacker_id": rook, "target_id": vasquez, "rolls": rolls,
               "weapon": {"weapon_type": "pistol", "damage_dice": 2}, "distance_m": 8, "reaction": "dodge"}),
    )
    .await;
    let outcome = &dodge["result"]["outcome"];
    assert_eq!(outcome["modifiers"][3], json!({"code": "dodge", "reason": "target dodges", "value": -1}));
    assert_eq!((&outcome["roll_total"], &outcome["hit"]), (&json!(7), &json!(false)));
    assert_eq!(kinds(&dodge), strings(&["attack_resolved"]));
    let now = app.encounter(&encounter).await;
    assert_eq!(combatant(&now, &vasquez)["initiative"]["score"], json!(10));
    assert_eq!(
        combatant(&now, &vasquez)["state"]["initiative_changes"],
        json!([{"amount": -2, "round": 3, "reason": "reaction: dodge against Rook's attack"}])
    );

    // Hicks sprays a 10-round burst at Rook 6 squares away: Short (3–8 squares), Assault Weapon
    // at Short is Average (+0); a sprayed 10-round burst is +2 to hit and no extra damage.
    // DM: +1 + 0 + 0 + 2 = +3. Dice 4 + 2 = 6 + 3 = 9: Effect 1. Damage 3D6 (1 + 2 + 2 = 5) + 1
    // = 6, less armour 2 = 4. Rook has been hurt before, so he splits it: 2 to END (2 → 0) and
    // 2 to STR (8 → 6). Still only END at 0: wounded.
    let rolls = [4, 2, 1, 2, 2];
    sent.extend(rolls);
    app.advance(&encounter, "next_turn").await;
    let spray = attack(
        &app,
        &encounter,
        json!({"attacker_id": hicks, "target_id": rook, "rolls": rolls,
               "weapon": {"weapon_type": "assault_weapon", "damage_dice": 3}, "distance_squares": 6,
               "burst": {"rounds": 10, "mode": "spray"}, "allocation": {"end": 2, "str": 2}}),
    )
    .await;
    let result = &spray["result"];
    assert_eq!(result["range_band"], json!("short"));
    assert_eq!(
        result["outcome"]["modifiers"],
        json!([
            {"code": "skill", "reason": "gun combat skill 1", "value": 1},
            {"code": "characteristic_dm", "reason": "DEX 7 (DM +0)", "value": 0},
            {"code": "range", "reason": "Assault Weapon at Short range: Average", "value": 0},
            {"code": "burst", "reason": "sprayed 10-round burst", "value": 2}
        ])
    );
    assert_eq!((&result["outcome"]["roll_total"], &result["outcome"]["effect"]), (&json!(9), &json!(1)));
    assert_eq!(
        result["damage"]["steps"],
        json!([
            {"code": "weapon_dice", "value": 5, "reason": "weapon 3D6", "dice": [1, 2, 2], "total": 5},
            {"code": "effect", "value": 1, "reason": "attack Effect +1", "dice": [], "total": 6}
        ])
    );
    assert_eq!(result["damage"]["extra"], json!(0));
    assert_eq!(
        result["target_hit"]["allocation"],
        json!({"damage": 4, "str": 2, "dex": 0, "end": 2, "excess": 0, "first_damage": false,
               "status_before": "wounded", "status_after": "wounded"})
    );

    // Round 2 ends: Kell skipped again; Vasquez's dodge now costs him 2 for round 3 (10 → 8).
    let round_three = app.advance(&encounter, "next_turn").await;
    assert_eq!(
        kinds(&round_three),
        strings(&[
            "turn_ended",
            "turn_skipped",
            "round_ended",
            "initiative_changed",
            "round_started",
            "turn_started"
        ])
    );
    let logged = app.logged(&encounter, &round_three).await;
    assert_eq!(logged[1]["data"]["name"], json!("Kell"));
    let change = &logged[3]["data"];
    assert_eq!((&change["name"], &change["from"], &change["to"]), (&json!("Vasquez"), &json!(10), &json!(8)));
    assert_eq!(
        (round_three["round"].clone(), round_three["current_turn"]["name"].clone()),
        (json!(3), json!("Rook"))
    );
    assert_eq!(
        order(&round_three),
        expected_order(&[("Rook", 9), ("Vasquez", 8), ("Hicks", 7), ("Kell", 5)])
    );

    // ---------------------------------------------------------------- Round 3
    // Rook at Hicks 2 m away: Close (1.5–3 m), Pistol at Close is Average (+0); his round-1
    // penalty is gone. DM +1 + 1 = +2. Dice 5 + 6 = 11 + 2 = 13: Effect 5. Damage 2D6 (1 + 1) + 5 =
    // 7: Hicks's END 8 → 1.
    let rolls = [5, 6, 1, 1];
    sent.extend(rolls);
    let close = attack(
        &app,
        &encounter,
        json!({"attacker_id": rook, "target_id": hicks, "rolls": rolls,
               "weapon": {"weapon_type": "pistol", "damage_dice": 2}, "distance_m": 2}),
    )
    .await;
    assert_eq!(close["result"]["range_band"], json!("close"));
    assert_eq!(
        close["result"]["outcome"]["modifiers"][2],
        json!({"code": "range", "reason": "Pistol at Close range: Average", "value": 0})
    );
    assert_eq!(
        (&close["result"]["outcome"]["total_dm"], &close["result"]["outcome"]["effect"]),
        (&json!(2), &json!(5))
    );
    assert_eq!(close["result"]["target_hit"]["allocation"]["end"], json!(7));

    // Vasquez (8 this round) at Rook: DM +3 (his own round-2 penalty has expired). Dice 6 + 6 = 12
    // + 3 = 15: Effect 7. Damage 3D6 (6 + 6 + 6 = 18) + 7 = 25, less armour 2 = 23. Rook has 0 END,
    // 6 STR and 9 DEX left (15 points): END first, then DEX (higher than STR) 9, then STR 6, 8 to
    // spare. All three at 0: dead.
    app.advance(&encounter, "next_turn").await;
    let rolls = [6, 6, 6, 6, 6];
    sent.extend(rolls);
    let kill = attack(
        &app,
        &encounter,
        json!({"attacker_id": vasquez, "target_id": rook, "rolls": rolls,
               "weapon": {"weapon_type": "rifle", "damage_dice": 3}, "distance_m": 20}),
    )
    .await;
    let result = &kill["result"];
    assert_eq!(result["outcome"]["modifiers"].as_array().map(Vec::len), Some(3));
    assert_eq!(
        (&result["outcome"]["total_dm"], &result["outcome"]["roll_total"], &result["outcome"]["effect"]),
        (&json!(3), &json!(15), &json!(7))
    );
    assert_eq!(
        (&result["damage"]["before_armour"], &result["damage"]["after_armour"]),
        (&json!(25), &json!(23))
    );
    assert_eq!(
        result["target_hit"]["allocation"],
        json!({"damage": 23, "str": 6, "dex": 9, "end": 0, "excess": 8, "first_damage": false,
               "status_before": "wounded", "status_after": "dead"})
    );
    assert_eq!(result["target_hit"]["defeated"], json!(true));

    // Hicks's turn, then the end of round 3: Kell skipped, Vasquez's −2 undone (8 → 10).
    let hicks_turn = app.advance(&encounter, "next_turn").await;
    assert_eq!(hicks_turn["current_turn"]["name"], json!("Hicks"));
    let round_four = app.advance(&encounter, "next_turn").await;
    assert_eq!(
        kinds(&round_four),
        strings(&[
            "turn_ended",
            "turn_skipped",
            "round_ended",
            "initiative_changed",
            "round_started",
            "turn_started"
        ])
    );
    let change = &app.logged(&encounter, &round_four).await[3]["data"];
    assert_eq!((&change["name"], &change["from"], &change["to"]), (&json!("Vasquez"), &json!(8), &json!(10)));
    assert_eq!(
        (round_four["round"].clone(), round_four["current_turn"]["name"].clone()),
        (json!(4), json!("Vasquez"))
    );
    let end = app.advance(&encounter, "end_encounter").await;
    assert_eq!(end["status"], json!("ended"));

    // The log: every die, in the order rolled, is the scripted dice in the order sent.
    let log = app.events(&encounter).await;
    let mut logged: Vec<u32> = Vec::new();
    let mut attacks = 0;
    for event in &log {
        let dice = match text(&event["kind"]).as_str() {
            "initiative_set" => &event["data"]["dice"],
            "attack_resolved" => {
                attacks += 1;
                let report = &event["data"]["report"];
                assert_eq!(report.get("dice"), None, "each die is listed once, beside the report");
                assert_eq!(report["outcome"].get("dice"), None, "each die is listed once, beside the report");
                for modifier in
                    report["outcome"]["modifiers"].as_array().unwrap_or_else(|| panic!("{report}"))
                {
                    assert!(
                        !text(&modifier["reason"]).is_empty() && modifier["value"].is_i64(),
                        "{modifier}"
                    );
                    assert!(!text(&modifier["code"]).is_empty(), "{modifier}");
                }
                &event["data"]["dice"]
            }
            _ => continue,
        };
        for die in dice.as_array().unwrap_or_else(|| panic!("no dice in {event}")) {
            assert_eq!(die["sides"], json!(6), "{die}");
            assert_eq!(die["status"], json!("kept"), "{die}");
            assert!(!text(&die["purpose"]).is_empty(), "{die}");
            logged.push(u32::try_from(die["value"].as_u64().unwrap_or_default()).unwrap_or_default());
        }
    }
    assert_eq!(attacks, 8);
    assert_eq!(logged, sent);
    let skipped: Vec<(Value, Value)> = log
        .iter()
        .filter(|e| e["kind"] == json!("turn_skipped"))
        .map(|e| (e["data"]["name"].clone(), e["data"]["reason"].clone()))
        .collect();
    assert_eq!(skipped, vec![(json!("Kell"), json!("defeated")); 3]);
    let changes: Vec<(Value, Value, Value)> = log
        .iter()
        .filter(|e| e["kind"] == json!("initiative_changed"))
        .map(|e| (e["data"]["name"].clone(), e["data"]["from"].clone(), e["data"]["to"].clone()))
        .collect();
    assert_eq!(
        changes,
        [
            (json!("Rook"), json!(9), json!(7)),
            (json!("Hicks"), json!(8), json!(7)),
            (json!("Rook"), json!(7), json!(9)),
            (json!("Vasquez"), json!(10), json!(8)),
            (json!("Vasquez"), json!(8), json!(10)),
        ]
    );
    let last = app.encounter(&encounter).await;
    assert_eq!(combatant(&last, &rook)["defeated"], json!(true));
    assert_eq!(combatant(&last, &kell)["stats"]["damage"], json!({"str": 7, "dex": 4, "end": 6}));
    assert_eq!(combatant(&last, &hicks)["stats"]["damage"], json!({"str": 0, "dex": 0, "end": 7}));
}
