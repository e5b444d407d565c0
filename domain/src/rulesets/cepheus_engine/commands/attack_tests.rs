//! Stored and inline attacks and damage; numbers worked by hand from cepheus-engine.txt.

use super::super::damage::Status;
use super::super::dynamic::check_penalties;
use super::test_support::*;
use super::*;
use crate::encounter::test_support::{add, cepheus, encounter, fix, id};
use crate::encounter::{Advance, Event, advance};
use crate::rulesets::RulesetId;
use serde_json::json;

fn pistol(extra: serde_json::Value) -> EncounterAttack {
    let mut body = json!({
        "attacker_id": "Ana", "target_id": "Bo",
        "weapon": {"weapon_type": "pistol", "damage_dice": 1},
        "range_band": "short"
    });
    for (key, value) in extra.as_object().unwrap() {
        body[key] = value.clone();
    }
    json(body)
}

#[test]
fn a_hit_through_cover_on_a_dodging_target() {
    // Gun Combat 2 (+2), DEX 9 (+1), pistol at Short: Average (+0), 1/2 cover (−1), dodge from
    // cover (−2): DM 0. Dice 6 + 5 = 11 → Effect 3. Damage 1D6 (2) + 3 = 5 → Bo's END 7 − 5 = 2.
    let mut enc = fight();
    let request = pistol(json!({"cover": "half", "reaction": "dodge"}));
    let (events, report) = attack(&mut enc, request, &mut dice(&[6, 5, 2])).unwrap();
    assert_eq!(report.outcome.total_dm, 0);
    assert_eq!(report.outcome.effect, Some(3));
    let dms: Vec<i32> = report.outcome.modifiers.iter().map(|m| m.dm).collect();
    assert_eq!(dms, [2, 1, 0, -1, -2]);
    let hit = report.target_hit.unwrap();
    assert_eq!((hit.allocation.damage, hit.allocation.end, hit.allocation.status_after), (5, 5, Status::Wounded));
    assert_eq!(stats_of(&enc, "Bo").current(super::super::character::Physical::End), 2);
    // The dodge: Bo has not acted, so 8 − 2 = 6 this round, and −1 DM on his checks this round.
    assert_eq!(score(&enc, "Bo"), 6);
    assert_eq!(check_penalties(&state(&enc, "Bo"), 1).iter().map(|p| p.1).sum::<i32>(), -1);
    assert!(matches!(events[0], Event::InitiativeChanged { from: 8, to: 6, .. }));
    assert!(matches!(events.last(), Some(Event::AttackResolved { .. })));
    let economy = report.economy.unwrap();
    assert_eq!((economy.significant, economy.minor), (1, 0));
    assert!(matches!(events.last(), Some(Event::AttackResolved { dice, .. }) if dice.len() == 3));
}

#[test]
fn a_grouped_burst_adds_a_die_of_damage() {
    // Assault weapon at Short (+0), skill +2, DEX +1: dice 4 + 4 + 3 = 11 → Effect 3.
    // Damage 1D6 (3) + grouped 4-round burst +1D6 (2) + Effect 3 = 8: END 7 → 0, 1 more to STR
    // (STR 7 ties DEX 7: the default goes to STR).
    let mut enc = fight();
    let request = pistol(json!({
        "weapon": {"weapon_type": "assault_weapon", "damage_dice": 1},
        "burst": {"rounds": 4, "mode": "grouped"}
    }));
    let (_, report) = attack(&mut enc, request, &mut dice(&[4, 4, 3, 2])).unwrap();
    let damage = report.outcome.damage.clone().unwrap();
    assert_eq!((damage.extra, damage.after_armour), (2, 8));
    let hit = report.target_hit.unwrap();
    assert_eq!((hit.allocation.end, hit.allocation.str, hit.allocation.dex), (7, 1, 0));
    assert_eq!(hit.allocation.status_after, Status::Wounded);
}

#[test]
fn knocking_the_target_unconscious_marks_it_defeated() {
    // DM +3; dice 5 + 5 → 13, Effect 5. Pistol 3D6 (6, 6, 2) = 14 + 5 = 19: END 7, STR 7, DEX 5
    // → END and STR at 0: unconscious.
    let mut enc = fight();
    let request = pistol(json!({"weapon": {"weapon_type": "pistol", "damage_dice": 3}}));
    let (_, report) = attack(&mut enc, request, &mut dice(&[5, 5, 6, 6, 2])).unwrap();
    let hit = report.target_hit.unwrap();
    assert_eq!((hit.allocation.end, hit.allocation.str, hit.allocation.dex), (7, 7, 5));
    assert!(hit.defeated && hit.allocation.unconscious);
    assert!(enc.combatant(&id("Bo")).unwrap().flags.defeated);
    next_turn(&mut enc);
    assert_eq!(enc.current, Some(id("Cy")), "Bo's turn is skipped");
}

#[test]
fn a_stray_shot_into_combat_hits_the_nearest_other_at_effect_zero() {
    // DM +2 +1 −2 (firing into combat) = +1; dice 1 + 1 → 3: a miss. 1D6 = 5 (4+): Cy is hit.
    // Damage 1D6 (4) + Effect 0 = 4 → Cy's END 7 − 4 = 3.
    let mut enc = fight();
    let request = pistol(json!({"firing_into_combat": true, "nearest_other_id": "Cy"}));
    let (_, report) = attack(&mut enc, request, &mut dice(&[1, 1, 5, 4])).unwrap();
    assert!(!report.outcome.hit);
    let stray = report.stray_shot.unwrap();
    assert_eq!((stray.hit.combatant_id, stray.damage.after_armour), (Some(id("Cy")), 4));
    assert_eq!(stats_of(&enc, "Cy").damage.end.get(), 4);
    assert!(!stats_of(&enc, "Bo").has_been_damaged());
}

#[test]
fn suppression_stalls_the_target_and_lasts_two_rounds() {
    // DM +2 +1 −2 (suppression) = +1; dice 6 + 6 → 13, Effect 5: Bo 8 − 5 = 3 this round.
    let mut enc = fight();
    let (_, report) = attack(&mut enc, pistol(json!({"suppression": true})), &mut dice(&[6, 6])).unwrap();
    let applied = report.suppression.unwrap();
    assert!(applied.applied);
    assert_eq!((applied.initiative_penalty, applied.check_dm_rounds.clone()), (5, vec![1, 2]));
    assert_eq!(score(&enc, "Bo"), 3);
    assert!(report.target_hit.is_none(), "suppression does no damage");
    // Cy fires at Bo again before Bo has acted: no second effect. Cy: unskilled −3, DEX 4 −1,
    // suppression −2, a referee's +6: DM 0; dice 6 + 6 → 12, Effect 4, a hit.
    next_turn(&mut enc); // Cy (6) now goes before Bo (3)
    let extra = json!([{"reason": "referee: easy shot", "dm": 6}]);
    let again = pistol(json!({"attacker_id": "Cy", "suppression": true, "extra_modifiers": extra}));
    let (_, second) = attack(&mut enc, again, &mut dice(&[6, 6])).unwrap();
    assert!(!second.suppression.unwrap().applied);
    next_turn(&mut enc); // Bo
    next_turn(&mut enc); // round 2: Bo back to 8; the −1 holds in round 2
    assert_eq!((enc.round, score(&enc, "Bo")), (2, 8));
    assert_eq!(check_penalties(&state(&enc, "Bo"), 2), [("suppressed".to_string(), -1)]);
    for _ in 0..3 {
        next_turn(&mut enc);
    }
    assert_eq!(enc.round, 3);
    assert!(state(&enc, "Bo").check_penalties.is_empty(), "gone after the following round");
}

#[test]
fn a_coup_de_grace_kills_a_helpless_target() {
    let mut enc = fight();
    // 14 points: END 7 → 0, STR 7 → 0: unconscious and defeated.
    let hurt: EncounterDamage = json(json!({"target_id": "Bo", "damage": 14}));
    damage(&mut enc, hurt, &mut dice(&[])).unwrap();
    let request = pistol(json!({
        "weapon": {"weapon_type": "close_quarters", "damage_dice": 2},
        "range_band": "personal", "coup_de_grace": true
    }));
    let (events, report) = attack(&mut enc, request, &mut dice(&[])).unwrap();
    assert!(report.outcome.coup_de_grace);
    assert!(matches!(events.last(), Some(Event::AttackResolved { dice, .. }) if dice.is_empty()));
    assert_eq!(stats_of(&enc, "Bo").status(), Status::Dead);
    assert_eq!(report.target_hit.unwrap().allocation.dex, 7);
}

#[test]
fn refusals_name_the_field_and_change_nothing() {
    let mut enc = fight();
    // Not Bo's turn.
    let field = refused(&mut enc, |e| {
        attack(e, pistol(json!({"attacker_id": "Bo", "target_id": "Ana"})), &mut dice(&[6, 6]))
    });
    assert_eq!(field, "attacker_id");
    // Unknown target.
    assert_eq!(
        refused(&mut enc, |e| attack(e, pistol(json!({"target_id": "Zed"})), &mut dice(&[6, 6]))),
        "target_id"
    );
    // No range, or two ranges.
    let field = refused(&mut enc, |e| {
        attack(e, pistol(json!({"range_band": "short", "distance_m": 5.0})), &mut dice(&[6, 6]))
    });
    assert_eq!(field, "range_band");
    // A parry against a shot.
    assert_eq!(
        refused(&mut enc, |e| attack(e, pistol(json!({"reaction": "parry"})), &mut dice(&[6, 6]))),
        "reaction"
    );
    // Thrown kind on a pistol: the rule's own field path.
    let odd = pistol(json!({"weapon": {"weapon_type": "pistol", "damage_dice": 1, "thrown_kind": "impact"}}));
    assert_eq!(refused(&mut enc, |e| attack(e, odd, &mut dice(&[6, 6]))), "weapon.thrown_kind");
    // A pistol at Very Long range, given in metres.
    let far = pistol(json!({"range_band": null, "distance_m": 300.0}));
    assert_eq!(refused(&mut enc, |e| attack(e, far, &mut dice(&[6, 6]))), "distance_m");
    // The economy: a second attack in the same turn.
    attack(&mut enc, pistol(json!({})), &mut dice(&[1, 1])).unwrap();
    assert_eq!(refused(&mut enc, |e| attack(e, pistol(json!({})), &mut dice(&[6, 6]))), "action");
}

#[test]
fn an_unaware_target_cannot_react_in_round_one() {
    let mut enc = fight();
    enc.combatant_mut(&id("Bo")).unwrap().flags.surprised = true;
    assert_eq!(
        refused(&mut enc, |e| attack(e, pistol(json!({"reaction": "dodge"})), &mut dice(&[6, 6]))),
        "reaction"
    );
}

#[test]
fn a_prone_target_cannot_dodge() {
    let mut enc = fight();
    state_of(&mut enc, "Bo").stance = super::super::stance::Stance::Prone;
    assert_eq!(
        refused(&mut enc, |e| attack(e, pistol(json!({"reaction": "dodge"})), &mut dice(&[6, 6]))),
        "reaction"
    );
}

#[test]
fn other_rulesets_and_unstarted_encounters_are_refused() {
    let mut enc = encounter(RulesetId::Spycraft2);
    add(&mut enc, "Ana", crate::encounter::test_support::spycraft(2));
    let field = refused(&mut enc, |e| attack(e, pistol(json!({})), &mut dice(&[])));
    assert!(field.contains("spycraft"), "{field}");
    let mut setup = encounter(RulesetId::CepheusEngine);
    add(&mut setup, "Ana", cepheus(9));
    add(&mut setup, "Bo", cepheus(7));
    fix(&mut setup, &[("Ana", 10), ("Bo", 8)]);
    assert!(refused(&mut setup, |e| attack(e, pistol(json!({})), &mut dice(&[]))).contains("setup"));
    advance(&mut setup, Advance::EndEncounter).unwrap();
    let hurt: EncounterDamage = json(json!({"target_id": "Bo", "damage": 1}));
    assert!(refused(&mut setup, |e| damage(e, hurt, &mut dice(&[]))).contains("ended"));
}

#[test]
fn aim_adds_to_the_attack_and_is_used_up() {
    // Aim (+1) then attack: +2 +1 +0 +1 = +4; dice 2 + 2 → 8: a bare hit, Effect 0.
    let mut enc = fight();
    act(&mut enc, json(json!({"action": "aim", "combatant_id": "Ana", "target_id": "Bo"})), &mut dice(&[]))
        .unwrap();
    let (_, report) = attack(&mut enc, pistol(json!({})), &mut dice(&[2, 2, 1])).unwrap();
    assert_eq!((report.aim_used, report.outcome.total_dm, report.outcome.effect), (1, 4, Some(0)));
    assert!(report.outcome.modifiers.iter().any(|m| m.reason.starts_with("aiming")));
    assert_eq!(state(&enc, "Ana").aim, 0);
}

#[test]
fn damage_with_armour_and_the_effect_six_minimum() {
    let mut enc = fight();
    stats_mut(&mut enc, "Bo").armour = crate::score::Score::new(5).unwrap();
    // 4 − 5 → 0, but Effect 6 forces 1 point through.
    let request: EncounterDamage = json(json!({"target_id": "Bo", "damage": 4, "apply_armour": true, "effect": 6}));
    let (events, report) = damage(&mut enc, request, &mut dice(&[])).unwrap();
    assert_eq!((report.armour, report.after_armour, report.minimum_one_applied), (5, 1, true));
    assert!(matches!(events[0], Event::DamageApplied { .. }));
    // A negative amount is refused when the request is read.
    assert!(serde_json::from_value::<EncounterDamage>(json!({"target_id": "Bo", "damage": -1})).is_err());
}

#[test]
fn allocation_to_a_characteristic_at_zero_is_refused() {
    let mut enc = fight();
    let first: EncounterDamage = json(json!({"target_id": "Bo", "damage": 7}));
    damage(&mut enc, first, &mut dice(&[])).unwrap(); // END 7 → 0
    let split: EncounterDamage = json(json!({"target_id": "Bo", "damage": 2, "allocation": {"end": 2}}));
    assert_eq!(refused(&mut enc, |e| damage(e, split, &mut dice(&[]))), "allocation.end");
    let ok: EncounterDamage = json(json!({"target_id": "Bo", "damage": 2, "allocation": {"dex": 2}}));
    damage(&mut enc, ok, &mut dice(&[])).unwrap();
    assert_eq!(stats_of(&enc, "Bo").damage.dex.get(), 2);
}

#[test]
fn an_extended_action_hit_hard_is_ruined() {
    let mut enc = fight();
    next_turn(&mut enc); // Bo
    let start = json(
        json!({"action": "start_extended_action", "combatant_id": "Bo", "skill": "Mechanic", "rounds": 3}),
    );
    act(&mut enc, start, &mut dice(&[])).unwrap();
    // 3 damage: 8+ with Mechanic 1 − 3 = −2; dice 1 + 1 → 0, Effect −8: failure by 6+, ruined.
    let hit: EncounterDamage = json(json!({"target_id": "Bo", "damage": 3}));
    let (_, report) = damage(&mut enc, hit, &mut dice(&[1, 1])).unwrap();
    let check = report.hit.unwrap().extended_check.unwrap();
    assert_eq!(check.outcome, ExtendedCheckOutcome::Ruined);
    assert_eq!(check.roll.unwrap().effect, -8);
    assert!(state(&enc, "Bo").extended.is_none());
}

#[test]
fn a_failed_check_loses_the_round_and_work_completes_later() {
    let mut enc = fight();
    next_turn(&mut enc); // Bo, round 1
    let start = json(
        json!({"action": "start_extended_action", "combatant_id": "Bo", "skill": "mechanic", "rounds": 2}),
    );
    act(&mut enc, start, &mut dice(&[])).unwrap();
    // 3 damage: dice 4 + 3 + 1 − 3 = 5, Effect −3: this round's work does not count.
    let hit: EncounterDamage = json(json!({"target_id": "Bo", "damage": 3}));
    let (_, report) = damage(&mut enc, hit, &mut dice(&[4, 3])).unwrap();
    assert_eq!(report.hit.unwrap().extended_check.unwrap().outcome, ExtendedCheckOutcome::RoundLost);
    assert_eq!(
        refused(&mut enc, |e| act(
            e,
            json(json!({"action": "other_minor", "combatant_id": "Bo"})),
            &mut dice(&[])
        )),
        "action"
    );
    next_turn(&mut enc); // Cy
    next_turn(&mut enc); // round 2: round 1 spoiled → 0 done
    assert_eq!(state(&enc, "Bo").extended.unwrap().completed, 0);
    for _ in 0..3 {
        next_turn(&mut enc); // round 3: round 2 counted → 1 of 2
    }
    assert_eq!(state(&enc, "Bo").extended.unwrap().completed, 1);
    let mut events = Vec::new();
    for _ in 0..3 {
        events.extend(advance(&mut enc, Advance::NextTurn).unwrap());
    }
    assert!(state(&enc, "Bo").extended.is_none());
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ActionTaken { action, .. } if action == "extended_action_completed"))
    );
}

#[test]
fn inline_attack_and_damage_store_nothing_and_return_the_target() {
    // Same numbers as the cover-and-dodge test: Effect 3, 2 + 3 = 5 damage.
    let request: InlineAttack = json(json!({
        "attacker": {"str": 7, "dex": 9, "end": 7, "int": 7, "edu": 7, "soc": 7, "skills": {"Gun Combat": 2}},
        "target": {"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7},
        "weapon": {"weapon_type": "pistol", "damage_dice": 1},
        "distance_squares": 5, "cover": "half", "reaction": "dodge"
    }));
    let report = attack_inline(request, &mut dice(&[6, 5, 2])).unwrap();
    assert_eq!(
        crate::rulesets::Summary::summary(&report),
        "attacker hits target (Effect 3): 5 damage to END 7 → 2; target is wounded"
    );
    assert_eq!(report.range_band, super::super::range::RangeBand::Short);
    let hit = report.target_hit.unwrap();
    assert_eq!((hit.combatant_id, &*hit.name), (None, "target"));
    assert_eq!(hit.allocation.end, 5);
    assert_eq!(hit.stats_after.damage.end.get(), 5);
    let request: InlineDamage = json(json!({
        "target": {"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7, "armour": 2},
        "damage": 6, "apply_armour": true
    }));
    let report = damage_inline(request, &mut dice(&[])).unwrap();
    // 6 − 2 = 4 to END.
    assert_eq!((report.after_armour, report.hit.unwrap().stats_after.damage.end.get()), (4, 4));
    let bad: Result<InlineDamage, _> = serde_json::from_value(json!({"target": {}, "damage": 1, "extra": 1}));
    assert!(bad.is_err());
}

#[test]
fn request_field_names_and_reports_serialise() {
    let unknown: Result<EncounterAttack, _> = serde_json::from_value(json!({
        "attacker_id": "Ana", "target_id": "Bo", "weapon": {"weapon_type": "pistol", "damage_dice": 1},
        "range_band": "short", "colour": "red"
    }));
    assert!(unknown.unwrap_err().to_string().contains("unknown field `colour`"));
    let mut enc = fight();
    let (events, report) = attack(&mut enc, pistol(json!({})), &mut dice(&[6, 6, 3])).unwrap();
    let text = serde_json::to_value(&events).unwrap();
    assert_eq!(text[0]["kind"], "attack_resolved");
    assert_eq!(text[0]["report"]["attacker_id"], "Ana");
    assert_eq!(serde_json::to_value(&report).unwrap()["outcome"]["hit"], true);
}
