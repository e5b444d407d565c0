use super::*;
use crate::dice::DieStatus;
use crate::rulesets::cepheus_engine::modifier::ModifierCode;
use crate::rulesets::cepheus_engine::Characteristic;
use crate::rulesets::cepheus_engine::attack_miss::ScatterDirection;
use crate::rulesets::cepheus_engine::attack_request::{
    Attacker, BlindFire, Defender, MeleeCharacteristic, ThrownKind, WeaponDamage,
};
use crate::rulesets::cepheus_engine::burst::{Burst, BurstMode};
use crate::rulesets::cepheus_engine::circumstances::AttackCircumstances;
use crate::rulesets::cepheus_engine::explosion::ExplosionResponse;
use crate::rulesets::cepheus_engine::range::RangeBand;
use crate::rulesets::cepheus_engine::reactions::Dodge;
use crate::rulesets::cepheus_engine::vehicle::Hit;
use crate::rulesets::cepheus_engine::vehicle_location::{HitLocation, LocationTable};
use crate::rulesets::cepheus_engine::weapon::{WeaponTechnology, WeaponType};

fn attacker(str: i64, dex: i64) -> Attacker {
    let c = |value| Characteristic::new(value).unwrap();
    Attacker { str: c(str), dex: c(dex), melee_characteristic: None, zero_g_skill: None }
}

fn request(weapon_type: WeaponType, band: RangeBand, skill: Option<i32>, damage_dice: u32) -> AttackRequest {
    let mut circumstances = AttackCircumstances::new(weapon_type, band);
    circumstances.skill_level = skill;
    let thrown_kind = (weapon_type == WeaponType::Thrown).then_some(ThrownKind::Impact);
    AttackRequest {
        circumstances,
        attacker: attacker(7, 7),
        weapon: WeaponDamage { damage_dice, damage_bonus: 0, thrown_kind },
        defender: Defender::default(),
        extra_modifiers: Vec::new(),
        blind_fire: None,
        coup_de_grace: false,
    }
}

fn resolve(request: &AttackRequest, rolls: Vec<u32>) -> AttackOutcome {
    let mut dice = Dice::scripted(rolls, 0).unwrap();
    resolve_attack(request, &mut dice).unwrap()
}

fn dms(outcome: &AttackOutcome) -> Vec<i32> {
    outcome.modifiers.iter().map(|modifier| modifier.dm).collect()
}

fn totals(damage: &DamageBreakdown) -> Vec<i32> {
    damage.steps.iter().map(|step| step.total).collect()
}

fn refused_field(request: &AttackRequest) -> String {
    let mut dice = Dice::scripted(vec![], 0).unwrap();
    let result = resolve_attack(request, &mut dice);
    assert!(dice.rolls().is_empty(), "a refused attack rolls nothing");
    match result {
        Err(RuleError::Invalid { field, .. }) => field,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_rifle_shot_hits_and_damage_goes_through_armour() {
    // Rifle at Medium (Average +0), skill 2, DEX 9 (+1), aim 2 (+2): DM +5.
    // Dice 4 + 3 = 7 → 12, Effect +4. Damage 3D6 2 + 5 + 6 = 13, + 4 = 17, armour 5 → 12.
    let mut attack = request(WeaponType::Rifle, RangeBand::Medium, Some(2), 3);
    attack.attacker = attacker(7, 9);
    attack.circumstances.aim = 2;
    attack.defender.armour = 5;
    let outcome = resolve(&attack, vec![4, 3, 2, 5, 6]);
    let reasons: Vec<_> = outcome.modifiers.iter().map(|m| &*m.reason).collect();
    assert_eq!(
        reasons,
        ["gun combat skill 2", "DEX 9 (DM +1)", "Rifle at Medium range: Average", "aiming (2 minor actions)"]
    );
    assert_eq!((outcome.kind, outcome.target, outcome.total_dm), (AttackKind::Shooting, 8, 5));
    assert_eq!((outcome.roll_total, outcome.effect, outcome.hit), (Some(12), Some(4), true));
    let damage = outcome.damage.unwrap();
    assert_eq!((damage.dice.clone(), damage.dice_total, damage.effect_added), (vec![2, 5, 6], 13, Some(4)));
    assert_eq!(totals(&damage), vec![13, 17]);
    assert_eq!((damage.before_armour, damage.armour, damage.after_armour), (17, 5, 12));
    assert!(!damage.minimum_one_applied);
    let purposes: Vec<_> = outcome.dice.iter().map(|die| &*die.purpose).collect();
    assert_eq!(
        purposes,
        ["attack roll", "attack roll", "damage: weapon", "damage: weapon", "damage: weapon"]
    );
}

#[test]
fn a_miss_rolls_no_damage() {
    // Pistol at Long (Very Difficult −4), skill 1, DEX 7 (+0): 3 + 4 + 1 − 4 = 4, Effect −4.
    let outcome = resolve(&request(WeaponType::Pistol, RangeBand::Long, Some(1), 3), vec![3, 4]);
    assert_eq!((outcome.roll_total, outcome.effect, outcome.hit), (Some(4), Some(-4), false));
    assert!(outcome.damage.is_none() && outcome.firing_into_combat.is_none() && outcome.scatter.is_none());
    assert_eq!(outcome.dice.len(), 2);
}

#[test]
fn an_unskilled_brawler_uses_the_better_characteristic_unless_told_otherwise() {
    // Close quarters at Personal (+0), unskilled −3, STR 12 (+2) beats DEX 4 (−1).
    // 6 + 5 − 3 + 2 = 10, Effect +2; damage 2D6 3 + 3 = 6, + 2 = 8.
    let mut attack = request(WeaponType::CloseQuarters, RangeBand::Personal, None, 2);
    attack.attacker = attacker(12, 4);
    let outcome = resolve(&attack, vec![6, 5, 3, 3]);
    assert_eq!(outcome.modifiers[0].reason, "unskilled in melee combat skill (-3)");
    assert_eq!(outcome.modifiers[1].reason, "STR 12 (DM +2)");
    assert_eq!((outcome.roll_total, outcome.damage.unwrap().after_armour), (Some(10), 8));
    // Choosing DEX instead: 6 + 5 − 3 − 1 = 7 → a miss.
    attack.attacker.melee_characteristic = Some(MeleeCharacteristic::Dex);
    let outcome = resolve(&attack, vec![6, 5]);
    assert_eq!((outcome.roll_total, outcome.hit), (Some(7), false));
}

#[test]
fn a_parry_and_the_callers_extra_modifiers_are_listed() {
    // Extended reach at Close (Average +0), skill 1, DEX 10 (+1), parry Melee-2 (−2), extra −1:
    // 6 + 4 + 1 + 1 + 0 − 2 − 1 = 9, Effect +1.
    let mut attack = request(WeaponType::ExtendedReach, RangeBand::Close, Some(1), 2);
    attack.attacker = attacker(7, 10);
    attack.attacker.melee_characteristic = Some(MeleeCharacteristic::Dex);
    attack.circumstances.parry_skill = Some(2);
    attack.extra_modifiers = vec![Modifier::new(ModifierCode::Caller, "reacted to an earlier shot", -1)];
    let outcome = resolve(&attack, vec![6, 4, 1, 1]);
    assert_eq!(dms(&outcome), vec![1, 1, 0, -2, -1]);
    assert_eq!(outcome.modifiers[3].reason, "target parries with melee skill 2");
    assert_eq!(outcome.modifiers[4].reason, "reacted to an earlier shot");
    assert_eq!((outcome.roll_total, outcome.effect), (Some(9), Some(1)));
}

#[test]
fn blind_fire_counts_skill_zero_drops_the_highest_die_and_picks_a_target() {
    // Rifle at Short (+0), skill 3 counted as 0, DEX 9 (+1). Dice 6, 2, 5: the 6 goes,
    // 2 + 5 + 0 + 1 = 8, Effect 0 — a hit. Target die (d3) 2. Damage 2D6 1 + 1 = 2.
    let mut attack = request(WeaponType::Rifle, RangeBand::Short, Some(3), 2);
    attack.attacker = attacker(7, 9);
    attack.blind_fire = Some(BlindFire { eligible_targets: crate::score::Score::new(3).unwrap() });
    let outcome = resolve(&attack, vec![6, 2, 5, 2, 1, 1]);
    assert_eq!(outcome.modifiers[0], Modifier::new(ModifierCode::Skill, "gun combat skill counts as 0 when firing blind", 0));
    assert_eq!((outcome.kept_dice.clone(), outcome.dropped_die), (vec![2, 5], Some(6)));
    assert_eq!((outcome.roll_total, outcome.hit, outcome.blind_fire_target), (Some(8), true, Some(2)));
    assert_eq!(outcome.damage.unwrap().after_armour, 2);
    assert_eq!(outcome.dice[0].status, DieStatus::Dropped);
    assert_eq!(outcome.dice[3].sides, 3);
}

#[test]
fn zero_gravity_caps_the_skill_and_penalises_recoil() {
    // Pistol at Close (+0), skill 2 capped at Zero-G 1, DEX 7, recoil in zero-G −2:
    // 5 + 4 + 1 + 0 + 0 − 2 = 8, Effect 0.
    let mut attack = request(WeaponType::Pistol, RangeBand::Close, Some(2), 1);
    attack.circumstances.zero_g = true;
    attack.circumstances.recoil = true;
    attack.attacker.zero_g_skill = Some(1);
    let outcome = resolve(&attack, vec![5, 4, 3]);
    assert_eq!(outcome.modifiers[0].reason, "gun combat skill 2, limited to Zero-G 1 in zero gravity");
    assert_eq!(dms(&outcome), vec![1, 0, 0, -2]);
    assert_eq!((outcome.roll_total, outcome.hit), (Some(8), true));
}

#[test]
fn a_grouped_burst_adds_its_dice_before_the_effect() {
    // Assault weapon at Short (+0), skill 1, DEX 7: 6 + 6 + 1 = 13, Effect +5.
    // 3D6 4 + 4 + 4 = 12; grouped 10-round +2D6 3 + 2 = 5 → 17; Effect → 22; armour 10 → 12.
    let mut attack = request(WeaponType::AssaultWeapon, RangeBand::Short, Some(1), 3);
    attack.circumstances.burst = Some(Burst { rounds: crate::score::Score::new(10).unwrap(), mode: BurstMode::Grouped });
    attack.defender.armour = 10;
    let damage = resolve(&attack, vec![6, 6, 4, 4, 4, 3, 2]).damage.unwrap();
    assert_eq!(totals(&damage), vec![12, 17, 22]);
    assert_eq!(damage.steps[1].reason, "grouped 10-round burst (+2D6)");
    assert_eq!(damage.steps[1].dice, vec![3, 2]);
    assert_eq!((damage.extra, damage.after_armour), (5, 12));
}

#[test]
fn an_energy_weapon_at_extreme_range_halves_after_aiming_for_the_kill() {
    // Laser rifle at Distant (Very Difficult −4) and beyond (−2), skill 3, DEX 9 (+1):
    // 3 + 1 − 4 − 2 = −2; dice 6 + 5 = 11 → 9, Effect +1.
    // 3D6 5 + 5 + 5 = 15; aiming for the kill +4 → 19; Effect → 20; halved → 10; armour 4 → 6.
    let mut attack = request(WeaponType::Rifle, RangeBand::Distant, Some(3), 3);
    attack.attacker = attacker(7, 9);
    attack.circumstances.technology = WeaponTechnology::Laser;
    attack.circumstances.extreme_range = true;
    attack.circumstances.braced = true;
    attack.circumstances.aim_for_kill = 4;
    attack.defender.armour = 4;
    let outcome = resolve(&attack, vec![6, 5, 5, 5, 5]);
    assert_eq!((outcome.total_dm, outcome.effect), (-2, Some(1)));
    let damage = outcome.damage.unwrap();
    assert_eq!(totals(&damage), vec![15, 19, 20, 10]);
    assert_eq!(damage.steps[3].value, -10);
    assert_eq!((damage.before_armour, damage.after_armour), (10, 6));
}

#[test]
fn a_spreading_shotgun_rolls_2d6_instead_of_its_damage() {
    // Shotgun at Medium (Difficult −2), spread +1, skill 1: 5 + 4 + 1 − 2 + 1 = 9, Effect +1.
    // 4D6+2 becomes 2D6: 6 + 3 = 9, + 1 = 10.
    let mut attack = request(WeaponType::Shotgun, RangeBand::Medium, Some(1), 4);
    attack.weapon.damage_bonus = 2;
    attack.circumstances.shotgun_spread = true;
    let outcome = resolve(&attack, vec![5, 4, 6, 3]);
    let damage = outcome.damage.as_ref().unwrap();
    assert_eq!((damage.dice.clone(), damage.before_armour), (vec![6, 3], 10));
    assert_eq!(outcome.dice.len(), 4);
    assert_eq!(outcome.notes, ["shotgun spread: anyone at Personal range of the target may be hit too"]);
}

#[test]
fn panic_fire_is_harder_to_land_but_adds_burst_dice() {
    // Pistol at Close (+0), skill 1, panic −2: 6 + 5 + 1 − 2 = 10, Effect +2.
    // 3D6 1 + 2 + 3 = 6; 7 rounds left → +1D6 6 → 12; Effect → 14.
    let mut attack = request(WeaponType::Pistol, RangeBand::Close, Some(1), 3);
    attack.circumstances.panic_fire_rounds = Some(7);
    let outcome = resolve(&attack, vec![6, 5, 1, 2, 3, 6]);
    assert_eq!(outcome.effect, Some(2));
    assert_eq!(totals(outcome.damage.as_ref().unwrap()), vec![6, 12, 14]);
}

#[test]
fn effect_six_always_gets_a_point_through_armour() {
    // Rifle at Short (+0), skill 2, DEX 12 (+2): 6 + 6 + 4 = 16, Effect +8.
    // 1D6 1 + 8 = 9 against armour 20 → 0, raised to 1.
    let mut attack = request(WeaponType::Rifle, RangeBand::Short, Some(2), 1);
    attack.attacker = attacker(7, 12);
    attack.defender.armour = 20;
    let damage = resolve(&attack, vec![6, 6, 1]).damage.unwrap();
    assert_eq!((damage.before_armour, damage.after_armour, damage.minimum_one_applied), (9, 1, true));
}

#[test]
fn an_impact_throw_adds_the_athletics_effect() {
    // Thrown at Close (Average +0), Athletics 1, DEX 9 (+1): 5 + 5 + 2 = 12, Effect +4.
    // 1D6 3 + 4 = 7.
    let mut attack = request(WeaponType::Thrown, RangeBand::Close, Some(1), 1);
    attack.attacker = attacker(7, 9);
    let outcome = resolve(&attack, vec![5, 5, 3]);
    assert_eq!(outcome.kind, AttackKind::Thrown);
    assert_eq!(outcome.modifiers[0].reason, "Athletics 1");
    let damage = outcome.damage.unwrap();
    assert_eq!((damage.effect_added, damage.after_armour), (Some(4), 7));
}

#[test]
fn a_grenade_adds_no_effect_and_its_target_may_dive() {
    // Thrown at Short (Difficult −2), Athletics 2, DEX 9 (+1): 6 + 5 + 2 + 1 − 2 = 12, Effect +4.
    // 5D6 2 + 3 + 4 + 5 + 6 = 20, no Effect; dive → 10; armour 3 → 7.
    let mut attack = request(WeaponType::Thrown, RangeBand::Short, Some(2), 5);
    attack.attacker = attacker(7, 9);
    attack.weapon.thrown_kind = Some(ThrownKind::Explosive);
    attack.defender.blast_response = ExplosionResponse::Dive;
    attack.defender.armour = 3;
    let damage = resolve(&attack, vec![6, 5, 2, 3, 4, 5, 6]).damage.unwrap();
    assert_eq!(damage.effect_added, None);
    assert_eq!(totals(&damage), vec![20, 20, 10]);
    let blast = damage.blast.as_ref().unwrap();
    assert!(blast.ends_prone && blast.reaction_taken);
    assert_eq!((damage.before_armour, damage.after_armour), (10, 7));
}

#[test]
fn a_missed_throw_scatters_six_plus_effect_metres() {
    // Thrown at Medium (Difficult −2), Athletics 1: 2 + 3 + 1 − 2 = 4, Effect −4 → 6 − 4 = 2 m;
    // direction d8 = 5 → short, back toward the thrower.
    let mut attack = request(WeaponType::Thrown, RangeBand::Medium, Some(1), 5);
    attack.weapon.thrown_kind = Some(ThrownKind::Explosive);
    let outcome = resolve(&attack, vec![2, 3, 5]);
    let scatter = outcome.scatter.unwrap();
    assert_eq!((scatter.direction, scatter.distance_m), (ScatterDirection::Short, 2));
    assert!(outcome.damage.is_none());
}

#[test]
fn a_miss_into_combat_may_hit_the_nearest_other() {
    // Pistol at Short (+0), skill 0, into combat −2: 3 + 3 + 0 − 2 = 4, a miss; stray 1D6 = 5.
    let mut attack = request(WeaponType::Pistol, RangeBand::Short, Some(0), 3);
    attack.circumstances.firing_into_combat = true;
    let outcome = resolve(&attack, vec![3, 3, 5]);
    assert_eq!(outcome.firing_into_combat, Some(StrayShot { roll: 5, hits_nearest_other: true }));
    assert_eq!(outcome.notes, ["the miss hits the combatant nearest the original target"]);
    // A throw into combat: Close (+0), Athletics 0, −2: 1 + 2 − 2 = 1; stray 2 misses everyone,
    // so it scatters: 6 − 7 = −1 → 0 m, direction 1 → long.
    let mut throw = request(WeaponType::Thrown, RangeBand::Close, Some(0), 1);
    throw.circumstances.firing_into_combat = true;
    let outcome = resolve(&throw, vec![1, 2, 2, 1]);
    assert_eq!(outcome.firing_into_combat.map(|stray| stray.hits_nearest_other), Some(false));
    assert_eq!(outcome.scatter.map(|s| (s.direction, s.distance_m)), Some((ScatterDirection::Long, 0)));
}

#[test]
fn suppression_does_no_damage_and_stalls_by_the_effect() {
    // Rifle at Medium (+0), skill 2, DEX 9 (+1), suppression −2: 6 + 4 + 2 + 1 − 2 = 11, Effect +3.
    let mut attack = request(WeaponType::Rifle, RangeBand::Medium, Some(2), 3);
    attack.attacker = attacker(7, 9);
    attack.circumstances.suppression = true;
    let outcome = resolve(&attack, vec![6, 4]);
    assert_eq!(outcome.suppression, Some(SuppressionResult { initiative_penalty: 3, skill_check_dm: -1 }));
    assert!(outcome.damage.is_none());
    assert_eq!(outcome.dice.len(), 2);
}

#[test]
fn a_vehicle_hit_becomes_located_hits() {
    // Rifle at Long (+0), vehicle +1, skill 1: 4 + 4 + 1 + 1 = 10, Effect +2.
    // 3D6 6 + 6 + 6 = 18, + 2 = 20, armour 4 → 16 → Double, Double.
    // External locations: 3 + 4 = 7 Armour; 5 + 5 = 10 Drive.
    let mut attack = request(WeaponType::Rifle, RangeBand::Long, Some(1), 3);
    attack.circumstances.target_is_vehicle = true;
    attack.defender.armour = 4;
    attack.defender.hit_location_table = Some(LocationTable::External);
    let outcome = resolve(&attack, vec![4, 4, 6, 6, 6, 3, 4, 5, 5]);
    assert_eq!(dms(&outcome), vec![1, 0, 0, 1]);
    let vehicle = outcome.vehicle.unwrap();
    assert_eq!(vehicle.damage, 16);
    let hits: Vec<_> = vehicle.hits.iter().map(|hit| (hit.hit, hit.roll, hit.location)).collect();
    assert_eq!(hits, vec![(Hit::Double, 7, HitLocation::Armour), (Hit::Double, 10, HitLocation::Drive)]);
}

#[test]
fn a_coup_de_grace_hits_and_kills_without_a_roll() {
    let mut attack = request(WeaponType::CloseQuarters, RangeBand::Close, Some(1), 2);
    attack.coup_de_grace = true;
    attack.defender.helpless = true;
    let outcome = resolve(&attack, vec![]);
    assert!(outcome.hit && outcome.coup_de_grace && outcome.target_killed);
    assert_eq!((outcome.roll_total, outcome.effect, outcome.damage), (None, None, None));
    assert!(outcome.dice.is_empty() && outcome.modifiers.is_empty());
    // A pistol next to the target (Close) is allowed; at Short it is refused.
    let mut pistol = request(WeaponType::Pistol, RangeBand::Close, Some(1), 3);
    pistol.coup_de_grace = true;
    pistol.defender.helpless = true;
    assert!(resolve(&pistol, vec![]).target_killed);
    pistol.circumstances.range_band = RangeBand::Short;
    assert_eq!(refused_field(&pistol), "circumstances.range_band");
    pistol.circumstances.range_band = RangeBand::Close;
    pistol.defender.helpless = false;
    assert_eq!(refused_field(&pistol), "defender.helpless");
}

#[test]
fn bad_requests_are_refused_by_json_path() {
    let rifle = || request(WeaponType::Rifle, RangeBand::Medium, Some(1), 3);
    let mut bad = request(WeaponType::Pistol, RangeBand::VeryLong, Some(1), 3);
    assert_eq!(refused_field(&bad), "circumstances.range_band");
    bad = request(WeaponType::Thrown, RangeBand::Close, Some(1), 1);
    bad.weapon.thrown_kind = None;
    assert_eq!(refused_field(&bad), "weapon.thrown_kind");
    bad = rifle();
    bad.weapon.thrown_kind = Some(ThrownKind::Impact);
    assert_eq!(refused_field(&bad), "weapon.thrown_kind");
    bad = rifle();
    bad.weapon.damage_dice = 51;
    assert_eq!(refused_field(&bad), "weapon.damage_dice");
    bad = rifle();
    bad.attacker.melee_characteristic = Some(MeleeCharacteristic::Str);
    assert_eq!(refused_field(&bad), "attacker.melee_characteristic");
    bad = rifle();
    bad.attacker.zero_g_skill = Some(-1);
    assert_eq!(refused_field(&bad), "attacker.zero_g_skill");
    bad = rifle();
    bad.circumstances.target_is_vehicle = true;
    assert_eq!(refused_field(&bad), "defender.hit_location_table");
    bad = rifle();
    bad.extra_modifiers = vec![Modifier::new(ModifierCode::Caller, " ", -1)];
    assert_eq!(refused_field(&bad), "extra_modifiers[0].reason");
    bad.extra_modifiers = vec![Modifier::new(ModifierCode::Caller, "ok", -1), Modifier::new(ModifierCode::Caller, "huge", 25)];
    assert_eq!(refused_field(&bad), "extra_modifiers[1].value");
}

#[test]
fn blind_fire_and_blast_responses_are_checked() {
    let mut bad = request(WeaponType::CloseQuarters, RangeBand::Personal, Some(1), 2);
    bad.blind_fire = Some(BlindFire { eligible_targets: crate::score::Score::new(2).unwrap() });
    assert_eq!(refused_field(&bad), "blind_fire");
    assert!(serde_json::from_str::<BlindFire>(r#"{"eligible_targets": 0}"#).is_err());
    bad = request(WeaponType::Thrown, RangeBand::Close, Some(1), 1);
    bad.defender.blast_response = ExplosionResponse::Dodge;
    assert_eq!(refused_field(&bad), "defender.blast_response");
    bad.weapon.thrown_kind = Some(ThrownKind::Explosive);
    bad.circumstances.dodge = Dodge::Dodges;
    assert_eq!(refused_field(&bad), "defender.blast_response");
}
