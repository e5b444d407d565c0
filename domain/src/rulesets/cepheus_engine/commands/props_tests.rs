//! Property tests (issue 12): extreme values in every numeric field of each typed request. A
//! request is either refused when it is read (the bounded types) or run; a run never panics, a
//! refused run leaves the encounter unchanged, and every stored stat block stays in its bounds.
//! 256 cases per operation.

use super::super::Stats;
use super::test_support::*;
use super::*;
use crate::dice::Dice;
use crate::encounter::Encounter;
use crate::rulesets::{StatBlock, Summary};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Integers at and around every bound a client might probe, and anything at all.
fn int() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(i64::from(i32::MIN)),
        Just(i64::from(i32::MAX)),
        Just(i64::from(u32::MAX)),
        Just(-101),
        Just(-21),
        Just(-1),
        Just(0),
        Just(1),
        Just(6),
        Just(7),
        Just(101),
        Just(10_001),
        -30i64..60,
        any::<i64>(),
    ]
}

/// Reals at and around the bounds, huge ones and anything finite.
fn real() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::MAX),
        Just(1e308),
        Just(21_474_836_470.0),
        Just(-1.0),
        Just(0.0),
        Just(3.0),
        Just(6.5),
        0.0f64..20_000.0,
        any::<f64>().prop_filter("JSON numbers are finite", |value| value.is_finite()),
    ]
}

fn split() -> impl Strategy<Value = Value> {
    (int(), int(), int()).prop_map(|(str, dex, end)| json!({"str": str, "dex": dex, "end": end}))
}

/// The attack fields both attack requests share, every number drawn from the strategies.
fn attack_fields() -> impl Strategy<Value = Value> {
    let weapon = (int(), int(), any::<bool>()).prop_map(|(dice, bonus, rifle)| {
        let kind = if rifle { "rifle" } else { "assault_weapon" };
        json!({"weapon_type": kind, "damage_dice": dice, "damage_bonus": bonus})
    });
    let range = prop_oneof![
        real().prop_map(|metres| json!({"distance_m": metres})),
        int().prop_map(|squares| json!({"distance_squares": squares})),
        Just(json!({"range_band": "short"})),
    ];
    let extras = proptest::collection::vec(int(), 0..12)
        .prop_map(|dms| dms.into_iter().map(|dm| json!({"reason": "table", "dm": dm})).collect::<Vec<_>>());
    let fire = prop_oneof![
        Just(json!({})),
        int().prop_map(|rounds| json!({"burst": {"rounds": rounds, "mode": "spray"}})),
        int().prop_map(|rounds| json!({"panic_fire_rounds": rounds})),
        int().prop_map(|targets| json!({"blind_fire": {"eligible_targets": targets}})),
    ];
    (weapon, range, real(), extras, fire, proptest::option::of(split())).prop_map(
        |(weapon, range, movement, extras, fire, allocation)| {
            let mut body = json!({"weapon": weapon, "target_movement_m": movement, "extra_modifiers": extras});
            merge(&mut body, &range);
            merge(&mut body, &fire);
            if let Some(allocation) = allocation {
                body["allocation"] = allocation;
            }
            body
        },
    )
}

fn merge(body: &mut Value, extra: &Value) {
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
}

/// Every stored stat block still reads back as a valid stat block (characteristics 0–30, damage
/// within them, armour 0–50, skill levels 0–15).
fn assert_stored_in_bounds(encounter: &Encounter) {
    for combatant in &encounter.combatants {
        if let StatBlock::CepheusEngine(stats) = &combatant.stats {
            let text = serde_json::to_value(stats).unwrap();
            let back: Result<Stats, _> = serde_json::from_value(text.clone());
            assert!(back.is_ok(), "{} is stored out of bounds: {text}", combatant.name);
        }
    }
}

/// Runs a stored operation on a copy of `encounter`: a refusal changes nothing, a success stays
/// in bounds.
fn check_stored<R: Summary>(
    encounter: &Encounter,
    run: impl FnOnce(&mut Encounter) -> Result<R, crate::encounter::EncounterError>,
) {
    let mut working = encounter.clone();
    match run(&mut working) {
        Ok(report) => {
            let _ = report.summary();
            assert_stored_in_bounds(&working);
        }
        Err(_) => assert_eq!(&working, encounter, "a refused operation changed the encounter"),
    }
}

fn config() -> ProptestConfig {
    ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() }
}

struct Reported<T>(T);

impl<T: Summary> Summary for Reported<(Vec<crate::encounter::Event>, T)> {
    fn summary(&self) -> String {
        self.0.1.summary()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn stored_attacks_with_extreme_numbers_never_panic_or_store_out_of_bounds(
        fields in attack_fields(), seed in any::<u64>()
    ) {
        let mut body = fields;
        body["attacker_id"] = json!("Ana");
        body["target_id"] = json!("Bo");
        if let Ok(request) = serde_json::from_value::<EncounterAttack>(body) {
            check_stored(&fight(), |e| attack(e, request, &mut Dice::seeded(seed)).map(Reported));
        }
    }

    #[test]
    fn inline_attacks_with_extreme_numbers_never_panic(
        fields in attack_fields(), aim in int(), kill in int(), seed in any::<u64>()
    ) {
        let mut body = fields;
        body["attacker"] = json!({"str": 7, "dex": 9, "end": 7, "int": 7, "edu": 7, "soc": 7,
                                  "skills": {"gun_combat": 2}});
        body["target"] = json!({"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7, "armour": 2});
        body["aim"] = json!(aim);
        body["aim_for_kill"] = json!(kill);
        let report = serde_json::from_value::<InlineAttack>(body)
            .ok()
            .and_then(|request| attack_inline(request, &mut Dice::seeded(seed)).ok());
        if let Some(report) = report {
            let _ = report.summary();
            if let Some(hit) = &report.target_hit {
                let back: Result<Stats, _> =
                    serde_json::from_value(serde_json::to_value(&hit.stats_after).unwrap());
                prop_assert!(back.is_ok());
            }
        }
    }

    #[test]
    fn damage_with_extreme_numbers_never_panics_or_stores_out_of_bounds(
        damage in int(), effect in proptest::option::of(int()), armour in any::<bool>(),
        allocation in proptest::option::of(split()), vehicle in any::<bool>(), seed in any::<u64>()
    ) {
        let mut body = json!({"damage": damage, "apply_armour": armour});
        if let Some(effect) = effect { body["effect"] = json!(effect); }
        if let Some(allocation) = allocation { body["allocation"] = allocation; }
        if vehicle { body["hit_location_table"] = json!("internal"); }
        let mut stored = body.clone();
        stored["target_id"] = json!("Bo");
        if let Ok(request) = serde_json::from_value::<EncounterDamage>(stored) {
            check_stored(&fight(), |e| damage::damage(e, request, &mut Dice::seeded(seed)).map(Reported));
        }
        body["target"] = json!({"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7, "armour": 3});
        let report = serde_json::from_value::<InlineDamage>(body)
            .ok()
            .and_then(|request| damage_inline(request, &mut Dice::seeded(seed)).ok());
        if let Some(report) = report {
            let _ = report.summary();
        }
    }

    #[test]
    fn actions_with_extreme_numbers_never_panic_or_store_out_of_bounds(
        which in 0usize..10, number in int(), other in int(), metres in real(), seed in any::<u64>()
    ) {
        let body = match which {
            0 => json!({"action": "explosion", "combatant_id": "Bo", "damage": number, "response": "dive"}),
            1 => json!({"action": "move", "combatant_id": "Ana", "metres": metres}),
            2 => json!({"action": "start_extended_action", "combatant_id": "Ana", "skill": "mechanic", "rounds": number}),
            3 => json!({"action": "regain_consciousness", "combatant_id": "Bo", "failed_checks": number}),
            4 => json!({"action": "heal", "combatant_id": "Bo", "method": "natural_rest", "days": number}),
            5 => json!({"action": "collision", "combatant_id": "Ana", "speed_kph": metres, "target_ids": ["Bo"]}),
            6 => json!({"action": "ram", "combatant_id": "Ana", "skill": "drive", "target_id": "Bo",
                        "speed_kph": metres, "dm": number}),
            7 => json!({"action": "stunt", "combatant_id": "Ana", "skill": "drive", "dm": number}),
            8 => json!({"action": "weave", "combatant_id": "Ana", "skill": "drive", "weaving_number": number,
                        "speed_kph": metres}),
            _ => json!({"action": "grapple", "combatant_id": "Ana", "target_id": "Bo",
                        "choice": {"option": "throw", "distance_m": metres}, "allocation": {"end": other}}),
        };
        if let Ok(action) = serde_json::from_value::<Action>(body) {
            let mut encounter = fight();
            stats_mut(&mut encounter, "Bo").damage = serde_json::from_value(json!({"end": 7, "str": 1})).unwrap();
            check_stored(&encounter, |e| act(e, action, &mut Dice::seeded(seed)).map(Reported));
        }
    }
}
