//! Facts a stored attack takes from the record, not the caller (`attack_facts.rs`; issue 28).
//! Numbers worked by hand from cepheus-engine.txt. Setup (`fight()`): Ana (Gun Combat 2, DEX 9)
//! on 10, Bo 8, Cy 6; round 1, Ana's turn.

use super::super::modifier::ModifierCode;
use super::test_support::*;
use super::*;
use crate::encounter::test_support::id;
use serde_json::json;

fn shot(extra: serde_json::Value) -> EncounterAttack {
    let mut body = json!({
        "attacker_id": "Ana", "target_id": "Bo",
        "weapon": {"weapon_type": "pistol", "damage_dice": 1}, "range_band": "short"
    });
    for (key, value) in extra.as_object().unwrap() {
        body[key] = value.clone();
    }
    json(body)
}

fn grapple(enc: &mut crate::encounter::Encounter, a: &str, b: &str) {
    state_of(enc, a).grappling_with = Some(id(b));
    state_of(enc, b).grappling_with = Some(id(a));
}

#[test]
fn shooting_at_a_grappler_is_firing_into_combat_without_the_flag() {
    // Bo and Cy grapple, at Personal range ("Grappling"): "Firing into Combat" applies.
    // DM: Gun Combat 2 + DEX 9 (+1) + Pistol at Short (+0) − 2 = +1. Dice 1 + 1 + 1 = 3: a miss.
    // 1D6 = 5 (4+): the stray shot hits the nearest other combatant, Cy, Bo's grappling partner.
    // Damage 1D6 (4) + Effect 0 = 4, no armour: Cy's END 7 → 3.
    let mut enc = fight();
    grapple(&mut enc, "Bo", "Cy");
    let (_, report) = attack(&mut enc, shot(json!({})), &mut dice(&[1, 1, 5, 4])).unwrap();
    let into_combat: Vec<i32> = report
        .outcome
        .modifiers
        .iter()
        .filter(|m| m.code == ModifierCode::FiringIntoCombat)
        .map(|m| m.dm)
        .collect();
    assert_eq!((into_combat, report.outcome.total_dm), (vec![-2], 1));
    let stray = report.stray_shot.unwrap();
    assert_eq!((stray.hit.combatant_id, stray.damage.after_armour), (Some(id("Cy")), 4));
    assert_eq!(stats_of(&enc, "Cy").damage.end.get(), 4);
    assert_eq!(report.notes[0].to_string(), "firing into combat: Bo is grappling Cy (recorded)");
}

#[test]
fn a_flag_that_denies_the_recorded_grapple_is_refused() {
    let mut enc = fight();
    grapple(&mut enc, "Bo", "Cy");
    let field = refused(&mut enc, |e| {
        attack(e, shot(json!({"firing_into_combat": false})), &mut dice(&[6, 6, 6]))
    });
    assert_eq!(field, "firing_into_combat");
}

#[test]
fn a_melee_blow_at_a_grappler_is_not_firing_into_combat() {
    // Close Quarters at Personal: Average (+0); Melee Combat 1 + the better of STR 7 (+0) and
    // DEX 9 (+1) = +2. Dice 6 + 6 = 12 + 2 = 14: Effect 6.
    let mut enc = fight();
    grapple(&mut enc, "Bo", "Cy");
    let blow = shot(json!({"weapon": {"weapon_type": "close_quarters", "damage_dice": 1}, "range_band": "personal"}));
    let (_, report) = attack(&mut enc, blow, &mut dice(&[6, 6, 1])).unwrap();
    assert_eq!((report.outcome.total_dm, report.outcome.effect), (2, Some(6)));
    assert!(report.outcome.modifiers.iter().all(|m| m.code != ModifierCode::FiringIntoCombat));
}

fn extreme(extra: serde_json::Value) -> EncounterAttack {
    let mut request = shot(json!({
        "weapon": {"weapon_type": "rifle", "damage_dice": 3},
        "range_band": "distant", "extreme_range": true, "braced": true
    }));
    if let Some(driver) = extra.get("attacker_vehicle_driver_id") {
        request.attacker_vehicle_driver_id = Some(json(driver.clone()));
    }
    if let Some(attacker) = extra.get("attacker_id") {
        request.attacker_id = json(attacker.clone());
    }
    request
}

#[test]
fn extreme_range_fire_needs_a_firer_that_has_not_moved_this_round() {
    // "Extreme Range Firing": level 3 and stationary. Ana, Gun Combat 3: DM 3 + DEX +1 + Rifle
    // at Distant: Very Difficult (−4) − 2 = −2. Dice 6 + 6 = 12 − 2 = 10: Effect 2.
    let mut enc = fight();
    *stats_mut(&mut enc, "Ana") = stats(7, 9, 7, &[("gun_combat", 3)]);
    let mut moved = enc.clone();
    let (_, report) = attack(&mut enc, extreme(json!({})), &mut dice(&[6, 6, 1, 1, 1])).unwrap();
    assert_eq!((report.outcome.total_dm, report.outcome.effect), (-2, Some(2)));

    act(&mut moved, json(json!({"action": "move", "combatant_id": "Ana", "metres": 3})), &mut dice(&[])).unwrap();
    assert_eq!(state(&moved, "Ana").moved_round, Some(1));
    let field = refused(&mut moved, |e| attack(e, extreme(json!({})), &mut dice(&[6, 6, 1, 1, 1])));
    assert_eq!(field, "extreme_range");
}

#[test]
fn extreme_range_fire_from_a_vehicle_driven_this_round_is_refused() {
    // "Vehicles must be stationary for weapons to be fired at extreme range from it": Bo drives
    // in his turn of round 1; Cy (Gun Combat 3), aboard, fires in hers.
    let mut enc = fight();
    *stats_mut(&mut enc, "Cy") = stats(7, 4, 7, &[("gun_combat", 3)]);
    next_turn(&mut enc); // Bo
    act(&mut enc, json(json!({"action": "drive", "combatant_id": "Bo"})), &mut dice(&[])).unwrap();
    next_turn(&mut enc); // Cy
    let from_vehicle = extreme(json!({"attacker_id": "Cy", "attacker_vehicle_driver_id": "Bo"}));
    let mut request = from_vehicle.clone();
    request.target_id = id("Ana");
    let field = refused(&mut enc, |e| attack(e, request, &mut dice(&[6, 6, 1, 1, 1])));
    assert_eq!(field, "extreme_range");
}

#[test]
fn infra_red_sensors_see_through_thick_smoke_and_full_cover_stops_a_crouched_attacker() {
    // "Battlefield Sensors": infra-red negates concealment from smoke. Thick smoke (−2) is listed
    // at 0: DM +2 + 1 + 0 + 0 = +3. Dice 3 + 2 = 5 + 3 = 8: Effect 0, a hit.
    let mut enc = fight();
    let (_, report) =
        attack(&mut enc, shot(json!({"smoke": "thick", "infra_red": true})), &mut dice(&[3, 2, 1])).unwrap();
    assert_eq!((report.outcome.total_dm, report.outcome.effect), (3, Some(0)));
    let smoke = report.outcome.modifiers.iter().find(|m| m.code == ModifierCode::Smoke).unwrap();
    assert_eq!((smoke.dm, smoke.reason.to_string()), (0, "thick smoke, seen through with infra-red sensors".into()));

    // "Cover": crouched in full cover, Ana cannot return fire (her stance is recorded).
    let mut enc = fight();
    state_of(&mut enc, "Ana").stance = super::super::stance::Stance::Crouched;
    let field = refused(&mut enc, |e| attack(e, shot(json!({"attacker_cover": "full"})), &mut dice(&[6, 6, 6])));
    assert_eq!(field, "attacker_cover");
}
