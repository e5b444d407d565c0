use super::*;
use crate::rulesets::adeva_d100::opposed::{Contestant, opposed};

fn c(value: i64) -> Characteristic {
    Characteristic::new(value).unwrap()
}

/// An opposed test between two plain characteristics with scripted dice (actor first).
fn contest(actor: i64, target: i64, rolls: Vec<u32>) -> OpposedResult {
    let side = |value| Contestant { characteristic: c(value), modifiers: Vec::new() };
    let mut dice = Dice::scripted(rolls, 0).unwrap();
    opposed(&side(actor), &side(target), &mut dice).unwrap()
}

#[test]
fn guard_mode_puts_minus_twenty_on_attacks_and_confirmations_against_the_guard() {
    let spec = guard_mode();
    assert_eq!(
        (spec.action_type, spec.subtypes.clone()),
        (ActionType::Full, vec![ActionSubtype::Attack, ActionSubtype::Melee])
    );
    assert!(spec.tests.is_empty());
    assert_eq!(
        spec.lingering,
        vec![LingeringEffect::AttacksAgainst {
            modifier: Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::GuardMode, "target in guard mode", -20),
            critical_confirmation: true,
            until: Until::StartOfOwnNextTurn,
        }]
    );
}

#[test]
fn knock_down_is_opposed_strength_plus_ten_after_a_half_move() {
    let plain = knock_down(&KnockDown { after_half_move: false });
    assert_eq!(plain.action_type, ActionType::Half);
    assert_eq!(plain.tests[0].opposed_by.map(|o| o.characteristic), Some(CharacteristicName::S));
    assert_eq!(plain.tests[0].modifier_sum(), 0);
    let moving = knock_down(&KnockDown { after_half_move: true });
    assert_eq!(moving.tests[0].modifiers, vec![Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::KnockDown, "knock down after a half move", 10)]);
}

#[test]
fn knock_down_outcomes_follow_the_margin() {
    // Actor S 50 rolls 05 → 1 + 4 = 5 DoS; target S 40 rolls 35 → 1 DoS; margin 4 → may hurt.
    assert_eq!(knock_down_outcome(&contest(50, 40, vec![5, 35])), KnockDownOutcome::TargetProneMayHurt);
    // Actor rolls 40 → 1 + 1 = 2 DoS; target rolls 35 → 1 DoS; margin 1 → prone only.
    assert_eq!(knock_down_outcome(&contest(50, 40, vec![40, 35])), KnockDownOutcome::TargetProne);
    // Actor fails (70 > 50); target rolls 15 → 1 + 2 = 3 DoS; margin 3 → the actor falls.
    assert_eq!(knock_down_outcome(&contest(50, 40, vec![70, 15])), KnockDownOutcome::ActorProne);
    // Actor fails; target rolls 38 → 1 DoS; margin 1 → the target just keeps its footing.
    assert_eq!(knock_down_outcome(&contest(50, 40, vec![70, 38])), KnockDownOutcome::TargetStands);
    // Both fail: nothing happens.
    assert_eq!(knock_down_outcome(&contest(50, 40, vec![70, 80])), KnockDownOutcome::TargetStands);
}

#[test]
fn take_down_is_a_half_action_melee_attack_needing_the_talent() {
    let weapon = Weapon::new("baton", crate::rulesets::adeva_d100::actions::WeaponClass::Melee, 1);
    let spec = take_down(&TakeDown { weapon: weapon.clone(), has_talent: true }).unwrap();
    assert_eq!((spec.action_type, spec.tests[0].hits), (ActionType::Half, HitRule::Single));
    assert_eq!(spec.tests[0].label, "take down with baton");
    let err = take_down(&TakeDown { weapon, has_talent: false }).unwrap_err();
    assert_eq!(err, RuleError::invalid("has_talent", "a Take Down needs the Takedown talent"));
}

#[test]
fn take_down_penalty_grows_by_ten_per_multiple_of_toughness_bonus() {
    let value = |damage, tb| take_down_penalty(damage, tb).map(|modifier| modifier.value);
    // TB 3: 3 damage is not more than TB → none; 4 and 5 → −10; 6 (2 × 3) → −20; 9 (3 × 3) → −30.
    assert_eq!(value(3, 3), None);
    assert_eq!(value(4, 3), Some(-10));
    assert_eq!(value(5, 3), Some(-10));
    assert_eq!(value(6, 3), Some(-20));
    assert_eq!(value(8, 3), Some(-20));
    assert_eq!(value(9, 3), Some(-30));
    // TB 0: any damage is more than TB → −10 only.
    assert_eq!(value(7, 0), Some(-10));
    assert_eq!(take_down_penalty(6, 3).unwrap().reason, "take down: 6 damage against TB 3");
}

#[test]
fn a_take_down_past_soak_calls_for_a_toughness_test() {
    // 7 damage, soak 5 (TB 3 + AP 2): 2 past soak → negated. 7 ≥ 2 × 3 → −20.
    // Toughness 45 − 20 = 25; roll 31 fails → stunned for one round.
    let mut dice = Dice::scripted(vec![31], 0).unwrap();
    let result = resolve_take_down(7, 5, 3, c(45), &mut dice).unwrap();
    let TakeDownResult::Tested { test, stunned, until } = result else { panic!("expected a test") };
    assert_eq!((test.test.target, stunned, until), (25, true, Until::OneRound));
    assert_eq!(dice.rolls()[0].purpose, "take down: Toughness test");
    // Same, roll 20 ≤ 25 → not stunned.
    let mut dice = Dice::scripted(vec![20], 0).unwrap();
    let result = resolve_take_down(7, 5, 3, c(45), &mut dice).unwrap();
    assert!(matches!(result, TakeDownResult::Tested { stunned: false, .. }));
}

#[test]
fn a_soaked_take_down_does_nothing_and_rolls_nothing() {
    let mut dice = Dice::scripted(vec![], 0).unwrap();
    assert_eq!(resolve_take_down(5, 5, 3, c(45), &mut dice).unwrap(), TakeDownResult::Soaked);
    assert!(dice.rolls().is_empty());
    let err = resolve_take_down(9, 2, 3, c(45), &mut dice).unwrap_err();
    assert!(matches!(err, RuleError::Invalid { field, .. } if field == "soak"));
}

#[test]
fn disarm_is_opposed_ws_plus_twenty_with_the_advanced_talent() {
    let spec = disarm(&Disarm { has_talent: true, advanced_disarm: true }).unwrap();
    assert_eq!((spec.action_type, spec.subtypes.clone()), (ActionType::Full, vec![ActionSubtype::Melee]));
    assert_eq!(spec.tests[0].modifiers, vec![Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::AdvancedDisarm, "advanced disarm talent", 20)]);
    assert_eq!(spec.tests[0].opposed_by.map(|o| o.characteristic), Some(CharacteristicName::Ws));
    let err = disarm(&Disarm { has_talent: false, advanced_disarm: false }).unwrap_err();
    assert!(matches!(err, RuleError::Invalid { field, .. } if field == "has_talent"));
}

#[test]
fn disarm_takes_the_item_on_three_degrees_of_success() {
    // Actor WS 50 rolls 25 → 1 + 2 = 3 DoS; target WS 40 rolls 32 → 1 DoS → may take.
    assert_eq!(disarm_outcome(&contest(50, 40, vec![25, 32])), DisarmOutcome::MayTake);
    // Actor rolls 35 → 1 + 1 = 2 DoS; target fails → drops only.
    assert_eq!(disarm_outcome(&contest(50, 40, vec![35, 90])), DisarmOutcome::Drops);
    // Target wins.
    assert_eq!(disarm_outcome(&contest(50, 40, vec![90, 10])), DisarmOutcome::Failed);
}

#[test]
fn feint_is_a_half_action_opening_the_next_attack() {
    let spec = feint();
    assert_eq!((spec.action_type, spec.subtypes.clone()), (ActionType::Half, vec![ActionSubtype::Melee]));
    assert_eq!(spec.tests[0].opposed_by.map(|o| o.characteristic), Some(CharacteristicName::Ws));
    assert_eq!(spec.lingering, vec![LingeringEffect::NoParryOrDodge { until: Until::NextAction }]);
}
