//! Property tests: expressions generated from the grammar (and arbitrary strings of its
//! characters) either roll within every bound or are refused with an error; nothing panics; the
//! same seed gives the same result.

use proptest::prelude::*;

use super::super::*;

fn selector() -> impl Strategy<Value = String> {
    prop_oneof![
        (0..5u32).prop_map(|n| format!("h{n}")),
        (0..5u32).prop_map(|n| format!("l{n}")),
        (0..8u32).prop_map(|n| n.to_string()),
        (0..8u32).prop_map(|n| format!("<{n}")),
        (0..8u32).prop_map(|n| format!(">{n}")),
    ]
}

fn dice_op() -> impl Strategy<Value = String> {
    let op = prop_oneof![
        Just("k"),
        Just("p"),
        Just("d"),
        Just("rr"),
        Just("ro"),
        Just("ra"),
        Just("e"),
        Just("mi"),
        Just("ma")
    ];
    prop_oneof![(op, selector()).prop_map(|(op, sel)| format!("{op}{sel}")), Just("!".to_owned())]
}

fn dice_group() -> impl Strategy<Value = String> {
    let sides = prop_oneof![Just("%".to_owned()), (1..21u32).prop_map(|n| n.to_string())];
    (0..6u32, sides, prop::collection::vec(dice_op(), 0..3))
        .prop_map(|(count, sides, ops)| format!("{count}d{sides}{}", ops.concat()))
}

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        (0..30u32).prop_map(|n| n.to_string()),
        (0..10u32, 0..100u32).prop_map(|(w, f)| format!("{w}.{f}")),
        dice_group(),
    ]
}

fn expression() -> impl Strategy<Value = String> {
    let binary = ["+", "-", "*", "/", "//", "%", "==", "!=", "<", ">", "<=", ">="];
    leaf().prop_recursive(4, 24, 4, move |inner| {
        let set_op =
            || (prop_oneof![Just("k"), Just("p")], selector()).prop_map(|(op, sel)| format!("{op}{sel}"));
        prop_oneof![
            (inner.clone(), prop::sample::select(binary.to_vec()), inner.clone())
                .prop_map(|(l, op, r)| format!("{l} {op} {r}")),
            inner.clone().prop_map(|e| format!("-{e}")),
            (inner.clone(), prop::option::of(set_op()))
                .prop_map(|(e, op)| format!("({e}){}", op.unwrap_or_default())),
            (prop::collection::vec(inner.clone(), 0..4), prop::option::of(set_op()))
                .prop_map(|(es, op)| format!("({},){}", es.join(", "), op.unwrap_or_default())),
            inner.prop_map(|e| format!("{e} [fire]")),
        ]
    })
}

/// Rolls `text` with a seeded source; checks the bounds on success.
fn roll_checked(text: &str, seed: u64) -> Result<ExprOutcome, DiceExprError> {
    let expr = DiceExpr::parse(text, true)?;
    let outcome = expr.roll(&mut Dice::seeded(seed), "prop")?;
    assert!(outcome.dice.len() <= MAX_DICE_TOTAL, "{text}: {} dice", outcome.dice.len());
    for die in &outcome.dice {
        assert!((1..=die.sides).contains(&die.value), "{text}: {} on a d{}", die.value, die.sides);
    }
    assert!(outcome.rendered.ends_with(&format!("= {}", outcome.total)), "{text}: {}", outcome.rendered);
    Ok(outcome)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn grammar_expressions_roll_within_bounds_or_are_refused(text in expression(), seed in any::<u64>()) {
        let first = roll_checked(&text, seed);
        let again = roll_checked(&text, seed);
        prop_assert_eq!(first, again, "same seed, different result for {}", text);
    }

    #[test]
    fn arbitrary_strings_of_the_alphabet_never_panic(text in "[0-9dDkKphlrroaemi!<>=+*/%().,\\[\\] x-]{0,60}", seed in any::<u64>()) {
        let _ = roll_checked(&text, seed);
        let _ = text.parse::<DiceExpr>();
    }

    #[test]
    fn long_inputs_are_refused_by_length(text in "[0-9d+]{201,300}") {
        prop_assert_eq!(text.parse::<DiceExpr>(), Err(DiceExprError::TooLong { len: text.chars().count() }));
    }
}
