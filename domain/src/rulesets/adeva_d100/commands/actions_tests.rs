//! Stored Action List actions (move, manoeuvres, fire, grapple) with scripted dice and
//! hand-worked numbers. DoS = (target − roll) / 10 + 1 on a pass.

use super::*;
use crate::dice::Dice;
use crate::encounter::test_support::{add, encounter, fix, id};
use crate::encounter::{Advance, EncounterError, advance};
use crate::rulesets::adeva_d100::Characteristic;
use crate::rulesets::adeva_d100::actions::manoeuvres::{DisarmOutcome, KnockDownOutcome};
use crate::rulesets::adeva_d100::altitude::AltitudeBand;
use crate::rulesets::{RulesetId, RulesetState, StatBlock};
use serde_json::json;

pub(super) fn stats(ws: i64, s: i64, ag: i64) -> Stats {
    let c = |v| Characteristic::new(v).unwrap();
    Stats {
        ws: c(ws),
        bs: c(40),
        s: c(s),
        t: c(30),
        ag: c(ag),
        int: c(30),
        per: c(30),
        wp: c(30),
        fel: c(30),
        wounds: Some(crate::rulesets::adeva_d100::bounds::held(10.into())),
        ..Stats::default()
    }
}

/// Ana WS 40 S 30 Ag 30; Bo WS 30 S 30 Ag 40; Cy WS 30 S 30 Ag 30. Round 1, Ana's turn.
pub(super) fn fight() -> Encounter {
    let mut enc = encounter(RulesetId::AdevaD100);
    add(&mut enc, "Ana", StatBlock::AdevaD100(stats(40, 30, 30)));
    add(&mut enc, "Bo", StatBlock::AdevaD100(stats(30, 30, 40)));
    add(&mut enc, "Cy", StatBlock::AdevaD100(stats(30, 30, 30)));
    fix(&mut enc, &[("Ana", 10), ("Bo", 8), ("Cy", 6)]);
    advance(&mut enc, Advance::NextTurn).unwrap();
    enc
}

pub(super) fn dice(script: &[u32]) -> Dice {
    Dice::scripted(script.to_vec(), 0).unwrap()
}

pub(super) fn action(value: serde_json::Value) -> Action {
    serde_json::from_value(value).unwrap()
}

pub(super) fn state_of(enc: &Encounter, name: &str) -> crate::rulesets::adeva_d100::state::CombatState {
    match &enc.combatant(&id(name)).unwrap().state {
        RulesetState::AdevaD100(state) => state.clone(),
        _ => unreachable!(),
    }
}

pub(super) fn stats_of(enc: &Encounter, name: &str) -> Stats {
    match &enc.combatant(&id(name)).unwrap().stats {
        StatBlock::AdevaD100(stats) => stats.clone(),
        _ => unreachable!(),
    }
}

pub(super) fn refused(enc: &mut Encounter, value: serde_json::Value, script: &[u32]) -> (String, String) {
    let before = enc.clone();
    let error = act(enc, action(value), &mut dice(script)).unwrap_err();
    assert_eq!(*enc, before, "a refusal leaves the encounter unchanged");
    match error {
        EncounterError::Invalid { field, message } => (field, message),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_half_move_covers_the_agility_bonus_and_climbs_one_band() {
    // Ana Ag 30 → AB 3 → Half Move 3 squares; Ground → Low is one band, allowed on a Half Move.
    let mut enc = fight();
    let (_, report) = act(
        &mut enc,
        action(json!({"action": "move", "combatant_id": "Ana", "kind": "half_move", "altitude_to": "low"})),
        &mut dice(&[]),
    )
    .unwrap();
    let ActionOutcome::Moved { squares, altitude, .. } = report.outcome else { panic!() };
    assert_eq!(squares, 3);
    assert_eq!(altitude.unwrap().to, AltitudeBand::Low);
    assert_eq!(stats_of(&enc, "Ana").altitude, AltitudeBand::Low);
    assert_eq!(state_of(&enc, "Ana").budget.half_actions, 1);
    // A second Half Move: 3 squares again; then the turn is spent.
    act(&mut enc, action(json!({"action": "move", "combatant_id": "Ana", "kind": "half_move"})), &mut dice(&[]))
        .unwrap();
    let (field, _) =
        refused(&mut enc, json!({"action": "move", "combatant_id": "Ana", "kind": "half_move"}), &[]);
    assert_eq!(field, "action");
}

#[test]
fn a_run_is_four_half_moves_and_two_bands_need_more_than_a_half_move() {
    let mut enc = fight();
    let (field, _) = refused(
        &mut enc,
        json!({"action": "move", "combatant_id": "Ana", "kind": "half_move", "altitude_to": "high"}),
        &[],
    );
    assert_eq!(field, "altitude_to.to");
    let (field, _) = refused(&mut enc, json!({"action": "move", "combatant_id": "Ana", "kind": "charge"}), &[]);
    assert_eq!(field, "kind");
    let (field, _) = refused(&mut enc, json!({"action": "move", "combatant_id": "Bo", "kind": "run"}), &[]);
    assert_eq!(field, "combatant_id");
    let (_, report) = act(
        &mut enc,
        action(json!({"action": "move", "combatant_id": "Ana", "kind": "run", "altitude_to": "high"})),
        &mut dice(&[]),
    )
    .unwrap();
    let ActionOutcome::Moved { squares, .. } = report.outcome else { panic!() };
    assert_eq!(squares, 12);
    assert_eq!(stats_of(&enc, "Ana").altitude, AltitudeBand::High);
    assert_eq!(state_of(&enc, "Ana").budget.full_actions, 1);
}

#[test]
fn a_knock_down_after_a_half_move_by_four_dos_lays_the_target_prone() {
    // Ana S 30 + 10 (after a half move) = 40, d100 10 → 4 DoS; Bo S 30, d100 90 fails → margin 4.
    // The +10 is derived from the Half Move taken first (issue 28: no longer the caller's word).
    let mut enc = fight();
    act(&mut enc, action(json!({"action": "move", "combatant_id": "Ana", "kind": "half_move"})), &mut dice(&[]))
        .unwrap();
    let (_, report) = act(
        &mut enc,
        action(
            json!({"action": "knock_down", "combatant_id": "Ana", "target_id": "Bo", "after_half_move": true}),
        ),
        &mut dice(&[10, 90]),
    )
    .unwrap();
    let ActionOutcome::KnockDown { outcome, contest, .. } = report.outcome else { panic!() };
    assert_eq!(outcome, KnockDownOutcome::TargetProneMayHurt);
    assert_eq!(contest.margin, 4);
    assert!(state_of(&enc, "Bo").prone);
    assert!(!state_of(&enc, "Ana").prone);
    assert_eq!(state_of(&enc, "Ana").budget.half_actions, 2);
}

#[test]
fn a_knock_down_lost_by_two_lays_the_actor_prone() {
    // Ana S 30, d100 95 fails; Bo S 30, d100 12 → 2 DoS → margin 2: Ana falls.
    let mut enc = fight();
    act(
        &mut enc,
        action(json!({"action": "knock_down", "combatant_id": "Ana", "target_id": "Bo"})),
        &mut dice(&[95, 12]),
    )
    .unwrap();
    assert!(state_of(&enc, "Ana").prone);
    assert!(!state_of(&enc, "Bo").prone);
}

#[test]
fn a_feint_won_on_the_characteristic_tie_break_is_stored_on_the_target() {
    // Ana WS 40, d100 35 → 1 DoS; Bo WS 30, d100 25 → 1 DoS; tie → higher characteristic: Ana.
    let mut enc = fight();
    let (_, report) = act(
        &mut enc,
        action(json!({"action": "feint", "combatant_id": "Ana", "target_id": "Bo"})),
        &mut dice(&[35, 25]),
    )
    .unwrap();
    let ActionOutcome::Feint { won, .. } = report.outcome else { panic!() };
    assert!(won);
    assert_eq!(state_of(&enc, "Bo").feinted_by, Some(id("Ana")));
    assert_eq!(state_of(&enc, "Ana").budget.half_actions, 1);
}

#[test]
fn an_advanced_disarm_by_four_dos_drops_the_weapon_and_fills_the_turn() {
    let mut enc = fight();
    let (field, _) = refused(
        &mut enc,
        json!({"action": "disarm", "combatant_id": "Ana", "target_id": "Bo", "has_talent": false}),
        &[],
    );
    assert_eq!(field, "has_talent");
    // Ana WS 40 + 20 = 60, d100 25 → 4 DoS; Bo WS 30, d100 50 fails → Ana wins with 4 DoS ≥ 3.
    let (_, report) = act(
        &mut enc,
        action(json!({"action": "disarm", "combatant_id": "Ana", "target_id": "Bo", "has_talent": true,
            "advanced_disarm": true, "object": "Sword"})),
        &mut dice(&[25, 50]),
    )
    .unwrap();
    let ActionOutcome::Disarm { outcome, .. } = report.outcome else { panic!() };
    assert_eq!(outcome, DisarmOutcome::MayTake);
    assert_eq!(state_of(&enc, "Bo").dropped, vec!["Sword".to_string()]);
    // Disarm is a full action: nothing is left for a Feint.
    let (field, _) =
        refused(&mut enc, json!({"action": "feint", "combatant_id": "Ana", "target_id": "Bo"}), &[35, 25]);
    assert_eq!(field, "action");
}

#[test]
fn a_multiple_attack_tests_each_weapon_at_minus_twenty_through_the_attack_command() {
    // Pistol: BS 40 + 10 − 30 = 20, d100 50 misses. Knife: WS 40 + 10 − 30 = 20, d100 5 → 2 DoS,
    // 1 hit; 1d5 die 4 (DoS 2 is lower, kept) + SB 3 = 7 − TB 3 = 4 wounds: Bo 10 → 6.
    let mut enc = fight();
    let (_, report) = act(
        &mut enc,
        action(
            json!({"action": "multiple_attack", "combatant_id": "Ana", "target_id": "Bo", "equipped_weapons": 2,
            "weapons": [
                {"weapon": {"name": "Pistol", "class": "ranged"}, "damage": {"count": 1, "sides": 10}},
                {"weapon": {"name": "Knife", "class": "melee"}, "damage": {"count": 1, "sides": 5}}
            ]}),
        ),
        &mut dice(&[50, 5, 4]),
    )
    .unwrap();
    let ActionOutcome::MultipleAttack { attacks, .. } = report.outcome else { panic!() };
    let targets: Vec<i32> = attacks.iter().map(|a| a.attack_test.test.target).collect();
    assert_eq!(targets, vec![20, 20]);
    assert_eq!((attacks[0].hits_scored, attacks[1].hits_scored), (0, 1));
    assert_eq!(stats_of(&enc, "Bo").wounds_taken.get(), 4);
    let budget = state_of(&enc, "Ana").budget;
    assert_eq!((budget.full_actions, budget.attack_actions), (1, 1));
    // One weapon is not a Multiple Attack.
    let mut enc = fight();
    let (field, _) = refused(
        &mut enc,
        json!({"action": "multiple_attack", "combatant_id": "Ana", "target_id": "Bo", "equipped_weapons": 2,
            "weapons": [{"weapon": {"name": "Pistol", "class": "ranged"}, "damage": {"count": 1, "sides": 10}}]}),
        &[],
    );
    assert_eq!(field, "weapons");
}

#[test]
fn suppressive_fire_hits_random_victims_and_pins_on_the_stat_blocks_characteristic() {
    // BS 40 − 20 = 20, d100 5 → 2 DoS → 1 + 1 = 2 hits (semi-auto 3). Victim d2: 1 (Bo), 2 (Cy).
    // Pinning at −10: Bo Wp 30 − 10 = 20, d100 50 fails (pinned); Cy tests Ag 60 − 10 = 50 (its
    // stat block's choice), d100 45 passes (on Wp it would have failed).
    // Damage 1d10+2, Pen 0; soak TB 3 (T 30) + AP 0 = 3. Hit 1 (Bo): d10 6 + 2 = 8 − 3 = 5 →
    // wounds 10 → 5. Hit 2 (Cy): d10 4 + 2 = 6 − 3 = 3 → 10 → 7.
    let mut enc = fight();
    if let StatBlock::AdevaD100(stats) = &mut enc.combatant_mut(&id("Cy")).unwrap().stats {
        stats.ag = Characteristic::new(60).unwrap();
        stats.pinning_characteristic = Some(crate::rulesets::adeva_d100::decay::CharacteristicName::Ag);
    }
    let (_, report) = act(
        &mut enc,
        action(json!({"action": "suppressive_fire", "combatant_id": "Ana", "mode": "semi_auto",
            "weapon": {"name": "Autogun", "class": "ranged", "hit_rating": 3, "semi_auto": 3},
            "victims": ["Bo", "Cy"], "damage": {"count": 1, "sides": 10, "bonus": 2}})),
        &mut dice(&[5, 1, 2, 50, 45, 6, 4]),
    )
    .unwrap();
    let ActionOutcome::SuppressiveFire { outcome, damage } = report.outcome else { panic!() };
    let totals: Vec<i32> = damage[0].damage.steps.iter().map(|step| step.total).collect();
    assert_eq!(totals, [6, 8]);
    assert_eq!((damage[0].victim_id.clone(), damage[0].soak.value, damage[0].past_soak), (id("Bo"), 3, 5));
    assert_eq!((damage[1].victim_id.clone(), damage[1].damage.damage, damage[1].past_soak), (id("Cy"), 6, 3));
    assert_eq!(stats_of(&enc, "Bo").current_wounds(), 5);
    assert_eq!(stats_of(&enc, "Cy").current_wounds(), 7);
    assert!(!enc.combatant(&id("Bo")).unwrap().flags.defeated);
    assert_eq!(outcome.attack.test.target, 20);
    assert_eq!(outcome.hits_scored, 2);
    assert!(!outcome.jammed);
    assert_eq!(outcome.pinning[1].test.test.target, 50);
    assert!(state_of(&enc, "Bo").pinned);
    assert!(!state_of(&enc, "Cy").pinned);
    assert_eq!(state_of(&enc, "Ana").budget.full_actions, 1);
}

#[test]
fn suppressive_fire_jams_on_94_and_still_calls_for_pinning() {
    // d100 95 ≥ 94: jammed, no hits, no victim dice; Bo Wp 30 − 20 (full auto) = 10, d100 5 passes.
    let mut enc = fight();
    let (_, report) = act(
        &mut enc,
        action(json!({"action": "suppressive_fire", "combatant_id": "Ana", "mode": "full_auto",
            "weapon": {"name": "Autogun", "class": "ranged", "hit_rating": 3, "full_auto": 5},
            "victims": ["Bo"]})),
        &mut dice(&[95, 5]),
    )
    .unwrap();
    let ActionOutcome::SuppressiveFire { outcome, damage } = report.outcome else { panic!() };
    assert!(damage.is_empty());
    assert!(outcome.jammed);
    assert_eq!(outcome.hits_scored, 0);
    assert!(!state_of(&enc, "Bo").pinned);
    assert!(report.notes.iter().any(|n| n.contains("jammed")));
    let (field, _) = refused(
        &mut fight(),
        json!({"action": "suppressive_fire", "combatant_id": "Ana", "mode": "full_auto",
            "weapon": {"name": "Autogun", "class": "ranged", "hit_rating": 3, "full_auto": 5},
            "victims": ["Bo", "Bo"]}),
        &[],
    );
    assert_eq!(field, "victims[1]");
}

#[test]
fn suppressive_fire_hits_deal_damage_and_a_hit_can_kill() {
    // Full auto: BS 40 − 20 = 20, d100 5 → 2 DoS → 1 + 1 = 2 hits; one victim, no victim die.
    // Pinning: Bo Wp 30 − 20 = 10, d100 50 fails. Damage 2d10, Pen 2; soak TB 3 + AP (0 − 2 → 0)
    // = 3. Hit 1: 9 + 8 = 17 − 3 = 14 → wounds 10 → 0, no Fate: dead, defeated. Hit 2: 3 + 2 =
    // 5 − 3 = 2 → 0 stays 0.
    let request = json!({"action": "suppressive_fire", "combatant_id": "Ana", "mode": "full_auto",
        "weapon": {"name": "Autogun", "class": "ranged", "hit_rating": 3, "full_auto": 5},
        "victims": ["Bo"], "damage": {"count": 2, "sides": 10}, "penetration": 2});
    let mut enc = fight();
    let (_, report) = act(&mut enc, action(request.clone()), &mut dice(&[5, 50, 9, 8, 3, 2])).unwrap();
    let ActionOutcome::SuppressiveFire { outcome, damage } = report.outcome else { panic!() };
    assert_eq!(outcome.hits_scored, 2);
    assert_eq!((damage[0].damage.damage, damage[0].past_soak), (17, 14));
    assert_eq!((damage[0].wounds.before, damage[0].wounds.after, damage[0].wounds.dead), (10, 0, true));
    assert!(damage[0].defeated);
    assert_eq!((damage[1].past_soak, damage[1].wounds.after), (2, 0));
    assert_eq!(stats_of(&enc, "Bo").current_wounds(), 0);
    assert!(enc.combatant(&id("Bo")).unwrap().flags.defeated);
    assert!(state_of(&enc, "Bo").pinned);
    // The same volley without damage dice is refused once a hit lands; nothing is stored.
    let mut without = request;
    without.as_object_mut().unwrap().remove("damage");
    let (field, _) = refused(&mut fight(), without, &[5, 50]);
    assert_eq!(field, "damage");
}

#[test]
fn an_overwatch_is_stored_fires_wins_the_agility_test_and_pins_its_target() {
    let mut enc = fight();
    act(
        &mut enc,
        action(json!({"action": "overwatch_set", "combatant_id": "Ana",
            "weapon": {"name": "Gun", "class": "ranged"}, "kill_zone_radius_squares": 5,
            "attack": "standard", "triggers": ["any_enemy_acts", {"condition": "enemy_attacks", "enemy": "Bo"}]})),
        &mut dice(&[]),
    )
    .unwrap();
    assert!(state_of(&enc, "Ana").overwatch.is_some());
    assert_eq!(state_of(&enc, "Ana").budget.full_actions, 1);
    // Outside the kill zone: nothing fires, nothing is rolled, the Overwatch stays.
    let (_, report) = act(
        &mut enc,
        action(json!({"action": "overwatch_trigger", "combatant_id": "Ana", "target_id": "Bo",
            "observed": {"in_kill_zone": false}})),
        &mut dice(&[]),
    )
    .unwrap();
    let ActionOutcome::OverwatchTrigger { verdict, .. } = report.outcome else { panic!() };
    assert_eq!(verdict, crate::rulesets::adeva_d100::actions::overwatch::TriggerVerdict::DoesNotFire);
    assert!(state_of(&enc, "Ana").overwatch.is_some());
    // Bo's turn now: the Overwatch fires off Ana's turn, spending nothing.
    advance(&mut enc, Advance::NextTurn).unwrap();
    // Simultaneous: Ana Ag 30, d100 10 → 3 DoS; Bo Ag 40, d100 60 fails → Ana first.
    // The readied Standard Attack: BS 40 + 10 = 50, d100 30 → hit, 2 DoS; no evasion.
    // 1d10 die 6 → damage 6 against TB 3 → 3 wounds. Bo's Pinning test: Wp 30, d100 70 fails
    // → pinned. The Overwatch is used up.
    let (_, report) = act(
        &mut enc,
        action(json!({"action": "overwatch_trigger", "combatant_id": "Ana", "target_id": "Bo",
            "observed": {"in_kill_zone": true, "location": "the doorway"}, "simultaneous": true,
            "damage": {"count": 1, "sides": 10}})),
        &mut dice(&[10, 60, 30, 6, 70]),
    )
    .unwrap();
    let ActionOutcome::OverwatchTrigger { first, attack, pinning, .. } = report.outcome else { panic!() };
    assert!(first.unwrap().overwatch_first);
    let attack = attack.unwrap();
    assert_eq!((attack.attack_test.test.target, attack.hits_scored), (50, 1));
    assert_eq!(stats_of(&enc, "Bo").wounds_taken.get(), 3);
    let pinning = pinning.unwrap();
    assert!(pinning.pinned);
    assert_eq!(pinning.held_at.as_deref(), Some("the doorway"));
    assert!(state_of(&enc, "Bo").pinned);
    assert!(state_of(&enc, "Ana").overwatch.is_none());
    let (field, _) = refused(
        &mut enc,
        json!({"action": "overwatch_trigger", "combatant_id": "Ana", "target_id": "Bo",
            "observed": {"in_kill_zone": true}}),
        &[],
    );
    assert_eq!(field, "combatant_id");
}

#[test]
fn an_attack_through_the_attack_command_ends_a_standing_overwatch() {
    // "If you perform any actions ... your Overwatch immediately ends" (Overwatch).
    let mut enc = fight();
    act(
        &mut enc,
        action(json!({"action": "overwatch_set", "combatant_id": "Ana",
            "weapon": {"name": "Gun", "class": "ranged"}, "kill_zone_radius_squares": 5,
            "attack": {"kind": "standard"}, "triggers": [{"condition": "any_enemy_acts"}]})),
        &mut dice(&[]),
    )
    .unwrap();
    // The Overwatch took Ana's full action; in round 2 she attacks instead (BS 40 + 10 = 50,
    // d100 90 misses), a half action that ends the standing Overwatch.
    advance(&mut enc, Advance::NextTurn).unwrap();
    advance(&mut enc, Advance::NextTurn).unwrap();
    advance(&mut enc, Advance::NextTurn).unwrap();
    assert!(state_of(&enc, "Ana").overwatch.is_some());
    let request: EncounterAttack = serde_json::from_value(json!({
        "attacker_id": "Ana", "target_id": "Bo",
        "action": {"action": "standard_attack", "weapon": {"name": "Gun", "class": "ranged"}},
        "damage": {"count": 1, "sides": 10}}))
    .unwrap();
    let (_, report) = attack(&mut enc, request, &mut dice(&[90])).unwrap();
    assert_eq!(report.hits_scored, 0);
    assert!(state_of(&enc, "Ana").overwatch.is_none());
}

fn grapple_bo(enc: &mut Encounter) {
    // Ana WS 40, d100 30 passes; Bo dodges on Ag 40, d100 80 fails: the grapple starts.
    let (_, report) = act(
        enc,
        action(json!({"action": "grapple", "combatant_id": "Ana", "target_id": "Bo", "hand_free": true, "dodge": true})),
        &mut dice(&[30, 80]),
    )
    .unwrap();
    let ActionOutcome::Grapple { started, .. } = report.outcome else { panic!() };
    assert!(started);
}

#[test]
fn a_grapple_is_stored_on_both_and_breaking_free_ends_it() {
    use crate::rulesets::adeva_d100::actions::grapple::GrappleRole;
    let mut enc = fight();
    grapple_bo(&mut enc);
    let (ana, bo) = (state_of(&enc, "Ana"), state_of(&enc, "Bo"));
    assert_eq!((ana.grappled_with, ana.grapple_role), (Some(id("Bo")), Some(GrappleRole::Controller)));
    assert_eq!((bo.grappled_with, bo.grapple_role), (Some(id("Ana")), Some(GrappleRole::Restrained)));
    assert!(bo.budget.reaction_used);
    assert_eq!(ana.budget.full_actions, 1);
    let (field, _) = refused(
        &mut enc,
        json!({"action": "grapple_action", "combatant_id": "Cy", "move": "release"}),
        &[],
    );
    assert_eq!(field, "combatant_id");
    // Bo's turn: Break Free, S 30, d100 20 → 2 DoS against Ana's S 30, d100 25 → 1 DoS: Bo wins.
    advance(&mut enc, Advance::NextTurn).unwrap();
    act(
        &mut enc,
        action(json!({"action": "grapple_action", "combatant_id": "Bo",
            "move": {"kind": "break_free", "with": "strength"}})),
        &mut dice(&[20, 25]),
    )
    .unwrap();
    assert_eq!(state_of(&enc, "Ana").grappled_with, None);
    assert_eq!(state_of(&enc, "Bo").grapple_role, None);
    assert_eq!(state_of(&enc, "Bo").budget.half_actions, 1);
}

#[test]
fn the_controllers_grapple_damage_rolls_unarmed_damage_and_fatigue() {
    let mut enc = fight();
    grapple_bo(&mut enc);
    for _ in 0..3 {
        advance(&mut enc, Advance::NextTurn).unwrap();
    }
    // Round 2, Ana: S 30, d100 10 → 3 DoS; Bo S 30, d100 90 fails. 1d5 = 5 − 3 + SB 3 = 5, soak
    // TB 3 → 2 wounds: 10 → 8; +1 Fatigue.
    act(
        &mut enc,
        action(json!({"action": "grapple_action", "combatant_id": "Ana",
            "move": {"kind": "grapple", "then": {"kind": "damage"}}})),
        &mut dice(&[10, 90, 5]),
    )
    .unwrap();
    let bo = stats_of(&enc, "Bo");
    assert_eq!((bo.wounds_taken.get(), bo.fatigue.get()), (2, 1));
    assert_eq!(state_of(&enc, "Bo").grappled_with, Some(id("Ana")));
}

#[test]
fn an_extended_action_fills_turns_until_done_and_an_interruption_restarts_it() {
    let mut enc = fight();
    act(
        &mut enc,
        action(json!({"action": "extended_start", "combatant_id": "Ana", "name": "repair the door",
            "turns_needed": 3, "restarts_if_interrupted": true})),
        &mut dice(&[]),
    )
    .unwrap();
    assert_eq!(state_of(&enc, "Ana").extended.unwrap().turns_done, 1);
    // Nothing else that turn.
    let (field, _) =
        refused(&mut enc, json!({"action": "move", "combatant_id": "Ana", "kind": "half_move"}), &[]);
    assert_eq!(field, "action");
    for _ in 0..3 {
        advance(&mut enc, Advance::NextTurn).unwrap();
    }
    act(&mut enc, action(json!({"action": "extended_work", "combatant_id": "Ana"})), &mut dice(&[])).unwrap();
    assert_eq!(state_of(&enc, "Ana").extended.unwrap().turns_done, 2);
    let (_, report) =
        act(&mut enc, action(json!({"action": "extended_interrupt", "combatant_id": "Ana"})), &mut dice(&[]))
            .unwrap();
    assert!(report.notes[0].contains("starts again"));
    assert_eq!(state_of(&enc, "Ana").extended.unwrap().turns_done, 0);
    let (field, _) = refused(&mut enc, json!({"action": "extended_work", "combatant_id": "Bo"}), &[]);
    assert_eq!(field, "combatant_id");
}

#[test]
fn an_extended_action_of_one_turn_completes_at_once() {
    let mut enc = fight();
    let (_, report) = act(
        &mut enc,
        action(json!({"action": "extended_start", "combatant_id": "Ana", "name": "ritual",
            "turns_needed": 1, "restarts_if_interrupted": false})),
        &mut dice(&[]),
    )
    .unwrap();
    let ActionOutcome::Extended { complete, .. } = report.outcome else { panic!() };
    assert!(complete);
    assert_eq!(state_of(&enc, "Ana").extended, None);
}

#[test]
fn a_take_down_negates_the_damage_and_stuns_on_a_failed_toughness_test() {
    // Ana WS 40 (no bonus), d100 25 → 2 DoS. 1d10 die 8 (the DoS 2 is lower, kept) + SB 3 = 11
    // against soak TB 3 + AP 0 = 3: past soak, so negated. Toughness test: 11 is 3 multiples of
    // TB 3 → −30: T 30 − 30 = 0, d100 50 fails → stunned for one round. No wounds lost.
    let mut enc = fight();
    let (field, _) = refused(
        &mut enc,
        json!({"action": "take_down", "combatant_id": "Ana", "target_id": "Bo", "has_talent": false,
            "weapon": {"name": "Knife", "class": "melee"}, "damage": {"count": 1, "sides": 10}}),
        &[],
    );
    assert_eq!(field, "has_talent");
    let (_, report) = act(
        &mut enc,
        action(json!({"action": "take_down", "combatant_id": "Ana", "target_id": "Bo", "has_talent": true,
            "weapon": {"name": "Knife", "class": "melee"}, "damage": {"count": 1, "sides": 10}})),
        &mut dice(&[25, 8, 50]),
    )
    .unwrap();
    let ActionOutcome::TakeDown { test, damage, result, .. } = report.outcome else { panic!() };
    assert_eq!(test.test.target, 40);
    assert_eq!(damage.unwrap().damage, 11);
    let Some(result) = result else { panic!() };
    let crate::rulesets::adeva_d100::actions::manoeuvres::TakeDownResult::Tested { test, stunned, .. } =
        *result
    else {
        panic!()
    };
    assert_eq!((test.test.target, stunned), (0, true));
    assert_eq!(state_of(&enc, "Bo").stunned_until_round, Some(2));
    assert_eq!(stats_of(&enc, "Bo").wounds_taken.get(), 0);
    assert_eq!(state_of(&enc, "Ana").budget.half_actions, 1);
}

#[test]
fn a_ram_hits_at_plus_twenty_and_both_ships_take_their_impact() {
    // WS 40 + 20 = 60, d100 30 hits. Target: 1d10 5 + SB 3 + 2 × Size 2 = 12, Pen 4 against TB 3
    // + AP 0 → 9: Bo 10 → 1. Back: 1d10 4 + SB 2 + Size 1 = 7, Pen 1 against TB 3 → 4: Ana 10 → 6.
    let mut enc = fight();
    let (_, report) = act(
        &mut enc,
        action(json!({"action": "ram", "combatant_id": "Ana", "target_id": "Bo", "distance_squares": 6,
            "half_move_squares": 3, "straight_line_squares": 4,
            "rammer": {"strength_bonus": 3, "size": 2}, "target": {"strength_bonus": 2, "size": 1}})),
        &mut dice(&[30, 5, 4]),
    )
    .unwrap();
    let ActionOutcome::Ram { test, impacts, .. } = report.outcome else { panic!() };
    assert_eq!(test.test.target, 60);
    assert_eq!(impacts, vec![12, 7]);
    assert_eq!(stats_of(&enc, "Bo").wounds_taken.get(), 9);
    assert_eq!(stats_of(&enc, "Ana").wounds_taken.get(), 4);
    assert_eq!(state_of(&enc, "Ana").budget.full_actions, 1);
    let (field, _) = refused(
        &mut fight(),
        json!({"action": "ram", "combatant_id": "Ana", "target_id": "Bo", "distance_squares": 60,
            "half_move_squares": 3, "straight_line_squares": 4,
            "rammer": {"strength_bonus": 3, "size": 2}, "target": {"strength_bonus": 2, "size": 1}}),
        &[],
    );
    assert_eq!(field, "distance_squares");
}

#[test]
fn unknown_fields_are_refused_even_beside_flattened_ones() {
    let ram = json!({"action": "ram", "combatant_id": "Ana", "target_id": "Bo", "distance_squares": 6,
        "half_move_squares": 3, "straight_line_squares": 4, "bogus": 1,
        "rammer": {"strength_bonus": 3, "size": 2}, "target": {"strength_bonus": 2, "size": 1}});
    assert!(serde_json::from_value::<Action>(ram).is_err());
    let multiple = json!({"action": "multiple_attack", "combatant_id": "Ana", "target_id": "Bo", "equipped_weapons": 2,
        "weapons": [{"weapon": {"name": "Pistol", "class": "ranged"}, "bogus": 1}]});
    assert!(serde_json::from_value::<Action>(multiple).is_err());
}

fn set_state(enc: &mut Encounter, name: &str, change: impl FnOnce(&mut super::super::state::CombatState)) {
    let mut state = state_of(enc, name);
    change(&mut state);
    enc.combatant_mut(&id(name)).unwrap().state = RulesetState::AdevaD100(state);
}

#[test]
fn a_stunned_combatant_cannot_act_or_attack_until_its_round_has_passed() {
    // Take Down: "stunned for one round"; stored as stunned until the end of round 1 here.
    let mut enc = fight();
    set_state(&mut enc, "Ana", |s| s.stunned_until_round = Some(1));
    let (field, message) =
        refused(&mut enc, json!({"action": "move", "combatant_id": "Ana", "kind": "half_move"}), &[]);
    assert_eq!(field, "action");
    assert!(message.contains("stunned"), "{message}");
    let request: EncounterAttack = serde_json::from_value(json!({
        "attacker_id": "Ana", "target_id": "Bo",
        "action": {"action": "standard_attack", "weapon": {"name": "Gun", "class": "ranged"}},
        "damage": {"count": 1, "sides": 10}}))
    .unwrap();
    let error = attack(&mut enc, request.clone(), &mut dice(&[10])).unwrap_err();
    assert!(matches!(error, EncounterError::Invalid { ref field, .. } if field == "action"));
    // The end of round 1 clears it; in round 2 Ana acts again.
    let mut events = Vec::new();
    crate::rulesets::adeva_d100::round::end_of_round(&mut enc, &mut events);
    assert_eq!(state_of(&enc, "Ana").stunned_until_round, None);
    // BS 40 + 10 = 50, d100 90 misses, but the attack is rolled.
    let (_, report) = attack(&mut enc, request, &mut dice(&[90])).unwrap();
    assert_eq!(report.hits_scored, 0);
}

#[test]
fn a_pinned_combatant_cannot_move_until_the_end_of_its_next_turn() {
    let mut enc = fight();
    // Ana's turn of round 1 is under way (a half move), then she is pinned: held for the rest
    // of it.
    act(&mut enc, action(json!({"action": "move", "combatant_id": "Ana", "kind": "half_move"})), &mut dice(&[]))
        .unwrap();
    set_state(&mut enc, "Ana", |s| s.pinned = true);
    let (field, message) =
        refused(&mut enc, json!({"action": "move", "combatant_id": "Ana", "kind": "half_move"}), &[]);
    assert_eq!(field, "action");
    assert!(message.contains("pinned"), "{message}");
    // Round 2, Ana's next turn: still held.
    for _ in 0..3 {
        advance(&mut enc, Advance::NextTurn).unwrap();
    }
    let (field, _) =
        refused(&mut enc, json!({"action": "move", "combatant_id": "Ana", "kind": "half_move"}), &[]);
    assert_eq!(field, "action");
    // Round 3: that next turn is over, the pinning has ended.
    for _ in 0..3 {
        advance(&mut enc, Advance::NextTurn).unwrap();
    }
    act(&mut enc, action(json!({"action": "move", "combatant_id": "Ana", "kind": "half_move"})), &mut dice(&[]))
        .unwrap();
    assert!(!state_of(&enc, "Ana").pinned);
}

#[test]
fn standing_up_is_a_half_action_that_clears_prone() {
    let mut enc = fight();
    let (field, _) = refused(&mut enc, json!({"action": "stand", "combatant_id": "Ana"}), &[]);
    assert_eq!(field, "combatant_id");
    set_state(&mut enc, "Ana", |s| s.prone = true);
    act(&mut enc, action(json!({"action": "stand", "combatant_id": "Ana"})), &mut dice(&[])).unwrap();
    assert!(!state_of(&enc, "Ana").prone);
    assert_eq!(state_of(&enc, "Ana").budget.half_actions, 1);
}

#[test]
fn boarding_tests_ws_with_the_marines_and_hits_the_hull_ignoring_soak() {
    // Ana WS 40 + 10 (veteran marines) = 50, d100 20 → hit. Bo dodges with threshold 40
    // (its Reaction), d100 70 fails. Marines 2d10 + 1: dice 4 and 5 → 10, no soak (TB 3 ignored):
    // Bo's Hull (wounds) 10 → 0.
    let mut enc = fight();
    let (_, report) = act(
        &mut enc,
        action(json!({"action": "boarding", "combatant_id": "Ana", "target_id": "Bo",
            "target_is_starship": true, "marines": [{"reason": "veteran marines", "value": 10}],
            "damage": {"count": 2, "sides": 10, "bonus": 1},
            "evasion": {"kind": "dodge", "threshold": 40}})),
        &mut dice(&[20, 70, 4, 5]),
    )
    .unwrap();
    let ActionOutcome::Boarding { test, evasion, hit, hull_damage, .. } = report.outcome else { panic!() };
    assert_eq!(test.test.target, 50);
    assert!(!evasion.unwrap().test.passed);
    assert_eq!((hit, hull_damage), (true, Some(10)));
    assert_eq!(stats_of(&enc, "Bo").wounds_taken.get(), 10);
    assert!(state_of(&enc, "Bo").budget.reaction_used);
    assert_eq!(state_of(&enc, "Ana").budget.half_actions, 1);
    // Not against a starship: refused.
    let (field, _) = refused(
        &mut enc,
        json!({"action": "boarding", "combatant_id": "Ana", "target_id": "Cy", "target_is_starship": false,
            "damage": {"count": 1, "sides": 10}}),
        &[],
    );
    assert_eq!(field, "target_is_starship");
}
