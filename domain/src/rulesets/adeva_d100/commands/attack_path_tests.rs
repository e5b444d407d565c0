//! The attack path's gaps closed: surprise, per-turn resets, jams, spreading, unarmed attacks,
//! Pinning, falls, Aim / Feint / fatigue and input limits. Scripted dice, numbers worked by hand.

use super::*;
use crate::dice::Dice;
use crate::encounter::test_support::{add, encounter, fix, id};
use crate::encounter::{Advance, EncounterError, advance};
use crate::rulesets::adeva_d100::Characteristic;
use crate::rulesets::adeva_d100::altitude::AltitudeBand;
use crate::rulesets::adeva_d100::decay::{CharacteristicDecay, CharacteristicName, DecayEnds};
use crate::rulesets::adeva_d100::round::end_of_round;
use crate::rulesets::adeva_d100::state::CombatState;
use crate::rulesets::adeva_d100::test_roll::pinning_test_of;
use crate::rulesets::{RulesetState, StatBlock};
use serde_json::json;

fn stats(ws: i64, bs: i64, ag: i64, wounds: u32, armour: u32) -> Stats {
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
        wounds: Some(crate::rulesets::adeva_d100::bounds::held(wounds.into())),
        armour: crate::rulesets::adeva_d100::bounds::held(armour.into()),
        ..Stats::default()
    }
}

/// Ana WS/BS 40, SB 3; Bo 10 wounds, TB 3, AP 2, Ag 40; Cy 8 wounds, TB 3. Order Ana, Bo, Cy;
/// round 1, Ana's turn.
fn fight() -> Encounter {
    let mut enc = encounter(crate::rulesets::RulesetId::AdevaD100);
    add(&mut enc, "Ana", StatBlock::AdevaD100(stats(40, 40, 30, 12, 0)));
    add(&mut enc, "Bo", StatBlock::AdevaD100(stats(30, 30, 40, 10, 2)));
    add(&mut enc, "Cy", StatBlock::AdevaD100(stats(30, 30, 30, 8, 0)));
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

fn next(enc: &mut Encounter) {
    advance(enc, Advance::NextTurn).unwrap();
}

fn stats_mut<'a>(enc: &'a mut Encounter, name: &str) -> &'a mut Stats {
    match &mut enc.combatant_mut(&id(name)).unwrap().stats {
        StatBlock::AdevaD100(stats) => stats,
        _ => unreachable!(),
    }
}

fn state_of(enc: &Encounter, name: &str) -> CombatState {
    match &enc.combatant(&id(name)).unwrap().state {
        RulesetState::AdevaD100(state) => state.clone(),
        _ => CombatState::default(),
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

fn shot(attacker: &str, target: &str, class: &str) -> serde_json::Value {
    json!({"attacker_id": attacker, "target_id": target,
        "action": {"action": "standard_attack", "weapon": {"name": "Gun", "class": class}},
        "damage": {"count": 1, "sides": 10}})
}

/// "Combat Structure", Step Two: a surprised character loses its first turn, then acts normally.
#[test]
fn a_surprised_combatant_loses_its_first_turn_only() {
    let mut enc = fight();
    enc.combatant_mut(&id("Ana")).unwrap().flags.surprised = true;
    let (field, message) = refused(&mut enc, shot("Ana", "Bo", "ranged"), &[50]);
    assert_eq!(field, "action");
    assert!(message.contains("surprised characters lose their first turn"), "{message}");
    // Its declared actions on that turn are refused too (the budget marks the turn lost).
    let aim = Action::Aim { actor_id: id("Ana"), action_type: crate::rulesets::adeva_d100::actions::ActionType::Half };
    let error = act(&mut enc, aim, &mut dice(&[])).unwrap_err();
    assert!(
        matches!(&error, EncounterError::Invalid { field, message } if field == "action" && message.contains("surprised")),
        "{error:?}"
    );
    // Round 2: Ana acts. BS 40 + 10 = 50; d100 45 passes (1 DoS); 1d10 = 6 (DoS 1 lower, kept)
    // → 6 − soak 5 = 1 wound on Bo.
    next(&mut enc);
    next(&mut enc);
    next(&mut enc);
    assert_eq!(enc.round, 2);
    assert_eq!(enc.current, Some(id("Ana")));
    let (_, report) = attack(&mut enc, request(shot("Ana", "Bo", "ranged")), &mut dice(&[45, 6])).unwrap();
    assert_eq!(report.attack_test.test.target, 50);
    assert_eq!(report.targets[0].outcome.wounds.after, 9);
    assert!(!state_of(&enc, "Ana").budget.surprised);
}

/// "Heavy Attack" / "Guard Mode" / "Structured Time": the −30, Guard Mode and the spent reaction
/// end at the start of the actor's next turn, even when no command touched it on that turn.
#[test]
fn per_turn_state_resets_at_the_start_of_the_next_turn_without_a_command() {
    let mut enc = fight();
    // Round 1, Ana: Heavy Attack on Cy misses (WS 40 + 30 = 70, d100 90) → Ana's Evasion −30.
    let heavy = json!({"attacker_id": "Ana", "target_id": "Cy",
        "action": {"action": "heavy_attack", "weapon": {"name": "Maul", "class": "melee"}},
        "damage": {"count": 1, "sides": 10}});
    attack(&mut enc, request(heavy), &mut dice(&[90])).unwrap();
    // Bo's turn: Bo shoots Ana, Ana dodges with Ag 30 − 30 = 0 (still in force): d100 5 fails.
    next(&mut enc);
    let mut value = shot("Bo", "Ana", "ranged");
    value["evasion"] = "dodge".into();
    // BS 30 + 10 = 40; d100 30 passes (2 DoS); dodge target 0 → d100 5 fails; 1d10 = 1 → DoS 2
    // replaces it: 2 − TB 3 → negated.
    let (_, report) = attack(&mut enc, request(value), &mut dice(&[30, 5, 1])).unwrap();
    let evasion = report.targets[0].outcome.evasion.as_ref().unwrap();
    assert!(!evasion.test.test.passed);
    assert!(state_of(&enc, "Ana").budget.reaction_used);
    // Round 2: Ana's turn passes with no command on it; then on Bo's turn Bo shoots Ana again.
    next(&mut enc); // Cy
    next(&mut enc); // round 2, Ana
    next(&mut enc); // Bo
    assert_eq!((enc.round, enc.current.clone()), (2, Some(id("Bo"))));
    let mut value = shot("Bo", "Ana", "ranged");
    value["evasion"] = "dodge".into();
    // BS 40 → d100 30 passes (2 DoS, 1 hit). Ana's reaction is back and the −30 gone: Ag 30,
    // d100 10 passes with 3 DoS → the hit is evaded.
    let (_, report) = attack(&mut enc, request(value), &mut dice(&[30, 10])).unwrap();
    let evasion = report.targets[0].outcome.evasion.as_ref().unwrap();
    assert_eq!(evasion.test.test.target, 30);
    assert!(evasion.test.test.passed);
    assert_eq!(report.targets[0].outcome.hits_landed, 0);
    assert!(state_of(&enc, "Ana").own_evasion.is_none());
    assert_eq!(state_of(&enc, "Ana").turn_round, Some(2));
}

/// "Suppressive Fire": bursts jam on 94 or higher: no hits, reported.
#[test]
fn a_burst_jams_on_94_or_more() {
    let mut enc = fight();
    stats_mut(&mut enc, "Ana").bs = Characteristic::new(100).unwrap();
    // BS 100 + 10 − 10 (2 hits) = 100: d100 95 passes (1 DoS) but 95 ≥ 94 → jammed, 0 hits.
    let value = json!({"attacker_id": "Ana", "target_id": "Bo",
        "action": {"action": "burst", "declared_hits": 2, "weapon": {"name": "Autogun", "class": "ranged", "hit_rating": 2}},
        "damage": {"count": 1, "sides": 10}});
    let (_, report) = attack(&mut enc, request(value), &mut dice(&[95])).unwrap();
    assert!(report.attack_test.test.passed);
    assert!(report.jammed);
    assert_eq!(report.hits_scored, 0);
    assert!(report.notes.iter().any(|n| n.contains("jammed")));
    assert_eq!(report.targets[0].outcome.hits_landed, 0);
}

/// "Burst": the first hit stays on the declared target; invalid spreads are refused by field.
#[test]
fn hits_are_spread_with_the_first_on_the_declared_target() {
    let burst = |extra: serde_json::Value| {
        json!({"attacker_id": "Ana", "target_id": "Bo",
            "action": {"action": "burst", "declared_hits": 3, "weapon": {"name": "Autogun", "class": "ranged", "hit_rating": 3}},
            "damage": {"count": 1, "sides": 10}, "extra_targets": [extra]})
    };
    // BS 40 + 10 − 15 = 35; d100 34 → 1 DoS → 1 hit: it stays on Bo although Cy wants 2.
    // Bo: die 7 (DoS 1 lower) − soak 5 = 2 wounds.
    let mut enc = fight();
    let (_, report) =
        attack(&mut enc, request(burst(json!({"target_id": "Cy", "hits": 2}))), &mut dice(&[34, 7])).unwrap();
    let allocated: Vec<u32> = report.targets.iter().map(|t| t.outcome.hits_allocated).collect();
    assert_eq!(allocated, vec![1, 0]);
    assert_eq!(report.targets[0].outcome.wounds.after, 8);
    // Too far for a Burst (11 > 10 squares).
    let mut enc = fight();
    let (field, message) =
        refused(&mut enc, burst(json!({"target_id": "Cy", "hits": 1, "squares_from_target": 11})), &[5]);
    assert_eq!(field, "extra_targets[0].squares_from_target");
    assert!(message.contains("10 squares"), "{message}");
    // Harder to hit: Cy in Guard Mode (−20) while Bo is not.
    state_guard(&mut enc, "Cy");
    let (field, _) = refused(&mut enc, burst(json!({"target_id": "Cy", "hits": 1})), &[5]);
    assert_eq!(field, "extra_targets[0].attack_modifier");
}

fn state_guard(enc: &mut Encounter, name: &str) {
    let combatant = enc.combatant_mut(&id(name)).unwrap();
    let mut state = match &combatant.state {
        RulesetState::AdevaD100(state) => state.clone(),
        _ => CombatState::default(),
    };
    state.attacks_against =
        Some(crate::rulesets::adeva_d100::test_modifiers::Modifier::new("guard mode", -20));
    state.turn_round = Some(1);
    combatant.state = RulesetState::AdevaD100(state);
}

/// "Unarmed Attacks": 1d5 − 3 + SB, no penetration, a level of fatigue at damage ≥ TB.
#[test]
fn an_unarmed_attack_deals_1d5_minus_3_plus_sb_and_fatigues() {
    let mut enc = fight();
    stats_mut(&mut enc, "Ana").s = Characteristic::new(50).unwrap();
    stats_mut(&mut enc, "Bo").armour = crate::rulesets::adeva_d100::bounds::held(0);
    // WS 40 + 10 = 50; d100 48 → 1 DoS. 1d5 = 4 (DoS 1 lower, kept): 4 − 3 + SB 5 = 6 ≥ TB 3 →
    // fatigue; soak TB 3 + AP 0 = 3 → 3 wounds: 10 → 7.
    let value = json!({"attacker_id": "Ana", "target_id": "Bo",
        "action": {"action": "standard_attack", "weapon": {"name": "Unarmed", "class": "melee"}}});
    let (_, report) = attack(&mut enc, request(value), &mut dice(&[48, 4])).unwrap();
    let bo = &report.targets[0].outcome;
    assert_eq!((bo.hits[0].damage.damage, bo.hits[0].fatigue, bo.fatigue_levels), (6, true, 1));
    assert_eq!(bo.wounds.after, 7);
    assert_eq!(stats_mut(&mut enc, "Bo").fatigue.get(), 1);
    assert!(report.notes.iter().any(|n| n.contains("Unarmed, Primitive")));
    // Damage dice sent with an unarmed attack are refused.
    let mut enc = fight();
    let mut value = shot("Ana", "Bo", "melee");
    value["unarmed"] = true.into();
    let (field, _) = refused(&mut enc, value, &[5]);
    assert_eq!(field, "damage");
}

/// "Action List" (Overwatch, Suppressive Fire) with "Characteristic Decay": the stat block's
/// `pinning_characteristic` is tested, after its decays.
#[test]
fn pinning_tests_the_stat_blocks_characteristic_after_decays() {
    let mut block = stats(30, 30, 30, 10, 0);
    block.wp = Characteristic::new(20).unwrap();
    block.pinning_characteristic = Some(CharacteristicName::Ag);
    block.decays = vec![CharacteristicDecay {
        characteristic: CharacteristicName::Ag,
        amount: 5,
        reason: "poison".into(),
        lasts_until: DecayEnds::EndOfCycle,
    }];
    // Ag 30 − 5 decay = 25; d100 25 passes (Willpower 20 would have failed).
    let result = pinning_test_of(&block, &[], &mut dice(&[25])).unwrap();
    assert_eq!(result.test.base, 25);
    assert_eq!(result.test.test.target, 25);
    assert!(!result.pinned);
}

/// "Altitude": a stat-block fall starts from its band; a Ground combatant does not crash.
#[test]
fn falls_set_in_the_stat_block_crash_from_where_they_began() {
    let mut enc = fight();
    stats_mut(&mut enc, "Bo").altitude = AltitudeBand::High;
    stats_mut(&mut enc, "Bo").falling = true;
    stats_mut(&mut enc, "Cy").falling = true; // on the Ground
    let mut events = Vec::new();
    end_of_round(&mut enc, &mut events); // Bo High → Low; Cy: nothing
    end_of_round(&mut enc, &mut events); // Bo Low → Ground: crash from High (200 squares)
    assert_eq!(state_of(&enc, "Bo").pending_crash, Some(AltitudeBand::High));
    assert!(!stats_mut(&mut enc, "Cy").falling);
    assert_eq!(state_of(&enc, "Cy").pending_crash, None);
    assert_eq!(events.len(), 2, "only Bo's two drops are reported");
}

/// "Aim", "Feint": the stored Aim bonus is applied with its reason; a won Feint stops the
/// target's dodge against the feinter's melee Standard Attack; fatigue is only noted.
#[test]
fn aim_feint_and_fatigue_reach_the_attack_test() {
    let mut enc = fight();
    stats_mut(&mut enc, "Ana").fatigue = crate::rulesets::adeva_d100::bounds::held(1);
    let aim: Action = serde_json::from_value(json!({"action": "aim", "combatant_id": "Ana", "action_type": "half"}))
    .unwrap();
    act(&mut enc, aim, &mut dice(&[])).unwrap();
    let state = CombatState { feinted_by: Some(id("Ana")), ..CombatState::default() };
    enc.combatant_mut(&id("Bo")).unwrap().state = RulesetState::AdevaD100(state);
    let mut value = shot("Ana", "Bo", "melee");
    value["evasion"] = "dodge".into();
    let (field, message) = refused(&mut enc, value.clone(), &[5]);
    assert_eq!(field, "evasion");
    assert!(message.contains("Feint"), "{message}");
    // Without a dodge the attack goes in: WS 40 + 10 (standard) + 10 (half Aim) = 60; d100 80
    // misses. The fatigue is noted, the Feint and the Aim used up.
    value["evasion"] = "none".into();
    let (_, report) = attack(&mut enc, request(value), &mut dice(&[80])).unwrap();
    assert_eq!(report.attack_test.test.target, 60);
    assert!(report.attack_test.modifiers.iter().any(|m| m.value == 10 && m.reason.contains("aim")));
    assert!(report.notes.iter().any(|n| n.contains("fatigue")));
    assert_eq!(state_of(&enc, "Bo").feinted_by, None);
}

/// Limits: ≤ 28 client modifiers, chart names ≤ 100 characters.
#[test]
fn client_modifiers_and_chart_names_are_bounded() {
    let mut enc = fight();
    let mut value = shot("Ana", "Bo", "ranged");
    value["modifiers"] = json!(vec![json!({"reason": "m", "value": 1}); 29]);
    let (field, message) = refused(&mut enc, value, &[5]);
    assert_eq!(field, "modifiers");
    assert!(message.contains("28"), "{message}");
    let long = "x".repeat(101);
    let inline = json!({"attacker": stats(40, 40, 30, 10, 0), "target": stats(30, 30, 30, 10, 0),
        "action": {"action": "standard_attack", "weapon": {"name": "Gun", "class": "ranged"}},
        "damage": {"count": 1, "sides": 10},
        "lethal_damage_table": ["a", "b", "c", "d", long]});
    let error = attack_inline(serde_json::from_value(inline).unwrap(), &mut dice(&[5])).unwrap_err();
    assert!(
        matches!(&error, crate::rulesets::RuleError::Invalid { field, .. } if field == "lethal_damage_table[4]"),
        "{error:?}"
    );
}

/// "Structured Time": a combatant untouched for a whole round had a turn in it: by round 3 its
/// round-1 reaction and Guard Mode are gone even before its round-3 turn.
#[test]
fn a_whole_untouched_round_still_resets_the_turn() {
    let mut state = CombatState { turn_round: Some(1), ..CombatState::default() };
    state.budget.reaction_used = true;
    state.attacks_against =
        Some(crate::rulesets::adeva_d100::test_modifiers::Modifier::new("guard mode", -20));
    state.refresh(3, false, false, false);
    assert!(!state.budget.reaction_used);
    assert!(state.attacks_against.is_none());
    assert_eq!(state.turn_round, Some(2));
    assert!(!state.budget.on_own_turn);
    // Its own turn of round 3 then starts it again.
    state.refresh(3, true, false, false);
    assert_eq!(state.turn_round, Some(3));
    assert!(state.budget.on_own_turn);
}
