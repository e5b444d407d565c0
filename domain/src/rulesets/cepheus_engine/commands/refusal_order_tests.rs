//! Refusals that only a roll decides, on stored commands: each is checked before the command
//! spends an action or takes a reaction, so a refused direct call leaves the encounter as it
//! was (`refused` compares it with a copy). Numbers worked by hand from cepheus-engine.txt.

use super::test_support::*;
use super::*;
use crate::encounter::test_support::id;
use serde_json::json;

#[test]
fn a_split_that_does_not_fit_a_first_hit_is_refused_before_the_dodge_and_the_attack_are_spent() {
    // Gun Combat 2 (+2), DEX 9 (+1), pistol at Short (+0), dodge in the open (−1): DM +2; dice
    // 6 + 6 → 14, Effect 6; damage 1D6 (3) + 6 = 9 ("Attack", "Dodging", "Damage"). Bo has never
    // been damaged, so the hit goes to Endurance first and a split is refused, on `allocation`:
    // after the roll, but before the attack or the dodge is spent.
    let mut enc = fight();
    let request: EncounterAttack = json(json!({
        "attacker_id": "Ana", "target_id": "Bo",
        "weapon": {"weapon_type": "pistol", "damage_dice": 1},
        "range_band": "short", "reaction": "dodge",
        "allocation": {"str": 1, "dex": 1, "end": 1}
    }));
    assert_eq!(refused(&mut enc, |e| attack(e, request, &mut dice(&[6, 6, 3]))), "allocation");
}

#[test]
fn a_blast_split_that_does_not_fit_is_refused_before_the_dive() {
    // 9 damage, dive: 5 after the dive (half, rounded up), armour 0 → 5 on an undamaged Bo, whose
    // first damage must go to Endurance ("Damage"): the split is refused and Bo has not dived.
    let mut enc = fight();
    let action: Action = json(json!({"action": "explosion", "combatant_id": "Bo", "damage": 9, "response": "dive",
                                     "allocation": {"str": 0, "dex": 0, "end": 5}}));
    assert_eq!(refused(&mut enc, |e| act(e, action, &mut dice(&[]))), "allocation");
}

#[test]
fn a_grapple_split_that_does_not_fit_is_refused_before_the_check_is_spent() {
    // Ana +2 against Bo −3 (as in `a_grapple_throw_damages_and_ends_the_grapple`): 5 + 5 against
    // 2 + 2, Ana throws Bo for 1D6 = 3, Bo's first damage: a split is refused ("Grappling",
    // "Damage").
    let mut enc = fight();
    let action: Action = json(json!({"action": "grapple", "combatant_id": "Ana", "target_id": "Bo",
                                     "choice": {"option": "throw", "distance_m": 2.0},
                                     "allocation": {"str": 1, "dex": 1, "end": 1}}));
    assert_eq!(refused(&mut enc, |e| act(e, action, &mut dice(&[5, 5, 2, 2, 3]))), "allocation");
}

#[test]
fn leadership_on_a_target_without_initiative_is_refused_before_the_check_is_spent() {
    // Ana: Leadership 1 + SOC 7 (DM 0); 6 + 6 + 1 = 13 against 8, Effect 5 raises Bo's initiative
    // ("Tactics and Leadership"), but Bo has none to raise.
    let mut enc = fight();
    enc.combatant_mut(&id("Bo")).unwrap().initiative = None;
    let action: Action = json(json!({"action": "leadership", "combatant_id": "Ana", "target_id": "Bo"}));
    assert_eq!(refused(&mut enc, |e| act(e, action, &mut dice(&[6, 6]))), "combatant_id");
}

#[test]
fn a_start_with_a_bad_skill_is_refused_before_the_action_is_spent() {
    let mut enc = fight();
    let action: Action = json(json!({"action": "start_extended_action", "combatant_id": "Ana", "skill": " ", "rounds": 3}));
    assert_eq!(refused(&mut enc, |e| act(e, action, &mut dice(&[]))), "skill");
}
