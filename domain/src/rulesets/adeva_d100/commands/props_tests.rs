//! Property tests (issue 12): extreme values in every numeric field of each operation's typed
//! request never panic; a refusal leaves the encounter unchanged; stored numbers stay within their
//! documented bounds. 256 cases per operation.

use super::*;
use crate::dice::Dice;
use crate::encounter::test_support::{add, encounter, fix, id};
use crate::encounter::{Advance, advance};
use crate::rulesets::adeva_d100::Characteristic;
use crate::rulesets::adeva_d100::bounds::{Unsigned, held};
use crate::rulesets::{RulesetId, StatBlock};
use proptest::prelude::*;
use serde_json::{Value, json};

const CASES: u32 = 256;

/// Numbers a hostile client sends: the edges of every integer type and of every documented bound.
fn extreme() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(i64::MIN),
        Just(i64::from(i32::MIN)),
        Just(-2_147_483_647),
        Just(-101),
        Just(-100),
        Just(-21),
        Just(-1),
        Just(0),
        Just(1),
        Just(2),
        Just(20),
        Just(100),
        Just(101),
        Just(1_000),
        Just(10_000),
        Just(10_001),
        Just(i64::from(i32::MAX)),
        Just(i64::from(u32::MAX)),
        Just(i64::MAX),
        -300i64..=300,
    ]
}

fn stats(wounds: i64, armour: i64) -> Stats {
    let c = |v| Characteristic::new(v).unwrap();
    Stats {
        ws: c(40),
        bs: c(40),
        s: c(30),
        t: c(30),
        ag: c(30),
        wounds: Some(held(wounds)),
        armour: held(armour),
        ..Stats::default()
    }
}

/// Ana and Bo; round 1, Ana's turn.
fn fight() -> Encounter {
    let mut enc = encounter(RulesetId::AdevaD100);
    add(&mut enc, "Ana", StatBlock::AdevaD100(stats(12, 0)));
    add(&mut enc, "Bo", StatBlock::AdevaD100(stats(10, 2)));
    fix(&mut enc, &[("Ana", 10), ("Bo", 8)]);
    advance(&mut enc, Advance::NextTurn).unwrap();
    enc
}

fn dice() -> Dice {
    Dice::seeded(7)
}

/// Every stored stat block within its documented bounds.
fn within_bounds(enc: &Encounter) -> bool {
    enc.combatants.iter().all(|combatant| match &combatant.stats {
        StatBlock::AdevaD100(stats) => {
            stats.wounds_taken.n() <= stats.max_wounds() && stats.fatigue.n() <= 1_000
        }
        _ => true,
    })
}

/// Runs `op` on a fight if `body` reads as its request: Ok → bounds hold; Err → nothing changed.
fn check<R: serde::de::DeserializeOwned, T>(
    body: Value,
    op: impl FnOnce(&mut Encounter, R, &mut Dice) -> Result<T, EncounterError>,
) -> Result<(), TestCaseError> {
    let Ok(request) = serde_json::from_value::<R>(body) else { return Ok(()) };
    let mut enc = fight();
    let before = enc.clone();
    match op(&mut enc, request, &mut dice()) {
        Ok(_) => prop_assert!(within_bounds(&enc)),
        Err(_) => prop_assert_eq!(enc, before),
    }
    Ok(())
}

fn ana() -> Value {
    json!(id("Ana").to_string())
}

fn bo() -> Value {
    json!(id("Bo").to_string())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn attacks_with_extreme_numbers_never_panic_or_store_out_of_bounds(
        count in extreme(), sides in extreme(), bonus in extreme(), penetration in extreme(),
        value in extreme(), hits in extreme(), distance in extreme(), rating in extreme(),
        burst in any::<bool>(),
    ) {
        let weapon = json!({"name": "Gun", "class": "ranged", "hit_rating": rating});
        let action = if burst {
            json!({"action": "burst", "weapon": weapon, "declared_hits": hits})
        } else {
            json!({"action": "charge", "distance_squares": distance, "straight_line_squares": distance,
                   "strike": {"kind": "attack", "weapon": {"name": "Sword", "class": "melee"}}})
        };
        let body = json!({"attacker_id": ana(), "target_id": bo(), "action": action,
            "damage": {"count": count, "sides": sides, "bonus": bonus}, "penetration": penetration,
            "modifiers": [{"reason": "a", "value": value}, {"reason": "b", "value": value}]});
        check(body, attack)?;
    }

    #[test]
    fn damage_with_extreme_numbers_never_panics_or_stores_out_of_bounds(
        amount in extreme(), penetration in extreme(), soak in any::<bool>(),
    ) {
        let body = json!({"combatant_id": bo(), "amount": amount, "penetration": penetration, "apply_soak": soak});
        check(body, damage)?;
    }

    #[test]
    fn actions_with_extreme_numbers_never_panic_or_store_out_of_bounds(
        levels in extreme(), amount in extreme(), squares in extreme(), threshold in extreme(), pick in 0..4u8,
    ) {
        let body = match pick {
            0 => json!({"action": "fatigue", "combatant_id": bo(), "levels": levels}),
            1 => json!({"action": "decay", "combatant_id": bo(),
                        "decay": {"characteristic": "ag", "amount": amount, "reason": "poison"}}),
            2 => json!({"action": "ram", "combatant_id": ana(), "target_id": bo(), "distance_squares": squares,
                        "half_move_squares": squares, "straight_line_squares": squares,
                        "rammer": {"strength_bonus": levels, "size": amount}, "target": {"strength_bonus": 1, "size": 1}}),
            _ => json!({"action": "boarding", "combatant_id": ana(), "target_id": bo(), "target_is_starship": true,
                        "damage": {"count": 1, "sides": 10, "bonus": amount},
                        "evasion": {"kind": "dodge", "threshold": threshold}}),
        };
        check(body, act)?;
    }

    #[test]
    fn stateless_twins_with_extreme_numbers_never_panic(
        wounds in extreme(), armour in extreme(), fatigue in extreme(), amount in extreme(), value in extreme(),
    ) {
        let target = json!({"ws": 30, "bs": 30, "s": 30, "t": 30, "ag": 30, "int": 30, "per": 30, "wp": 30,
            "fel": 30, "wounds": wounds, "armour": armour, "fatigue": fatigue});
        let damage = serde_json::from_value::<InlineDamage>(
            json!({"target": target, "amount": amount, "apply_soak": true}),
        );
        if let Ok(report) = damage.map_err(|e| e.to_string()).and_then(|r| {
            damage_inline(r, &mut dice()).map_err(|e| e.to_string())
        }) {
            prop_assert!(report.stats_after.wounds_taken.n() <= report.stats_after.max_wounds());
        }
        let attack = serde_json::from_value::<InlineAttack>(json!({"attacker": target, "target": target,
            "action": {"action": "standard_attack", "weapon": {"name": "Gun", "class": "ranged"}},
            "damage": {"count": 1, "sides": 10, "bonus": 3},
            "modifiers": [{"reason": "a", "value": value}]}));
        if let Ok(report) = attack.map_err(|e| e.to_string()).and_then(|r| {
            attack_inline(r, &mut dice()).map_err(|e| e.to_string())
        }) {
            let after = &report.targets[0].stats_after;
            prop_assert!(after.wounds_taken.n() <= after.max_wounds() && after.fatigue.n() <= 1_000);
        }
    }
}
