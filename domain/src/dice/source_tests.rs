use super::*;

#[test]
fn same_seed_gives_same_dice() {
    let roll_ten = |seed| {
        let mut dice = Dice::seeded(seed);
        (0..10).map(|_| dice.roll(20, "t").unwrap()).collect::<Vec<_>>()
    };
    assert_eq!(roll_ten(7), roll_ten(7));
    assert_ne!(roll_ten(7), roll_ten(8));
}

#[test]
fn scripted_values_are_used_in_order_then_the_seed_takes_over() {
    let mut dice = Dice::scripted(vec![3, 6], 99).unwrap();
    assert_eq!(dice.roll(6, "a").unwrap(), 3);
    assert_eq!(dice.roll(6, "b").unwrap(), 6);
    let mut reference = SeededDice::new(99);
    assert_eq!(dice.roll(6, "c").unwrap(), reference.roll_die(6).unwrap());
    let purposes: Vec<_> = dice.rolls().iter().map(|r| &*r.purpose).collect();
    assert_eq!(purposes, ["a", "b", "c"]);
}

#[test]
fn scripted_value_outside_the_die_is_refused_with_its_index() {
    let mut dice = Dice::scripted(vec![4, 7], 1).unwrap();
    dice.roll(6, "a").unwrap();
    assert_eq!(dice.roll(6, "b"), Err(DiceError::ScriptedOutOfRange { index: 1, value: 7, sides: 6 }));
    let mut zero = Dice::scripted(vec![0], 1).unwrap();
    assert!(matches!(zero.roll(20, "a"), Err(DiceError::ScriptedOutOfRange { index: 0, value: 0, .. })));
}

#[test]
fn too_many_scripted_values_are_refused() {
    let err = Dice::scripted(vec![1; MAX_SCRIPTED_ROLLS + 1], 0).err();
    assert_eq!(err, Some(DiceError::TooManyScripted { count: MAX_SCRIPTED_ROLLS + 1 }));
}

#[test]
fn every_die_says_where_it_came_from() {
    let mut dice = Dice::scripted(vec![2], 5).unwrap();
    dice.roll(6, "a").unwrap();
    dice.roll(6, "b").unwrap();
    let sources: Vec<_> = dice.rolls().iter().map(|r| r.source).collect();
    assert_eq!(sources, [DieSource::Scripted, DieSource::Rng]);
    let mut seeded = Dice::seeded(5);
    seeded.roll(6, "c").unwrap();
    assert_eq!(seeded.rolls()[0].source, DieSource::Rng);
    let json = serde_json::to_value(&dice.rolls()[0]).unwrap();
    assert_eq!(json["source"], "scripted");
    assert_eq!(serde_json::to_value(&dice.rolls()[1]).unwrap()["source"], "rng");
}

#[test]
fn unused_rolls_are_reported_in_order() {
    let mut dice = Dice::scripted(vec![1, 2, 3], 0).unwrap();
    assert_eq!(dice.unused_rolls(), [1, 2, 3]);
    dice.roll(6, "a").unwrap();
    assert_eq!(dice.unused_rolls(), [2, 3]);
    assert_eq!(Dice::seeded(1).unused_rolls(), Vec::<u32>::new());
    // Not strict: leftovers are no error.
    assert_eq!(dice.finish_strict(), Ok(()));
}

#[test]
fn strict_dice_never_fall_back_to_the_rng() {
    let mut dice = Dice::scripted_strict(vec![4, 5], 9).unwrap();
    assert_eq!(dice.roll(6, "a"), Ok(4));
    assert_eq!(dice.roll(6, "b"), Ok(5));
    let err = dice.roll(6, "c").unwrap_err();
    assert_eq!(err, DiceError::ScriptedExhausted { sent: 2 });
    assert_eq!(err.to_string(), "rolls: the roll needed more dice than the 2 sent (strict_rolls)");
    assert_eq!(dice.rolls().len(), 2);
    assert_eq!(dice.finish_strict(), Ok(()));
    assert_eq!(dice.seed(), 9);
}

#[test]
fn strict_dice_report_values_left_unused() {
    let mut dice = Dice::scripted_strict(vec![4, 5, 6], 0).unwrap();
    dice.roll(6, "a").unwrap();
    let err = dice.finish_strict().unwrap_err();
    assert_eq!(err, DiceError::ScriptedUnused { unused: 2, sent: 3 });
    assert_eq!(err.to_string(), "rolls: 2 of the 3 sent rolls were not used (strict_rolls)");
    let strict_empty = Dice::scripted_strict(vec![], 0).unwrap();
    assert_eq!(strict_empty.finish_strict(), Ok(()));
}

#[test]
fn seeded_d6_is_roughly_uniform() {
    let mut dice = Dice::seeded(2024);
    let mut counts = [0u32; 6];
    for _ in 0..60_000 {
        counts[dice.roll(6, "d").unwrap() as usize - 1] += 1;
    }
    // Each face expects 10,000; 5 standard deviations is about ±460.
    for (face, count) in counts.iter().enumerate() {
        assert!((9_500..=10_500).contains(count), "face {} came up {count} times", face + 1);
    }
}
