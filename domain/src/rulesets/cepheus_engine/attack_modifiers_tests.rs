use super::*;
use crate::rulesets::cepheus_engine::burst::Burst;
use crate::rulesets::cepheus_engine::conditions::{Darkness, Smoke};
use crate::rulesets::cepheus_engine::cover::CoverLevel;
use crate::rulesets::cepheus_engine::modifier::total_dm;
use crate::rulesets::cepheus_engine::reactions::Dodge;
use crate::rulesets::cepheus_engine::stance::Stance;

fn dms(attack: &AttackCircumstances) -> Vec<i32> {
    attack_modifiers(attack).unwrap().iter().map(|modifier| modifier.dm).collect()
}

#[test]
fn every_range_reason_reads_as_written_with_format() {
    for weapon in WeaponType::ALL {
        for band in RangeBand::ALL {
            let Some(difficulty) = attack_difficulty(weapon, band) else { continue };
            let fresh = format!("{} at {} range: {}", weapon.label(), band.label(), difficulty.label());
            assert_eq!(range_reason(weapon, band), fresh);
        }
    }
}

#[test]
fn a_plain_attack_lists_only_its_range_difficulty() {
    let attack = AttackCircumstances::new(WeaponType::Pistol, RangeBand::Long);
    let modifiers = attack_modifiers(&attack).unwrap();
    assert_eq!(modifiers, vec![Modifier::new(ModifierCode::Range, "Pistol at Long range: Very Difficult", -4)]);
}

#[test]
fn aiming_with_a_laser_sight_through_cover() {
    // Rifle at Medium (Average +0), aim 3 (+3), laser sight (+1), target crouched behind
    // a 1/2 wall → 3/4 cover (−2): 0 + 3 + 1 − 2 = +2.
    let mut attack = AttackCircumstances::new(WeaponType::Rifle, RangeBand::Medium);
    attack.aim = 3;
    attack.laser_sight = true;
    attack.cover = CoverLevel::Half;
    attack.target_stance = Stance::Crouched;
    assert_eq!(dms(&attack), vec![0, 3, 1, -2]);
    assert_eq!(total_dm(&attack_modifiers(&attack).unwrap()), 2);
}

#[test]
fn a_laser_sight_without_aiming_adds_nothing() {
    let mut attack = AttackCircumstances::new(WeaponType::Rifle, RangeBand::Medium);
    attack.laser_sight = true;
    attack.aim_for_kill = 2;
    assert_eq!(dms(&attack), vec![0]);
}

#[test]
fn a_sprayed_burst_adds_its_attack_dm_but_no_damage() {
    // Assault weapon at Short (Average +0), 10-round spray +2, moving target 25 m → −2:
    // 0 + 2 − 2 = 0.
    let mut attack = AttackCircumstances::new(WeaponType::AssaultWeapon, RangeBand::Short);
    attack.burst = Some(Burst { rounds: crate::score::Score::new(10).unwrap(), mode: BurstMode::Spray });
    attack.target_movement_m = 25.0;
    assert_eq!(dms(&attack), vec![0, 2, -2]);
    assert!(damage_modifiers(&attack).unwrap().is_empty());
}

#[test]
fn a_grouped_burst_adds_damage_but_no_attack_dm() {
    let mut attack = AttackCircumstances::new(WeaponType::AssaultWeapon, RangeBand::Short);
    attack.burst = Some(Burst { rounds: crate::score::Score::new(20).unwrap(), mode: BurstMode::Grouped });
    assert_eq!(dms(&attack), vec![0]);
    let damage = damage_modifiers(&attack).unwrap();
    assert_eq!(damage, vec![DamageModifier::new(ModifierCode::Burst, "grouped 20-round burst", DamageChange::PlusDice(3))]);
}

#[test]
fn panic_fire_is_minus_two_with_burst_damage() {
    // Pistol at Close (Average +0), panic −2; 7 rounds left → 4-round row, +1D6.
    let mut attack = AttackCircumstances::new(WeaponType::Pistol, RangeBand::Close);
    attack.panic_fire_rounds = Some(7);
    assert_eq!(dms(&attack), vec![0, -2]);
    let damage = damage_modifiers(&attack).unwrap();
    assert_eq!(damage[0].change, DamageChange::PlusDice(1));
}

#[test]
fn shotgun_spread_at_medium_is_plus_one_and_2d6() {
    // Shotgun at Medium (Difficult −2), spread +1: −2 + 1 = −1.
    let mut attack = AttackCircumstances::new(WeaponType::Shotgun, RangeBand::Medium);
    attack.shotgun_spread = true;
    assert_eq!(dms(&attack), vec![-2, 1]);
    assert_eq!(damage_modifiers(&attack).unwrap()[0].change, DamageChange::DiceBecome(2));
}

#[test]
fn flechettes_at_short_range_fire_like_a_common_round() {
    // Shotgun at Short (Difficult −2) and nothing else.
    let mut attack = AttackCircumstances::new(WeaponType::Shotgun, RangeBand::Short);
    attack.shotgun_spread = true;
    assert_eq!(dms(&attack), vec![-2]);
    assert!(damage_modifiers(&attack).unwrap().is_empty());
}

#[test]
fn extreme_range_laser_in_smoke() {
    // Rifle at Distant (Very Difficult −4), extreme −2, aim 6 (+6), thick smoke doubled for a
    // laser (−4), complete darkness with sensors (none): −4 − 2 + 6 − 4 = −4.
    let mut attack = AttackCircumstances::new(WeaponType::Rifle, RangeBand::Distant);
    attack.technology = WeaponTechnology::Laser;
    attack.extreme_range = true;
    attack.skill_level = Some(3);
    attack.braced = true;
    attack.aim = 6;
    attack.aim_for_kill = 4;
    attack.smoke = Smoke::Thick;
    attack.darkness = Darkness::Complete;
    attack.sensors = true;
    assert_eq!(dms(&attack), vec![-4, -2, 6, -4]);
    assert_eq!(total_dm(&attack_modifiers(&attack).unwrap()), -4);
    let damage: Vec<_> = damage_modifiers(&attack).unwrap().into_iter().map(|d| d.change).collect();
    assert_eq!(damage, vec![DamageChange::PlusPoints(4), DamageChange::HalvedRoundUp]);
}

#[test]
fn zero_g_recoil_firing_into_combat_and_weather() {
    // Pistol at Short (Average +0), recoil in zero-G −2, into combat −2, extreme weather
    // −1 −1, low light −1: 0 − 2 − 2 − 1 − 1 − 1 = −7 (darkness comes before weather).
    let mut attack = AttackCircumstances::new(WeaponType::Pistol, RangeBand::Short);
    attack.zero_g = true;
    attack.recoil = true;
    attack.firing_into_combat = true;
    attack.extreme_weather = true;
    attack.darkness = Darkness::LowLight;
    assert_eq!(dms(&attack), vec![0, -2, -2, -1, -1, -1]);
    assert_eq!(total_dm(&attack_modifiers(&attack).unwrap()), -7);
}

#[test]
fn melee_ignores_battlefield_conditions_and_takes_the_parry() {
    // Close quarters at Personal (Average +0), prone target at Personal +2, parry Melee-2
    // (−2), smoke ignored for melee: 0 + 2 − 2 = 0.
    let mut attack = AttackCircumstances::new(WeaponType::CloseQuarters, RangeBand::Personal);
    attack.target_stance = Stance::Prone;
    attack.parry_skill = Some(2);
    attack.smoke = Smoke::Thick;
    assert_eq!(dms(&attack), vec![0, 2, -2]);
}

#[test]
fn prone_target_at_short_range_dodge_in_cover_and_vehicle() {
    // Rifle at Short (Average +0), prone target in 1/4 cover → 1/2 (−1) and −2 for prone at
    // Short range: 0 − 1 − 2 = −3.
    let mut attack = AttackCircumstances::new(WeaponType::Rifle, RangeBand::Short);
    attack.cover = CoverLevel::Quarter;
    attack.target_stance = Stance::Prone;
    assert_eq!(dms(&attack), vec![0, -1, -2]);

    // Standing target in 1/4 cover (−0) dodging from cover (−2), a vehicle (+1): 0 + 0 − 2 + 1.
    let mut dodging = AttackCircumstances::new(WeaponType::Rifle, RangeBand::Short);
    dodging.cover = CoverLevel::Quarter;
    dodging.dodge = Dodge::Dodges;
    dodging.target_is_vehicle = true;
    assert_eq!(dms(&dodging), vec![0, 0, -2, 1]);
}

#[test]
fn suppression_and_the_attackers_own_state() {
    // Rifle at Long (Average +0), suppression −2, hasty −1, two reactions −2, fatigued −2,
    // suppressed −1: 0 − 2 − 1 − 2 − 2 − 1 = −8.
    let mut attack = AttackCircumstances::new(WeaponType::Rifle, RangeBand::Long);
    attack.suppression = true;
    attack.attacker_hasty = true;
    attack.attacker_reactions = 2;
    attack.attacker_fatigued = true;
    attack.attacker_suppressed = true;
    assert_eq!(dms(&attack), vec![0, -2, -1, -2, -2, -1]);
    assert_eq!(total_dm(&attack_modifiers(&attack).unwrap()), -8);
}

#[test]
fn target_movement_counts_only_full_tens_of_metres() {
    let moved = |metres| {
        let mut attack = AttackCircumstances::new(WeaponType::Rifle, RangeBand::Short);
        attack.target_movement_m = metres;
        total_dm(&attack_modifiers(&attack).unwrap())
    };
    // 9.9 m → 0 full tens; 10 m → 1; 29.5 m → 2.
    assert_eq!(moved(9.9), 0);
    assert_eq!(moved(10.0), -1);
    assert_eq!(moved(29.5), -2);
}

#[test]
fn an_intelligent_weapon_adds_one() {
    // Rocket at Medium (Average +0) + 1 = +1.
    let mut attack = AttackCircumstances::new(WeaponType::Rocket, RangeBand::Medium);
    attack.intelligent_weapon = true;
    assert_eq!(dms(&attack), vec![0, 1]);
}

#[test]
fn impossible_combinations_are_refused_before_any_modifier() {
    let mut attack = AttackCircumstances::new(WeaponType::Rifle, RangeBand::Short);
    attack.cover = CoverLevel::Full;
    attack.target_stance = Stance::Prone;
    let err = attack_modifiers(&attack).unwrap_err();
    assert!(matches!(err, RuleError::Invalid { ref field, .. } if field == "cover"));
    attack.target_stance = Stance::Standing;
    attack.aim = 9;
    let err = damage_modifiers(&attack).unwrap_err();
    assert!(matches!(err, RuleError::Invalid { ref field, .. } if field == "aim"));
}
