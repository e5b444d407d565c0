//! Issue 28, "resolved, not reported" (continued from `derived_tests.rs`, whose fight and helpers
//! these share): what the text decides with dice is rolled and applied. Scripted dice; numbers
//! worked by hand from shared/rules/adeva-d100.txt. DoS = (target − roll) / 10 + 1 on a pass.

use super::derived_tests::*;
use crate::encounter::test_support::id;
use super::*;
use serde_json::json;

#[test]
fn a_knock_down_won_by_two_dos_deals_unarmed_damage_and_fatigue_when_asked() {
    // adeva-d100.txt, "Knock Down": surpassing by two or more DoS, the winner may deal Unarmed
    // damage (1d5 − 3 + SB, "Unarmed Attacks") and a level of Fatigue.
    // Ana S 30, d100 5 → 3 DoS; Bo S 30, d100 90 fails: margin 3. 1d5 = 5 − 3 + SB 3 = 5 against
    // soak TB 3 → 2 wounds; +1 Fatigue.
    let mut enc = fight();
    let body = json!({"action": "knock_down", "combatant_id": "Ana", "target_id": "Bo", "hurt": true});
    run(&mut enc, body, &[5, 90, 5]);
    let bo = stats_of(&enc, "Bo");
    assert_eq!((bo.wounds_taken.get(), bo.fatigue.get()), (2, 1));
    assert!(state_of(&enc, "Bo").prone);
}

#[test]
fn a_knock_down_won_by_one_dos_deals_no_damage_even_when_asked() {
    // Ana S 30, d100 25 → 1 DoS; Cy S 30, d100 90 fails: margin 1, prone only; no die rolled.
    let mut enc = fight();
    let body = json!({"action": "knock_down", "combatant_id": "Ana", "target_id": "Cy", "hurt": true});
    let report = run(&mut enc, body, &[25, 90]);
    let cy = stats_of(&enc, "Cy");
    assert_eq!((cy.wounds_taken.get(), cy.fatigue.get()), (0, 0));
    assert!(state_of(&enc, "Cy").prone);
    assert!(report.notes.iter().any(|n| n.contains("no Unarmed damage")), "{:?}", report.notes);
}

#[test]
fn a_charge_ending_in_a_grapple_rolls_ws_plus_twenty_and_starts_the_grapple() {
    // adeva-d100.txt, "Charge": a Grapple in place of the attack; the Charge's +20 on the WS test.
    // Ana Ag 30 → Half Move 3 → Charge Move 9 ≥ 6. WS 40 + 20 = 60, d100 55 → pass (it would fail
    // at 40); Bo dodges on Ag 40, d100 70: fails. The grapple starts, Ana in control.
    let mut enc = fight();
    let report = run(
        &mut enc,
        json!({"action": "charge", "combatant_id": "Ana", "target_id": "Bo", "distance_squares": 6,
            "straight_line_squares": 4, "strike": {"kind": "grapple", "hand_free": true}, "dodge": true}),
        &[55, 70],
    );
    let ActionOutcome::Grapple { test, started, .. } = report.outcome else { panic!() };
    assert_eq!((test.test.target, started), (60, true));
    assert_eq!(state_of(&enc, "Ana").grappled_with, Some(id("Bo")));
    assert_eq!(state_of(&enc, "Ana").budget.full_actions, 1);
    assert!(state_of(&enc, "Bo").budget.reaction_used);
}

#[test]
fn a_charge_ending_in_a_knock_down_rolls_plain_strength_and_may_hurt() {
    // adeva-d100.txt, "Charge", "Knock Down": opposed Strength, no +20 (not an attack test) and no
    // +10 (a Charge is not a Half Move). Ana S 30, d100 5 → 3 DoS; Bo S 30, d100 90 fails: margin
    // 3, Bo prone; hurt: 1d5 = 4 − 3 + SB 3 = 4 against soak TB 3 → 1 wound, +1 Fatigue.
    let mut enc = fight();
    let report = run(
        &mut enc,
        json!({"action": "charge", "combatant_id": "Ana", "target_id": "Bo", "distance_squares": 6,
            "straight_line_squares": 4, "strike": {"kind": "knock_down"}, "hurt": true}),
        &[5, 90, 4],
    );
    let ActionOutcome::KnockDown { contest, .. } = report.outcome else { panic!() };
    assert_eq!(contest.rounds[0].a.test.target, 30);
    assert!(state_of(&enc, "Bo").prone);
    let bo = stats_of(&enc, "Bo");
    assert_eq!((bo.wounds_taken.get(), bo.fatigue.get()), (1, 1));
    let (field, _) = refused(
        &mut enc,
        json!({"action": "charge", "combatant_id": "Ana", "target_id": "Cy", "distance_squares": 6,
            "straight_line_squares": 4, "strike": {"kind": "knock_down"}}),
        &[5, 90],
    );
    assert_eq!(field, "action");
}

fn flurry(dos_hit: Option<u32>) -> serde_json::Value {
    let mut body = json!({"attacker_id": "Ana", "target_id": "Bo",
        "action": {"action": "flurry", "declared_hits": 3,
                   "weapon": {"name": "Sword", "class": "melee", "hit_rating": 3}},
        "damage": {"count": 1, "sides": 10}});
    if let Some(hit) = dos_hit {
        body["dos_hit"] = json!(hit);
    }
    body
}

#[test]
fn the_degrees_of_success_replace_the_die_of_the_hit_the_attacker_names() {
    // adeva-d100.txt, "Attacking", Step Five: "you may replace a single damage die result with the
    // Degrees of Success"; with several hits only one of them. Flurry of 3: WS 40 + 10 − 15 = 35,
    // d100 5 → 4 DoS → 3 hits. Dice 2, 1, 2; SB 3; soak TB 3.
    // Named hit 2: 2+3 = 5 → 2; (1 → 4)+3 = 7 → 4; 2+3 = 5 → 2: 8 wounds.
    let mut enc = fight();
    let report = attack_report(&mut enc, flurry(Some(2)), &[5, 2, 1, 2]);
    assert_eq!(report.hits_scored, 3);
    assert_eq!(stats_of(&enc, "Bo").wounds_taken.get(), 8);
    // Default, the first hit: (2 → 4)+3 = 7 → 4; 1+3 = 4 → 1; 2+3 = 5 → 2: 7 wounds.
    let mut enc = fight();
    attack_report(&mut enc, flurry(None), &[5, 2, 1, 2]);
    assert_eq!(stats_of(&enc, "Bo").wounds_taken.get(), 7);
    let (field, _) = attack_refused(&mut fight(), flurry(Some(0)), &[5, 2, 1, 2]);
    assert_eq!(field, "dos_hit");
}

#[test]
fn the_grapples_either_standard_attack_is_rolled_and_applied() {
    // adeva-d100.txt, "Either: Unarmed/Knife/Natural Weapon Standard Attack": a Standard Attack
    // (+10, one hit) with a small melee weapon (1d5). Round 2, Ana in control takes 'Grapple':
    // WS 40 + 10 = 50, d100 25 → 3 DoS; Bo does not evade. 1d5 = 2, replaced by the 3 DoS, + SB 3
    // = 6 against soak TB 3 → 3 wounds.
    let mut enc = fight();
    grapple_bo(&mut enc);
    to_round_two(&mut enc);
    let pistol = json!({"action": "grapple_action", "combatant_id": "Ana", "move": {"kind": "grapple",
        "then": {"kind": "standard_attack", "weapon": "pistol"}}});
    let (field, _) = refused(&mut enc, pistol, &[25, 2]);
    assert_eq!(field, "move.then.damage");
    let report = run(
        &mut enc,
        json!({"action": "grapple_action", "combatant_id": "Ana", "move": {"kind": "grapple",
            "then": {"kind": "standard_attack", "weapon": "small_melee"}}}),
        &[25, 2],
    );
    let ActionOutcome::GrappleAction { attack, .. } = report.outcome else { panic!() };
    assert_eq!(attack.unwrap().attack_test.test.target, 50);
    assert_eq!(stats_of(&enc, "Bo").wounds_taken.get(), 3);
    assert_eq!(state_of(&enc, "Ana").budget.full_actions, 1);
    assert_eq!(state_of(&enc, "Ana").grappled_with, Some(id("Bo")));
}
