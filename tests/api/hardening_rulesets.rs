//! Hardening, round two (issue 30), in the rulesets over HTTP: the dead receive nothing more in
//! every ruleset that knows death (one answer: 409 naming the field, the combatant and the rule); lur-asko's stored damage stays within the bound its stateless twin takes;
//! spycraft2's surprise is decided once, each participant listed once.

use crate::helpers::{TestApp, spawn_app};
use serde_json::{Value, json};

async fn state_of(app: &TestApp, encounter: &str, id: &str) -> Value {
    let read = app.encounter(encounter).await;
    let combatants = read["combatants"].as_array().cloned().unwrap_or_default();
    combatants.into_iter().find(|c| c["id"] == json!(id)).unwrap_or_else(|| panic!("no {id} in {read}"))
}

#[tokio::test]
async fn a_dead_arrgs_character_takes_no_more_damage_conditions_or_revitalisation() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Graveyard").await;
    let troll =
        app.add_combatant(&encounter, "Troll", "monsters", json!({"agility": 8, "vitality": 30})).await;
    let damage = |amount: i64| json!({"target_id": troll, "amount": amount});
    let path = |op: &str| format!("/v1/encounters/{encounter}/arrgs/{op}");

    app.post_json(&path("damage"), &damage(1000)).await.expect_status(200, "the killing blow");
    let dead = app.snapshot(&encounter).await;
    let again = app.post_json(&path("damage"), &damage(1000)).await;
    let changes = [
        json!({"type": "staggered", "applications": 2}),
        json!({"type": "dying", "applications": 1}),
        json!({"type": "prone", "on": true}),
        json!({"type": "revitalise", "amount": 100}),
    ];
    let mut refused = Vec::new();
    for change in &changes {
        refused.push(
            app.post_json(&path("conditions"), &json!({"combatant_id": troll, "change": change})).await,
        );
    }
    let troll_now = state_of(&app, &encounter, &troll).await;

    assert_refused(&again, "target_id", "Troll", "damage to the dead");
    for (reply, change) in refused.iter().zip(&changes) {
        assert_refused(reply, "combatant_id", "Troll", &format!("{change} on the dead"));
    }
    assert!(text_of(&refused[3]).contains("healing"), "revitalise is healing: {}", refused[3].body);
    assert_eq!(app.snapshot(&encounter).await, dead, "nothing changed");
    assert_eq!(troll_now["state"]["vitality_lost"], json!(1000), "the killing blow, once: {troll_now}");
    assert_eq!(troll_now["defeated"], json!(true));
}

pub(crate) fn text_of(reply: &crate::helpers::Reply) -> String {
    reply.body["detail"].as_str().unwrap_or_default().to_owned()
}

/// The one answer for the dead: 409, the field that names the combatant, its name and the rule.
#[track_caller]
pub(crate) fn assert_refused(reply: &crate::helpers::Reply, field: &str, name: &str, case: &str) {
    reply.assert_problem(409, Some(field), case);
    let detail = text_of(reply);
    assert!(detail.starts_with(&format!("{name} is dead")), "{case}: names the combatant: {detail}");
    assert!(detail.contains(".txt") || detail.contains(".md"), "{case}: cites the rule: {detail}");
}

#[tokio::test]
async fn lur_asko_damage_taken_stops_at_the_bound_the_stateless_twin_takes() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Glacier").await;
    let frost = json!({"source": "curse", "against": {"energy": "frost"}, "percent": 1000});
    let frozen = json!({"injury_factor": 1, "resistances": vec![frost; 20]});
    let frozen = app.add_combatant(&encounter, "Frozen", "prey", frozen).await;
    let raider = app.add_combatant(&encounter, "Raider", "raiders", json!({"injury_factor": 10})).await;
    let fixed =
        json!({"fixed": [{"combatant_id": raider, "value": 12}, {"combatant_id": frozen, "value": 10}]});
    app.roll_initiative(&encounter, fixed).await;
    app.advance(&encounter, "next_turn").await;
    let body = json!({"attacker_id": raider, "target_id": frozen,
        "attack": {"weapons": [{"name": "Ice lance", "delivery": "ranged", "energy": {"type": "frost", "damage": 1000}}],
            "injury_type": "Torso"},
        "defense": {"defense": "hit"}});

    let hit = app.post_json(&format!("/v1/encounters/{encounter}/lur-asko/attacks"), &body).await;
    let state = state_of(&app, &encounter, &frozen).await["state"].clone();
    let inline = json!({"attacker": {"name": "Raider", "stats": {"injury_factor": 10}},
        "target": {"name": "Frozen", "stats": {"injury_factor": 1}, "damage_taken": state["damage_taken"]},
        "attack": body["attack"], "defense": {"defense": "hit"}});
    let twin = app.post_json("/v1/rulesets/lur-asko/attacks", &inline).await;

    hit.expect_status(200, "the attack");
    assert_eq!(state["damage_taken"], json!(1_000_000), "{state}");
    let degrees: i64 =
        state["injuries"].as_array().map_or(0, |i| i.iter().filter_map(|d| d["degrees"].as_i64()).sum());
    assert_eq!(degrees, 1_000_000, "one degree per point of damage taken, no more: {state}");
    assert_eq!(state["fatigue"], json!(25_000_000), "25 per frost degree: {state}");
    twin.expect_status(200, "the stateless twin takes the stored damage_taken");
}

#[tokio::test]
async fn spycraft2_surprise_is_decided_once_and_lists_a_participant_once() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("spycraft2", "Casino").await;
    let ana = app.add_combatant(&encounter, "Ana", "agents", json!({"initiative_bonus": 4})).await;
    app.add_combatant(&encounter, "Cy", "guards", json!({"initiative_bonus": 1})).await;
    let path = format!("/v1/encounters/{encounter}/spycraft2/surprise");
    let check = json!({"awareness": "none_aware", "groups": [{"side": "agents", "bonus": 0}, {"side": "guards", "bonus": 0}]});
    let twice = json!({"awareness": "none_aware", "groups": [
        {"side": "agents", "bonus": 0, "participants": [ana, ana]}, {"side": "guards", "bonus": 0}]});

    let listed_twice = app.post_json(&path, &twice).await;
    app.post_json(&path, &json!({"seed": 1, "awareness": check["awareness"], "groups": check["groups"]}))
        .await
        .expect_status(200, "the first check");
    let decided = app.snapshot(&encounter).await;
    let again =
        app.post_json(&path, &json!({"seed": 2, "awareness": "none_aware", "groups": check["groups"]})).await;

    listed_twice.assert_problem(422, Some("groups[0].participants[1]"), "a participant listed twice");
    assert_eq!(again.status, 409, "a second check in setup: {}", again.body);
    assert_eq!(app.snapshot(&encounter).await, decided, "the re-roll changed nothing");
}

#[tokio::test]
async fn in_every_ruleset_the_dead_receive_nothing_stored_or_inline_and_lur_asko_knows_no_death() {
    let app = spawn_app().await;
    let mut adeva = crate::helpers::adeva(30);
    adeva["wounds"] = json!(10);
    let mut dead_adeva = adeva.clone();
    dead_adeva["wounds_taken"] = json!(10);
    let mut dead_cepheus = crate::helpers::cepheus(7);
    dead_cepheus["damage"] = json!({"str": 7, "dex": 7, "end": 7});
    let spy = json!({"initiative_bonus": 1, "vitality": 5, "wounds": 8});
    // (ruleset, stat block, damage body without its target, the field naming the target,
    //  an inline damage on a dead target and the field it is refused by)
    let cases = [
        (
            "adeva-d100",
            adeva,
            json!({"amount": 100}),
            "combatant_id",
            json!({"target": dead_adeva, "name": "Victim", "amount": 5}),
            "target",
        ),
        (
            "spycraft2",
            spy.clone(),
            json!({"amount": 100}),
            "combatant_id",
            json!({"target": spy, "vitality_lost": 5, "wounds_lost": 18, "amount": 5}),
            "wounds_lost",
        ),
        (
            "cepheus-engine",
            crate::helpers::cepheus(7),
            json!({"damage": 100}),
            "target_id",
            json!({"target": dead_cepheus, "target_name": "Victim", "damage": 5}),
            "target",
        ),
        (
            "arrgs",
            json!({"agility": 8, "vitality": 10}),
            json!({"amount": 100}),
            "target_id",
            json!({"target": {"name": "Victim", "stats": {"agility": 8, "vitality": 10}, "state": {"vitality_lost": 20}},
                "amount": 5}),
            "target",
        ),
    ];

    for (ruleset, stats, amount, field, inline, inline_field) in cases {
        let encounter = app.create_encounter_id(ruleset, "Last stand").await;
        let id = app.add_combatant(&encounter, "Victim", "prey", stats).await;
        let mut body = amount.clone();
        body[field] = json!(id);
        let path = format!("/v1/encounters/{encounter}/{ruleset}/damage");
        app.post_json(&path, &body).await.expect_status(200, &format!("{ruleset}: the killing blow"));
        let dead = app.snapshot(&encounter).await;

        let again = app.post_json(&path, &body).await;
        let twin = app.post_json(&format!("/v1/rulesets/{ruleset}/damage"), &inline).await;

        assert_refused(&again, field, "Victim", &format!("{ruleset}: damage to the dead"));
        assert_eq!(app.snapshot(&encounter).await, dead, "{ruleset}: nothing changed");
        assert_eq!(state_of(&app, &encounter, &id).await["defeated"], json!(true), "{ruleset}");
        let name = if ruleset == "spycraft2" { "target" } else { "Victim" };
        assert_refused(&twin, inline_field, name, &format!("{ruleset}: inline damage to the dead"));
    }
}

#[tokio::test]
async fn a_dead_spycraft2_character_takes_no_condition_and_no_action() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("spycraft2", "Morgue").await;
    let stats = json!({"initiative_bonus": 1, "vitality": 5, "wounds": 8});
    let victim = app.add_combatant(&encounter, "Victim", "prey", stats.clone()).await;
    let other = app.add_combatant(&encounter, "Other", "hunters", stats).await;
    let fixed =
        json!({"fixed": [{"combatant_id": victim, "value": 20}, {"combatant_id": other, "value": 10}]});
    app.roll_initiative(&encounter, fixed).await;
    app.advance(&encounter, "next_turn").await;
    let path = |op: &str| format!("/v1/encounters/{encounter}/spycraft2/{op}");
    app.post_json(&path("damage"), &json!({"combatant_id": victim, "amount": 100}))
        .await
        .expect_status(200, "the killing blow");
    let dead = app.snapshot(&encounter).await;

    let bleeding = json!({"action": "condition", "condition": "bleeding", "active": true});
    let condition =
        app.post_json(&path("actions"), &json!({"combatant_id": victim, "action": bleeding})).await;
    let aim = json!({"combatant_id": victim, "action": {"action": "aim"}});
    let action = app.post_json(&path("actions"), &aim).await;

    assert_refused(&condition, "combatant_id", "Victim", "a condition on the dead");
    assert!(text_of(&condition).contains("a condition"), "{}", condition.body);
    assert_refused(&action, "combatant_id", "Victim", "the dead act");
    assert_eq!(app.snapshot(&encounter).await, dead, "nothing changed");
}

#[tokio::test]
async fn a_defeated_lur_asko_combatant_still_takes_hits_the_text_has_no_death() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Field").await;
    let victim = app.add_combatant(&encounter, "Victim", "prey", json!({"injury_factor": 10})).await;
    let fixed = json!({"fixed": [{"combatant_id": victim, "value": 10}]});
    app.roll_initiative(&encounter, fixed).await;
    app.advance(&encounter, "next_turn").await;
    let patch = app
        .patch_json(&format!("/v1/encounters/{encounter}/combatants/{victim}"), &json!({"defeated": true}))
        .await;
    let attack = json!({"weapons": [{"name": "Club", "delivery": "melee", "damage": 30, "drive": 5}],
        "injury_type": "Torso"});

    let hit = app
        .post_json(
            &format!("/v1/encounters/{encounter}/lur-asko/damage"),
            &json!({"target_id": victim, "attack": attack}),
        )
        .await;

    patch.expect_status(200, "marked defeated");
    hit.expect_status(200, "a defeated lur-asko combatant still takes a hit");
}

#[tokio::test]
async fn lur_asko_war_fever_rolls_owed_stay_within_the_published_bound_stored_and_inline() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("lur-asko", "Particle storm").await;
    let victim = app.add_combatant(&encounter, "Victim", "prey", json!({"injury_factor": 10})).await;
    let gunner = app.add_combatant(&encounter, "Gunner", "raiders", json!({"injury_factor": 10})).await;
    let fixed =
        json!({"fixed": [{"combatant_id": gunner, "value": 12}, {"combatant_id": victim, "value": 10}]});
    app.roll_initiative(&encounter, fixed).await;
    app.advance(&encounter, "next_turn").await;
    let attack = json!({"weapons": [{"name": "Beam", "delivery": "ranged", "energy": {"type": "particle", "damage": 10}}],
        "injury_type": "Torso"});
    let path = format!("/v1/encounters/{encounter}/lur-asko/damage");
    let body = json!({"target_id": victim, "attack": attack});
    for hit in 1..=100 {
        app.post_json(&path, &body).await.expect_status(200, &format!("particle hit {hit}"));
    }
    let full = app.snapshot(&encounter).await;

    let one_more = app.post_json(&path, &body).await;
    let owed = vec![json!({"degrees": 1, "hindrance": 0}); 100];
    let inline = |rolls: Vec<Value>| {
        json!({"target": {"name": "Victim", "stats": {"injury_factor": 10}, "war_fever_rolls": rolls},
            "attack": attack})
    };
    let twin_full = app.post_json("/v1/rulesets/lur-asko/damage", &inline(owed.clone())).await;
    let mut past = owed.clone();
    past.push(json!({"degrees": 1, "hindrance": 0}));
    let twin_past = app.post_json("/v1/rulesets/lur-asko/damage", &inline(past)).await;
    let twin_room = app.post_json("/v1/rulesets/lur-asko/damage", &inline(owed[..99].to_vec())).await;
    let schema = app.get("/openapi.json").await.body;

    one_more.assert_problem(422, Some("war_fever_rolls"), "the 101st roll owed, stored");
    assert_eq!(app.snapshot(&encounter).await, full, "nothing changed");
    let stored = state_of(&app, &encounter, &victim).await;
    assert_eq!(stored["state"]["war_fever_rolls"].as_array().map(Vec::len), Some(100), "{stored}");
    twin_full.assert_problem(422, Some("target.war_fever_rolls"), "the 101st roll owed, inline");
    twin_past.assert_problem(422, Some("target.war_fever_rolls"), "101 rolls sent");
    twin_room.expect_status(200, "the 100th roll owed, inline");
    let schemas = &schema["components"]["schemas"];
    for (name, at) in
        [("LurAskoCombatState", "war_fever_rolls"), ("LurAskoInlineCombatant", "war_fever_rolls")]
    {
        assert_eq!(
            schemas[name]["properties"][at]["maxItems"],
            json!(100),
            "{name}.{at} publishes the bound"
        );
    }
}

/// The generic effects route asks the target's ruleset too: a condition on the dead is the same
/// 409 as the ruleset commands give; the living, and a dead combatant named only as the source,
/// are unchanged.
#[tokio::test]
async fn the_generic_effects_route_puts_nothing_on_the_dead() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Crypt").await;
    let stats = json!({"agility": 8, "vitality": 10});
    let troll = app.add_combatant(&encounter, "Troll", "monsters", stats.clone()).await;
    let knight = app.add_combatant(&encounter, "Knight", "heroes", stats).await;
    app.post_json(
        &format!("/v1/encounters/{encounter}/arrgs/damage"),
        &json!({"target_id": troll, "amount": 100}),
    )
    .await
    .expect_status(200, "the killing blow");
    let path = format!("/v1/encounters/{encounter}/effects");
    let effect = |target: &str, source: &str| json!({"name": "Bleeding", "target_id": target, "source_id": source, "ends": {"ends": "end_of_encounter"}});
    let dead = app.snapshot(&encounter).await;

    let on_the_dead = app.post_json(&path, &effect(&troll, &knight)).await;
    let unchanged = app.snapshot(&encounter).await;
    let on_the_living = app.post_json(&path, &effect(&knight, &troll)).await;

    assert_refused(&on_the_dead, "target_id", "Troll", "an effect on the dead");
    assert!(text_of(&on_the_dead).contains("a condition"), "{}", on_the_dead.body);
    assert_eq!(unchanged, dead, "nothing changed");
    on_the_living.expect_status(201, "an effect on the living, from the dead");
}
