//! arrgs over HTTP: a whole scripted fight of two sides over three rounds — a surprise round, a
//! critical chain that inflicts Dying through Damage Resistance, a vulnerable hit, a Repeated
//! Attack, Ready and an Immediate spell, a Staggered and a Dying character through the End of
//! Round, a death — then the refusals (4xx naming the field, nothing stored) and the stateless
//! twins. Numbers are worked from shared/rules/arrgs.txt in the comments.

use crate::arrgs_support::{add, firebolt, hero, mage, naturals, ogre, op, refused, state, sword, vitality};
use crate::helpers::{spawn_app, text};
use serde_json::{Value, json};

#[tokio::test]
async fn a_three_round_fight_with_a_surprise_round_criticals_dying_and_a_death() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("arrgs", "Ogre bridge").await;
    let hero_id = add(&app, &encounter, "Hero", "heroes", hero(), false).await;
    let mage_id = add(&app, &encounter, "Mage", "heroes", mage(), false).await;
    let ogre_id = add(&app, &encounter, "Ogre", "monsters", ogre(), true).await;
    app.roll_initiative(&encounter, json!({})).await;
    app.advance(&encounter, "next_turn").await;
    let mut scripted: Vec<u64> = Vec::new();

    // ── Round 1, the surprise round (Ogre Surprised): Hero has 3 − 1 = 2 AP, 2 − 1 = 1 AAP ──
    // Ogre's Reflex 12. d20 19 + 6 = 25: 4 + 13 = 17, critical (19–20); 20 → 26: +18 = 35, critical
    // again; 4 → 10: 4 − 2 = 2 → 37. DR 2/Slashing → 35: Ogre 40 → 5 and Dying [1]. Hero 20 → 19.
    let attack =
        json!({"attacker_id": hero_id, "target_id": ogre_id, "weapon": sword(), "rolls": [19, 20, 4]});
    let reply = op(&app, &encounter, "attacks", attack, "the critical chain").await;
    scripted.extend(naturals(&reply));
    let strike = &reply["result"]["outcome"]["strikes"][0];
    assert_eq!(strike["roll"]["success_value"], json!(37));
    assert_eq!(strike["roll"]["critical_hit"], json!(true));
    assert_eq!(strike["result"]["steps"]["damage"], json!(35));
    assert_eq!(strike["result"]["dying_inflicted"], json!(true));
    assert_eq!(vitality(&app, &encounter, &ogre_id).await, 5);
    assert_eq!(vitality(&app, &encounter, &hero_id).await, 19);
    assert!(text(&reply["summary"]).contains("Hero → Ogre, Attack with Longsword"), "{}", reply["summary"]);

    // A second attack: no AP left, and 1 AAP is not the 2 an Attack needs as a Swift action.
    let again = json!({"attacker_id": hero_id, "target_id": ogre_id, "weapon": sword(), "rolls": [10]});
    refused(&app, &encounter, "attacks", again.clone(), 422, Some("pace"), "second attack, no AP").await;
    let mut swift = again;
    swift["pace"] = json!("swift");
    refused(&app, &encounter, "attacks", swift, 422, Some("pace"), "swift attack, too few AAP").await;

    // Mage's Firebolt (level 1: base difficulty 11, 1 Vitality). The Dying Ogre reacts: Fortitude
    // d20 10 + 3 = 13 against 0 + 1 → no loss. Mage d20 11 + 6 = 17 vs 12 → 5 + 5 = 10; vulnerable
    // to Fire ×1.5 = 15: Ogre 5 → −10.
    app.advance(&encounter, "next_turn").await;
    let bolt = json!({"attacker_id": mage_id, "target_id": ogre_id, "weapon": firebolt(), "distance": 6, "rolls": [10, 11]});
    let reply = op(&app, &encounter, "attacks", bolt, "the vulnerable hit").await;
    scripted.extend(naturals(&reply));
    let strike = &reply["result"]["outcome"]["strikes"][0];
    assert_eq!(strike["reaction_check"]["dc"], json!(1));
    assert_eq!(strike["result"]["steps"]["after_resistance"], json!(10));
    assert_eq!(strike["result"]["steps"]["damage"], json!(15));
    assert_eq!(vitality(&app, &encounter, &ogre_id).await, -10);

    // The Surprised Ogre may not act in the surprise round.
    app.advance(&encounter, "next_turn").await;
    let club = json!({"attacker_id": ogre_id, "target_id": hero_id, "weapon": {"name": "Club", "damage": 6}, "rolls": [18]});
    refused(&app, &encounter, "attacks", club, 422, Some("attacker_id"), "acting while Surprised").await;

    // End of Round 1: Ogre's Dying check, DC 10 + 1 = 11: d20 5 + 3 = 8 fails → −11.
    let reply = op(&app, &encounter, "end-of-round", json!({"rolls": [5]}), "end of round 1").await;
    scripted.extend(naturals(&reply));
    assert_eq!(reply["result"]["surprise_ended"], json!(true));
    assert_eq!(reply["result"]["entries"][0]["dying"]["dc"], json!(11));
    assert_eq!(vitality(&app, &encounter, &ogre_id).await, -11);
    app.advance(&encounter, "next_turn").await;
    assert_eq!(app.encounter(&encounter).await["round"], json!(2));

    // ── Round 2 ── A thunderclap: the GM makes the Hero Staggered [2] (0 AAP, still 3 AP).
    let stagger = json!({"combatant_id": hero_id, "change": {"type": "staggered", "applications": 2}});
    op(&app, &encounter, "conditions", stagger, "Staggered [2]").await;
    // Repeated Attack, 2 attacks (3 AP). Each of the Ogre's Reaction checks calls its Dying check.
    // 1st: Ogre DC 11 + 1 = 12: 15 + 3 = 18, no loss; Hero 8 + 6 = 14 vs 12 → 4 + 2 = 6 − DR 2 = 4 → −15.
    // 2nd: Ogre DC 15 + 1 = 16: 12 + 3 = 15 fails → −16; Hero 12 + 6 − 2 = 16 → 4 + 4 = 8 − 2 = 6 → −22.
    // Hero pays 1 a swing: 19 → 17; −2 on every check until the End of Round.
    let repeated = json!({"attacker_id": hero_id, "target_id": ogre_id, "weapon": sword(),
        "manoeuvre": {"type": "repeated_attack", "attacks": 2}, "rolls": [15, 8, 12, 12]});
    let reply = op(&app, &encounter, "attacks", repeated, "the repeated attack").await;
    scripted.extend(naturals(&reply));
    let strikes = reply["result"]["outcome"]["strikes"].as_array().cloned().unwrap_or_default();
    let damage: Vec<Value> = strikes.iter().map(|s| s["result"]["steps"]["damage"].clone()).collect();
    assert_eq!(damage, [json!(4), json!(6)]);
    assert_eq!(reply["result"]["round_penalties"][0]["value"], json!(-2));
    assert_eq!(vitality(&app, &encounter, &ogre_id).await, -22);
    assert_eq!(vitality(&app, &encounter, &hero_id).await, 17);

    // Mage readies 2 AP for "the ogre moves" (1 Vitality): 1 AP and 1 + 2 = 3 AAP left.
    app.advance(&encounter, "next_turn").await;
    let ready = json!({"combatant_id": mage_id, "manoeuvre": {"type": "ready", "points": 2, "trigger": "the ogre moves"}});
    let reply = op(&app, &encounter, "actions", ready, "ready").await;
    assert_eq!(
        reply["result"]["result"]["remaining"],
        json!({"action_points": 1, "additional_action_points": 3})
    );

    // Ogre's turn. Its Movement provokes; the Staggered Hero has no AAP for an Opportunity.
    app.advance(&encounter, "next_turn").await;
    let step = json!({"combatant_id": ogre_id, "manoeuvre": {"type": "movement", "squares": 2},
        "opportunities": [{"combatant_id": hero_id, "distance": 1, "weapon": sword()}], "rolls": [20]});
    refused(
        &app,
        &encounter,
        "actions",
        step,
        422,
        Some("opportunities[0]"),
        "an Immediate action without AAP",
    )
    .await;
    // The Dying Ogre moves (its 1 point this round): 1 Vitality → −23, Dying check DC 23 + 1 = 24:
    // d20 20 + 3 = 23 fails → −24. Passive Movement 10 + 3 = 13 → 8 squares allowed.
    let step =
        json!({"combatant_id": ogre_id, "manoeuvre": {"type": "movement", "squares": 2}, "rolls": [20]});
    let reply = op(&app, &encounter, "actions", step, "the dying ogre moves").await;
    scripted.extend(naturals(&reply));
    assert_eq!(reply["result"]["exertion"]["condition_check"]["dc"], json!(24));
    assert_eq!(vitality(&app, &encounter, &ogre_id).await, -24);
    // The readied Mage casts as an Immediate action (2 of 3 AAP): Ogre reacts, DC 24 + 1 = 25:
    // 2 + 3 = 5 fails → −25. d20 9 + 6 = 15 vs 12 → 5 + 3 = 8 × 1.5 = 12 → −37. Mage 13 → 12 → 11.
    let immediate = json!({"attacker_id": mage_id, "target_id": ogre_id, "weapon": firebolt(), "pace": "immediate", "rolls": [2, 9]});
    let reply = op(&app, &encounter, "attacks", immediate.clone(), "the readied spell").await;
    scripted.extend(naturals(&reply));
    assert_eq!(vitality(&app, &encounter, &ogre_id).await, -37);
    assert_eq!(vitality(&app, &encounter, &mage_id).await, 11);
    // 1 AAP left: a second Immediate spell is refused.
    refused(&app, &encounter, "attacks", immediate, 422, Some("pace"), "an Immediate action with 1 AAP")
        .await;

    // End of Round 2, in turn order: Hero Staggered [2], DC 17: 14 + 3 = 17 → [1]. Ogre Dying,
    // DC 37 + 1 = 38: 10 + 3 = 13 fails → −38.
    let reply = op(&app, &encounter, "end-of-round", json!({"rolls": [14, 10]}), "end of round 2").await;
    scripted.extend(naturals(&reply));
    let entries = reply["result"]["entries"].as_array().cloned().unwrap_or_default();
    assert_eq!(entries[0]["staggered"]["dc"], json!(17));
    assert_eq!(entries[0]["name"], json!("Hero"));
    let standings = &reply["result"]["standings"];
    assert_eq!(standings[0]["name"], json!("Hero"), "one standing per entry, in the entries' order");
    assert_eq!(standings[0]["conditions"], json!([{"condition": "staggered", "applications": 1}]));
    assert_eq!(standings[1]["vitality"], json!(-38));
    assert_eq!(entries[1]["dying"]["dc"], json!(38));
    assert_eq!(vitality(&app, &encounter, &ogre_id).await, -38);
    app.advance(&encounter, "next_turn").await;

    // ── Round 3 ── Ogre reacts, DC 38 + 1 = 39: 1 + 3 fails → −39. Hero 10 + 6 = 16 vs 12 →
    // 4 + 4 = 8 − 2 = 6 → −45 ≤ −40: dead, defeated.
    let finish = json!({"attacker_id": hero_id, "target_id": ogre_id, "weapon": sword(), "rolls": [1, 10]});
    let reply = op(&app, &encounter, "attacks", finish, "the death blow").await;
    scripted.extend(naturals(&reply));
    assert_eq!(vitality(&app, &encounter, &ogre_id).await, -45);
    let ogre_now = state(&app, &encounter, &ogre_id).await;
    assert_eq!(ogre_now["defeated"], json!(true));
    assert!(text(&reply["summary"]).contains("dead"), "{}", reply["summary"]);

    // ── The log: every die the fight rolled, in order, equals the scripted rolls ──
    let events = app.events(&encounter).await;
    let mut logged = Vec::new();
    for event in &events {
        if let Some(dice) = event["data"]["dice"].as_array() {
            logged.extend(dice.iter().map(|d| d["value"].as_u64().unwrap_or_default()));
        }
    }
    assert_eq!(scripted, [19, 20, 4, 10, 11, 5, 15, 8, 12, 12, 20, 2, 9, 14, 10, 1, 10]);
    assert_eq!(logged, scripted);
}

#[tokio::test]
async fn stateless_attacks_and_damage_answer_the_same_reports() {
    let app = spawn_app().await;
    // Reflex 12; d20 12 + 6 = 18 → 4 + 6 = 10 − DR 2 = 8.
    let body = json!({"attacker": {"name": "Hero", "stats": hero()}, "target": {"name": "Ogre", "stats": ogre()},
        "weapon": sword(), "rolls": [12]});
    let reply =
        app.post_json("/v1/rulesets/arrgs/attacks", &body).await.expect_status(200, "inline attack").body;
    assert_eq!(reply["result"]["outcome"]["strikes"][0]["result"]["steps"]["damage"], json!(8));
    // 9 Fire + Slashing: DR 2 then ×1.5 = 10.5 → 10.
    let body = json!({"target": {"stats": ogre()}, "amount": 9, "types": ["fire", "slashing"]});
    let reply =
        app.post_json("/v1/rulesets/arrgs/damage", &body).await.expect_status(200, "inline damage").body;
    assert_eq!(reply["result"]["steps"]["damage"], json!(10));
    assert_eq!(reply["result"]["standings"][0]["vitality"], json!(30));
    // A bad stat block names its field.
    let bad = json!({"target": {"stats": {"agility": 10, "vitality": 0}}, "amount": 1});
    app.post_json("/v1/rulesets/arrgs/damage", &bad).await.assert_problem(
        422,
        Some("target.stats.vitality"),
        "vitality 0",
    );
}
