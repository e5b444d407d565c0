//! Parsing, rolling and bounds of whole expressions; one module per operator family.

mod families;
mod props;

use super::super::*;
use crate::dice::{DiceError, DieStatus};

/// Rolls `text` with scripted dice.
fn roll(text: &str, values: &[u32]) -> Result<ExprOutcome, DiceExprError> {
    let expr: DiceExpr = text.parse()?;
    let mut dice = Dice::scripted(values.to_vec(), 0)?;
    expr.roll(&mut dice, "test")
}

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn ok_with(text: &str, dice: &mut Dice) -> ExprOutcome {
    let rolled = text.parse::<DiceExpr>().and_then(|expr| expr.roll(dice, "t"));
    rolled.unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn ok(text: &str, values: &[u32]) -> ExprOutcome {
    roll(text, values).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn statuses(outcome: &ExprOutcome) -> Vec<DieStatus> {
    outcome.dice.iter().map(|d| d.status).collect()
}

fn parse_error(text: &str) -> String {
    match text.parse::<DiceExpr>() {
        Ok(expr) => panic!("{text} was accepted as {expr:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn parser_accepts_the_notation() {
    let accepted = [
        "1",
        "d20",
        "D20",
        "1d20+5",
        " 4d6kh3 + 2 ",
        "4d6rr1kh3",
        "8d6!",
        "d%",
        "2d20kl1",
        "4d6dl",
        "4d6DH1",
        "4d6pl1",
        "1d6e6",
        "1d6e>5",
        "1d6e<2",
        "1d20ro<2",
        "1d20rr>19",
        "(1d4+1)*2",
        "-d4",
        "--3",
        "+3",
        "10/3",
        "3d6k>3",
        "3d6kh1kl1",
        "0d6",
        "100d1000",
        "1d6e7",
        "4d6kh9",
        "2 * (3 - 1)",
        "1000000",
        "1d1",
        "1d1kh1",
    ];
    for text in accepted {
        let expr: DiceExpr = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(expr.as_str(), text);
    }
}

#[test]
fn parser_refuses_with_actionable_messages() {
    let refused = [
        ("", "the expression is empty"),
        ("   ", "the expression is empty"),
        (
            "1d20x",
            "unexpected 'x' at position 4: expected an operator (+, -, *, /, //, %, or a comparison such as ==)",
        ),
        ("1+", "the expression ends too early at position 2: expected a number, a die such as d20, or '('"),
        ("1d", "the expression ends too early at position 2: expected the number of sides, like d20 or d%"),
        (
            "2 d6",
            "unexpected 'd' at position 2: expected an operator (+, -, *, /, //, %, or a comparison such as ==)",
        ),
        (
            "1d20 kh1",
            "unexpected 'k' at position 5: expected an operator (+, -, *, /, //, %, or a comparison such as ==)",
        ),
        (
            "1)",
            "unexpected ')' at position 1: expected an operator (+, -, *, /, //, %, or a comparison such as ==)",
        ),
        ("(1", "the '(' at position 0 is never closed"),
        ("(1 x", "unexpected 'x' at position 3: expected an operator, ',' or ')'"),
        ("*2", "unexpected '*' at position 0: expected a number, a die such as d20, or '('"),
        ("d0", "a d0 has no sides (at position 1)"),
        ("3d1001", "a die may have at most 1000 sides, not 1001 (at position 2)"),
        ("101d6", "too many dice: 101d6 (at most 100 per group)"),
        ("1000d6", "too many dice: 1000d6 (at most 100 per group)"),
        ("2000000", "the number at position 0 is larger than 1000000"),
        ("1d1!", "'!' at position 3 would never stop on a d1: there is always a die it selects"),
        ("d6rr<7", "'rr<7' at position 2 would never stop on a d6: there is always a die it selects"),
        ("d6e>0", "'e>0' at position 2 would never stop on a d6: there is always a die it selects"),
        (
            "1d20k",
            "the expression ends too early at position 5: expected a selector such as h3, l1, 6, <3 or >5",
        ),
        (
            "1d20e",
            "the expression ends too early at position 5: expected a selector such as h3, l1, 6, <3 or >5",
        ),
        ("1d20rx", "unexpected 'x' at position 5: expected rr, ro or ra (reroll)"),
        ("1d20rrh1", "'rrh1' at position 4 would never stop on a d20: there is always a die it selects"),
        ("1d20rr<", "the expression ends too early at position 7: expected a number"),
        ("1d20mil3", "'mi' at position 4 takes a plain number, like mi2 (not h, l, < or >)"),
    ];
    for (text, message) in refused {
        assert_eq!(parse_error(text), message, "for {text:?}");
    }
}

#[test]
fn every_bound_is_refused_at_parse_time() {
    assert_eq!(
        parse_error(&format!("1{}", "+1".repeat(100))),
        "the expression is 201 characters long (at most 200)"
    );
    let nested = format!("{}1{}", "(".repeat(21), ")".repeat(21));
    assert_eq!(parse_error(&nested), "parentheses are nested more than 20 deep at position 20");
    assert_eq!(
        parse_error("100d6+100d6+100d6+100d6+100d6+d6"),
        "too many dice: the expression rolls 501 dice before any explode or reroll (at most 500)"
    );
    assert!("100d6+100d6+100d6+100d6+100d6".parse::<DiceExpr>().is_ok());
}

#[test]
fn precedence_and_unary_minus() {
    assert_eq!(ok("2+3*4", &[]).rendered, "2 + 3 * 4 = 14");
    assert_eq!(ok("(2+3)*4", &[]).rendered, "(2 + 3) * 4 = 20");
    assert_eq!(ok("10-3-2", &[]).total, 5);
    assert_eq!(ok("2--3", &[]).total, 5);
    let negative = ok("-d4", &[3]);
    assert_eq!((negative.total, negative.rendered.as_str()), (-3, "-d4 (3) = -3"));
    assert_eq!(ok("-7/2", &[]).total, -3);
    assert_eq!(ok("1d6*2+1", &[5]).rendered, "1d6 (5) * 2 + 1 = 11");
    assert_eq!(ok("-(2+3)", &[]).rendered, "-(2 + 3) = -5");
    // A long chain of signs stays within the length bound, so recursion stays shallow.
    assert_eq!(ok(&format!("{}1", "-".repeat(199)), &[]).total, -1);
}

#[test]
fn arithmetic_errors_name_their_operator() {
    assert_eq!(roll("1/0", &[]), Err(DiceExprError::DivisionByZero { op: "/", pos: 1 }));
    assert_eq!(roll("5 / (1d1-1)", &[]), Err(DiceExprError::DivisionByZero { op: "/", pos: 2 }));
    let huge = "1000000*1000000*1000000*1000000";
    assert_eq!(roll(huge, &[]), Err(DiceExprError::Overflow { pos: 23 }));
    assert_eq!(ok("1000000*1000000*1000000", &[]).total, 1_000_000_000_000_000_000);
}

#[test]
fn keep_highest_drops_the_rest() {
    let outcome = ok("4d6kh3+2", &[6, 5, 3, 1]);
    assert_eq!(outcome.total, 16);
    assert_eq!(outcome.rendered, "4d6kh3 (6, 5, 3, ~~1~~) + 2 = 16");
    use DieStatus::{Dropped, Kept};
    assert_eq!(statuses(&outcome), [Kept, Kept, Kept, Dropped]);
    assert_eq!(ok("4d6kh3", &[6, 5, 3, 1]).total, 14);
}

#[test]
fn keep_lowest_and_drops() {
    use DieStatus::{Dropped, Kept};
    let disadvantage = ok("2d20kl1", &[17, 4]);
    assert_eq!((disadvantage.total, statuses(&disadvantage)), (4, vec![Dropped, Kept]));
    // Among equal values the earlier die is selected first (kept by k, dropped by d).
    let drop_low = ok("4d6dl1", &[3, 1, 4, 1]);
    assert_eq!((drop_low.total, statuses(&drop_low)), (8, vec![Kept, Dropped, Kept, Kept]));
    let drop_high = ok("4d6dh1", &[5, 6, 2, 6]);
    assert_eq!((drop_high.total, statuses(&drop_high)), (13, vec![Kept, Dropped, Kept, Kept]));
    let ties = ok("4d6kh3", &[4, 4, 4, 4]);
    assert_eq!(statuses(&ties), [Kept, Kept, Kept, Dropped]);
    assert_eq!(ok("4d6dl", &[2, 6, 1, 5]).total, 13);
}

#[test]
fn keep_and_drop_counts_beyond_the_group() {
    assert_eq!(ok("3d6kh5", &[1, 2, 3]).total, 6);
    let none = ok("3d6dl5", &[1, 2, 3]);
    assert_eq!((none.total, none.rendered.as_str()), (0, "3d6dl5 (~~1~~, ~~2~~, ~~3~~) = 0"));
    assert_eq!(ok("0d6", &[]).rendered, "0d6 () = 0");
}

#[test]
fn merged_keeps_select_the_union() {
    let outcome = ok("3d6kh1kl1", &[2, 6, 4]);
    assert_eq!((outcome.total, outcome.rendered.as_str()), (8, "3d6kh1kl1 (2, 6, ~~4~~) = 8"));
}

#[test]
fn exploding_dice_add_a_die_each() {
    let outcome = ok("3d6!", &[6, 2, 1, 4]);
    assert_eq!(outcome.total, 13);
    assert_eq!(outcome.rendered, "3d6! (6!, 2, 1, 4) = 13");
    let explosions: Vec<bool> = outcome.dice.iter().map(|d| d.explosion).collect();
    assert_eq!(explosions, [false, false, false, true]);
    let chain = ok("1d6!", &[6, 6, 3]);
    assert_eq!((chain.total, chain.rendered.as_str()), (15, "1d6! (6!, 6!, 3) = 15"));
    assert_eq!(ok("2d6e>4", &[5, 1, 6, 2]).total, 14);
    assert_eq!(ok("1d6e1", &[1, 3]).total, 4);
    assert_eq!(ok("1d6e7", &[6]).total, 6);
}

#[test]
fn reroll_recursively_and_once() {
    use DieStatus::{Kept, Rerolled};
    let outcome = ok("1d20rr1", &[1, 1, 15]);
    assert_eq!(outcome.total, 15);
    assert_eq!(statuses(&outcome), [Rerolled, Rerolled, Kept]);
    assert_eq!(outcome.rendered, "1d20rr1 (~~1~~, ~~1~~, 15) = 15");
    let once = ok("1d20ro1", &[1, 1]);
    assert_eq!((once.total, statuses(&once)), (1, vec![Rerolled, Kept]));
    let below = ok("2d6rr<3", &[1, 5, 2, 6]);
    assert_eq!(below.rendered, "2d6rr<3 (~~1~~, ~~2~~, 6, 5) = 11");
}

#[test]
fn operations_apply_in_sequence() {
    use DieStatus::{Dropped, Kept, Rerolled};
    let outcome = ok("4d6rr1kh3", &[1, 5, 3, 2, 6]);
    assert_eq!(outcome.total, 14);
    assert_eq!(statuses(&outcome), [Rerolled, Kept, Kept, Dropped, Kept]);
    assert_eq!(outcome.rendered, "4d6rr1kh3 (~~1~~, 6, 5, 3, ~~2~~) = 14");
    // Only kept dice explode: the dropped 6 does not.
    let dropped_first = ok("2d6kl1!", &[6, 6, 2]);
    assert_eq!((dropped_first.total, dropped_first.dice.len()), (8, 3));
}

#[test]
fn percentile_die() {
    let outcome = ok("d%", &[57]);
    assert_eq!((outcome.total, outcome.rendered.as_str(), outcome.dice[0].sides), (57, "d% (57) = 57", 100));
}

#[test]
fn outcome_holds_exactly_this_rolls_dice_with_the_purpose() -> TestResult {
    let expr: DiceExpr = "2d6".parse()?;
    let mut dice = Dice::scripted(vec![1, 2, 3], 0)?;
    dice.roll(6, "before")?;
    let outcome = expr.roll(&mut dice, "dice: 2d6")?;
    let values: Vec<(u32, &str)> = outcome.dice.iter().map(|d| (d.value, &*d.purpose)).collect();
    assert_eq!(values, [(2, "dice: 2d6"), (3, "dice: 2d6")]);
    assert_eq!(dice.rolls().len(), 3);
    Ok(())
}

#[test]
fn endless_explosions_stop_at_the_dice_limit() -> TestResult {
    let expr: DiceExpr = "100d6!".parse()?;
    let mut dice = Dice::scripted(vec![6; MAX_DICE_TOTAL], 0)?;
    assert_eq!(expr.roll(&mut dice, "t"), Err(DiceExprError::DiceLimitReached));
    assert_eq!(dice.rolls().len(), MAX_DICE_TOTAL);
    let rerolls: DiceExpr = "100d2rr1".parse()?;
    let mut ones = Dice::scripted(vec![1; MAX_DICE_TOTAL], 0)?;
    assert_eq!(rerolls.roll(&mut ones, "t"), Err(DiceExprError::DiceLimitReached));
    Ok(())
}

#[test]
fn scripted_value_out_of_range_names_its_index() {
    let err = DiceExprError::Dice(DiceError::ScriptedOutOfRange { index: 1, value: 7, sides: 6 });
    assert_eq!(roll("2d6", &[3, 7]), Err(err.clone()));
    assert!(err.to_string().starts_with("rolls[1]: 7 is not a possible result of a d6"), "{err}");
}

fn mean_of(text: &str, seed: u64, range: std::ops::RangeInclusive<i64>) -> f64 {
    let mut dice = Dice::seeded(seed);
    let totals: Vec<i64> = (0..10_000).map(|_| ok_with(text, &mut dice).total).collect();
    assert!(totals.iter().all(|t| range.contains(t)), "{text} left {range:?}");
    totals.iter().sum::<i64>() as f64 / totals.len() as f64
}

#[test]
fn seeded_distributions_have_the_expected_means() {
    let three_d6 = mean_of("3d6", 42, 3..=18);
    assert!((three_d6 - 10.5).abs() < 0.1, "3d6 mean {three_d6}");
    // 4d6 keep the highest 3 averages 15869/1296 ≈ 12.24.
    let ability = mean_of("4d6kh3", 43, 3..=18);
    assert!((ability - 12.24).abs() < 0.1, "4d6kh3 mean {ability}");
}
