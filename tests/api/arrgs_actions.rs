//! arrgs over HTTP: the manoeuvres other than attacks — Aid Another, Change Reach, Movement with
//! Difficult Terrain, Ready and an Immediate action, Reload, Mount, Sidestep, Withdraw,
//! Miscellaneous and Complementary actions — and the Disabled and Unconscious conditions.
//! Numbers worked from shared/rules/arrgs.txt in the comments; dice scripted with `rolls`.

use crate::arrgs_support::{Arena, club, first_strike, hero, merge, modifiers, sword, troll};
use serde_json::{Value, json};

#[tokio::test]
async fn aid_another_grants_its_success_value_to_the_allys_next_check() {
    let helper = json!({"agility": 14, "initiative": 20, "vitality": 15, "abilities": {"personality": 2}, "checks": {"melee": {"skill": 1}}});
    let arena = Arena::new(&[("Helper", helper), ("Hero", hero()), ("Troll", troll())]).await;
    // Melee skill 1 + Personality 2 (in place of Body): d20 12 + 3 = 15 vs 10 → 1 + 5 = 6.
    let aid = arena.action(
        "Helper",
        json!({"type": "aid_another", "ally_id": arena.id("Hero"), "check": "melee"}),
        json!({"rolls": [12]}),
    );
    let reply = arena.op("actions", aid, "aid another").await;
    assert_eq!(reply["result"]["result"]["assisted"], json!(6));
    // Hero: d20 5 + 6 + 6 = 17 vs 12 → 4 + 5 = 9: Troll 51; the assist is spent.
    arena.next_turn().await;
    let reply = arena
        .op("attacks", arena.attack("Hero", "Troll", sword(), json!({"rolls": [5]})), "aided attack")
        .await;
    assert!(
        modifiers(&first_strike(&reply)["roll"]["checks"][0]["check"])
            .contains(&("aid_another".to_owned(), 6))
    );
    assert_eq!(arena.vitality("Troll").await, 51);
    assert_eq!(arena.state("Hero").await["round"]["assists"], json!([]));
}

#[tokio::test]
async fn change_reach_moves_the_threat_range_for_later_melee_attacks() {
    let mut long = hero();
    long["reach"] = json!(2);
    let arena = Arena::new(&[("Hero", long), ("Troll", troll())]).await;
    // Melee d20 10 + 6 = 16 vs 10 → 1 + 6 = 7 ≥ 2: shift 2 (the Reach): Threat Range 3–3.
    let reach = arena.action("Hero", json!({"type": "change_reach", "change": 2}), json!({"rolls": [10]}));
    let reply = arena.op("actions", reach, "change reach").await;
    assert_eq!(reply["result"]["result"]["threat_range"], json!([3, 3]));
    let near = arena.attack("Hero", "Troll", sword(), json!({"distance": 1, "rolls": [10]}));
    arena.refused("attacks", near, "distance", "adjacent is out of the shifted Threat Range").await;
    // d20 10 + 6 = 16 vs 12 → 8: Troll 52.
    arena
        .op(
            "attacks",
            arena.attack("Hero", "Troll", sword(), json!({"distance": 3, "rolls": [10]})),
            "reach attack",
        )
        .await;
    assert_eq!(arena.vitality("Troll").await, 52);
}

#[tokio::test]
async fn movement_is_speed_plus_the_passive_margin_and_difficult_terrain_takes_its_n() {
    let arena = Arena::new(&[("Hero", hero()), ("Troll", troll())]).await;
    let step = |squares: u64, extra: Value| {
        let mut manoeuvre = json!({"type": "movement", "squares": squares});
        merge(&mut manoeuvre, extra);
        arena.action("Hero", manoeuvre, json!({}))
    };
    // Passive Athletics 10 + Body 2 = 12 → 5 + 2 = 7 squares.
    arena.refused("actions", step(8, json!({})), "manoeuvre.squares", "8 of 7 squares").await;
    let reply = arena.op("actions", step(7, json!({})), "7 squares").await;
    assert_eq!(reply["result"]["result"]["movement_increment"], json!(2));
    // Increment 2 (−2) and Difficult Terrain [3] (−3): 12 − 5 = 7 → 5 − 3 = 2 squares.
    arena
        .refused("actions", step(3, json!({"difficult_terrain": 3})), "manoeuvre.squares", "3 of 2 squares")
        .await;
    let reply = arena.op("actions", step(2, json!({"difficult_terrain": 3})), "2 squares").await;
    assert_eq!(reply["result"]["result"]["success_value"], json!(2));
    assert_eq!(arena.state("Hero").await["round"]["squares_moved"], json!(9));
}

#[tokio::test]
async fn ready_turns_action_points_into_an_immediate_action_on_anothers_turn() {
    let arena = Arena::new(&[("Hero", hero()), ("Troll", troll())]).await;
    let ready =
        arena.action("Hero", json!({"type": "ready", "points": 1, "trigger": "the troll moves"}), json!({}));
    let reply = arena.op("actions", ready, "ready").await;
    assert_eq!(
        reply["result"]["result"]["remaining"],
        json!({"action_points": 2, "additional_action_points": 3})
    );
    let sidestep = arena.action("Hero", json!({"type": "sidestep"}), json!({"pace": "immediate"}));
    arena.refused("actions", sidestep.clone(), "pace", "an Immediate action on one's own turn").await;
    arena.next_turn().await;
    arena.op("actions", sidestep, "the readied sidestep").await;
    assert_eq!(arena.state("Hero").await["round"]["additional_points_spent"], json!(1));
    assert_eq!(arena.vitality("Hero").await, 18, "Ready and the Sidestep: 1 Vitality each");
}

fn rider() -> Value {
    json!({"agility": 12, "initiative": 15, "vitality": 20, "items": [{"name": "Lance", "held": false}]})
}

#[tokio::test]
async fn reload_loads_one_plus_the_margin_and_mount_needs_ten_plus_the_mounts_personality() {
    let arena = Arena::new(&[("Rider", rider()), ("Troll", troll())]).await;
    // Reload a 3-bolt weapon: Missile Weaponry d20 12 + 0 vs 10 → 1 + 2 = 3 loaded.
    let reload = arena.action("Rider", json!({"type": "reload", "capacity": 3}), json!({"rolls": [12]}));
    assert_eq!(arena.op("actions", reload, "reload").await["result"]["result"]["loaded"], json!(3));
    // Mount (2 AP): Ride +2, d20 9 + 2 = 11 vs 10 + 1 = 11: mounted.
    let mount = arena.action(
        "Rider",
        json!({"type": "mount", "mount_personality": 1, "bonuses": {"skill": 2}}),
        json!({"rolls": [9]}),
    );
    assert_eq!(arena.op("actions", mount, "mount").await["result"]["result"]["test"]["success"], json!(true));
    // A Swift reload that fails (d20 5 < 10) loads nothing.
    let again = arena.action(
        "Rider",
        json!({"type": "reload", "capacity": 3}),
        json!({"pace": "swift", "rolls": [5]}),
    );
    assert_eq!(arena.op("actions", again, "failed reload").await["result"]["result"]["loaded"], json!(0));
}

#[tokio::test]
async fn sidestep_and_withdraw_move_without_provoking() {
    let arena = Arena::new(&[("Hero", hero()), ("Troll", troll())]).await;
    let opportunity = json!([{"combatant_id": arena.id("Troll"), "distance": 1, "weapon": club()}]);
    let provoked = arena.action("Hero", json!({"type": "sidestep"}), json!({"opportunities": opportunity}));
    arena.refused("actions", provoked, "opportunities", "a Sidestep provokes nothing").await;
    arena.op("actions", arena.action("Hero", json!("sidestep"), json!({})), "sidestep").await;
    // Withdraw (2 AP) at most the Movement Speed, 5.
    let far = arena.action("Hero", json!({"type": "withdraw", "squares": 6}), json!({}));
    arena.refused("actions", far, "manoeuvre.squares", "withdrawing 6").await;
    let reply = arena
        .op("actions", arena.action("Hero", json!({"type": "withdraw", "squares": 5}), json!({})), "withdraw")
        .await;
    // 1 + 5 = 6 squares: Movement Increment 2.
    assert_eq!(reply["result"]["result"]["movement_increment"], json!(2));
}

#[tokio::test]
async fn complementary_actions_follow_actions_and_a_miscellaneous_check_decides_the_interaction() {
    let arena = Arena::new(&[("Rider", rider()), ("Troll", troll())]).await;
    let draw = arena.action(
        "Rider",
        json!({"type": "complementary", "description": "draws", "item": {"item": "Lance", "action": "draw"}}),
        json!({}),
    );
    arena.refused("actions", draw.clone(), "manoeuvre", "a Complementary action with no action yet").await;
    // The GM asks for Athletics DC 12 to climb onto the cart: d20 11 + 0 = 11 fails.
    let climb = json!({"type": "miscellaneous", "description": "climbs the cart", "check": {"kind": "athletics", "dc": 12}});
    let reply = arena.op("actions", arena.action("Rider", climb, json!({"rolls": [11]})), "climb").await;
    assert_eq!(reply["result"]["result"]["test"]["success"], json!(false));
    // Drawing the Lance as part of it costs nothing.
    arena.op("actions", draw, "draws the lance").await;
    assert_eq!(arena.state("Rider").await["items"][0]["place"], json!("held"));
    assert_eq!(arena.vitality("Rider").await, 19, "only the Miscellaneous manoeuvre cost Vitality");
}

#[tokio::test]
async fn a_disabled_character_checks_fortitude_on_each_action_and_failing_is_dying() {
    let mut spent = hero();
    spent["current_vitality"] = json!(0);
    let arena = Arena::new(&[("Hero", spent), ("Troll", troll())]).await;
    let sidestep = |roll: u64| arena.action("Hero", json!({"type": "sidestep"}), json!({"rolls": [roll]}));
    // Disabled at 0. Sidestep: 1 Vitality (−1); Fortitude d20 7 + 3 = 10 vs 10 passes, but
    // Vitality is still 0 or less: Disabled again.
    let reply = arena.op("actions", sidestep(7), "first step").await;
    assert_eq!(reply["result"]["exertion"]["condition_check"]["success"], json!(true));
    // Second point of the two allowed: −2; d20 5 + 3 = 8 fails: 1 more (−3) and Dying [1].
    let reply = arena.op("actions", sidestep(5), "second step").await;
    assert_eq!(reply["result"]["exertion"]["vitality_after"], json!(-3));
    assert_eq!(arena.state("Hero").await["dying"], json!(1));
    // Dying allows 1 point a round: 2 are used.
    arena.refused("actions", sidestep(10), "pace", "a third point while Dying").await;
}

#[tokio::test]
async fn the_unconscious_fail_reflex_automatically_and_may_not_act_until_they_wake() {
    let arena = Arena::new(&[("Hero", hero()), ("Troll", troll())]).await;
    let knock_out = json!({"combatant_id": arena.id("Troll"), "change": {"type": "unconscious", "on": true}});
    arena.op("conditions", knock_out, "unconscious").await;
    // Reflex 0, automatic failure: d20 2 + 6 = 8 vs 0 → 4 + 8 = 12: Troll 48.
    let reply =
        arena.op("attacks", arena.attack("Hero", "Troll", sword(), json!({"rolls": [2]})), "a blow").await;
    assert_eq!(first_strike(&reply)["defence_check"]["automatic_failure"], json!(true));
    assert_eq!(arena.vitality("Troll").await, 48);
    arena.next_turn().await;
    let swing = arena.attack("Troll", "Hero", club(), json!({"rolls": [10]}));
    arena.refused("attacks", swing.clone(), "attacker_id", "acting while Unconscious").await;
    // Disturbed: Fortitude d20 5 + 0 against 0 negative Vitality + 0 Dying: awake.
    let wake = json!({"combatant_id": arena.id("Troll"), "change": "wake", "rolls": [5]});
    assert_eq!(arena.op("conditions", wake, "wake").await["result"]["wake_check"]["success"], json!(true));
    arena.op("attacks", swing, "awake and swinging").await;
}
