//! Sentences of arrgs.txt checked one by one against the stored operations, numbers worked by
//! hand: natural 1, the Dying check on Reaction checks, the Range modifier of area attacks, and
//! the Assisted modifier on Defence checks.

use super::*;
use crate::rulesets::arrgs::attack::Failure;
use crate::rulesets::arrgs::attacking::Outcome;

const CHAMPION: &str = r#"{"agility": 12, "initiative": 15, "vitality": 20, "checks": {"melee": {"skill": 20}, "ranged": {"skill": 12}}}"#;

fn dying(encounter: &mut Encounter, name: &str) {
    let change = json!({"combatant_id": name, "change": {"type": "dying", "applications": 1}});
    run::<Conditions>(encounter, change, vec![]).unwrap();
}

#[test]
fn a_natural_one_always_fails_even_against_a_low_defence() {
    // "Attack Manoeuvre": "a natural 1 (which is always a fail)". Champion Melee +20: d20 1 + 20 =
    // 21 against the Troll's Reflex 12 would give 6 + 9 = 15, but it fails; the Champion still
    // pays its 1 Vitality.
    let mut encounter = fight(&[("Champion", CHAMPION, false), ("Troll", TROLL, false)]);
    let request = json!({"attacker_id": "Champion", "target_id": "Troll", "weapon": longsword()});
    let (_, report) = run::<Attacks>(&mut encounter, request, vec![1]).unwrap();
    let Outcome::Resolved { strikes } = &report.outcome else { panic!("{:?}", report.outcome) };
    assert_eq!((strikes[0].roll.checks[0].check.result, strikes[0].roll.failure), (21, Some(Failure::NaturalOne)));
    assert_eq!((vitality(&encounter, "Troll"), vitality(&encounter, "Champion")), (60, 19));
}

#[test]
fn a_target_offering_no_defence_makes_no_reaction_check_so_no_dying_check() {
    // "Dying [n]": the check comes with "any Action (including any Reaction check)". A willing
    // target (DC 0, "Attack Manoeuvre") makes no Reaction check: the only die is the attack's,
    // d20 10 + 6 = 16 vs 0 → 6 + 16 = 22 → DR none: Troll 60 → 38.
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    dying(&mut encounter, "Troll");
    let request = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(), "no_defence": true});
    let (events, report) = run::<Attacks>(&mut encounter, request, vec![10]).unwrap();
    let Outcome::Resolved { strikes } = &report.outcome else { panic!("{:?}", report.outcome) };
    assert!(strikes[0].reaction_check.is_none());
    assert!(matches!(&events[0], Event::AttackResolved { dice, .. } if dice.len() == 1), "{events:?}");
    assert_eq!(vitality(&encounter, "Troll"), 38);
}

const GRENADE: &str = r#"{"name": "Grenade", "kind": "ranged", "damage": 6, "types": ["fire"], "range_increment": 5, "max_increments": 2}"#;

fn grenade_at(distance: i32, occupants: Value) -> Value {
    let weapon: Value = serde_json::from_str(GRENADE).unwrap();
    json!({"attacker_id": "Champion", "stage": {"type": "attack", "distance": distance, "weapon": weapon, "occupants": occupants}})
}

#[test]
fn an_area_attack_is_refused_beyond_the_weapons_range_increments() {
    // "Attack Manoeuvre": within the Maximum Range Increment. 12 squares at increment 5 is 3
    // increments, the grenade reaches 2: refused naming the distance, nothing stored.
    let mut encounter = fight(&[("Champion", CHAMPION, false), ("Troll", TROLL, false)]);
    let before = encounter.clone();
    let request = grenade_at(12, json!([{"combatant_id": "Troll"}]));
    assert_eq!(refused_field(run::<AreaAttacks>(&mut encounter, request, vec![10])), "stage.distance");
    assert_eq!(encounter, before);
    // 7 squares = 2 increments, Range modifier −2 ("Range Increment"): d20 3 + 12 − 2 = 13 ≥ 10
    // hits the square; Troll Reflex 12 → 6 + 1 = 7: 60 → 53.
    let request = grenade_at(7, json!([{"combatant_id": "Troll"}]));
    let (_, report) = run::<AreaAttacks>(&mut encounter, request, vec![3]).unwrap();
    assert_eq!((report.check.result, report.hits[0].success_value), (13, 7));
    assert_eq!(vitality(&encounter, "Troll"), 53);
}

#[test]
fn a_natural_one_misses_the_target_square_and_scatters() {
    // d20 1 + 12 = 13 would reach the square's 10, but a natural 1 always fails: 1d8 5 = South,
    // 3 squares at increment 5 = 1 increment → 1d4 2 = 2 squares.
    let mut encounter = fight(&[("Champion", CHAMPION, false), ("Troll", TROLL, false)]);
    let (_, report) = run::<AreaAttacks>(&mut encounter, grenade_at(3, json!([{"combatant_id": "Troll"}])), vec![1, 5, 2]).unwrap();
    assert_eq!(report.square_hit, Some(false));
    let scatter = report.scatter.unwrap();
    assert_eq!((scatter.direction.as_str(), scatter.squares), ("South", 2));
    assert_eq!(vitality(&encounter, "Troll"), 60);
}

#[test]
fn a_dying_occupant_makes_its_dying_check_with_its_reaction_defence() {
    // Troll Dying [1] at 60 Vitality: DC 0 + 1 = 1. d20 9 + 12 = 21 hits the square (3 squares,
    // no Range modifier); the Troll's Dying check d20 4 ≥ 1 succeeds, loss 1 − 3 → 0; Reflex 12
    // → 6 + 9 = 15: 60 → 45.
    let mut encounter = fight(&[("Champion", CHAMPION, false), ("Troll", TROLL, false)]);
    dying(&mut encounter, "Troll");
    let (_, report) = run::<AreaAttacks>(&mut encounter, grenade_at(3, json!([{"combatant_id": "Troll"}])), vec![9, 4]).unwrap();
    let check = report.hits[0].reaction_check.as_ref().expect("a Dying check");
    assert_eq!((check.dc, check.success, check.vitality_lost), (1, true, 0));
    assert_eq!(vitality(&encounter, "Troll"), 45);
}

#[test]
fn aid_another_on_reflex_helps_the_allys_next_reflex_defence() {
    // "Aid Another Manoeuvre": the Assisted modifier goes to the ally's next Skill Check of the
    // same type. Helper: Reflex skill 0 + Personality 2, d20 12 → 14 vs 10 → 1 + 4 = 5. The
    // Troll's club on the Hero: Reflex 10 + 1 + 1 + 5 = 17; d20 15 + 0 = 15 → 5 − 2 = 3: Hero
    // 20 → 17. The assist is used up.
    let helper = r#"{"agility": 14, "initiative": 20, "vitality": 15, "abilities": {"personality": 2}}"#;
    let mut encounter = fight(&[("Helper", helper, false), ("Hero", HERO, false), ("Troll", TROLL, false)]);
    let aid = json!({"combatant_id": "Helper", "manoeuvre": {"type": "aid_another", "ally_id": "Hero", "check": "reflex"}});
    run::<Actions>(&mut encounter, aid, vec![12]).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    let club = json!({"attacker_id": "Troll", "target_id": "Hero", "weapon": {"name": "Club", "damage": 5}});
    let (_, report) = run::<Attacks>(&mut encounter, club, vec![15]).unwrap();
    let Outcome::Resolved { strikes } = &report.outcome else { panic!("{:?}", report.outcome) };
    assert_eq!(strikes[0].defence.as_ref().map(|d| d.result), Some(17));
    assert_eq!(vitality(&encounter, "Hero"), 17);
    assert!(state(&encounter, "Hero").round.assists.is_empty());
}

const HELPER: &str = r#"{"agility": 14, "initiative": 20, "vitality": 15, "abilities": {"personality": 2}}"#;

/// Helper (Personality 2, no Fortitude skill) aids the Hero's Fortitude: d20 12 + 2 = 14 vs 10 →
/// 1 + 4 = +5 Assisted; then the Hero's turn.
fn fortitude_aided(hero_damage: i32, dying: bool) -> Encounter {
    let mut encounter = fight(&[("Helper", HELPER, false), ("Hero", HERO, false), ("Troll", TROLL, false)]);
    let damage = json!({"target_id": "Hero", "amount": hero_damage, "dying": dying});
    run::<crate::rulesets::arrgs::commands::damage::Damage>(&mut encounter, damage, vec![]).unwrap();
    let aid = json!({"combatant_id": "Helper", "manoeuvre": {"type": "aid_another", "ally_id": "Hero", "check": "fortitude"}});
    let (_, report) = run::<Actions>(&mut encounter, aid, vec![12]).unwrap();
    assert!(matches!(report.result, crate::rulesets::arrgs::manoeuvres::ManoeuvreResult::AidAnother { assisted: Some(5), .. }));
    advance(&mut encounter, Advance::NextTurn).unwrap();
    encounter
}

fn condition_check(report: &crate::rulesets::arrgs::manoeuvres::ActionReport) -> &crate::rulesets::arrgs::vitality::SurvivalCheck {
    report.exertion.as_ref().and_then(|e| e.condition_check.as_ref()).expect("a condition check")
}

#[test]
fn a_dying_characters_fortitude_check_uses_the_pending_aid_another_bonus() {
    // Hero (Fortitude +3: Body 2, skill 1) at 20 − 25 = −5, Dying [1], aided +5. Sidestep: −6;
    // "Dying [n]": DC 6 + 1 = 7; d20 2 + 3 + 5 = 10 ≥ 7, 3 over → loses 1 − 3 → 0 (without the
    // assist 5 < 7 would lose 1). The assist is used up.
    let mut encounter = fortitude_aided(25, true);
    let step = json!({"combatant_id": "Hero", "manoeuvre": {"type": "sidestep"}});
    let (_, report) = run::<Actions>(&mut encounter, step, vec![2]).unwrap();
    let check = condition_check(&report);
    assert_eq!((check.dc, check.check.result, check.success, check.vitality_lost), (7, 10, true, 0));
    assert_eq!(vitality(&encounter, "Hero"), -6);
    assert!(state(&encounter, "Hero").round.assists.is_empty());
}

#[test]
fn a_disabled_characters_fortitude_check_uses_the_pending_aid_another_bonus() {
    // Hero at 0, Disabled, aided +5. Sidestep: −1; "Disabled": d20 3 + 3 + 5 = 11 ≥ 10 passes
    // (still Disabled at −1; without the assist 6 would fail and bring Dying).
    let mut encounter = fortitude_aided(20, false);
    let step = json!({"combatant_id": "Hero", "manoeuvre": {"type": "sidestep"}});
    let (_, report) = run::<Actions>(&mut encounter, step, vec![3]).unwrap();
    let check = condition_check(&report);
    assert_eq!((check.dc, check.check.result, check.success), (10, 11, true));
    assert_eq!((vitality(&encounter, "Hero"), state(&encounter, "Hero").dying), (-1, 0));
    assert!(state(&encounter, "Hero").round.assists.is_empty());
}

#[test]
fn the_staggered_end_of_round_check_uses_the_pending_aid_another_bonus() {
    // Hero Staggered [1], aided +5, does nothing. End of Round: "Staggered [n]" DC 15 + 1 = 16;
    // d20 9 + 3 + 5 = 17 ≥ 16 → Staggered [0] (without the assist 12 fails). No assist is left.
    let mut encounter = fight(&[("Helper", HELPER, false), ("Hero", HERO, false), ("Troll", TROLL, false)]);
    let stagger = json!({"combatant_id": "Hero", "change": {"type": "staggered", "applications": 1}});
    run::<Conditions>(&mut encounter, stagger, vec![]).unwrap();
    let aid = json!({"combatant_id": "Helper", "manoeuvre": {"type": "aid_another", "ally_id": "Hero", "check": "fortitude"}});
    run::<Actions>(&mut encounter, aid, vec![12]).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    let (_, report) = run::<EndOfRound>(&mut encounter, json!({}), vec![9]).unwrap();
    let check = report.entries[0].staggered.as_ref().expect("a Staggered check");
    assert_eq!((check.dc, check.check.result, check.success), (16, 17, true));
    assert_eq!(state(&encounter, "Hero").staggered, 0);
    assert!(state(&encounter, "Hero").round.assists.is_empty());
}

#[test]
fn the_waking_check_uses_the_pending_aid_another_bonus() {
    // Hero at 20 − 28 = −8, Unconscious, aided +5. "Unconscious": DC 8 + 0 = 8; d20 2 + 3 + 5 =
    // 10 ≥ 8: wakes (without the assist 5 < 8).
    let mut encounter = fortitude_aided(28, false);
    run::<Conditions>(&mut encounter, json!({"combatant_id": "Hero", "change": {"type": "unconscious", "on": true}}), vec![]).unwrap();
    let (_, report) = run::<Conditions>(&mut encounter, json!({"combatant_id": "Hero", "change": {"type": "wake"}}), vec![2]).unwrap();
    let check = report.wake_check.as_ref().expect("a waking check");
    assert_eq!((check.dc, check.check.result, check.success), (8, 10, true));
    assert!(!state(&encounter, "Hero").unconscious);
    assert!(state(&encounter, "Hero").round.assists.is_empty());
}

#[test]
fn an_area_attack_check_uses_the_attackers_pending_aid_another_bonus() {
    // Helper aids the Champion's ranged checks: d20 12 + 2 = 14 vs 10 → +5. Grenade at 3 squares
    // (no Range modifier): d20 3 + 12 + 5 = 20 ≥ 10 hits the square; Troll Reflex 12 → 6 + 8 = 14
    // fire: 60 → 46 (without the assist 15 → 9: 51). The assist is used up.
    let mut encounter = fight(&[("Helper", HELPER, false), ("Champion", CHAMPION, false), ("Troll", TROLL, false)]);
    let aid = json!({"combatant_id": "Helper", "manoeuvre": {"type": "aid_another", "ally_id": "Champion", "check": "ranged"}});
    run::<Actions>(&mut encounter, aid, vec![12]).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    let (_, report) = run::<AreaAttacks>(&mut encounter, grenade_at(3, json!([{"combatant_id": "Troll"}])), vec![3]).unwrap();
    assert_eq!((report.check.result, report.hits[0].success_value), (20, 14));
    assert_eq!(vitality(&encounter, "Troll"), 46);
    assert!(state(&encounter, "Champion").round.assists.is_empty());
}
