//! adeva-d100 over HTTP: a whole scripted fight (surprise, a split Burst with a dodge, a confirmed
//! Critical Hit that kills, the dead man's turn skipped, the log) and the four illegal actions.
//!
//! The fight is built so that it does not depend on how the surprised combatant's lost first turn
//! or aim/feint penalties are implemented: the surprised combatant acts only from round 2 (its
//! round-1 turn is passed over with `advance`, however the server handles it) and nobody aims.

use crate::helpers::{Reply, TestApp, pluck, spawn_app, text};
use serde_json::{Value, json};

/// The five names of the encounter's Lethal Damage chart (1d5).
const TABLE: [&str; 5] = ["Stunned", "Bleeding", "Maimed", "Crippled", "Slain"];

fn stats(bs: i64, ag: i64, wounds: i64, armour: i64) -> Value {
    json!({"ws": 30, "bs": bs, "s": 30, "t": 30, "ag": ag, "int": 30, "per": 30, "wp": 30, "fel": 30,
           "wounds": wounds, "armour": armour})
}

async fn add(
    app: &TestApp,
    encounter: &str,
    name: &str,
    side: &str,
    stats: Value,
    surprised: bool,
) -> String {
    app.add_combatant_surprised(encounter, name, side, stats, surprised).await
}

/// Advances turn by turn until `id` holds the turn (a surprised combatant's lost round-1 turn
/// may or may not be skipped by the server; this works either way). Returns the encounter.
async fn advance_to(app: &TestApp, encounter: &str, id: &str) -> Value {
    for _ in 0..8 {
        app.advance(encounter, "next_turn").await;
        let state = app.encounter(encounter).await;
        if state["current_turn"]["combatant_id"] == json!(id) {
            return state;
        }
    }
    panic!("{id} never got the turn");
}

async fn attack(app: &TestApp, encounter: &str, body: &Value, what: &str) -> Value {
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/adeva-d100/attacks"), body).await;
    reply.expect_status(200, what).body
}

fn gun(name: &str, hit_rating: i64) -> Value {
    json!({"name": name, "class": "ranged", "hit_rating": hit_rating})
}

fn standard(attacker: &str, target: &str, weapon: Value, damage: Value, rolls: Value) -> Value {
    json!({"attacker_id": attacker, "target_id": target,
           "action": {"action": "standard_attack", "weapon": weapon},
           "damage": damage, "rolls": rolls})
}

/// `(value, reason)` of every modifier on a test.
fn modifiers(test: &Value) -> Vec<(i64, String)> {
    test["modifiers"]
        .as_array()
        .unwrap_or_else(|| panic!("no modifiers in {test}"))
        .iter()
        .map(|m| (m["value"].as_i64().unwrap_or_default(), text(&m["reason"])))
        .collect()
}

/// Every `modifiers` array anywhere in `value`.
fn all_modifiers(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                if key == "modifiers"
                    && let Some(list) = inner.as_array()
                {
                    out.extend(list.iter().cloned());
                }
                all_modifiers(inner, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|item| all_modifiers(item, out)),
        _ => {}
    }
}

fn wounds(target: &Value) -> (Value, Value) {
    (target["wounds"]["before"].clone(), target["wounds"]["after"].clone())
}

#[tokio::test]
async fn a_whole_adeva_fight_with_surprise_a_split_burst_a_dodge_a_critical_and_a_kill() {
    let app = spawn_app().await;
    let created = app
        .post_json(
            "/v1/encounters",
            &json!({"ruleset": "adeva-d100", "name": "Ambush at the depot",
                    "options": {"lethal_damage_table": TABLE}}),
        )
        .await
        .expect_status(201, "create encounter");
    let encounter = text(&created.body["id"]);
    // Raiders: Ana (BS 40, Ag 30, T 30 → TB 3, no armour, 12 wounds).
    // Guards: Bo (BS 30, Ag 40, TB 3 + AP 2, 10 wounds, surprised) and Cy (BS 30, Ag 30, TB 3, 8 wounds).
    let ana = add(&app, &encounter, "Ana", "raiders", stats(40, 30, 12, 0), false).await;
    let bo = add(&app, &encounter, "Bo", "guards", stats(30, 40, 10, 2), true).await;
    let cy = add(&app, &encounter, "Cy", "guards", stats(30, 30, 8, 0), false).await;
    let fixed = json!([{"combatant_id": ana, "value": 10}, {"combatant_id": bo, "value": 8},
                       {"combatant_id": cy, "value": 6}]);
    app.roll_initiative(&encounter, json!({"combatant_ids": [], "fixed": fixed})).await;
    let state = advance_to(&app, &encounter, &ana).await;
    assert_eq!(state["round"], json!(1));

    // Every die scripted, in the order the server must use (and log) them, with its purpose.
    let mut scripted: Vec<(u64, u64, String)> = Vec::new();

    // ── Round 1, Ana: a Standard Attack on the surprised Bo ─────────────────────────────────────
    // BS 40 + 10 (standard attack) + 30 (target is surprised) = 80; d100 45 passes with
    // 1 + ⌊(80 − 45)/10⌋ = 4 DoS → 1 hit. Damage 1d10 + 5: die 3, the 4 DoS replace it → 4 + 5 = 9;
    // soak TB 3 + AP 2 = 5 → 4 wounds: Bo 10 → 6.
    let pistol = json!({"name": "Stub pistol", "class": "ranged"});
    let body =
        standard(&ana, &bo, pistol.clone(), json!({"count": 1, "sides": 10, "bonus": 5}), json!([45, 3]));
    let reply = attack(&app, &encounter, &body, "round 1: Ana shoots the surprised Bo").await;
    let result = &reply["result"];
    let test = &result["attack_test"];
    assert_eq!(test["test"]["target"], json!(80), "{result}");
    assert_eq!((test["test"]["roll"].clone(), test["test"]["passed"].clone()), (json!(45), json!(true)));
    assert_eq!(test["test"]["degrees"], json!(4));
    assert_eq!(
        modifiers(test),
        [(10, "standard attack".to_string()), (30, "target is surprised".to_string())],
        "the +30 line for surprise"
    );
    let target = &result["targets"][0];
    assert_eq!(target["surprised"], json!(true));
    assert_eq!(target["evasion"], Value::Null, "a surprised target does not evade");
    assert_eq!(target["hits"][0]["damage"]["damage"], json!(9));
    assert_eq!(wounds(target), (json!(10), json!(6)));
    scripted.push((100, 45, "attack test (BS)".into()));
    scripted.push((10, 3, "damage: target_id: hit 1".into()));

    // ── Round 1: Bo is surprised and loses his turn; Cy shoots Ana and misses ──────────────────
    // BS 30 + 10 = 40; d100 70 fails with 1 + ⌊(70 − 40)/10⌋ = 4 DoF → no hits, no damage dice.
    let state = advance_to(&app, &encounter, &cy).await;
    assert_eq!(state["round"], json!(1), "Cy still acts in round 1");
    let lasgun = json!({"name": "Lasgun", "class": "ranged"});
    let body = standard(&cy, &ana, lasgun, json!({"count": 1, "sides": 10, "bonus": 3}), json!([70]));
    let reply = attack(&app, &encounter, &body, "round 1: Cy misses Ana").await;
    let result = &reply["result"];
    assert_eq!(result["attack_test"]["test"]["target"], json!(40));
    assert_eq!(
        (result["attack_test"]["test"]["passed"].clone(), result["attack_test"]["test"]["degrees"].clone()),
        (json!(false), json!(4))
    );
    assert_eq!(result["hits_scored"], json!(0));
    assert_eq!(wounds(&result["targets"][0]), (json!(12), json!(12)));
    scripted.push((100, 70, "attack test (BS)".into()));

    // ── Round 2, Ana: a Burst split between Bo (main, dodging) and Cy (1 hit) ──────────────────
    // BS 40 + 10 (burst) − 15 (3 hits declared) = 35, no surprise any more; d100 5 passes with
    // 1 + ⌊30/10⌋ = 4 DoS → 3 hits (held to the 3 declared). Cy wants 1, Bo keeps 2.
    // Bo dodges (no longer surprised): Ag 40, d100 35 → 1 + ⌊5/10⌋ = 1 DoS → 1 hit evaded, 1 lands.
    // Bo's hit: die 2, the 4 DoS replace it → 4 + 4 = 8; soak 5 → 3 wounds: 6 → 3.
    // Cy's hit: die 3 (the DoS are spent) → 3 + 4 = 7; soak TB 3 → 4 wounds: 8 → 4.
    let state = advance_to(&app, &encounter, &ana).await;
    assert_eq!(state["round"], json!(2));
    let burst = json!({"attacker_id": ana, "target_id": bo,
        "action": {"action": "burst", "declared_hits": 3, "weapon": gun("Autogun", 3)},
        "damage": {"count": 1, "sides": 10, "bonus": 4}, "evasion": "dodge",
        "extra_targets": [{"target_id": cy, "hits": 1}], "rolls": [5, 35, 2, 3]});
    let reply = attack(&app, &encounter, &burst, "round 2: Ana's burst").await;
    let result = &reply["result"];
    let test = &result["attack_test"];
    assert_eq!(test["test"]["target"], json!(35), "{result}");
    assert_eq!(test["test"]["degrees"], json!(4));
    assert_eq!(modifiers(test), [(10, "burst".to_string()), (-15, "3 hits declared (-5 each)".to_string())]);
    assert_eq!(result["hits_scored"], json!(3));
    let (on_bo, on_cy) = (&result["targets"][0], &result["targets"][1]);
    assert_eq!((on_bo["target_id"].clone(), on_cy["target_id"].clone()), (json!(bo), json!(cy)));
    assert_eq!(on_bo["surprised"], json!(false));
    assert_eq!(on_bo["hits_allocated"], json!(2));
    let dodge = &on_bo["evasion"];
    assert_eq!(dodge["kind"], json!("dodge"), "{dodge}");
    assert_eq!(dodge["test"]["test"]["target"], json!(40));
    assert_eq!(
        (dodge["test"]["test"]["roll"].clone(), dodge["test"]["test"]["degrees"].clone()),
        (json!(35), json!(1))
    );
    assert_eq!(
        (dodge["outcome"]["evaded"].clone(), dodge["outcome"]["hits_left"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(on_bo["hits_landed"], json!(1));
    assert_eq!(on_bo["hits"][0]["damage"]["damage"], json!(8));
    assert_eq!(wounds(on_bo), (json!(6), json!(3)));
    assert_eq!(on_cy["hits_allocated"], json!(1));
    assert_eq!(on_cy["evasion"], Value::Null);
    assert_eq!(on_cy["hits_landed"], json!(1));
    assert_eq!(on_cy["hits"][0]["damage"]["damage"], json!(7));
    assert_eq!(wounds(on_cy), (json!(8), json!(4)));
    scripted.push((100, 5, "attack test (BS)".into()));
    scripted.push((100, 35, "evasion: dodge test".into()));
    scripted.push((10, 2, "damage: target_id: hit 1".into()));
    scripted.push((10, 3, "damage: extra_targets[0].target_id: hit 1".into()));

    // ── Round 2, Bo's first turn: he shoots Ana ───────────────────────────────────────────────
    // BS 30 + 10 = 40; d100 38 → 1 DoS, 1 hit. Damage 1d10 + 3: die 5 (1 DoS is lower, no swap)
    // → 8; soak TB 3 → 5 wounds: Ana 12 → 7.
    advance_to(&app, &encounter, &bo).await;
    let body =
        standard(&bo, &ana, pistol.clone(), json!({"count": 1, "sides": 10, "bonus": 3}), json!([38, 5]));
    let reply = attack(&app, &encounter, &body, "round 2: Bo shoots Ana").await;
    let result = &reply["result"];
    assert_eq!(result["attack_test"]["test"]["target"], json!(40));
    assert_eq!(result["attack_test"]["test"]["degrees"], json!(1));
    assert_eq!(wounds(&result["targets"][0]), (json!(12), json!(7)));
    scripted.push((100, 38, "attack test (BS)".into()));
    scripted.push((10, 5, "damage: target_id: hit 1".into()));

    // Round 2, Cy: holds fire (nothing to do).
    advance_to(&app, &encounter, &cy).await;

    // ── Round 3, Ana: a confirmed Critical Hit that kills Bo ──────────────────────────────────
    // BS 40 + 10 = 50; d100 30 → 1 + ⌊20/10⌋ = 3 DoS, 1 hit. Damage 1d10 + 5: die 10, a natural
    // maximum (3 DoS are lower, no swap) → 15; soak 5 → 10 past soak. Confirmation: BS 40 with no
    // modifiers, d100 25 passes → Lethal Damage chart 1d5 = 3 → TABLE[2] "Maimed".
    // 10 wounds lost: Bo 3 → 0 without Fate → dead and defeated.
    let state = advance_to(&app, &encounter, &ana).await;
    assert_eq!(state["round"], json!(3));
    let body =
        standard(&ana, &bo, pistol, json!({"count": 1, "sides": 10, "bonus": 5}), json!([30, 10, 25, 3]));
    let reply = attack(&app, &encounter, &body, "round 3: Ana's critical").await;
    let result = &reply["result"];
    assert_eq!(result["attack_test"]["test"]["target"], json!(50));
    assert_eq!(modifiers(&result["attack_test"]), [(10, "standard attack".to_string())]);
    let on_bo = &result["targets"][0];
    let hit = &on_bo["hits"][0];
    assert_eq!(hit["damage"]["natural_maximum"], json!(true), "{hit}");
    assert_eq!(hit["damage"]["damage"], json!(15));
    assert_eq!(hit["past_soak"], json!(10));
    let critical = &hit["critical"];
    assert_eq!(critical["confirm"]["test"]["target"], json!(40), "confirmation on unmodified BS");
    assert_eq!(critical["confirm"]["modifiers"], json!([]));
    assert_eq!(critical["confirmed"], json!(true));
    assert_eq!(critical["lethal_damage_roll"], json!({"roll": 3, "effect": "Maimed"}));
    assert_eq!(critical["one_point_of_damage"], json!(false));
    assert_eq!(wounds(on_bo), (json!(3), json!(0)));
    assert_eq!(on_bo["wounds"]["lost"], json!(10));
    assert_eq!(
        (on_bo["wounds"]["dead"].clone(), on_bo["wounds"]["lethal_damage"].clone()),
        (json!(true), json!(false))
    );
    scripted.push((100, 30, "attack test (BS)".into()));
    scripted.push((10, 10, "damage: target_id: hit 1".into()));
    scripted.push((100, 25, "critical confirmation: target_id: hit 1".into()));
    scripted.push((5, 3, "lethal damage chart: target_id: hit 1".into()));

    let stored = app.encounter(&encounter).await;
    let stored_bo = stored["combatants"].as_array().unwrap().iter().find(|c| c["id"] == json!(bo)).cloned();
    let stored_bo = stored_bo.unwrap_or_else(|| panic!("Bo is gone: {stored}"));
    assert_eq!(stored_bo["defeated"], json!(true), "{stored_bo}");
    assert_eq!(stored_bo["stats"]["wounds_taken"], json!(10));

    // ── The dead man's turn is skipped; the fight goes on to round 4 ──────────────────────────
    let skipped_from = app.events(&encounter).await.len();
    let state = advance_to(&app, &encounter, &cy).await;
    assert_eq!(state["round"], json!(3));
    let events = app.events(&encounter).await;
    let skipped: Vec<&Value> =
        events[skipped_from..].iter().filter(|e| e["kind"] == json!("turn_skipped")).collect();
    assert_eq!(skipped.len(), 1, "{events:?}");
    assert_eq!(skipped[0]["data"]["combatant_id"], json!(bo));
    assert_eq!(skipped[0]["data"]["reason"], json!("defeated"));
    let started: Vec<Value> = events[skipped_from..]
        .iter()
        .filter(|e| e["kind"] == json!("turn_started"))
        .map(|e| e["data"]["combatant_id"].clone())
        .collect();
    assert_eq!(started, [json!(cy)], "Bo gets no turn");
    let state = advance_to(&app, &encounter, &ana).await;
    assert_eq!(state["round"], json!(4));

    // A dead target cannot be attacked again.
    let again = standard(&ana, &bo, gun("Stub pistol", 1), json!({"count": 1, "sides": 10}), json!([10, 4]));
    let before = app.snapshot(&encounter).await;
    let refused = app.post_json(&format!("/v1/encounters/{encounter}/adeva-d100/attacks"), &again).await;
    refused.assert_problem(
        409,
        Some("target_id"),
        "attacking the dead (the one rule for the dead, issue 30)",
    );
    assert_eq!(app.snapshot(&encounter).await, before);

    // ── The log: every scripted die, in order, with its purpose; every modifier has a reason ──
    let events = app.events(&encounter).await;
    let attacks: Vec<&Value> = events.iter().filter(|e| e["kind"] == json!("attack_resolved")).collect();
    assert_eq!(attacks.len(), 5, "five attacks were stored");
    let mut logged: Vec<(u64, u64, String)> = Vec::new();
    for event in &attacks {
        let report = &event["data"]["report"];
        for die in event["data"]["dice"].as_array().unwrap_or_else(|| panic!("no dice in {event}")) {
            let sides = die["sides"].as_u64().unwrap_or_default();
            logged.push((sides, die["value"].as_u64().unwrap_or_default(), text(&die["purpose"])));
        }
        let mut found = Vec::new();
        all_modifiers(report, &mut found);
        for modifier in found {
            let reason = modifier["reason"].as_str().unwrap_or_default();
            assert!(!reason.trim().is_empty(), "a modifier without a reason: {modifier} in {event}");
        }
    }
    assert_eq!(logged, scripted, "every scripted die, in order, with its purpose");
    let surprise: Vec<Value> = pluck(&attacks[0]["data"]["report"]["attack_test"]["modifiers"], "reason");
    assert!(surprise.contains(&json!("target is surprised")), "{surprise:?}");
}

/// Round 1, Ana's turn: Bo on the ground and surprised, Fly at Low altitude.
async fn setup_refusals(app: &TestApp) -> (String, String, String, String) {
    let created = app
        .post_json(
            "/v1/encounters",
            &json!({"ruleset": "adeva-d100", "name": "Refusals", "options": {"lethal_damage_table": TABLE}}),
        )
        .await
        .expect_status(201, "create encounter");
    let encounter = text(&created.body["id"]);
    let ana = add(app, &encounter, "Ana", "raiders", stats(40, 30, 12, 0), false).await;
    let bo = add(app, &encounter, "Bo", "guards", stats(30, 40, 10, 2), true).await;
    let mut flyer = stats(30, 30, 8, 0);
    flyer["altitude"] = json!("low");
    let fly = add(app, &encounter, "Fly", "guards", flyer, false).await;
    let fixed = json!([{"combatant_id": ana, "value": 10}, {"combatant_id": bo, "value": 8},
                       {"combatant_id": fly, "value": 6}]);
    app.roll_initiative(&encounter, json!({"combatant_ids": [], "fixed": fixed})).await;
    let state = advance_to(app, &encounter, &ana).await;
    assert_eq!(state["round"], json!(1));
    (encounter, ana, bo, fly)
}

/// Sends a refused attack: 422 naming `field`, a detail containing `reason`, nothing stored.
async fn refused(app: &TestApp, encounter: &str, body: &Value, field: &str, reason: &str, case: &str) {
    let before = app.snapshot(encounter).await;
    let reply: Reply = app.post_json(&format!("/v1/encounters/{encounter}/adeva-d100/attacks"), body).await;
    reply.assert_problem(422, Some(field), case);
    let detail = reply.body["detail"].as_str().unwrap_or_default().to_lowercase();
    assert!(detail.contains(reason), "{case}: detail {detail:?} should say {reason:?}");
    assert_eq!(app.snapshot(encounter).await, before, "{case}: nothing stored");
}

#[tokio::test]
async fn the_four_illegal_adeva_actions_are_refused_with_their_field_and_store_nothing() {
    let app = spawn_app().await;
    let (encounter, ana, bo, fly) = setup_refusals(&app).await;
    let pistol = json!({"name": "Stub pistol", "class": "ranged"});
    let d10 = json!({"count": 1, "sides": 10});

    // A reaction (dodge) by the surprised Bo in round 1.
    let mut dodge = standard(&ana, &bo, pistol.clone(), d10.clone(), json!([45, 50, 3]));
    dodge["evasion"] = json!("dodge");
    refused(&app, &encounter, &dodge, "evasion", "a reaction by a surprised character", "a surprised dodge")
        .await;

    // Melee from the ground at a Low flyer.
    let sword = json!({"name": "Sword", "class": "melee"});
    let melee = standard(&ana, &fly, sword, d10.clone(), json!([45, 3]));
    refused(&app, &encounter, &melee, "target_id", "no melee", "melee at a low flyer").await;

    // A Burst with a Hit rating 1 weapon.
    let burst = json!({"attacker_id": ana, "target_id": bo,
        "action": {"action": "burst", "declared_hits": 1, "weapon": gun("Stub pistol", 1)},
        "damage": d10, "rolls": [45, 3]});
    refused(
        &app,
        &encounter,
        &burst,
        "action.weapon.hit_rating",
        "hit rating of 2 or more",
        "a Hit rating 1 burst",
    )
    .await;

    // An action that makes no attack test is not an attack request (docs/api-conventions.md: a
    // request offers only what it accepts): Feint and Guard Mode are `…/adeva-d100/actions`.
    for other in ["feint", "guard_mode"] {
        let body = json!({"attacker_id": ana, "target_id": bo, "action": {"action": other}});
        refused(&app, &encounter, &body, "action.action", &format!("unknown variant `{other}`"), other).await;
    }

    // A second attack action in one turn: the first (BS 40 + 10 + 30 = 80, d100 45, die 3 → 4 + 0
    // = 4 − soak 5 → 0 wounds) is stored, the second is refused.
    let first = standard(&ana, &bo, pistol, json!({"count": 1, "sides": 10}), json!([45, 3]));
    let reply = attack(&app, &encounter, &first, "the first attack").await;
    assert_eq!(reply["result"]["attack_test"]["test"]["target"], json!(80));
    refused(
        &app,
        &encounter,
        &first,
        "action",
        "a second attack action in one turn",
        "a second attack in a turn",
    )
    .await;
}

/// docs/api-conventions.md: damage dice are Avrae notation too. `"1d10+5"` is the same roll as
/// `{count: 1, sides: 10, bonus: 5}`; richer notation is refused naming the field.
#[tokio::test]
async fn damage_dice_may_be_written_in_avrae_notation() {
    let app = spawn_app().await;
    let (encounter, ana, bo, _fly) = setup_refusals(&app).await;
    let pistol = json!({"name": "Stub pistol", "class": "ranged"});
    // Kept highest is not a plain roll: refused, nothing stored.
    let rich = standard(&ana, &bo, pistol.clone(), json!("4d10kh1"), json!([45, 3]));
    refused(&app, &encounter, &rich, "damage", "not a plain damage roll", "4d10kh1").await;
    // BS 40 + 10 + 30 (surprised) = 80, d100 45: 4 DoS, 1 hit; the die's 3 gives way to the 4 DoS,
    // + 5 = 9; soak TB 3 + AP 2 = 5 → 4 wounds: Bo 10 → 6, as with the object form.
    let body = standard(&ana, &bo, pistol, json!("1d10+5"), json!([45, 3]));
    let reply = attack(&app, &encounter, &body, "a string damage roll").await;
    let target = &reply["result"]["targets"][0];
    assert_eq!(target["hits"][0]["damage"]["damage"], json!(9));
    assert_eq!(wounds(target), (json!(10), json!(6)));
}
