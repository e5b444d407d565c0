//! One table per operator family: expression, scripted dice, total and breakdown worked by hand.
//! Semantics follow d20 (tests/test_dice.py and d20/expression.py in avrae/d20).

use super::super::*;
use crate::dice::{DieStatus, DieStatus::*};

/// (expression, scripted dice, total, breakdown)
type Row = (&'static str, &'static [u32], i64, &'static str);

fn check(rows: &[Row]) {
    for &(text, values, total, rendered) in rows {
        let expr = DiceExpr::parse(text, false).unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut dice = Dice::scripted_strict(values.to_vec(), 0).unwrap_or_else(|e| panic!("{text}: {e}"));
        let outcome = expr.roll(&mut dice, "t").unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!((outcome.total, outcome.rendered.as_str()), (total, rendered), "for {text:?}");
        assert_eq!(dice.finish_strict(), Ok(()), "{text} left dice unused");
    }
}

fn statuses(text: &str, values: &[u32]) -> Vec<(u32, DieStatus, Option<u32>)> {
    let expr: DiceExpr = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut dice = Dice::scripted_strict(values.to_vec(), 0).unwrap_or_else(|e| panic!("{text}: {e}"));
    let outcome = expr.roll(&mut dice, "t").unwrap_or_else(|e| panic!("{text}: {e}"));
    outcome.dice.iter().map(|d| (d.value, d.status, d.counted_as)).collect()
}

#[test]
fn arithmetic_family() {
    check(&[
        ("1 + 3 * 6", &[], 19, "1 + 3 * 6 = 19"),
        ("(1 + 3) * 6", &[], 24, "(1 + 3) * 6 = 24"),
        // True division, truncated only at the end: 7.5 * 2 = 15.
        ("15 / 2", &[], 7, "15 / 2 = 7"),
        ("(15 / 2) * 2", &[], 15, "(15 / 2) * 2 = 15"),
        ("15 // 2", &[], 7, "15 // 2 = 7"),
        ("-7 // 2", &[], -4, "-7 // 2 = -4"),
        ("13 % 2", &[], 1, "13 % 2 = 1"),
        ("-7 % 3", &[], 2, "-7 % 3 = 2"),
        ("10 / 3 * 3", &[], 10, "10 / 3 * 3 = 10"),
        ("-+-++---+1", &[], -1, "-----1 = -1"),
        ("-2d6", &[3, 4], -7, "-2d6 (3, 4) = -7"),
        ("2*-3", &[], -6, "2 * -3 = -6"),
    ]);
}

#[test]
fn decimals_family() {
    check(&[
        ("1.5", &[], 1, "1.5 = 1"),
        (".5 + .5", &[], 1, ".5 + .5 = 1"),
        ("2.5 * 1d4", &[3], 7, "2.5 * 1d4 (3) = 7"),
        ("-7.5 // 2", &[], -4, "-7.5 // 2 = -4"),
        ("2.5 % 1", &[], 0, "2.5 % 1 = 0"),
        // Exact arithmetic: d20's floats would say 0 here.
        ("0.1 + 0.2 == 0.3", &[], 1, "0.1 + 0.2 == 0.3 = 1"),
    ]);
}

#[test]
fn comparison_family() {
    check(&[
        ("1 + 2 == 2", &[], 0, "1 + 2 == 2 = 0"),
        ("1 + (2 == 2)", &[], 2, "1 + (2 == 2) = 2"),
        ("1d20 >= 15", &[15], 1, "1d20 (15) >= 15 = 1"),
        ("1d20 > 15", &[15], 0, "1d20 (15) > 15 = 0"),
        ("1d20 <= 1d20", &[4, 9], 1, "1d20 (4) <= 1d20 (9) = 1"),
        ("1d20 < 1d20", &[9, 9], 0, "1d20 (9) < 1d20 (9) = 0"),
        ("1d6 != 3", &[3], 0, "1d6 (3) != 3 = 0"),
        ("1d6!=3", &[5], 1, "1d6 (5) != 3 = 1"),
        // Left-associative: (1 < 2) < 3 = 1 < 3.
        ("1 < 2 < 3", &[], 1, "1 < 2 < 3 = 1"),
        ("3 > 2 > 1", &[], 0, "3 > 2 > 1 = 0"),
    ]);
}

#[test]
fn keep_and_drop_family() {
    check(&[
        ("4d6kh3", &[2, 5, 1, 6], 13, "4d6kh3 (2, 5, ~~1~~, 6) = 13"),
        ("2d20kl1", &[17, 4], 4, "2d20kl1 (~~17~~, 4) = 4"),
        ("4d6k6", &[6, 2, 6, 3], 12, "4d6k6 (6, ~~2~~, 6, ~~3~~) = 12"),
        ("6d6k>4", &[5, 4, 6, 1, 2, 3], 11, "6d6k>4 (5, ~~4~~, 6, ~~1~~, ~~2~~, ~~3~~) = 11"),
        // Chained keeps merge and select the union: k1k2 keeps ones and twos.
        ("4d6k1k2", &[1, 3, 2, 6], 3, "4d6k1k2 (1, ~~3~~, 2, ~~6~~) = 3"),
        ("4d6p1p6", &[1, 3, 2, 6], 5, "4d6p1p6 (~~1~~, 3, 2, ~~6~~) = 5"),
        ("4d6ph1pl1", &[1, 3, 2, 6], 5, "4d6ph1pl1 (~~1~~, 3, 2, ~~6~~) = 5"),
        ("4d6dl1", &[3, 1, 4, 1], 8, "4d6dl1 (3, ~~1~~, 4, 1) = 8"),
        // Keep then drop: keep the highest 3 (6, 5, 2), then drop the highest of those.
        ("4d6kh3ph1", &[2, 5, 1, 6], 7, "4d6kh3ph1 (2, 5, ~~1~~, ~~6~~) = 7"),
    ]);
}

#[test]
fn set_family() {
    check(&[
        ("(1)", &[], 1, "(1) = 1"),
        ("(1,)", &[], 1, "(1,) = 1"),
        ("()", &[], 0, "() = 0"),
        ("(1, 2, 3) + (4, 5, 6)", &[], 21, "(1, 2, 3) + (4, 5, 6) = 21"),
        ("(1, 2, 3, 4, 5)k3", &[], 3, "(~~1~~, ~~2~~, 3, ~~4~~, ~~5~~)k3 = 3"),
        ("(1, 2, 3, 4, 5)k<3", &[], 3, "(1, 2, ~~3~~, ~~4~~, ~~5~~)k<3 = 3"),
        ("(1, 2, 3, 4, 5)k>3", &[], 9, "(~~1~~, ~~2~~, ~~3~~, 4, 5)k>3 = 9"),
        ("(1, 2, 3, 4, 5)kl2", &[], 3, "(1, 2, ~~3~~, ~~4~~, ~~5~~)kl2 = 3"),
        ("(1, 2, 3, 4, 5)kh1kl1", &[], 6, "(1, ~~2~~, ~~3~~, ~~4~~, 5)kh1kl1 = 6"),
        ("(1, 2, 3, 4, 5)p3", &[], 12, "(1, 2, ~~3~~, 4, 5)p3 = 12"),
        ("(1, 2, 3, 4, 5)ph1pl1", &[], 9, "(~~1~~, 2, 3, 4, ~~5~~)ph1pl1 = 9"),
        ("(1, 2, 3)k1k2", &[], 3, "(1, 2, ~~3~~)k1k2 = 3"),
        ("(1)k2", &[], 0, "(~~1~~)k2 = 0"),
        // Elements are whole expressions: 1d4 = 3, 2+2 = 4, 3d6kl1 = 2; keep the highest (4).
        // Inside a struck element nothing is struck again, as in d20.
        ("(1d4, 2+2, 3d6kl1)kh1", &[3, 5, 2, 6], 4, "(~~1d4 (3)~~, 2 + 2, ~~3d6kl1 (5, 2, 6)~~)kh1 = 4"),
        // A parenthesis passes keep/drop on to the dice inside it.
        ("(4d6)kh3", &[2, 5, 1, 6], 13, "(4d6 (2, 5, ~~1~~, 6))kh3 = 13"),
        ("((4d6kh3)kl2)kh1", &[2, 5, 1, 6], 5, "((4d6kh3 (~~2~~, 5, ~~1~~, ~~6~~))kl2)kh1 = 5"),
        // A parenthesis around arithmetic is one member: (2 + 3) is 5.
        ("(2 + 3)k5", &[], 5, "(2 + 3)k5 = 5"),
        ("(2 + 3)k4", &[], 0, "(~~2 + 3~~)k4 = 0"),
        ("-(1d6, 2)kh1", &[5], -5, "-(1d6 (5), ~~2~~)kh1 = -5"),
        ("((1, 2), (3, 4))kh1", &[], 7, "(~~(1, 2)~~, (3, 4))kh1 = 7"),
    ]);
}

#[test]
fn reroll_family() {
    check(&[
        ("1d20rr1", &[1, 1, 15], 15, "1d20rr1 (~~1~~, ~~1~~, 15) = 15"),
        ("1d20rr<20", &[3, 19, 20], 20, "1d20rr<20 (~~3~~, ~~19~~, 20) = 20"),
        ("1d20rr>1", &[7, 1], 1, "1d20rr>1 (~~7~~, 1) = 1"),
        ("1d20ro1", &[1, 1], 1, "1d20ro1 (~~1~~, 1) = 1"),
        ("4d6rol1", &[3, 2, 5, 2, 4], 14, "4d6rol1 (3, ~~2~~, 4, 5, 2) = 14"),
        ("4d6roh2", &[3, 6, 5, 1, 2, 4], 10, "4d6roh2 (3, ~~6~~, 2, ~~5~~, 4, 1) = 10"),
        // ro<4ro>8 is one merged reroll of 2, 9, 3 and 10, in die order: 7 + 6 + 5 + 4 + 1.
        (
            "5d10ro<4ro>8",
            &[2, 9, 5, 3, 10, 7, 6, 4, 1],
            23,
            "5d10ro<4ro>8 (~~2~~, 7, ~~9~~, 6, 5, ~~3~~, 4, ~~10~~, 1) = 23",
        ),
        ("4d6rr1kh3", &[1, 5, 3, 2, 6], 14, "4d6rr1kh3 (~~1~~, 6, 5, 3, ~~2~~) = 14"),
    ]);
}

#[test]
fn reroll_and_add_family() {
    check(&[
        // ra: the first selected die adds one die, once.
        ("1d6ra6", &[6, 6], 12, "1d6ra6 (6!, 6) = 12"),
        ("1d6ra6", &[4], 4, "1d6ra6 (4) = 4"),
        ("4d6ral1", &[3, 1, 4, 1, 5], 14, "4d6ral1 (3, 1!, 4, 1, 5) = 14"),
        ("4d6ra>3", &[2, 5, 6, 1, 3], 17, "4d6ra>3 (2, 5!, 6, 1, 3) = 17"),
        // Merged selectors still add a single die: the first selector that finds one wins.
        ("4d6ra1ra6", &[6, 2, 1, 3, 4], 16, "4d6ra1ra6 (6, 2, 1!, 3, 4) = 16"),
    ]);
}

#[test]
fn explode_family() {
    check(&[
        ("3d6!", &[6, 2, 1, 4], 13, "3d6! (6!, 2, 1, 4) = 13"),
        ("1d6e6", &[6, 6, 3], 15, "1d6e6 (6!, 6!, 3) = 15"),
        ("2d6e>4", &[5, 1, 6, 2], 14, "2d6e>4 (5!, 1, 6!, 2) = 14"),
        ("1d2e2", &[2, 2, 1], 5, "1d2e2 (2!, 2!, 1) = 5"),
        ("1d6e7", &[6], 6, "1d6e7 (6) = 6"),
        // e with h1: the highest die explodes; the new die explodes only if it is now the highest.
        ("1d6eh1", &[3, 5, 2], 10, "1d6eh1 (3!, 5!, 2) = 10"),
        ("1d6el1", &[3, 5], 8, "1d6el1 (3!, 5) = 8"),
        // Explode, then keep: the exploded 6s can still be dropped.
        ("3d6e6kh2", &[6, 1, 2, 6, 3], 12, "3d6e6kh2 (6!, ~~1~~, ~~2~~, 6!, ~~3~~) = 12"),
    ]);
}

#[test]
fn minimum_and_maximum_family() {
    check(&[
        ("4d6mi3", &[1, 5, 2, 6], 17, "4d6mi3 (1 -> 3, 5, 2 -> 3, 6) = 17"),
        (
            "10d6mi10",
            &[1, 2, 3, 4, 5, 6, 1, 2, 3, 4],
            100,
            "10d6mi10 (1 -> 10, 2 -> 10, 3 -> 10, 4 -> 10, 5 -> 10, 6 -> 10, 1 -> 10, 2 -> 10, 3 -> 10, 4 -> 10) = 100",
        ),
        ("3d6ma1", &[4, 1, 6], 3, "3d6ma1 (4 -> 1, 1, 6 -> 1) = 3"),
        ("2d6ma0", &[4, 1], 0, "2d6ma0 (4 -> 0, 1 -> 0) = 0"),
        ("2d6mi3ma4", &[2, 5], 7, "2d6mi3ma4 (2 -> 3, 5 -> 4) = 7"),
        // Order matters: raise first, then keep the highest three (the first 3 wins the tie).
        ("4d6mi3kh3", &[1, 5, 2, 6], 14, "4d6mi3kh3 (1 -> 3, 5, ~~2 -> 3~~, 6) = 14"),
        ("1d6mi3rr3", &[1, 4], 4, "1d6mi3rr3 (~~1 -> 3~~, 4) = 4"),
    ]);
}

#[test]
fn annotation_family() {
    check(&[
        ("8d6 [fire]", &[1, 2, 3, 4, 5, 6, 1, 2], 24, "8d6 (1, 2, 3, 4, 5, 6, 1, 2) [fire] = 24"),
        ("4d6kh3 + 2 [fire]", &[2, 5, 1, 6], 15, "4d6kh3 (2, 5, ~~1~~, 6) + 2 [fire] = 15"),
        ("1 [a] + 2 + 3 [b] + 4", &[], 10, "1 [a] + 2 + 3 [b] + 4 = 10"),
        ("1d6[a][b]", &[4], 4, "1d6 (4) [a][b] = 4"),
        (
            "4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)",
            &[8, 2, 5, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1],
            // (13 + 9 + (11 + 3) / 2) * 4 = 29 * 4.
            116,
            "4 * (3d8kh2 (8, ~~2~~, 5) + 9 [fire] + (9d2e2 (1, 2!, 1, 1, 1, 1, 1, 1, 1, 1) + 3 [cold]) / 2) = 116",
        ),
        ("(1d4 [a], 2 [b])kh1", &[1], 2, "(~~1d4 (1) [a]~~, 2 [b])kh1 = 2"),
    ]);
}

#[test]
fn annotated_terms_carry_their_dice_and_final_totals() -> Result<(), DiceExprError> {
    let expr: DiceExpr = "2d6 [fire] + (1d4 [cold], 3)kh1".parse()?;
    let mut dice = Dice::scripted(vec![3, 4, 2], 0)?;
    let outcome = expr.roll(&mut dice, "t")?;
    let terms: Vec<(&str, &str, Ratio, Vec<usize>)> = outcome
        .terms
        .iter()
        .map(|t| (t.text.as_str(), t.annotation.as_str(), t.total, t.dice.clone()))
        .collect();
    // The 1d4 rolled 2 and lost to the 3, so its term now counts for 0.
    assert_eq!(
        terms,
        [("2d6", "[fire]", Ratio::int(7), vec![0, 1]), ("1d4", "[cold]", Ratio::ZERO, vec![2])]
    );
    assert_eq!(outcome.total, 10);
    Ok(())
}

#[test]
fn every_die_records_its_fate() {
    assert_eq!(
        statuses("4d6kh3", &[2, 5, 1, 6]),
        [(2, Kept, None), (5, Kept, None), (1, Dropped, None), (6, Kept, None)]
    );
    assert_eq!(statuses("1d6e6", &[6, 3]), [(6, Exploded, None), (3, Kept, None)]);
    assert_eq!(statuses("2d6mi3ma4", &[2, 5]), [(2, Raised, Some(3)), (5, Lowered, Some(4))]);
    assert_eq!(statuses("1d20rr1", &[1, 9]), [(1, Rerolled, None), (9, Kept, None)]);
    // A die inside a set element that was dropped no longer counts either.
    assert_eq!(statuses("(1d4, 3)kh1", &[2]), [(2, Dropped, None)]);
    assert_eq!(statuses("(2d6)kl1", &[5, 2]), [(5, Dropped, None), (2, Kept, None)]);
}

#[test]
fn comments_are_only_read_when_allowed() -> Result<(), DiceExprError> {
    let rows = [
        ("1d20 I search the room", "1d20", Some("I search the room")),
        ("1d20 -5 goblin", "1d20 - 5", Some("goblin")),
        ("1d20 keep the dragon grappled", "1d20", Some("keep the dragon grappled")),
        ("1d20 *sneakily*", "1d20", Some("*sneakily*")),
        ("1d20 [fire] hot", "1d20 [fire]", Some("hot")),
        ("1d20", "1d20", None),
    ];
    for (text, prefix, comment) in rows {
        let expr = DiceExpr::parse(text, true)?;
        let outcome = expr.roll(&mut Dice::scripted(vec![10], 0)?, "t")?;
        assert_eq!(outcome.comment.as_deref(), comment, "{text}");
        assert!(
            outcome.rendered.starts_with(&prefix.replacen("1d20", "1d20 (10)", 1)),
            "{text}: {}",
            outcome.rendered
        );
        assert!(text.parse::<DiceExpr>().is_err() || comment.is_none(), "{text} parsed without comments");
    }
    Ok(())
}
