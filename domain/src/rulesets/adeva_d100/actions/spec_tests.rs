//! Tests of the action data: kinds, weapons, hit rules and specs.

use super::*;
use crate::rulesets::RuleError;

#[test]
fn hit_rules_count_hits_from_degrees() {
    // Per degree, max 3: 2 DoS → 2; 5 DoS → 3; a pass always scores one.
    assert_eq!(HitRule::PerDegree { max: 3 }.hits(true, 2), 2);
    assert_eq!(HitRule::PerDegree { max: 3 }.hits(true, 5), 3);
    assert_eq!(HitRule::PerDegree { max: 3 }.hits(true, 0), 1);
    // One plus one per two DoS, max 4: 5 DoS → 1 + 2 = 3; 9 DoS → 1 + 4 = 5 → 4.
    assert_eq!(HitRule::OnePlusPerTwoDegrees { max: 4 }.hits(true, 5), 3);
    assert_eq!(HitRule::OnePlusPerTwoDegrees { max: 4 }.hits(true, 9), 4);
    assert_eq!(HitRule::Single.hits(true, 6), 1);
    assert_eq!(HitRule::Single.hits(false, 0), 0);
    assert_eq!(HitRule::NoHits.hits(true, 3), 0);
}

#[test]
fn weapons_pick_ws_or_bs_and_a_subtype() {
    let sword = Weapon::new("sword", WeaponClass::Melee, 1);
    let knife = Weapon::new("throwing knife", WeaponClass::Thrown, 1);
    let rifle = Weapon::new("rifle", WeaponClass::Ranged, 3);
    assert_eq!((sword.characteristic(), sword.subtype()), (CharacteristicName::Ws, ActionSubtype::Melee));
    assert_eq!(
        (knife.characteristic(), knife.subtype()),
        (CharacteristicName::Ws, ActionSubtype::Ranged)
    );
    assert_eq!(
        (rifle.characteristic(), rifle.subtype()),
        (CharacteristicName::Bs, ActionSubtype::Ranged)
    );
}

#[test]
fn bad_weapons_are_refused_by_path() {
    let mut weapon = Weapon::new("rifle", WeaponClass::Ranged, 0);
    let err = weapon.validate("weapon").unwrap_err();
    assert_eq!(err, RuleError::invalid("weapon.hit_rating", "must lie between 1 and 100"));
    weapon.hit_rating = 2;
    weapon.full_auto = Some(101);
    let err = weapon.validate("attacks[1].weapon").unwrap_err();
    assert!(matches!(err, RuleError::Invalid { field, .. } if field == "attacks[1].weapon.full_auto"));
    weapon.full_auto = None;
    weapon.name = " ".into();
    assert!(
        matches!(weapon.validate("weapon"), Err(RuleError::Invalid { field, .. }) if field == "weapon.name")
    );
}

#[test]
fn action_names_read_as_words() {
    let spec = ActionSpec::new(ActionKind::AttackOfOpportunity, ActionType::Free, vec![]);
    assert_eq!(spec.name(), "attack of opportunity");
    let dodge = ActionSpec::new(ActionKind::Other("dodge".into()), ActionType::Reaction, vec![]);
    assert_eq!(dodge.name(), "dodge");
}

#[test]
fn characteristics_are_read_by_name() {
    let stats = test_support::stats(&[("ag", 47), ("wp", 38)]);
    assert_eq!(CharacteristicName::Ag.score(&stats), 47);
    assert_eq!(CharacteristicName::Wp.score(&stats), 38);
    assert_eq!(CharacteristicName::Bs.score(&stats), 30);
}
