use super::*;
use crate::rulesets::cepheus_engine::burst::BurstMode;

fn refused_field(attack: &AttackCircumstances) -> String {
    match validate(attack) {
        Err(RuleError::Invalid { field, .. }) => field,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn rifle_at(band: RangeBand) -> AttackCircumstances {
    AttackCircumstances::new(WeaponType::Rifle, band)
}

#[test]
fn a_plain_attack_in_reach_is_accepted() {
    assert!(validate(&rifle_at(RangeBand::Long)).is_ok());
}

#[test]
fn a_weapon_out_of_its_bands_is_refused_on_range_band() {
    assert_eq!(
        refused_field(&AttackCircumstances::new(WeaponType::Pistol, RangeBand::VeryLong)),
        "range_band"
    );
    assert_eq!(
        refused_field(&AttackCircumstances::new(WeaponType::Thrown, RangeBand::Personal)),
        "range_band"
    );
}

#[test]
fn extreme_range_needs_distant_reach_skill_three_and_a_rest() {
    let mut attack = rifle_at(RangeBand::Distant);
    attack.extreme_range = true;
    attack.skill_level = Some(3);
    attack.braced = true;
    assert!(validate(&attack).is_ok());

    let mut unskilled = attack.clone();
    unskilled.skill_level = Some(2);
    assert_eq!(refused_field(&unskilled), "extreme_range");

    let mut unbraced = attack.clone();
    unbraced.braced = false;
    assert_eq!(refused_field(&unbraced), "extreme_range");

    let mut wrong_band = attack.clone();
    wrong_band.range_band = RangeBand::VeryLong;
    assert_eq!(refused_field(&wrong_band), "extreme_range");

    let mut pistol = attack;
    pistol.weapon_type = WeaponType::Pistol;
    assert_eq!(refused_field(&pistol), "extreme_range");
}

#[test]
fn more_than_six_aims_are_refused() {
    let mut attack = rifle_at(RangeBand::Short);
    attack.aim = 7;
    assert_eq!(refused_field(&attack), "aim");
    attack.aim = 6;
    attack.aim_for_kill = 7;
    assert_eq!(refused_field(&attack), "aim_for_kill");
}

#[test]
fn prone_attackers_cannot_melee_and_prone_targets_cannot_dodge() {
    let mut melee = AttackCircumstances::new(WeaponType::CloseQuarters, RangeBand::Personal);
    melee.attacker_stance = Stance::Prone;
    assert_eq!(refused_field(&melee), "attacker_stance");

    let mut shot = rifle_at(RangeBand::Short);
    shot.target_stance = Stance::Prone;
    shot.dodge = Dodge::Dodges;
    assert_eq!(refused_field(&shot), "dodge");
}

#[test]
fn parries_are_melee_only_single_and_not_negative() {
    let mut shot = rifle_at(RangeBand::Short);
    shot.parry_skill = Some(1);
    assert_eq!(refused_field(&shot), "parry_skill");

    let mut melee = AttackCircumstances::new(WeaponType::CloseQuarters, RangeBand::Personal);
    melee.parry_skill = Some(-1);
    assert_eq!(refused_field(&melee), "parry_skill");

    melee.parry_skill = Some(2);
    melee.dodge = Dodge::Dodges;
    assert_eq!(refused_field(&melee), "parry_skill");

    // A prone target may still parry.
    melee.dodge = Dodge::None;
    melee.target_stance = Stance::Prone;
    assert!(validate(&melee).is_ok());
}

#[test]
fn target_movement_must_be_a_real_distance() {
    let mut attack = rifle_at(RangeBand::Short);
    attack.target_movement_m = -1.0;
    assert_eq!(refused_field(&attack), "target_movement_m");
    attack.target_movement_m = f64::NAN;
    assert_eq!(refused_field(&attack), "target_movement_m");
}

#[test]
fn bursts_need_a_gun_and_a_listed_size() {
    let mut attack = rifle_at(RangeBand::Short);
    attack.burst = Some(Burst { rounds: crate::score::Score::new(5).unwrap(), mode: BurstMode::Spray });
    assert_eq!(refused_field(&attack), "burst");

    let mut thrown = AttackCircumstances::new(WeaponType::Thrown, RangeBand::Short);
    thrown.burst = Some(Burst { rounds: crate::score::Score::new(3).unwrap(), mode: BurstMode::Spray });
    assert_eq!(refused_field(&thrown), "burst");
}

#[test]
fn panic_fire_needs_a_slug_thrower_and_no_burst() {
    let mut attack = AttackCircumstances::new(WeaponType::AssaultWeapon, RangeBand::Short);
    attack.panic_fire_rounds = Some(30);
    assert!(validate(&attack).is_ok());

    let mut with_burst = attack.clone();
    with_burst.burst = Some(Burst { rounds: crate::score::Score::new(10).unwrap(), mode: BurstMode::Grouped });
    assert_eq!(refused_field(&with_burst), "panic_fire_rounds");

    let mut laser = attack.clone();
    laser.technology = WeaponTechnology::Laser;
    assert_eq!(refused_field(&laser), "panic_fire_rounds");

    let mut rocket = AttackCircumstances::new(WeaponType::Rocket, RangeBand::Medium);
    rocket.panic_fire_rounds = Some(4);
    assert_eq!(refused_field(&rocket), "panic_fire_rounds");

    let mut empty = attack;
    empty.panic_fire_rounds = Some(0);
    assert_eq!(refused_field(&empty), "panic_fire_rounds");
}

#[test]
fn shotgun_spread_needs_a_shotgun() {
    let mut attack = AttackCircumstances::new(WeaponType::Pistol, RangeBand::Medium);
    attack.shotgun_spread = true;
    assert_eq!(refused_field(&attack), "shotgun_spread");
}

#[test]
fn suppression_is_a_shot_and_vehicles_ignore_it() {
    let mut melee = AttackCircumstances::new(WeaponType::ExtendedReach, RangeBand::Close);
    melee.suppression = true;
    assert_eq!(refused_field(&melee), "suppression");

    let mut at_vehicle = rifle_at(RangeBand::Medium);
    at_vehicle.suppression = true;
    at_vehicle.target_is_vehicle = true;
    assert_eq!(refused_field(&at_vehicle), "suppression");
}

#[test]
fn firing_into_combat_is_for_ranged_attacks() {
    let mut melee = AttackCircumstances::new(WeaponType::CloseQuarters, RangeBand::Personal);
    melee.firing_into_combat = true;
    assert_eq!(refused_field(&melee), "firing_into_combat");

    let mut thrown = AttackCircumstances::new(WeaponType::Thrown, RangeBand::Close);
    thrown.firing_into_combat = true;
    assert!(validate(&thrown).is_ok());
}

#[test]
fn a_low_target_in_full_cover_is_refused_on_cover() {
    let mut attack = rifle_at(RangeBand::Short);
    attack.cover = CoverLevel::Full;
    attack.target_stance = Stance::Crouched;
    assert_eq!(refused_field(&attack), "cover");
    attack.target_stance = Stance::Standing;
    assert!(validate(&attack).is_ok());
}

#[test]
fn client_names_are_snake_case() {
    use serde::de::{IntoDeserializer, value::Error, value::StrDeserializer};
    fn parse<'de, T: Deserialize<'de>>(name: &'de str) -> T {
        let de: StrDeserializer<'de, Error> = name.into_deserializer();
        T::deserialize(de).unwrap()
    }
    assert_eq!(parse::<RangeBand>("very_long"), RangeBand::VeryLong);
    assert_eq!(parse::<WeaponType>("assault_weapon"), WeaponType::AssaultWeapon);
    assert_eq!(parse::<CoverLevel>("three_quarters"), CoverLevel::ThreeQuarters);
    assert_eq!(parse::<Dodge>("dodges_behind_obstruction"), Dodge::DodgesBehindObstruction);
    assert_eq!(parse::<Darkness>("low_light"), Darkness::LowLight);
    assert_eq!(parse::<WeaponTechnology>("other_energy"), WeaponTechnology::OtherEnergy);
}

#[test]
fn negative_skill_is_refused() {
    let mut attack = rifle_at(RangeBand::Short);
    attack.skill_level = Some(-2);
    assert_eq!(refused_field(&attack), "skill_level");
}

#[test]
fn a_low_attacker_in_full_cover_cannot_return_fire() {
    // "Cover": "If a character in full cover is crouching or prone they are impossible to hit but
    // cannot return fire." Standing in the pillbox, it may fire; crouched or prone, it may not.
    let mut attack = rifle_at(RangeBand::Medium);
    attack.attacker_cover = CoverLevel::Full;
    assert!(validate(&attack).is_ok(), "standing in full cover");
    for stance in [Stance::Crouched, Stance::Prone] {
        attack.attacker_stance = stance;
        assert_eq!(refused_field(&attack), "attacker_cover", "{stance:?}");
    }
    attack.attacker_cover = CoverLevel::ThreeQuarters;
    assert!(validate(&attack).is_ok(), "prone behind 3/4 cover still fires");
}
