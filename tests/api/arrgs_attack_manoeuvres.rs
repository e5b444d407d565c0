//! arrgs over HTTP: the attack manoeuvres one by one — Charge, Trip and Standup, Disarm and
//! Reposition, the Defence manoeuvre, the Multiple Actions penalty, Opportunities on each attack
//! of a Repeated Attack, an area attack that scatters. Numbers worked from shared/rules/arrgs.txt
//! in the comments; dice scripted with `rolls`.

use crate::arrgs_support::{Arena, club, first_strike, hero, modifiers, sword, troll};
use crate::helpers::text;
use serde_json::{Value, json};

fn has(list: &[(String, i64)], code: &str, value: i64) -> bool {
    list.iter().any(|(c, v)| c == code && *v == value)
}

#[tokio::test]
async fn charge_adds_two_to_the_attack_and_takes_two_from_the_chargers_reflex_until_end_of_round() {
    let arena = Arena::new(&[("Hero", hero()), ("Troll", troll())]).await;
    // Charge 4 squares (passive Movement 10 + Body 2 = 12 → 5 + 2 = 7 allowed). d20 10 + 6 + 2 = 18
    // vs Reflex 12 → 4 + 6 = 10: Troll 60 → 50.
    let charge = arena.attack(
        "Hero",
        "Troll",
        sword(),
        json!({"manoeuvre": {"type": "charge", "squares": 4}, "rolls": [10]}),
    );
    let reply = arena.op("attacks", charge, "charge").await;
    let strike = first_strike(&reply);
    assert!(has(&modifiers(&strike["roll"]["checks"][0]["check"]), "charge", 2), "{strike}");
    assert_eq!(strike["roll"]["success_value"], json!(10));
    assert_eq!(reply["result"]["charge"]["allowed"], json!(7));
    assert_eq!(arena.vitality("Troll").await, 50);
    // The Troll's club: the Hero's Reflex 10 + 1 + 1 − 2 = 10; d20 10 + 0 = 10 → 5: Hero 19 → 14.
    arena.next_turn().await;
    let back = arena.attack("Troll", "Hero", club(), json!({"rolls": [10]}));
    let strike = first_strike(&arena.op("attacks", back, "the Troll hits back").await);
    assert_eq!(strike["defence_check"]["result"], json!(10));
    assert!(has(&modifiers(&strike["defence_check"]), "charged_this_round", -2), "{strike}");
    assert_eq!(arena.vitality("Hero").await, 14);
    // The End of Round clears it.
    arena.op("end-of-round", json!({}), "end of round").await;
    assert_eq!(arena.state("Hero").await["round"]["penalties"], json!([]));
}

#[tokio::test]
async fn trip_needs_reflex_plus_one_a_leg_above_two_and_standup_ends_prone() {
    let horse = json!({"agility": 8, "initiative": 10, "vitality": 30, "legs": 4, "checks": {"reflex": {"skill": 2}}});
    let arena = Arena::new(&[("Hero", hero()), ("Horse", horse)]).await;
    // Reflex 10 + 2 + 2 (4 legs) = 14. d20 7 + 6 = 13: no trip.
    let trip = |extra: Value| arena.attack("Hero", "Horse", sword(), extra);
    let reply =
        arena.op("attacks", trip(json!({"effect": {"type": "trip"}, "rolls": [7]})), "a failed trip").await;
    let strike = first_strike(&reply);
    assert_eq!(strike["defence_check"]["result"], json!(14));
    assert!(has(&modifiers(&strike["defence_check"]), "extra_legs", 2));
    assert_eq!(arena.state("Horse").await["prone"], json!(false));
    // Swift (2 AAP): d20 8 + 6 = 14 ≥ 14: Prone.
    arena.op("attacks", trip(json!({"effect": "trip", "pace": "swift", "rolls": [8]})), "a trip").await;
    assert_eq!(arena.state("Horse").await["prone"], json!(true));
    // The Horse stands up (1 AP); a second Standup is refused.
    arena.next_turn().await;
    let stand = arena.action("Horse", json!("standup"), json!({}));
    arena.op("actions", stand.clone(), "stand up").await;
    assert_eq!(arena.state("Horse").await["prone"], json!(false));
    arena.refused("actions", stand, "manoeuvre", "standing while standing").await;
}

#[tokio::test]
async fn disarm_sends_the_held_item_flying_and_reposition_into_a_bystander_costs_both_vitality() {
    let armed_troll = json!({"agility": 8, "initiative": 10, "vitality": 60, "checks": {"reflex": {"skill": 2}}, "items": [{"name": "Club"}]});
    let goblin = json!({"agility": 10, "initiative": 5, "vitality": 10});
    let arena = Arena::new(&[("Hero", hero()), ("Troll", armed_troll), ("Goblin", goblin)]).await;
    // Disarm: d20 15 + 6 = 21 vs Reflex 12 → 1 + 9 = 10 squares, at most 5; the only item held.
    let disarm = arena.attack("Hero", "Troll", sword(), json!({"effect": {"type": "disarm"}, "rolls": [15]}));
    let result = first_strike(&arena.op("attacks", disarm, "disarm").await)["result"].clone();
    assert_eq!(result, json!({"result": "disarm", "squares": 5, "item": "Club"}));
    assert_eq!(arena.state("Troll").await["items"][0]["place"], json!("dropped"));
    // Reposition (Swift) into the Goblin: d20 12 + 6 = 18 → 1 + 6 = 7 squares; both lose 7.
    let goblin_id = arena.id("Goblin");
    let push = arena.attack(
        "Hero",
        "Troll",
        sword(),
        json!({"pace": "swift", "rolls": [12],
        "effect": {"type": "reposition", "collision": {"type": "combatant", "combatant_id": goblin_id}}}),
    );
    let result = first_strike(&arena.op("attacks", push, "reposition").await)["result"].clone();
    assert_eq!(result, json!({"result": "reposition", "squares": 7, "collision_loss": 7}));
    assert_eq!((arena.vitality("Troll").await, arena.vitality("Goblin").await), (53, 3));
}

#[tokio::test]
async fn reposition_moves_the_squares_chosen_and_a_collision_costs_one_per_square_moved() {
    let goblin = json!({"agility": 10, "initiative": 5, "vitality": 10});
    let arena = Arena::new(&[("Hero", hero()), ("Troll", troll()), ("Goblin", goblin)]).await;
    // "Reposition Manoeuvre": d20 12 + 6 = 18 vs Reflex 12 → up to 1 + 6 = 7 squares; the Hero
    // moves the Troll 2 into the Goblin: both lose 2 (60 → 58, 10 → 8).
    let goblin_id = arena.id("Goblin");
    let push = arena.attack(
        "Hero",
        "Troll",
        sword(),
        json!({"rolls": [12], "effect": {"type": "reposition", "squares": 2, "collision": {"type": "combatant", "combatant_id": goblin_id}}}),
    );
    let result = first_strike(&arena.op("attacks", push, "reposition 2 squares").await)["result"].clone();
    assert_eq!(result, json!({"result": "reposition", "squares": 2, "collision_loss": 2}));
    assert_eq!((arena.vitality("Troll").await, arena.vitality("Goblin").await), (58, 8));
}

#[tokio::test]
async fn the_defence_manoeuvre_takes_its_margin_off_the_success_value() {
    let arena = Arena::new(&[("Hero", hero()), ("Troll", troll())]).await;
    // Hero d20 8 + 6 = 14 vs 12 → 4 + 2 = 6. The Troll defends (2 AAP, 1 Vitality): d20 15 + 2 =
    // 17 against 14 → 3 off → 3. Troll 60 − 1 − 3 = 56.
    let body = arena.attack(
        "Hero",
        "Troll",
        sword(),
        json!({"defence_action": {"defence": "reflex"}, "rolls": [8, 15]}),
    );
    let strike = first_strike(&arena.op("attacks", body, "defended attack").await);
    assert_eq!(strike["defence_action"]["reduction"], json!(3));
    assert_eq!(strike["defence_action"]["dc"], json!(14));
    assert_eq!(strike["final_success_value"], json!(3));
    assert_eq!(arena.vitality("Troll").await, 56);
    assert_eq!(arena.state("Troll").await["round"]["additional_points_spent"], json!(2));
}

#[tokio::test]
async fn each_point_above_three_costs_two_on_every_later_check_including_reflex() {
    let mut busy = hero();
    busy["additional_action_points"] = json!(4);
    let arena = Arena::new(&[("Hero", busy), ("Troll", troll())]).await;
    let swing = |extra: Value| arena.attack("Hero", "Troll", sword(), extra);
    // Attack (2 AP): d20 10 + 6 = 16 → 8: 52. Sidestep (1 AP): 3 used. Swift attack (2 AAP): it
    // crosses the line, so it is not penalised itself: 8 → 44.
    arena.op("attacks", swing(json!({"rolls": [10]})), "attack").await;
    arena.op("actions", arena.action("Hero", json!({"type": "sidestep"}), json!({})), "sidestep").await;
    arena.op("attacks", swing(json!({"pace": "swift", "rolls": [10]})), "swift attack").await;
    // 5 used: the next Swift attack has −2 × 2 = −4: 10 + 6 − 4 = 12 vs 12 → 4: 40.
    let reply = arena.op("attacks", swing(json!({"pace": "swift", "rolls": [10]})), "penalised attack").await;
    let strike = first_strike(&reply);
    assert!(has(&modifiers(&strike["roll"]["checks"][0]["check"]), "multiple_actions", -4), "{strike}");
    assert_eq!(arena.vitality("Troll").await, 40);
    // 7 used: the Hero's Reflex is 12 − 8 = 4. Troll d20 10 → 5 + 6 = 11: Hero 20 − 4 − 11 = 5.
    arena.next_turn().await;
    let back = arena.attack("Troll", "Hero", club(), json!({"rolls": [10]}));
    let strike = first_strike(&arena.op("attacks", back, "the Troll hits back").await);
    assert_eq!(strike["defence_check"]["result"], json!(4));
    assert_eq!(arena.vitality("Hero").await, 5);
}

#[tokio::test]
async fn an_opportunity_may_interrupt_the_second_attack_of_a_repeated_attack() {
    let archer = json!({"agility": 14, "initiative": 15, "vitality": 3});
    let guard = json!({"agility": 10, "initiative": 12, "vitality": 20, "abilities": {"body": 2}, "checks": {"melee": {"skill": 4}}});
    let arena = Arena::new(&[("Archer", archer), ("Guard", guard), ("Troll", troll())]).await;
    let volley = |attack: u64| {
        let opportunity =
            json!({"combatant_id": arena.id("Guard"), "distance": 1, "weapon": sword(), "attack": attack});
        arena.attack("Archer", "Troll", json!({"name": "Bow", "kind": "ranged", "damage": 5, "types": ["piercing"]}),
            json!({"manoeuvre": {"type": "repeated_attack", "attacks": 3}, "opportunities": [opportunity], "rolls": [10, 15]}))
    };
    arena.refused("attacks", volley(4), "opportunities[0].attack", "an opportunity on attack 4 of 3").await;
    // Attack 1: Archer pays 1 (3 → 2); d20 10 vs 12 → 5 − 2 = 3: Troll 57. Attack 2: pays 1 (→ 1),
    // then the Guard: d20 15 + 6 = 21 vs Reflex 10 → 4 + 11 = 15: 1 → −14, dead. No attacks 2, 3.
    let reply = arena.op("attacks", volley(2), "interrupted volley").await;
    assert_eq!(reply["result"]["outcome"]["strikes"].as_array().map(Vec::len), Some(1));
    assert_eq!(reply["result"]["opportunities"][0]["attack"], json!(2));
    assert!(
        text(&reply["result"]["interrupted"]).starts_with("attack 2 was not made"),
        "{}",
        reply["result"]
    );
    assert_eq!((arena.vitality("Troll").await, arena.vitality("Archer").await), (57, -14));
}

#[tokio::test]
async fn a_missed_area_attack_scatters_and_lands_on_the_troll() {
    let thrower = json!({"agility": 11, "initiative": 12, "vitality": 14});
    let arena = Arena::new(&[("Thrower", thrower), ("Troll", troll())]).await;
    // Grenade at 12 squares, Range Increment 5: 3 increments, Range modifier −4. d20 2 + 0 − 4 =
    // −2 < 10: misses the square. 1d8 3 = East; 1d4 per increment: 2 + 4 + 1 = 7 squares.
    let grenade =
        json!({"name": "Grenade", "kind": "ranged", "damage": 6, "types": ["fire"], "range_increment": 5});
    let throw = json!({"attacker_id": arena.id("Thrower"), "rolls": [2, 3, 2, 4, 1],
        "stage": {"type": "attack", "distance": 12, "weapon": grenade, "occupants": []}});
    let reply = arena.op("area-attacks", throw, "the throw").await;
    assert_eq!(reply["result"]["scatter"]["direction"], json!("East"));
    assert_eq!(reply["result"]["scatter"]["squares"], json!(7));
    // Where it landed, a second check with the same modifiers and no further cost: d20 14 − 4 =
    // 10 vs 12 → 6 − 2 = 4: Troll 56.
    let landed = json!({"attacker_id": arena.id("Thrower"), "rolls": [14],
        "stage": {"type": "scatter", "occupants": [{"combatant_id": arena.id("Troll")}]}});
    let reply = arena.op("area-attacks", landed.clone(), "where it landed").await;
    assert_eq!(reply["result"]["hits"][0]["success_value"], json!(4));
    assert_eq!(reply["result"]["hits"][0]["target"], json!("Troll"));
    assert_eq!((arena.vitality("Troll").await, arena.vitality("Thrower").await), (56, 13));
    // The report's standings: the attacker, then the occupant struck, as stored.
    let standings = &reply["result"]["standings"];
    assert_eq!((&standings[0]["name"], &standings[0]["vitality"]), (&json!("Thrower"), &json!(13)));
    assert_eq!((&standings[1]["name"], &standings[1]["vitality"]), (&json!("Troll"), &json!(56)));
    assert_eq!(standings.as_array().map(Vec::len), Some(2));
    arena.refused("area-attacks", landed, "stage", "no second scatter").await;
}

#[tokio::test]
async fn a_ranged_attack_at_a_distance_without_a_range_increment_is_refused_not_taken_at_no_penalty() {
    // arrgs.txt, "Range Increment": the range modifier needs the weapon's increment; without it a
    // distance would silently cost nothing, so the request is refused naming the missing field.
    let thrower = json!({"agility": 11, "initiative": 12, "vitality": 14});
    let arena = Arena::new(&[("Thrower", thrower), ("Troll", troll())]).await;
    let sling = json!({"name": "Sling", "kind": "ranged", "damage": 3, "types": ["bludgeoning"]});
    let shot = arena.attack("Thrower", "Troll", sling.clone(), json!({"distance": 12, "rolls": [15]}));
    arena.refused("attacks", shot, "weapon.range_increment", "a ranged attack at 12 squares").await;
    let grenade = json!({"name": "Grenade", "kind": "ranged", "damage": 6, "types": ["fire"]});
    let throw = json!({"attacker_id": arena.id("Thrower"), "rolls": [15],
        "stage": {"type": "attack", "distance": 12, "weapon": grenade, "occupants": []}});
    arena
        .refused("area-attacks", throw, "stage.weapon.range_increment", "an area attack at 12 squares")
        .await;
    // Without a distance there is nothing to judge: the sling shoots, d20 15 + 0 against Reflex 12:
    // margin 3, Success Value 3 + 3 = 6 bludgeoning → Troll 60 → 54.
    let point_blank = arena.attack("Thrower", "Troll", sling, json!({"rolls": [15]}));
    let reply = arena.op("attacks", point_blank, "no distance named").await;
    assert_eq!(first_strike(&reply)["final_success_value"], json!(6), "{}", reply["result"]);
    assert_eq!(arena.vitality("Troll").await, 54);
}
