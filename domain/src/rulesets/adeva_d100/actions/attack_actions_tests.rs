use super::*;
use crate::rulesets::adeva_d100::actions::charge::{Charge, ChargeStrike, charge};
use crate::rulesets::adeva_d100::actions::hit_spread::{HitSpread, OtherTarget, Spread, TargetHits, spread_hits};
use crate::rulesets::adeva_d100::actions::CharacteristicName;

fn rifle(hit_rating: u32) -> Weapon {
    Weapon::new("Autogun", WeaponClass::Ranged, hit_rating)
}

fn sword(hit_rating: u32) -> Weapon {
    Weapon::new("Chainsword", WeaponClass::Melee, hit_rating)
}

fn values(test: &TestSpec) -> Vec<i32> {
    test.modifiers.iter().map(|modifier| modifier.value).collect()
}

fn field_of(error: RuleError) -> String {
    match error {
        RuleError::Invalid { field, .. } => field,
        other => panic!("expected an invalid field, got {other:?}"),
    }
}

#[test]
fn a_standard_attack_is_a_half_action_at_plus_ten_for_one_hit() {
    let spec = standard_attack(&SingleAttack { weapon: sword(1) }).unwrap();
    assert_eq!((spec.action, spec.action_type), (ActionKind::StandardAttack, ActionType::Half));
    assert_eq!(spec.subtypes, vec![ActionSubtype::Attack, ActionSubtype::Melee]);
    let test = &spec.tests[0];
    assert_eq!((test.characteristic, test.hits), (CharacteristicName::Ws, HitRule::Single));
    assert_eq!(test.modifiers, vec![Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::AttackAction, "standard attack", 10)]);
    assert_eq!(test.evasions, crate::rulesets::adeva_d100::actions::USUAL_EVASIONS.to_vec());
    let ranged = standard_attack(&SingleAttack { weapon: rifle(3) }).unwrap();
    assert_eq!(ranged.tests[0].characteristic, CharacteristicName::Bs);
    assert_eq!(ranged.subtypes, vec![ActionSubtype::Attack, ActionSubtype::Ranged]);
    assert_eq!(ranged.tests[0].jams_on, None);
}

#[test]
fn burst_penalty_is_five_per_declared_hit_held_to_thirty() {
    // 1 hit −5; 4 hits −20; 6 hits −30; 9 hits −45 → held to −30.
    assert_eq!(declared_hits_penalty(1, 10), Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::DeclaredHits, "1 hits declared (-5 each)", -5));
    assert_eq!(declared_hits_penalty(4, 10).value, -20);
    assert_eq!(declared_hits_penalty(6, 10).value, -30);
    // +10 − 45 = −35 → the −5s held at −40, a net −30.
    assert_eq!(declared_hits_penalty(9, 10), Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::DeclaredHits, "9 hits declared (-5 each, held to -40 for a net -30)", -40));
}

#[test]
fn a_burst_of_three_is_plus_ten_minus_fifteen_up_to_three_hits() {
    // BS +10 − 3 × 5 = −5; hits = DoS capped at 3; jams on 94+.
    let spec = burst(&MultiHitAttack { weapon: rifle(4), declared_hits: 3 }).unwrap();
    assert_eq!(
        (spec.action_type, spec.subtypes.clone()),
        (ActionType::Half, vec![ActionSubtype::Attack, ActionSubtype::Ranged])
    );
    let test = &spec.tests[0];
    assert_eq!(values(test), vec![10, -15]);
    assert_eq!(test.modifier_sum(), -5);
    assert_eq!(test.hits, HitRule::PerDegree { max: 3 });
    // 2 DoS → 2 hits; 5 DoS → 3 hits.
    assert_eq!((test.hits.hits(true, 2), test.hits.hits(true, 5)), (2, 3));
    assert_eq!(test.jams_on, Some(94));
    assert_eq!(test.hits.attack_max_hits(), Some(3));
}

#[test]
fn a_burst_with_a_hit_rating_one_weapon_is_refused() {
    let err = burst(&MultiHitAttack { weapon: rifle(1), declared_hits: 1 }).unwrap_err();
    assert_eq!(
        err,
        RuleError::invalid(
            "weapon.hit_rating",
            "a Burst needs a weapon with a Hit rating of 2 or more; Autogun has 1"
        )
    );
}

#[test]
fn a_burst_declares_one_to_hit_rating_hits_with_a_ranged_weapon() {
    let over = burst(&MultiHitAttack { weapon: rifle(3), declared_hits: 4 }).unwrap_err();
    assert_eq!(field_of(over), "declared_hits");
    let none = burst(&MultiHitAttack { weapon: rifle(3), declared_hits: 0 }).unwrap_err();
    assert_eq!(field_of(none), "declared_hits");
    let melee = burst(&MultiHitAttack { weapon: sword(3), declared_hits: 2 }).unwrap_err();
    assert_eq!(field_of(melee), "weapon.class");
}

#[test]
fn a_flurry_is_a_melee_burst_that_never_jams() {
    // WS +10 − 2 × 5 = 0.
    let spec = flurry(&MultiHitAttack { weapon: sword(3), declared_hits: 2 }).unwrap();
    assert_eq!(spec.subtypes, vec![ActionSubtype::Attack, ActionSubtype::Melee]);
    let test = &spec.tests[0];
    assert_eq!(
        (test.characteristic, values(test), test.jams_on),
        (CharacteristicName::Ws, vec![10, -10], None)
    );
    let ranged = flurry(&MultiHitAttack { weapon: rifle(3), declared_hits: 2 }).unwrap_err();
    assert_eq!(field_of(ranged), "weapon.class");
    let single = flurry(&MultiHitAttack { weapon: sword(1), declared_hits: 1 }).unwrap_err();
    assert_eq!(field_of(single), "weapon.hit_rating");
}

#[test]
fn a_called_shot_is_a_standard_attack_at_minus_twenty() {
    // +10 − 20 = −10.
    let spec = called_shot(&CalledShot { weapon: rifle(1), location: "head".into() }).unwrap();
    let test = &spec.tests[0];
    assert_eq!(test.modifiers[1], Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::CalledShot, "called shot at the head", -20));
    assert_eq!(test.modifier_sum(), -10);
    assert_eq!(spec.action_type, ActionType::Half);
    let blank = called_shot(&CalledShot { weapon: rifle(1), location: " ".into() }).unwrap_err();
    assert_eq!(field_of(blank), "location");
}

fn charge_input(strike: ChargeStrike) -> Charge {
    // Half Move 4 → Charge Move 12.
    Charge { distance_squares: 10, half_move_squares: 4, straight_line_squares: 4, strike }
}

#[test]
fn a_charge_is_a_full_action_at_plus_twenty() {
    let spec = charge(&charge_input(ChargeStrike::Attack { weapon: sword(1) })).unwrap();
    assert_eq!(spec.action_type, ActionType::Full);
    assert_eq!(spec.subtypes, vec![ActionSubtype::Attack, ActionSubtype::Melee, ActionSubtype::Movement]);
    assert_eq!(spec.tests[0].modifiers, vec![Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::Charge, "charge", 20)]);
    assert_eq!(spec.tests[0].hits, HitRule::Single);
}

#[test]
fn a_charge_must_reach_and_end_in_a_four_square_line() {
    // 13 squares > 4 × 3 = 12.
    let mut far = charge_input(ChargeStrike::KnockDown {});
    far.distance_squares = 13;
    assert_eq!(
        charge(&far).unwrap_err(),
        RuleError::invalid("distance_squares", "the target is beyond the Charge Move (4 × 3 = 12 squares)")
    );
    let mut bent = charge_input(ChargeStrike::KnockDown {});
    bent.straight_line_squares = 3;
    assert_eq!(field_of(charge(&bent).unwrap_err()), "straight_line_squares");
    let mut short = charge_input(ChargeStrike::KnockDown {});
    short.distance_squares = 3;
    assert_eq!(field_of(charge(&short).unwrap_err()), "straight_line_squares");
    let ranged = charge_input(ChargeStrike::Attack { weapon: rifle(1) });
    assert_eq!(field_of(charge(&ranged).unwrap_err()), "strike.weapon.class");
}

#[test]
fn a_charge_may_end_in_a_grapple_or_a_knock_down() {
    // Grapple: WS +20, no parry; Knock Down: opposed Strength with no bonus.
    let grapple = charge(&charge_input(ChargeStrike::Grapple { hand_free: true })).unwrap();
    let test = &grapple.tests[0];
    assert_eq!((test.characteristic, values(test)), (CharacteristicName::Ws, vec![20]));
    assert!(!test.evasions.contains(&Evasion::Parry));
    assert!(grapple.lingering.contains(&LingeringEffect::ControlsGrapple));
    let knock = charge(&charge_input(ChargeStrike::KnockDown {})).unwrap();
    assert_eq!(knock.tests[0].characteristic, CharacteristicName::S);
    assert!(knock.tests[0].modifiers.is_empty());
    let no_hand = charge(&charge_input(ChargeStrike::Grapple { hand_free: false })).unwrap_err();
    assert_eq!(field_of(no_hand), "strike.hand_free");
}

#[test]
fn a_heavy_attack_is_plus_thirty_and_leaves_minus_thirty_to_evasion() {
    let spec = heavy_attack(&SingleAttack { weapon: sword(1) }).unwrap();
    assert_eq!(spec.action_type, ActionType::Full);
    assert_eq!(spec.tests[0].modifiers, vec![Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::HeavyAttack, "heavy attack", 30)]);
    assert_eq!(
        spec.lingering,
        vec![LingeringEffect::OwnEvasion {
            modifier: Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::HeavyAttackEvasion, "made a heavy attack", -30),
            until: Until::StartOfOwnNextTurn
        }]
    );
    assert_eq!(field_of(heavy_attack(&SingleAttack { weapon: rifle(1) }).unwrap_err()), "weapon.class");
}

#[test]
fn a_multiple_attack_is_minus_twenty_per_weapon_stacking_with_burst_and_flurry() {
    // Pistol single: −20. Autogun burst of 3: −20 − 15 = −35. Sword flurry of 2: −20 − 10 = −30.
    let input = MultipleAttack {
        equipped_weapons: 3,
        attacks: vec![
            MultipleAttackWeapon {
                weapon: Weapon::new("Pistol", WeaponClass::Ranged, 1),
                declared_hits: None,
            },
            MultipleAttackWeapon { weapon: rifle(4), declared_hits: Some(3) },
            MultipleAttackWeapon { weapon: sword(2), declared_hits: Some(2) },
        ],
    };
    let spec = multiple_attack(&input).unwrap();
    assert_eq!(spec.action_type, ActionType::Full);
    assert_eq!(spec.subtypes, vec![ActionSubtype::Attack, ActionSubtype::Ranged, ActionSubtype::Melee]);
    let sums: Vec<i32> = spec.tests.iter().map(TestSpec::modifier_sum).collect();
    // Burst of 3 in a Multiple Attack: −20 − 15 = −35, held at the net −30 (issue 12, item 7).
    assert_eq!(sums, vec![-20, -30, -30]);
    assert_eq!(spec.tests[0].hits, HitRule::Single);
    assert_eq!(spec.tests[1].hits, HitRule::PerDegree { max: 3 });
    assert_eq!((spec.tests[1].jams_on, spec.tests[2].jams_on), (Some(94), None));
}

#[test]
fn a_multiple_attack_needs_two_weapons_and_sound_bursts() {
    let one = |equipped| MultipleAttack {
        equipped_weapons: equipped,
        attacks: vec![MultipleAttackWeapon { weapon: sword(1), declared_hits: None }; 2],
    };
    assert_eq!(field_of(multiple_attack(&one(1)).unwrap_err()), "equipped_weapons");
    let mut only_one = one(2);
    only_one.attacks.pop();
    assert_eq!(field_of(multiple_attack(&only_one).unwrap_err()), "attacks");
    let mut bad_burst = one(2);
    bad_burst.attacks[1] = MultipleAttackWeapon { weapon: rifle(1), declared_hits: Some(2) };
    assert_eq!(field_of(multiple_attack(&bad_burst).unwrap_err()), "attacks[1].weapon.hit_rating");
    let mut too_many = one(2);
    too_many.attacks[0] = MultipleAttackWeapon { weapon: rifle(3), declared_hits: Some(4) };
    assert_eq!(field_of(multiple_attack(&too_many).unwrap_err()), "attacks[0].declared_hits");
    let mut thrown = one(2);
    thrown.attacks[0] =
        MultipleAttackWeapon { weapon: Weapon::new("axe", WeaponClass::Thrown, 2), declared_hits: Some(2) };
    assert_eq!(field_of(multiple_attack(&thrown).unwrap_err()), "attacks[0].declared_hits");
}

fn opportunity() -> AttackOfOpportunity {
    AttackOfOpportunity {
        weapon: sword(1),
        enemy_engaged: true,
        enemy_moves_away: true,
        enemy_disengages: false,
    }
}

#[test]
fn an_attack_of_opportunity_is_a_free_standard_attack() {
    let spec = attack_of_opportunity(&opportunity()).unwrap();
    assert_eq!(spec.action_type, ActionType::Free);
    assert_eq!(
        spec.subtypes,
        vec![ActionSubtype::Attack, ActionSubtype::Concentration, ActionSubtype::Melee]
    );
    assert_eq!(spec.tests[0].modifier_sum(), 10);
}

#[test]
fn an_attack_of_opportunity_needs_an_enemy_leaving_without_disengaging() {
    let mut input = opportunity();
    input.enemy_disengages = true;
    assert_eq!(field_of(attack_of_opportunity(&input).unwrap_err()), "enemy_disengages");
    let mut input = opportunity();
    input.enemy_moves_away = false;
    assert_eq!(field_of(attack_of_opportunity(&input).unwrap_err()), "enemy_moves_away");
    let mut input = opportunity();
    input.enemy_engaged = false;
    assert_eq!(field_of(attack_of_opportunity(&input).unwrap_err()), "enemy_engaged");
}

#[test]
fn a_counter_attack_is_a_free_attack_at_minus_twenty_once_a_round() {
    let input = CounterAttack { weapon: sword(1), has_talent: true, parried_melee_attack: true };
    let spec = counter_attack(&input).unwrap();
    assert_eq!((spec.action_type, spec.tests[0].modifier_sum()), (ActionType::Free, -20));
    assert_eq!(spec.lingering, vec![LingeringEffect::NoCounterAttack { until: Until::StartOfOwnNextTurn }]);
    let untrained = CounterAttack { has_talent: false, ..input.clone() };
    assert_eq!(field_of(counter_attack(&untrained).unwrap_err()), "has_talent");
    let no_parry = CounterAttack { parried_melee_attack: false, ..input };
    assert_eq!(field_of(counter_attack(&no_parry).unwrap_err()), "parried_melee_attack");
}

#[test]
fn ninety_four_and_up_jams() {
    assert!(!jams(93));
    assert!(jams(94));
    assert!(jams(100));
}

fn other(name: &str, hits: u32, modifier: i32, squares: u32) -> OtherTarget {
    OtherTarget {
        name: name.into(),
        hits,
        attack_modifier: modifier,
        squares_from_target: Some(squares),
        within_reach: None,
    }
}

#[test]
fn burst_hits_spread_to_nearby_targets_no_harder_to_hit() {
    // 4 hits: 2 to B (8 squares, +0 ≥ −10), 1 to C (10 squares, −10 ≥ −10); the target keeps 4 − 3 = 1.
    let request = HitSpread {
        target: "A".into(),
        target_attack_modifier: -10,
        others: vec![other("B", 2, 0, 8), other("C", 1, -10, 10)],
    };
    let hits = spread_hits(Spread::Burst, 4, &request).unwrap();
    let expected = vec![
        TargetHits { target: "A".into(), hits: 1 },
        TargetHits { target: "B".into(), hits: 2 },
        TargetHits { target: "C".into(), hits: 1 },
    ];
    assert_eq!(hits, expected);
}

#[test]
fn spread_hits_are_refused_when_too_far_too_hard_or_too_many() {
    let request = |others| HitSpread { target: "A".into(), target_attack_modifier: 0, others };
    let far = spread_hits(Spread::Burst, 3, &request(vec![other("B", 1, 0, 11)])).unwrap_err();
    assert_eq!(field_of(far), "others[0].squares_from_target");
    let hard = spread_hits(Spread::Burst, 3, &request(vec![other("B", 1, -20, 2)])).unwrap_err();
    assert_eq!(
        hard,
        RuleError::invalid(
            "others[0].attack_modifier",
            "B is harder to hit (-20) than the declared target (+0)"
        )
    );
    // 3 hits: at most 2 may leave the target.
    let many =
        spread_hits(Spread::Burst, 3, &request(vec![other("B", 2, 0, 2), other("C", 1, 0, 2)])).unwrap_err();
    assert_eq!(field_of(many), "others");
    let flurry_far = OtherTarget { within_reach: Some(false), ..other("B", 1, 0, 1) };
    let out_of_reach = spread_hits(Spread::Flurry, 2, &request(vec![flurry_far])).unwrap_err();
    assert_eq!(field_of(out_of_reach), "others[0].within_reach");
}

#[test]
fn flurry_hits_spread_within_reach() {
    // 2 hits: 1 stays on A, 1 to B within reach.
    let b = OtherTarget {
        name: "B".into(),
        hits: 1,
        attack_modifier: 0,
        squares_from_target: None,
        within_reach: Some(true),
    };
    let request = HitSpread { target: "A".into(), target_attack_modifier: 0, others: vec![b] };
    let hits = spread_hits(Spread::Flurry, 2, &request).unwrap();
    assert_eq!(hits.iter().map(|t| t.hits).collect::<Vec<_>>(), vec![1, 1]);
    assert!(spread_hits(Spread::Flurry, 0, &HitSpread { others: vec![], ..request }).unwrap().is_empty());
}

/// Issue 12, item 7: the −5s alone were held at −30 and the +10 added on top, so the net never
/// went below −20. Now the net (+10 and the −5s) is held at −30.
#[test]
fn burst_net_modifier_is_held_at_minus_thirty_not_minus_twenty() {
    // 10 hits: +10 − 50 = −40 → net −30 (+10, −40).
    let weapon = Weapon::new("Autogun", WeaponClass::Ranged, 10);
    let spec = burst(&MultiHitAttack { weapon: weapon.clone(), declared_hits: 10 }).unwrap();
    assert_eq!(spec.tests[0].modifier_sum(), -30);
    // 7 hits: +10 − 35 = −25, not held.
    let spec = burst(&MultiHitAttack { weapon, declared_hits: 7 }).unwrap();
    assert_eq!(spec.tests[0].modifier_sum(), -25);
    // In a Multiple Attack the −20 stands in for the +10: −20 − 15 = −35 → net −30 (−20, −10).
    assert_eq!(declared_hits_penalty(3, -20).value, -10);
}
