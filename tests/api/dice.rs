//! POST /v1/dice/roll: expressions, scripted rolls, seeds and their bounds.

use crate::helpers::{pluck, spawn_app};
use serde_json::{Value, json};

/// 2^53 − 1, the largest seed a JavaScript client can hold exactly.
const MAX_SEED: u64 = 9_007_199_254_740_991;

#[tokio::test]
async fn scripted_rolls_are_used_exactly_and_dropped_dice_are_marked() {
    let app = spawn_app().await;

    let reply =
        app.post_json("/v1/dice/roll", &json!({"expression": "4d6kh3+2", "rolls": [6, 5, 3, 1]})).await;

    assert_eq!(reply.status, 200, "{}", reply.body);
    // Keep the highest three of 6, 5, 3, 1: 6 + 5 + 3 = 14, plus 2 = 16.
    assert_eq!(reply.body["expression"], json!("4d6kh3+2"));
    assert_eq!(reply.body["total"], json!(16));
    assert_eq!(reply.body["rendered"], json!("4d6kh3 (6, 5, 3, ~~1~~) + 2 = 16"));
    let dice = &reply.body["dice"];
    assert_eq!(pluck(dice, "value"), [json!(6), json!(5), json!(3), json!(1)]);
    assert_eq!(pluck(dice, "sides"), vec![json!(6); 4]);
    assert_eq!(pluck(dice, "status"), [json!("kept"), json!("kept"), json!("kept"), json!("dropped")]);
    assert_eq!(pluck(dice, "purpose"), vec![json!("dice: 4d6kh3+2"); 4]);
}

#[tokio::test]
async fn the_same_seed_gives_the_same_dice_on_two_fresh_apps() {
    let (first, second) = (spawn_app().await, spawn_app().await);
    let request = json!({"expression": "3d6+1d20", "seed": 42});

    let a = first.post_json("/v1/dice/roll", &request).await;
    let b = second.post_json("/v1/dice/roll", &request).await;

    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body, b.body);
    assert_eq!(a.body["seed"], json!(42));
    assert_eq!(a.body["dice"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn seed_42_replays_the_same_3d6_forever() {
    let app = spawn_app().await;

    let reply = app.post_json("/v1/dice/roll", &json!({"expression": "3d6", "seed": 42})).await;

    // ChaCha8's stream is fixed by its specification; this pins it.
    assert_eq!(reply.body["rendered"], json!("3d6 (2, 5, 1) = 8"));
    assert_eq!(reply.body["total"], json!(8));
}

#[tokio::test]
async fn the_seed_takes_over_when_scripted_rolls_run_out() {
    let app = spawn_app().await;
    let seeded = app.post_json("/v1/dice/roll", &json!({"expression": "2d6", "seed": 7})).await;
    let seeded_values = pluck(&seeded.body["dice"], "value");

    let mixed = app.post_json("/v1/dice/roll", &json!({"expression": "3d6", "seed": 7, "rolls": [4]})).await;

    assert_eq!(mixed.status, 200, "{}", mixed.body);
    let mut expected = vec![json!(4)];
    expected.extend(seeded_values);
    assert_eq!(pluck(&mixed.body["dice"], "value"), expected);
}

#[tokio::test]
async fn an_omitted_seed_is_reported_and_replays_the_roll() {
    let app = spawn_app().await;
    let first = app.post_json("/v1/dice/roll", &json!({"expression": "10d20"})).await;
    let seed = first.body["seed"].as_u64().unwrap();
    assert!(seed <= MAX_SEED, "reported seed {seed} is above 2^53 - 1");

    let replay = app.post_json("/v1/dice/roll", &json!({"expression": "10d20", "seed": seed})).await;

    assert_eq!(replay.body, first.body);
}

#[tokio::test]
async fn the_largest_seed_is_accepted() {
    let app = spawn_app().await;

    let reply = app.post_json("/v1/dice/roll", &json!({"expression": "d%", "seed": MAX_SEED})).await;

    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["seed"], json!(MAX_SEED));
    assert_eq!(reply.body["dice"][0]["sides"], json!(100));
}

#[tokio::test]
async fn bad_dice_requests_are_refused_naming_the_field() {
    let app = spawn_app().await;
    let too_many_rolls: Vec<u32> = vec![1; 1001];
    let cases: Vec<(Value, u16, &str, &str)> = vec![
        (json!({"expression": "1d20x"}), 422, "expression", "unknown operator"),
        (json!({"expression": ""}), 422, "expression", "empty expression"),
        (json!({"expression": "1000d6"}), 422, "expression", "too many dice in a group"),
        (
            json!({"expression": "100d6+100d6+100d6+100d6+100d6+d6"}),
            422,
            "expression",
            "too many dice in all",
        ),
        (json!({"expression": "3d1001"}), 422, "expression", "too many sides"),
        (json!({"expression": "d0"}), 422, "expression", "no sides"),
        (json!({"expression": "1/0"}), 422, "expression", "division by zero"),
        (json!({"expression": "(1"}), 422, "expression", "unclosed parenthesis"),
        (json!({"expression": "2d6", "rolls": [3, 7]}), 422, "rolls[1]", "scripted 7 on a d6"),
        (json!({"expression": "1d20", "rolls": [0]}), 422, "rolls[0]", "scripted 0"),
        (json!({"expression": "1d6", "rolls": too_many_rolls}), 422, "rolls", "over 1000 scripted rolls"),
        (json!({"expression": "1d6", "seed": MAX_SEED + 1}), 422, "seed", "seed above 2^53 - 1"),
        (json!({"expression": "1d6", "seed": -1}), 400, "seed", "negative seed"),
        (json!({"expression": 20}), 400, "expression", "expression not a string"),
        (json!({"expression": "1d6", "rolls": "6"}), 400, "rolls", "rolls not a list"),
        (json!({"expression": "1d6", "luck": 1}), 400, "luck", "unknown field"),
        (json!({"seed": 1}), 400, "body", "missing expression"),
    ];

    for (body, status, field, case) in cases {
        let reply = app.post_json("/v1/dice/roll", &body).await;
        reply.assert_problem(status, Some(field), case);
    }
}

#[tokio::test]
async fn every_die_says_whether_it_was_sent_or_drawn() {
    let app = spawn_app().await;

    let reply = app.post_json("/v1/dice/roll", &json!({"expression": "3d6", "seed": 7, "rolls": [4]})).await;

    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(pluck(&reply.body["dice"], "source"), [json!("scripted"), json!("rng"), json!("rng")]);
}

#[tokio::test]
async fn the_d20_grammar_rolls_with_scripted_dice() {
    let app = spawn_app().await;
    // (expression, rolls, total, rendered), each worked by hand.
    let cases: Vec<(&str, Vec<u32>, i64, &str)> = vec![
        ("4d6kh3 + 2 [fire]", vec![2, 5, 1, 6], 15, "4d6kh3 (2, 5, ~~1~~, 6) + 2 [fire] = 15"),
        ("(1d4, 2+2, 3d6kl1)kh1", vec![3, 5, 2, 6], 4, "(~~1d4 (3)~~, 2 + 2, ~~3d6kl1 (5, 2, 6)~~)kh1 = 4"),
        ("(1, 2, 3, 4, 5)k>3", vec![], 9, "(~~1~~, ~~2~~, ~~3~~, 4, 5)k>3 = 9"),
        ("2d6mi3ma4", vec![2, 5], 7, "2d6mi3ma4 (2 -> 3, 5 -> 4) = 7"),
        ("1d6ra6", vec![6, 6], 12, "1d6ra6 (6!, 6) = 12"),
        ("4d6rol1", vec![3, 2, 5, 2, 4], 14, "4d6rol1 (3, ~~2~~, 4, 5, 2) = 14"),
        ("(15 / 2) * 2 + 7 // 2 + 7 % 3", vec![], 19, "(15 / 2) * 2 + 7 // 2 + 7 % 3 = 19"),
        ("1d20 >= 15", vec![15], 1, "1d20 (15) >= 15 = 1"),
        ("1.5 * 3", vec![], 4, "1.5 * 3 = 4"),
        ("d%", vec![100], 100, "d% (100) = 100"),
    ];
    for (expression, rolls, total, rendered) in cases {
        let body = json!({"expression": expression, "rolls": rolls, "strict_rolls": true});
        let reply = app.post_json("/v1/dice/roll", &body).await;
        assert_eq!(reply.status, 200, "{expression}: {}", reply.body);
        assert_eq!(
            (reply.body["total"].as_i64(), reply.body["rendered"].as_str()),
            (Some(total), Some(rendered))
        );
    }
}

#[tokio::test]
async fn annotated_terms_and_die_fates_are_reported() {
    let app = spawn_app().await;

    let body = json!({"expression": "2d6e6 [fire] + 1d4mi3 [cold] + 1.5 [x]", "rolls": [6, 2, 5, 1]});
    let reply = app.post_json("/v1/dice/roll", &body).await;

    assert_eq!(reply.status, 200, "{}", reply.body);
    // 6 explodes into 5: 6 + 2 + 5 = 13; the 1 is raised to 3; 13 + 3 + 1.5 = 17.5, truncated.
    assert_eq!(reply.body["total"], json!(17));
    assert_eq!(
        reply.body["terms"],
        json!([
            {"text": "2d6e6", "annotation": "[fire]", "total": 13, "dice": [0, 1, 2]},
            {"text": "1d4mi3", "annotation": "[cold]", "total": 3, "dice": [3]},
            {"text": "1.5", "annotation": "[x]", "total": 1.5, "dice": []}
        ])
    );
    let dice = &reply.body["dice"];
    assert_eq!(pluck(dice, "status"), [json!("exploded"), json!("kept"), json!("kept"), json!("raised")]);
    assert_eq!(dice[2]["explosion"], json!(true));
    assert_eq!(dice[3]["counted_as"], json!(3));
    assert_eq!(dice[0].get("counted_as"), None);
}

#[tokio::test]
async fn comments_need_the_flag() {
    let app = spawn_app().await;

    let with = json!({"expression": "1d20+5 I search the room", "rolls": [12], "allow_comments": true});
    let reply = app.post_json("/v1/dice/roll", &with).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["comment"], json!("I search the room"));
    assert_eq!(reply.body["rendered"], json!("1d20 (12) + 5 = 17"));

    let without = app.post_json("/v1/dice/roll", &json!({"expression": "1d20+5 I search the room"})).await;
    without.assert_problem(422, Some("expression"), "comment without allow_comments");
    let plain = app.post_json("/v1/dice/roll", &json!({"expression": "1d20", "seed": 1})).await;
    assert_eq!(plain.body.get("comment"), None);
}

#[tokio::test]
async fn strict_rolls_must_be_exactly_the_dice_rolled() {
    let app = spawn_app().await;
    let short = json!({"expression": "3d6", "rolls": [1, 2], "strict_rolls": true});
    let long = json!({"expression": "1d6", "rolls": [1, 2, 3], "strict_rolls": true});

    let too_few = app.post_json("/v1/dice/roll", &short).await;
    let too_many = app.post_json("/v1/dice/roll", &long).await;

    too_few.assert_problem(422, Some("rolls"), "strict rolls ran out");
    assert!(
        too_few.body["detail"].as_str().unwrap().contains("more dice than the 2 sent"),
        "{}",
        too_few.body
    );
    too_many.assert_problem(422, Some("rolls"), "strict rolls left over");
    assert!(too_many.body["detail"].as_str().unwrap().contains("2 of the 3 sent rolls were not used"));
}

#[tokio::test]
async fn every_grammar_bound_is_a_422_naming_it() {
    let app = spawn_app().await;
    let big_set = format!("({})", vec!["1"; 51].join(","));
    let deep = format!("{}1{}", "(".repeat(21), ")".repeat(21));
    let cases: Vec<(String, &str)> = vec![
        (big_set, "more than 50 elements"),
        (deep, "nested more than 20 deep"),
        ("1.1234567".into(), "more than 6 decimal places"),
        ("4d6rrl1".into(), "would never stop"),
        ("1d1e1".into(), "would never stop"),
        ("10d6mil1".into(), "takes a plain number"),
        ("(1d6)rr1".into(), "works on dice only"),
        ("1d6 [fire".into(), "never closed"),
        ("1 // 0".into(), "division by zero"),
        ("101d6".into(), "at most 100 per group"),
        ("1000000*1000000*1000000*1000000".into(), "arithmetic overflow"),
    ];
    for (expression, detail) in cases {
        let reply = app.post_json("/v1/dice/roll", &json!({"expression": expression})).await;
        reply.assert_problem(422, Some("expression"), &expression);
        let found = reply.body["detail"].as_str().unwrap_or_default();
        assert!(found.contains(detail), "{expression}: {found}");
    }
}
