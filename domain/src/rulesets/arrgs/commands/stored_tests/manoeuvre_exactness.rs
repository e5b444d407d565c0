//! The manoeuvres of arrgs.txt ("Standard Actions" to "Opportunity Manoeuvre") checked sentence by
//! sentence against the stored operations, numbers worked by hand.

use super::*;
use crate::rulesets::arrgs::attacking::Outcome;
use crate::rulesets::arrgs::manoeuvres::ManoeuvreResult;

const HELPER: &str = r#"{"agility": 14, "initiative": 20, "vitality": 15, "abilities": {"personality": 2}}"#;

fn misc(name: &str) -> Value {
    json!({"combatant_id": name, "manoeuvre": {"type": "miscellaneous", "description": "shoves a crate"}})
}

#[test]
fn a_charges_movement_check_takes_the_multiple_actions_penalty() {
    // "Charge Manoeuvre": move "as per the Movement Manoeuvre"; "Multiple Actions": −2 per point
    // above 3 on every later check. Hero with 6 AP: four Miscellaneous (4 points), then Charge:
    // passive Athletics 10 + Body 2 − 2 = 10 vs 10 → 5 + 0 = 5 squares; 6 is refused, nothing
    // stored. 5 squares: d20 10 + 6 + 2 (charge) − 2 = 16 vs Troll Reflex 12 → 6 + 4 = 10: 50.
    let hero = HERO.replace(r#""vitality": 20,"#, r#""vitality": 20, "action_points": 6,"#);
    let mut encounter = fight(&[("Hero", &hero, false), ("Troll", TROLL, false)]);
    for _ in 0..4 {
        run::<Actions>(&mut encounter, misc("Hero"), vec![]).unwrap();
    }
    let charge = |squares: i32| {
        json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(), "manoeuvre": {"type": "charge", "squares": squares}})
    };
    let before = encounter.clone();
    assert_eq!(refused_field(run::<Attacks>(&mut encounter, charge(6), vec![10])), "manoeuvre.squares");
    assert_eq!(encounter, before);
    let (_, report) = run::<Attacks>(&mut encounter, charge(5), vec![10]).unwrap();
    let moved = report.charge.as_ref().unwrap();
    assert_eq!((moved.check.result, moved.allowed), (10, 5));
    let Outcome::Resolved { strikes } = &report.outcome else { panic!("{:?}", report.outcome) };
    assert_eq!((strikes[0].roll.checks[0].check.result, strikes[0].roll.success_value), (16, Some(10)));
    assert_eq!(vitality(&encounter, "Troll"), 50);
}

#[test]
fn an_opportunity_attack_uses_the_opportunists_pending_aid_another_bonus() {
    // "Aid Another Manoeuvre": the next check of the same type. Helper aids the Guard's melee:
    // d20 12 + 2 = 14 vs 10 → +5. The Archer's shot provokes ("Attack Manoeuvre"); the Guard's
    // Opportunity club: d20 10 + 5 = 15 vs the Archer's Reflex 10 + 2 = 12 → 5 + 3 = 8: Archer
    // 20 − 1 − 8 = 11. The shot: d20 10 + 4 + 2 = 16 vs the Guard's Reflex 12 → 4 + 4 = 8: Guard
    // 60 − 1 − 8 = 51.
    let archer = r#"{"agility": 10, "initiative": 15, "vitality": 20, "abilities": {"agility": 2}, "checks": {"ranged": {"skill": 4}}}"#;
    let mut encounter = fight(&[("Helper", HELPER, false), ("Archer", archer, false), ("Guard", TROLL, false)]);
    let aid = json!({"combatant_id": "Helper", "manoeuvre": {"type": "aid_another", "ally_id": "Guard", "check": "melee"}});
    run::<Actions>(&mut encounter, aid, vec![12]).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    let shot = json!({"attacker_id": "Archer", "target_id": "Guard", "weapon": {"name": "Bow", "kind": "ranged", "damage": 4},
        "opportunities": [{"combatant_id": "Guard", "distance": 1, "weapon": {"name": "Club", "damage": 5}}]});
    let (_, report) = run::<Attacks>(&mut encounter, shot, vec![10, 10]).unwrap();
    let opportunity = report.opportunities[0].strike.as_ref().unwrap();
    assert_eq!((opportunity.roll.checks[0].check.result, opportunity.roll.success_value), (15, Some(8)));
    assert_eq!((vitality(&encounter, "Archer"), vitality(&encounter, "Guard")), (11, 51));
    assert!(state(&encounter, "Guard").round.assists.is_empty());
}

#[test]
fn a_casters_reaction_spell_check_against_counterspell_uses_its_pending_aid_another_bonus() {
    // "Counterspell Manoeuvre": Spell Attack against the caster's Reaction Spell Attack check.
    // Helper aids the Mage's spell checks: +5. Mage's Reaction 10 + 5 = 15; Shaman d20 12 + 2 =
    // 14 < 15: the Counterspell fails (without the assist 14 ≥ 10 would succeed).
    let shaman = r#"{"agility": 10, "initiative": 15, "vitality": 20, "checks": {"spell": {"skill": 2}}}"#;
    let mage = r#"{"agility": 10, "initiative": 10, "vitality": 20}"#;
    let mut encounter = fight(&[("Helper", HELPER, false), ("Shaman", shaman, false), ("Mage", mage, false)]);
    let aid = json!({"combatant_id": "Helper", "manoeuvre": {"type": "aid_another", "ally_id": "Mage", "check": "spell"}});
    run::<Actions>(&mut encounter, aid, vec![12]).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    let counter = json!({"combatant_id": "Shaman", "manoeuvre": {"type": "counterspell", "caster_id": "Mage"}});
    let (_, report) = run::<Actions>(&mut encounter, counter, vec![12]).unwrap();
    let ManoeuvreResult::Counterspell { test, .. } = &report.result else { panic!("{:?}", report.result) };
    assert_eq!((test.check.result, test.dc, test.success), (14, 15, false));
    assert!(state(&encounter, "Mage").round.assists.is_empty());
}

#[test]
fn reposition_moves_the_squares_chosen_up_to_the_success_value_and_a_collision_costs_those() {
    // "Reposition Manoeuvre": the Success Value is the number of squares the target "may be
    // moved"; a collision costs both "1 point per square moved". d20 12 + 6 = 18 vs the Troll's
    // Reflex 12 → 1 + 6 = 7 squares allowed. Moved 3 into a wall: Troll 60 → 57.
    use crate::rulesets::arrgs::strike::StrikeResult;
    let push = |squares: i32| {
        json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(),
            "effect": {"type": "reposition", "squares": squares, "collision": {"type": "object"}}})
    };
    let first = |report: &crate::rulesets::arrgs::attacking::AttackReport| match &report.outcome {
        Outcome::Resolved { strikes } => strikes[0].result.clone(),
        other => panic!("{other:?}"),
    };
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    let result = first(&run::<Attacks>(&mut encounter, push(3), vec![12]).unwrap().1);
    assert_eq!(result, StrikeResult::Reposition { squares: 3, collision_loss: Some(3) });
    assert_eq!(vitality(&encounter, "Troll"), 57);
    // Asking for 9 squares moves only the 7 the Success Value allows: 60 → 53.
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    let result = first(&run::<Attacks>(&mut encounter, push(9), vec![12]).unwrap().1);
    assert_eq!(result, StrikeResult::Reposition { squares: 7, collision_loss: Some(7) });
    assert_eq!(vitality(&encounter, "Troll"), 53);
}

#[test]
fn a_natural_twenty_on_aid_another_rolls_again_and_adds_the_success_value() {
    // "Criticals": any check with a natural in the Critical Range (20) rolls again against the
    // same DC and adds that Success Value. Helper (Personality 2) aids the Hero's melee: d20 20 +
    // 2 = 22 vs 10 → 1 + 12 = 13; again d20 15 + 2 = 17 → 1 + 7 = 8: +21 Assisted.
    let mut encounter = fight(&[("Helper", HELPER, false), ("Hero", HERO, false), ("Troll", TROLL, false)]);
    let aid = json!({"combatant_id": "Helper", "manoeuvre": {"type": "aid_another", "ally_id": "Hero", "check": "melee"}});
    let (_, report) = run::<Actions>(&mut encounter, aid, vec![20, 15]).unwrap();
    let ManoeuvreResult::AidAnother { test, success_value, assisted, .. } = &report.result else { panic!("{:?}", report.result) };
    assert_eq!((test.critical_checks.len(), *success_value, *assisted), (1, 21, Some(21)));
    assert_eq!(state(&encounter, "Hero").round.assists[0].value, 21);
}

#[test]
fn a_natural_twenty_on_a_rolled_movement_check_rolls_again_and_a_negative_reroll_adds_nothing() {
    // Hero rolls Athletics (Body 2): d20 20 + 2 = 22 vs 10 → 5 + 12 = 17 squares; again d20 4 + 2
    // = 6 → 5 − 4 = 1: 18 squares (19 refused). Then d20 20 + 2 → 17; again d20 1: a natural 1
    // adds nothing → 17.
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    let walk = |squares: i32| json!({"combatant_id": "Hero", "manoeuvre": {"type": "movement", "squares": squares, "roll": true}});
    let before = encounter.clone();
    assert_eq!(refused_field(run::<Actions>(&mut encounter, walk(19), vec![20, 4])), "manoeuvre.squares");
    assert_eq!(encounter, before);
    let (_, report) = run::<Actions>(&mut encounter, walk(18), vec![20, 4]).unwrap();
    let ManoeuvreResult::Movement { success_value, squares, .. } = &report.result else { panic!("{:?}", report.result) };
    assert_eq!((*success_value, *squares), (18, 18));
    let mut fresh = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    let (_, report) = run::<Actions>(&mut fresh, walk(17), vec![20, 1]).unwrap();
    let ManoeuvreResult::Movement { success_value, .. } = &report.result else { panic!("{:?}", report.result) };
    assert_eq!(*success_value, 17);
}

#[test]
fn a_change_reach_without_a_natural_twenty_makes_no_critical_reroll() {
    // Only a natural 20 rolls again: Change Reach d20 19 + 6 = 25 vs 10 → 1 + 15 = 16, one die.
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    let reach = json!({"combatant_id": "Hero", "manoeuvre": {"type": "change_reach", "change": 0}});
    let (events, report) = run::<Actions>(&mut encounter, reach, vec![19]).unwrap();
    let ManoeuvreResult::ChangeReach { test, success_value, .. } = &report.result else { panic!("{:?}", report.result) };
    assert_eq!((test.critical_checks.len(), *success_value), (0, 16));
    assert!(matches!(&events[0], Event::ActionTaken { dice, .. } if dice.len() == 1), "{events:?}");
}
