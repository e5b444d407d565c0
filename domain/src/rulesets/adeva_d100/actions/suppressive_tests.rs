use super::*;
use crate::rulesets::adeva_d100::actions::test_support::stats;
use crate::rulesets::adeva_d100::actions::{Evasion, WeaponClass};

fn autogun() -> Weapon {
    Weapon { semi_auto: Some(3), full_auto: Some(5), ..Weapon::new("Autogun", WeaponClass::Ranged, 3) }
}

fn fire(mode: AutoMode) -> SuppressiveFire {
    SuppressiveFire { weapon: autogun(), mode }
}

fn victim(name: &str, wp: i64) -> PinningSubject {
    PinningSubject { name: name.into(), stats: stats(&[("wp", wp)]), characteristic: None, location: None }
}

fn volley(bs: i64, victims: Vec<PinningSubject>) -> SuppressiveVolley {
    SuppressiveVolley { bs: Characteristic::new(bs).unwrap(), penalties: Vec::new(), victims }
}

#[test]
fn suppressive_fire_is_a_full_action_at_minus_twenty_with_no_bonuses() {
    let spec = suppressive_fire(&fire(AutoMode::FullAuto)).unwrap();
    assert_eq!(
        (spec.action_type, spec.subtypes.clone()),
        (ActionType::Full, vec![ActionSubtype::Attack, ActionSubtype::Ranged])
    );
    let test = &spec.tests[0];
    assert_eq!(test.modifiers, vec![Modifier::coded(crate::rulesets::adeva_d100::test_modifiers::ModifierCode::SuppressiveFire, "suppressive fire, in place of any bonuses", -20)]);
    assert_eq!(
        (test.hits, test.jams_on, test.other_bonuses_allowed),
        (HitRule::OnePlusPerTwoDegrees { max: 5 }, Some(94), false)
    );
    assert!(test.evasions.contains(&Evasion::Dodge));
    assert!(spec.notes[0].contains("60° arc"));
    assert!(spec.notes[1].contains("-20"));
    let semi = suppressive_fire(&fire(AutoMode::SemiAuto)).unwrap();
    assert_eq!(semi.tests[0].hits, HitRule::OnePlusPerTwoDegrees { max: 3 });
    assert!(semi.notes[0].contains("30° arc"));
    assert_eq!(AutoMode::SemiAuto.pinning_penalty().value, -10);
}

#[test]
fn suppressive_fire_needs_the_auto_mode_it_fires() {
    let mut input = fire(AutoMode::FullAuto);
    input.weapon.full_auto = None;
    let err = suppressive_fire(&input).unwrap_err();
    assert_eq!(
        err,
        RuleError::invalid("weapon.full_auto", "Autogun cannot fire full-auto for Suppressive Fire")
    );
    let mut bow = fire(AutoMode::SemiAuto);
    bow.weapon.semi_auto = None;
    assert!(
        matches!(suppressive_fire(&bow), Err(RuleError::Invalid { field, .. }) if field == "weapon.semi_auto")
    );
}

#[test]
fn a_full_auto_burst_hits_random_victims_and_pins_the_arc() {
    // BS 60 − 20 = 40; roll 05 → 1 + 3 = 4 DoS → 1 + 4 / 2 = 3 hits (capacity 5).
    // Victim dice (d3): 2, 2, 3 → B twice, C once.
    // Pinning at −20: A WP 40 → 20, roll 50 → pinned; B WP 40 → 20, roll 15 → holds;
    // C WP 50 → 30, roll 31 → pinned.
    let victims = vec![victim("A", 40), victim("B", 40), victim("C", 50)];
    let mut dice = Dice::scripted(vec![5, 2, 2, 3, 50, 15, 31], 0).unwrap();
    let outcome =
        resolve_suppressive_fire(&fire(AutoMode::FullAuto), &volley(60, victims), &mut dice).unwrap();
    assert_eq!((outcome.attack.test.target, outcome.attack.test.degrees), (40, 4));
    assert_eq!((outcome.jammed, outcome.hits_scored), (false, 3));
    assert_eq!(
        outcome.victim_rolls.iter().map(|roll| roll.die).collect::<Vec<_>>(),
        vec![Some(2), Some(2), Some(3)]
    );
    assert_eq!(
        outcome.hits,
        vec![TargetHits { target: "B".into(), hits: 2 }, TargetHits { target: "C".into(), hits: 1 }]
    );
    assert_eq!(outcome.pinning.iter().map(|p| p.pinned).collect::<Vec<_>>(), vec![true, false, true]);
    assert_eq!(outcome.pinning[2].test.test.target, 30);
    let purposes: Vec<_> = dice.rolls().iter().map(|die| &*die.purpose).collect();
    assert_eq!(purposes[0], "suppressive fire: BS test");
    assert_eq!(purposes[1], "suppressive fire: victim of hit 1");
    assert_eq!(purposes[4], "pinning test (Willpower): A");
}

#[test]
fn hits_are_capped_at_the_capacity_of_the_mode() {
    // BS 80 − 20 = 60; roll 01 → 1 + 5 = 6 DoS → 1 + 3 = 4 hits, semi-auto capacity 3 → 3.
    // One victim: no victim dice. Pinning at −10: WP 30 → 20, roll 10 → holds.
    let mut dice = Dice::scripted(vec![1, 10], 0).unwrap();
    let outcome =
        resolve_suppressive_fire(&fire(AutoMode::SemiAuto), &volley(80, vec![victim("A", 30)]), &mut dice)
            .unwrap();
    assert_eq!(outcome.hits_scored, 3);
    assert!(outcome.victim_rolls.iter().all(|roll| roll.die.is_none()));
    assert_eq!(outcome.hits, vec![TargetHits { target: "A".into(), hits: 3 }]);
    assert_eq!(outcome.pinning[0].test.test.target, 20);
    assert_eq!(dice.rolls().len(), 2);
}

#[test]
fn a_jam_scores_nothing_but_the_arc_still_tests_pinning() {
    // BS 50 − 20 = 30; roll 96 → failed and jammed. Pinning at −20: WP 30 → 10, roll 05 → holds.
    let mut dice = Dice::scripted(vec![96, 5], 0).unwrap();
    let outcome =
        resolve_suppressive_fire(&fire(AutoMode::FullAuto), &volley(50, vec![victim("A", 30)]), &mut dice)
            .unwrap();
    assert!(outcome.jammed);
    assert_eq!((outcome.hits_scored, outcome.hits.len()), (0, 0));
    assert_eq!(outcome.pinning.len(), 1);
    assert!(!outcome.pinning[0].pinned);
}

#[test]
fn a_miss_rolls_no_victims_and_an_empty_zone_loses_the_hits() {
    // BS 40 − 20 = 20; roll 50 → miss; pinning for A: WP 30 − 20 = 10, roll 70 → pinned.
    let mut dice = Dice::scripted(vec![50, 70], 0).unwrap();
    let outcome =
        resolve_suppressive_fire(&fire(AutoMode::FullAuto), &volley(40, vec![victim("A", 30)]), &mut dice)
            .unwrap();
    assert_eq!((outcome.hits_scored, outcome.jammed, outcome.pinning[0].pinned), (0, false, true));
    // Empty zone: roll 05 passes (20 − 5 = 15 → 2 DoS → 2 hits) but nobody is there.
    let mut dice = Dice::scripted(vec![5], 0).unwrap();
    let empty = resolve_suppressive_fire(&fire(AutoMode::FullAuto), &volley(40, vec![]), &mut dice).unwrap();
    assert_eq!((empty.hits_scored, empty.victim_rolls.len(), empty.pinning.len()), (2, 0, 0));
}

#[test]
fn bonuses_are_refused_and_penalties_apply() {
    let mut with_bonus = volley(50, vec![victim("A", 30)]);
    with_bonus.penalties = vec![Modifier::new("fog", -10), Modifier::new("aim", 10)];
    let mut dice = Dice::scripted(vec![], 0).unwrap();
    let err = resolve_suppressive_fire(&fire(AutoMode::SemiAuto), &with_bonus, &mut dice).unwrap_err();
    assert!(matches!(err, RuleError::Invalid { field, .. } if field == "penalties[1].value"));
    assert!(dice.rolls().is_empty());
    // BS 50 − 20 − 10 (fog) = 20; roll 20 → 1 DoS → 1 hit; pinning WP 30 − 10 = 20, roll 21 → pinned.
    let mut foggy = volley(50, vec![victim("A", 30)]);
    foggy.penalties = vec![Modifier::new("fog", -10)];
    let mut dice = Dice::scripted(vec![20, 21], 0).unwrap();
    let outcome = resolve_suppressive_fire(&fire(AutoMode::SemiAuto), &foggy, &mut dice).unwrap();
    assert_eq!((outcome.attack.test.target, outcome.hits_scored, outcome.pinning[0].pinned), (20, 1, true));
    let unnamed = volley(50, vec![victim(" ", 30)]);
    let err = resolve_suppressive_fire(&fire(AutoMode::SemiAuto), &unnamed, &mut dice).unwrap_err();
    assert!(matches!(err, RuleError::Invalid { field, .. } if field == "victims[0].name"));
}
