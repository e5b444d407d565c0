//! Stored-encounter and inline operations with scripted dice and hand-worked numbers.

use super::*;
use crate::dice::Dice;
use crate::encounter::test_support::{add, encounter, fix, id};
use crate::encounter::{Advance, EncounterError, advance};
use crate::rulesets::adeva_d100::Characteristic;
use crate::rulesets::adeva_d100::altitude::AltitudeBand;
use crate::rulesets::{RulesetId, RulesetState, StatBlock};
use serde_json::json;

fn stats(ws: i64, bs: i64, ag: i64, wounds: Option<u32>, armour: u32) -> Stats {
    let c = |v| Characteristic::new(v).unwrap();
    Stats {
        ws: c(ws),
        bs: c(bs),
        s: c(30),
        t: c(30),
        ag: c(ag),
        int: c(30),
        per: c(30),
        wp: c(30),
        fel: c(30),
        wounds: wounds.map(|w| crate::rulesets::adeva_d100::bounds::held(w.into())),
        armour: crate::rulesets::adeva_d100::bounds::held(armour.into()),
        ..Stats::default()
    }
}

/// Ana WS 40 BS 40 SB 3; Bo 10 wounds, TB 3, AP 2, Ag 40; Cy 8 wounds, TB 3. Round 1, Ana's turn.
fn fight() -> Encounter {
    let mut enc = encounter(RulesetId::AdevaD100);
    add(&mut enc, "Ana", StatBlock::AdevaD100(stats(40, 40, 30, Some(12), 0)));
    add(&mut enc, "Bo", StatBlock::AdevaD100(stats(30, 30, 40, Some(10), 2)));
    add(&mut enc, "Cy", StatBlock::AdevaD100(stats(30, 30, 30, Some(8), 0)));
    fix(&mut enc, &[("Ana", 10), ("Bo", 8), ("Cy", 6)]);
    advance(&mut enc, Advance::NextTurn).unwrap();
    enc
}

fn dice(script: &[u32]) -> Dice {
    Dice::scripted(script.to_vec(), 0).unwrap()
}

fn request(value: serde_json::Value) -> EncounterAttack {
    serde_json::from_value(value).unwrap()
}

fn standard(class: &str) -> serde_json::Value {
    json!({"action": "standard_attack", "weapon": {"name": "Gun", "class": class}})
}

fn stats_of(enc: &Encounter, name: &str) -> Stats {
    match &enc.combatant(&id(name)).unwrap().stats {
        StatBlock::AdevaD100(stats) => stats.clone(),
        _ => unreachable!(),
    }
}

fn state_of(enc: &Encounter, name: &str) -> crate::rulesets::adeva_d100::state::CombatState {
    match &enc.combatant(&id(name)).unwrap().state {
        RulesetState::AdevaD100(state) => state.clone(),
        _ => unreachable!(),
    }
}

fn refused(enc: &mut Encounter, value: serde_json::Value, script: &[u32]) -> (String, String) {
    let before = enc.clone();
    let error = attack(enc, request(value), &mut dice(script)).unwrap_err();
    assert_eq!(*enc, before, "a refusal leaves the encounter unchanged");
    match error {
        EncounterError::Invalid { field, message } => (field, message),
        other => panic!("{other:?}"),
    }
}

#[test]
fn surprise_gives_plus_30_and_damage_is_stored() {
    // BS 40 + 10 (standard) + 30 (surprised) = 80; d100 45 passes with 4 DoS. Damage 1d10+5: die 3,
    // DoS 4 replaces it → 4 + 5 = 9; soak TB 3 + AP 2 = 5 → 4 wounds: 10 → 6.
    let mut enc = fight();
    enc.combatant_mut(&id("Bo")).unwrap().flags.surprised = true;
    let value = json!({"attacker_id": "Ana", "target_id": "Bo", "action": standard("ranged"),
        "damage": {"count": 1, "sides": 10, "bonus": 5}});
    let (events, report) = attack(&mut enc, request(value), &mut dice(&[45, 3])).unwrap();
    assert_eq!(report.attack_test.test.target, 80);
    assert!(report.attack_test.modifiers.iter().any(|m| m.value == 30 && m.reason.contains("surprised")));
    let bo = &report.targets[0];
    assert_eq!(
        (bo.outcome.wounds.before, bo.outcome.hits[0].damage.damage, bo.outcome.wounds.after),
        (10, 9, 6)
    );
    assert_eq!(stats_of(&enc, "Bo").wounds_taken.get(), 4);
    assert_eq!(events.len(), 1);
    assert_eq!(state_of(&enc, "Ana").budget.attack_actions, 1);
}

#[test]
fn a_burst_splits_across_two_targets_and_a_dodge_cancels_hits() {
    // BS 40 + 10 − 15 (3 hits) = 35; d100 5 → 4 DoS → 3 hits (Hit rating 3). Cy wants 1, Bo keeps 2.
    // Bo dodges: Ag 40, d100 20 → 3 DoS → both hits evaded. Cy: die 2, DoS 4 replaces it → 4; TB 3
    // → 1 wound: 8 → 7.
    let mut enc = fight();
    let value = json!({"attacker_id": "Ana", "target_id": "Bo",
        "action": {"action": "burst", "declared_hits": 3, "weapon": {"name": "Autogun", "class": "ranged", "hit_rating": 3}},
        "damage": {"count": 1, "sides": 10}, "evasion": "dodge",
        "extra_targets": [{"target_id": "Cy", "hits": 1}]});
    let (_, report) = attack(&mut enc, request(value), &mut dice(&[5, 20, 2])).unwrap();
    assert_eq!(report.attack_test.test.target, 35);
    assert_eq!(report.hits_scored, 3);
    let allocated: Vec<u32> = report.targets.iter().map(|t| t.outcome.hits_allocated).collect();
    assert_eq!(allocated, vec![2, 1]);
    assert_eq!(report.targets[0].outcome.hits_landed, 0);
    assert_eq!(report.targets[1].outcome.wounds.after, 7);
    assert!(state_of(&enc, "Bo").budget.reaction_used);
    assert_eq!(stats_of(&enc, "Cy").wounds_taken.get(), 1);
}

#[test]
fn a_confirmed_critical_kills_and_heavy_attack_lingers() {
    // Cy at 1 wound. WS 40 + 30 (heavy) = 70; d100 10 → 7 DoS. 1d10: 10 (natural maximum; DoS 7 is
    // lower, no swap) + SB 3 = 13; soak 3 → 10. Confirm: WS 40 unmodified, d100 20 passes; chart 1d5 = 2.
    let mut enc = fight();
    if let StatBlock::AdevaD100(stats) = &mut enc.combatant_mut(&id("Cy")).unwrap().stats {
        stats.wounds_taken = crate::rulesets::adeva_d100::bounds::held(7);
    }
    let value = json!({"attacker_id": "Ana", "target_id": "Cy",
        "action": {"action": "heavy_attack", "weapon": {"name": "Maul", "class": "melee"}},
        "damage": {"count": 1, "sides": 10}});
    let (_, report) = attack(&mut enc, request(value), &mut dice(&[10, 10, 20, 2])).unwrap();
    let cy = &report.targets[0];
    let critical = cy.outcome.hits[0].critical.as_ref().unwrap();
    assert!(critical.confirmed);
    assert_eq!(critical.lethal_damage_roll.as_ref().unwrap().roll, 2);
    assert!(cy.outcome.wounds.dead);
    assert!(enc.combatant(&id("Cy")).unwrap().flags.defeated);
    assert!(enc.combatant(&id("Cy")).unwrap().flags.defeated);
    assert_eq!(state_of(&enc, "Ana").own_evasion.unwrap().value, -30);
}

#[test]
fn a_second_attack_action_is_refused() {
    let mut enc = fight();
    let value = json!({"attacker_id": "Ana", "target_id": "Bo", "action": standard("ranged"),
        "damage": {"count": 1, "sides": 10}});
    attack(&mut enc, request(value.clone()), &mut dice(&[99])).unwrap();
    let (field, message) = refused(&mut enc, value, &[50]);
    assert_eq!(field, "action");
    assert!(message.contains("a second attack action in one turn"), "{message}");
}

#[test]
fn a_reaction_by_a_surprised_character_is_refused() {
    let mut enc = fight();
    enc.combatant_mut(&id("Bo")).unwrap().flags.surprised = true;
    let value = json!({"attacker_id": "Ana", "target_id": "Bo", "action": standard("ranged"),
        "damage": {"count": 1, "sides": 10}, "evasion": "dodge"});
    let (field, message) = refused(&mut enc, value, &[50]);
    assert_eq!(field, "evasion");
    assert!(message.contains("a reaction by a surprised character"), "{message}");
}

#[test]
fn melee_from_the_ground_at_a_low_flyer_is_refused() {
    let mut enc = fight();
    if let StatBlock::AdevaD100(stats) = &mut enc.combatant_mut(&id("Bo")).unwrap().stats {
        stats.altitude = AltitudeBand::Low;
    }
    let value = json!({"attacker_id": "Ana", "target_id": "Bo", "action": standard("melee"),
        "damage": {"count": 1, "sides": 10}});
    let (field, _) = refused(&mut enc, value, &[50]);
    assert_eq!(field, "target_id");
}

#[test]
fn a_burst_with_a_hit_rating_1_weapon_is_refused() {
    let mut enc = fight();
    let value = json!({"attacker_id": "Ana", "target_id": "Bo",
        "action": {"action": "burst", "declared_hits": 1, "weapon": {"name": "Pistol", "class": "ranged"}},
        "damage": {"count": 1, "sides": 10}});
    let (field, message) = refused(&mut enc, value, &[50]);
    assert_eq!(field, "action.weapon.hit_rating", "{message}");
}

#[test]
fn damage_with_soak_and_fate_reports_lethal_damage() {
    // Bo: 10 wounds, TB 3 + AP 2 − Pen 1 = 4 soak; 20 damage → 16 → 0 wounds, 6 past zero; 1 Fate.
    let mut enc = fight();
    if let StatBlock::AdevaD100(stats) = &mut enc.combatant_mut(&id("Bo")).unwrap().stats {
        stats.fate_points = crate::rulesets::adeva_d100::bounds::held(1);
    }
    let request: EncounterDamage =
        serde_json::from_value(json!({"combatant_id": "Bo", "amount": 20, "apply_soak": true, "penetration": 1}))
            .unwrap();
    let (_, report) = damage(&mut enc, request, &mut dice(&[])).unwrap();
    assert_eq!(report.soak.unwrap().value, 4);
    assert!(report.wounds.lethal_damage && !report.wounds.dead);
    assert_eq!(report.wounds.past_zero, 6);
    assert_eq!(stats_of(&enc, "Bo").wounds_taken.get(), 10);
}

#[test]
fn guard_mode_is_declared_and_a_fall_crashes_at_the_end_of_rounds() {
    let mut enc = fight();
    let guard: Action = serde_json::from_value(
        json!({"action": "guard_mode", "combatant_id": "Ana"}),
    )
    .unwrap();
    act(&mut enc, guard, &mut dice(&[])).unwrap();
    assert!(state_of(&enc, "Ana").attacks_against.is_some());
    if let StatBlock::AdevaD100(stats) = &mut enc.combatant_mut(&id("Cy")).unwrap().stats {
        stats.altitude = AltitudeBand::Low;
    }
    let fall: Action = serde_json::from_value(json!({"action": "fall", "combatant_id": "Cy"})).unwrap();
    act(&mut enc, fall, &mut dice(&[])).unwrap();
    let mut events = Vec::new();
    crate::rulesets::adeva_d100::round::end_of_round(&mut enc, &mut events);
    assert_eq!(stats_of(&enc, "Cy").altitude, AltitudeBand::Ground);
    // Crash from Low: 1d10 (4) + 60 = 64; soak TB 3 → 61 → dead.
    let crash: Action = serde_json::from_value(json!({"action": "resolve_crash", "combatant_id": "Cy"})).unwrap();
    let (_, report) = act(&mut enc, crash, &mut dice(&[4])).unwrap();
    assert!(matches!(report.outcome, ActionOutcome::Crash { damage: 64, wounds_after: 0, defeated: true }));
}

#[test]
fn inline_attack_and_damage_store_nothing() {
    let c = |v| Characteristic::new(v).unwrap();
    let attacker = Stats { bs: c(40), ..Stats::default() };
    let target = Stats { t: c(30), wounds: Some(crate::rulesets::adeva_d100::bounds::held(10.into())), ..Stats::default() };
    let value = json!({"attacker": attacker, "target": target, "action": standard("ranged"),
        "damage": {"count": 1, "sides": 10, "bonus": 5}});
    let request: InlineAttack = serde_json::from_value(value).unwrap();
    // BS 40 + 10 = 50; d100 45 → 1 DoS; die 3 (DoS 1 lower, no swap) + 5 = 8; TB 3 → 5: 10 → 5.
    let report = attack_inline(request, &mut dice(&[45, 3])).unwrap();
    assert_eq!(report.targets[0].outcome.wounds.after, 5);
    let request: InlineDamage =
        serde_json::from_value(json!({"target": {"ws": 30, "bs": 30, "s": 30, "t": 30, "ag": 30, "int": 30,
            "per": 30, "wp": 30, "fel": 30, "wounds": 5}, "amount": 5}))
        .unwrap();
    assert!(damage_inline(request, &mut dice(&[])).unwrap().wounds.dead);
}

#[test]
fn the_nine_characteristic_json_round_trips_unchanged() {
    let text = r#"{"ws":30,"bs":30,"s":30,"t":30,"ag":30,"int":30,"per":30,"wp":30,"fel":30}"#;
    let stats: Stats = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&stats).unwrap(), text);
}
