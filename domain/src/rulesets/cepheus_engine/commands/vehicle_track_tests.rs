//! Damage tracked on recorded vehicles (`vehicle_track.rs`); numbers worked by hand from
//! cepheus-engine.txt, "Vehicle Damage" (Table: Vehicle Damage, Table: Vehicle Hit Location and
//! the location entries Hull, Structure, Armor, Drive, Weapon, Power Plant, Passengers, Cargo,
//! Cockpit, Computer).

use super::super::Stats;
use super::super::damage::Status;
use super::super::vehicle_location::HitLocation;
use super::super::vehicle_track::{OccupantHitCause, TrackedVehicleDamage};
use super::test_support::*;
use super::*;
use crate::encounter::Encounter;
use crate::encounter::test_support::{add, id};
use crate::rulesets::StatBlock;
use serde_json::{Value, json};

fn vehicle_stats(vehicle: Value, armour: i64) -> Stats {
    json(json!({"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7, "armour": armour, "vehicle": vehicle}))
}

/// Ana, Bo, Cy and the vehicle "Van".
fn with_van(vehicle: Value, armour: i64) -> Encounter {
    let mut enc = fight();
    add(&mut enc, "Van", StatBlock::CepheusEngine(vehicle_stats(vehicle, armour)));
    enc
}

fn hit(enc: &mut Encounter, body: Value, script: &[u32]) -> TrackedVehicleDamage {
    damage(enc, json(body), &mut dice(script)).unwrap().1.tracked_vehicle.unwrap()
}

fn codes(tracked: &TrackedVehicleDamage) -> Vec<(String, i32)> {
    tracked.hits.iter().flat_map(|hit| hit.steps.iter().map(|step| (step.code.to_string(), step.value))).collect()
}

fn steps(list: &[(&str, i32)]) -> Vec<(String, i32)> {
    list.iter().map(|(code, value)| ((*code).to_string(), *value)).collect()
}

fn van(enc: &Encounter) -> super::super::vehicle_block::Vehicle {
    stats_of(enc, "Van").vehicle.unwrap()
}

#[test]
fn a_triple_on_the_last_hull_moves_on_to_the_internal_row() {
    // 25 damage − armour 5 = 20 → Triple Hit (19–21). 2D6 3 + 3 = 6: External row 6, Hull.
    // Hull 2 → 1 → 0; the third hit finds no Hull: row 6 of the Internal column, Structure 3 → 2.
    let mut enc = with_van(json!({"hull": 2, "structure": 3}), 5);
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 25, "apply_armour": true}), &[3, 3]);
    assert_eq!(tracked.damage, 20);
    assert_eq!((tracked.hits.len(), tracked.hits[0].roll, tracked.hits[0].location), (1, 6, HitLocation::Hull));
    assert_eq!(codes(&tracked), steps(&[("hull", 1), ("hull", 0), ("hull_to_internal", 6), ("structure", 2)]));
    assert_eq!((tracked.hull_left, tracked.structure_left, tracked.destroyed), (0, 2, false));
    assert_eq!((van(&enc).damage.hull_lost.get(), van(&enc).damage.structure_lost.get()), (2, 1));
    assert_eq!(tracked.summary, "20 damage, 3 vehicle hits: Hull 0, Structure 2");
}

#[test]
fn multiple_hits_each_roll_a_location() {
    // 14 → Two Single Hits, Double Hit (13–15). Rolls 1+1 = 2 Hull (Hull 5 → 4); 3+4 = 7 Armor
    // (armour 3 → 2); 4+6 = 10 Drive, twice: Drive hit 1 then 2.
    let mut enc = with_van(json!({"hull": 5, "structure": 5}), 3);
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 14}), &[1, 1, 3, 4, 4, 6]);
    assert_eq!(codes(&tracked), steps(&[("hull", 4), ("armour", 2), ("drive", 1), ("drive", 2)]));
    assert_eq!(stats_of(&enc, "Van").armour.get(), 2);
    assert_eq!(van(&enc).damage.drive_hits.get(), 2);
}

#[test]
fn a_spent_drive_is_a_hull_hit() {
    // Drive at 3 hits ("Further drive hits count as Hull hits"): 2 damage → Single, 4 + 6 = 10.
    let mut enc = with_van(json!({"hull": 5, "structure": 5, "damage": {"drive_hits": 3, "disabled": true}}), 0);
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 2}), &[4, 6]);
    assert_eq!(codes(&tracked), steps(&[("spent_to_hull", 0), ("hull", 4)]));
}

#[test]
fn structure_at_zero_is_scrap_and_below_zero_explodes_on_the_occupants() {
    // Hull already gone, Structure 1; Bo pilots, Cy rides. 8 → Double Hit, 4 + 4 = 8 on the
    // Internal column (no Hull left): Structure 1 → 0 (destroyed), then → −1 in the same attack:
    // it explodes. 4D6 = 1+2+3+4 = 10 on each occupant (Cy's armour 4 → 6); 2D6 = 5+6 = 11 within
    // 12 m, reported. Bo: END 7 → 0, 3 on STR (STR 7 ties DEX 7: STR) → wounded. Cy: END 7 → 1.
    let mut enc = with_van(
        json!({"hull": 2, "structure": 1, "closed": true, "pilot_id": "Bo", "passenger_ids": ["Cy"],
               "damage": {"hull_lost": 2}}),
        0,
    );
    stats_mut(&mut enc, "Cy").armour = crate::score::Score::new(4).unwrap();
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 8}), &[4, 4, 1, 2, 3, 4, 5, 6]);
    assert_eq!(
        codes(&tracked),
        steps(&[
            ("structure", 0),
            ("destroyed", 0),
            ("structure", -1),
            ("explodes", -1)
        ])
    );
    let explosion = tracked.explosion.as_ref().unwrap();
    assert_eq!((explosion.damage_within_6_m, explosion.damage_within_12_m, explosion.closed), (10, 11, true));
    let dealt: Vec<_> = explosion.occupants.iter().map(|hit| (hit.combatant_id.clone(), hit.damage, hit.armour)).collect();
    assert_eq!(dealt, vec![(id("Bo"), 10, 0), (id("Cy"), 10, 4)]);
    assert_eq!(stats_of(&enc, "Bo").damage.end.get(), 7);
    assert_eq!(stats_of(&enc, "Bo").damage.str.get(), 3);
    assert_eq!(stats_of(&enc, "Cy").damage.end.get(), 6);
    assert!(tracked.destroyed && van(&enc).damage.exploded);
    assert!(enc.combatant(&id("Van")).unwrap().flags.defeated);
    assert_eq!(tracked.summary, "8 damage, 2 vehicle hits: Hull 0, Structure -1, destroyed and exploded");
    // Scrap takes no more hits, and the refusal changes nothing.
    let body: EncounterDamage = json(json!({"target_id": "Van", "damage": 3}));
    assert!(refused(&mut enc, |e| damage(e, body, &mut dice(&[1, 1]))).contains("destroyed"));
}

#[test]
fn reaching_zero_structure_exactly_does_not_explode() {
    // Structure 1, Hull gone: 3 → Single, 3 + 3 = 6 on the Internal column, Structure 1 → 0: scrap.
    let mut enc = with_van(json!({"hull": 1, "structure": 1, "damage": {"hull_lost": 1}}), 0);
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 3}), &[3, 3]);
    assert!(tracked.destroyed && tracked.explosion.is_none());
    assert_eq!(codes(&tracked), steps(&[("structure", 0), ("destroyed", 0)]));
}

#[test]
fn a_passenger_hit_picks_a_living_passenger_and_deals_the_vehicle_damage() {
    // Hull gone: Internal column. 3 → Single, 3 + 4 = 7, Passengers. Bo and Cy aboard: 1D2 = 2,
    // Cy takes the vehicle's 3 (no armour of its own against it): END 7 → 4.
    let mut enc = with_van(json!({"hull": 1, "structure": 5, "passenger_ids": ["Bo", "Cy"], "damage": {"hull_lost": 1}}), 0);
    stats_mut(&mut enc, "Cy").armour = crate::score::Score::new(4).unwrap();
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 3}), &[3, 4, 2]);
    assert_eq!(codes(&tracked), steps(&[("passenger_hit", 3)]));
    assert_eq!(tracked.occupant_hits[0].combatant_id, id("Cy"));
    assert_eq!(tracked.occupant_hits[0].cause, OccupantHitCause::Passengers);
    assert_eq!(stats_of(&enc, "Cy").damage.end.get(), 3);
}

#[test]
fn with_no_living_passenger_or_pilot_the_hit_is_structure() {
    // Hull gone: Internal column. Bo dead (three at zero); 8 → Double on 3 + 4 = 7, Passengers:
    // both passenger hits → Structure 5 → 3. Then 2 → Single, 6 + 6 = 12, Cockpit; no pilot →
    // Structure 3 → 2.
    let mut enc = with_van(json!({"hull": 1, "structure": 5, "passenger_ids": ["Bo"], "damage": {"hull_lost": 1}}), 0);
    let dead = &mut stats_mut(&mut enc, "Bo").damage;
    (dead.str, dead.dex, dead.end) = (score7(), score7(), score7());
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 8}), &[3, 4]);
    let expected =
        [("spent_to_structure", 0), ("structure", 4), ("spent_to_structure", 0), ("structure", 3)];
    assert_eq!(codes(&tracked), steps(&expected));
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 2}), &[6, 6]);
    assert_eq!(codes(&tracked), steps(&[("spent_to_structure", 0), ("structure", 2)]));
}

fn score7() -> super::super::character::DamagePoints {
    crate::score::Score::new(7).unwrap()
}

#[test]
fn cargo_is_ruined_then_cargo_hits_are_structure() {
    // Hull gone (Internal column), cargo aboard; 8 → Double on 2 + 3 = 5, Cargo: ruined, then
    // the second cargo hit → Structure 4 → 3.
    let mut enc = with_van(json!({"hull": 1, "structure": 4, "cargo": true, "damage": {"hull_lost": 1}}), 0);
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 8}), &[2, 3]);
    assert_eq!(codes(&tracked), steps(&[("cargo", 1), ("spent_to_structure", 0), ("structure", 3)]));
    assert!(van(&enc).damage.cargo_destroyed);
}

#[test]
fn weapons_are_picked_among_those_left_then_become_hull_hits() {
    // Two weapons, the first destroyed: 8 → Double on 2 + 3 = 5, Weapon. Only weapon 2 is left
    // (no pick rolled): hit 1 (−2 DM), hit 2 (destroyed). Then 2 → Single on 4 + 5 = 9, Weapon:
    // none left → Hull 3 → 2.
    let mut enc = with_van(json!({"hull": 3, "structure": 4, "weapons": 2, "damage": {"weapon_hits": [2]}}), 0);
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 8}), &[2, 3]);
    assert_eq!(codes(&tracked), steps(&[("weapon", 1), ("weapon", 2)]));
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 2}), &[4, 5]);
    assert_eq!(codes(&tracked), steps(&[("spent_to_hull", 0), ("hull", 2)]));
}

#[test]
fn a_robots_third_power_plant_hit_rolls_1d6_hull_hits() {
    // Robot column row 3, Power Plant, at 2 hits: 2 → Single on 1 + 2 = 3, the third hit destroys
    // it (disabled) and rolls 1D6 = 3 Hull hits: Hull 1 → 0, then a robot's Hull hits are
    // Structure hits: 10 → 9 → 8.
    let mut enc = with_van(json!({"kind": "robot_or_drone", "hull": 1, "structure": 10, "damage": {"power_plant_hits": 2}}), 0);
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 2}), &[1, 2, 3]);
    let expected = [
        ("power_plant", 3),
        ("power_plant_hull_hits", 3),
        ("hull", 0),
        ("hull_to_structure", 0),
        ("structure", 9),
        ("hull_to_structure", 0),
        ("structure", 8),
    ];
    assert_eq!(codes(&tracked), steps(&expected));
    assert!(van(&enc).damage.disabled);
}

#[test]
fn a_robots_disabled_computer_shuts_it_down_for_1d6_rounds() {
    // Robot column row 12, Computer: 2 → Single on 6 + 6; 1D6 = 4 rounds.
    let mut enc = with_van(json!({"kind": "robot_or_drone", "hull": 1, "structure": 10}), 0);
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 2}), &[6, 6, 4]);
    assert_eq!(codes(&tracked), steps(&[("computer", 1), ("shut_down_rounds", 4)]));
    assert_eq!(van(&enc).damage.shut_down_rounds.map(|rounds| rounds.get()), Some(4));
}

#[test]
fn a_recorded_vehicle_refuses_another_column_and_a_split() {
    let mut enc = with_van(json!({"hull": 1, "structure": 1}), 0);
    let body: EncounterDamage = json(json!({"target_id": "Van", "damage": 3, "hit_location_table": "internal"}));
    assert_eq!(refused(&mut enc, |e| damage(e, body, &mut dice(&[1, 1]))), "hit_location_table");
    let body: EncounterDamage = json(json!({"target_id": "Van", "damage": 3, "overflow_to": "str"}));
    assert_eq!(refused(&mut enc, |e| damage(e, body, &mut dice(&[1, 1]))), "overflow_to");
    let body: EncounterDamage = json(json!({"target_id": "Van", "damage": 3, "hit_location_table": "external"}));
    assert!(damage(&mut enc, body, &mut dice(&[1, 1])).is_ok());
}

#[test]
fn a_hit_after_the_last_hull_is_looked_up_on_the_internal_column() {
    // Hull 1: 6 → Two Single Hits. 1 + 1 = 2, External Hull: 1 → 0. The second Hit, 3 + 4 = 7,
    // is looked up on the Internal column (Hull 0): Passengers, Bo takes 6 (END 7 → 1).
    let mut enc = with_van(json!({"hull": 1, "structure": 3, "passenger_ids": ["Bo"]}), 0);
    let tracked = hit(&mut enc, json!({"target_id": "Van", "damage": 6}), &[1, 1, 3, 4]);
    assert_eq!(tracked.hits[1].location, HitLocation::Passengers);
    assert_eq!(codes(&tracked), steps(&[("hull", 0), ("passenger_hit", 6)]));
    assert_eq!(stats_of(&enc, "Bo").damage.end.get(), 6);
}

#[test]
fn an_unknown_occupant_refuses_the_damage_and_changes_nothing() {
    let mut enc = with_van(json!({"hull": 1, "structure": 5, "passenger_ids": ["Zed"], "damage": {"hull_lost": 1}}), 0);
    let body: EncounterDamage = json(json!({"target_id": "Van", "damage": 3}));
    assert_eq!(refused(&mut enc, |e| damage(e, body, &mut dice(&[3, 4]))), "target_id");
}

#[test]
fn the_inline_form_answers_with_the_same_report_and_applies_nothing_to_occupants() {
    // As the explosion test, inline: the occupants are named, taken as alive, and reported.
    let body: InlineDamage = json(json!({
        "target": {"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7,
                   "vehicle": {"hull": 2, "structure": 1, "pilot_id": "Bo", "damage": {"hull_lost": 2}}},
        "damage": 8}));
    let report = damage_inline(body, &mut dice(&[4, 4, 1, 2, 3, 4, 5, 6])).unwrap();
    let tracked = report.tracked_vehicle.unwrap();
    let explosion = tracked.explosion.unwrap();
    assert_eq!((explosion.occupants.len(), explosion.occupants[0].damage), (1, 10));
    assert!(explosion.occupants[0].hit.is_none());
    assert_eq!(tracked.vehicle_after.damage.structure_lost.get(), 2);
}

#[test]
fn a_stored_attack_on_a_recorded_vehicle_tracks_its_hits() {
    // Ana (Gun Combat 2, DEX 9 → +1) fires a 3D6 pistol (Short: DM 0) at the Van at Short range: 2D6 4 + 4 +
    // 3 skill + 1 vehicle size ("+1 DM to hit most vehicles") = 12 vs 8, Effect 4. Damage 3D6
    // 1 + 1 + 1 + Effect 4 = 7 − armour 1 = 6 → Two Single Hits: 1 + 1 = 2 Hull (2 → 1),
    // 3 + 3 = 6 Hull (1 → 0).
    let mut enc = with_van(json!({"hull": 2, "structure": 2}), 1);
    let body: EncounterAttack = json(json!({
        "attacker_id": "Ana", "target_id": "Van", "range_band": "short",
        "weapon": {"weapon_type": "pistol", "damage_dice": 3}}));
    let (_, report) = attack(&mut enc, body, &mut dice(&[4, 4, 1, 1, 1, 1, 1, 3, 3])).unwrap();
    let tracked = report.tracked_vehicle.unwrap_or_else(|| panic!("{:?}", report.notes));
    assert_eq!(tracked.damage, 6);
    assert_eq!(codes(&tracked), steps(&[("hull", 1), ("hull", 0)]));
    assert_eq!(van(&enc).damage.hull_lost.get(), 2);
    assert!(report.target_hit.is_none());
    assert_eq!(stats_of(&enc, "Van").status(), Status::Uninjured);
}
