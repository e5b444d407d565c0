//! The operations on stored encounters, with scripted dice and numbers worked from the text.

use super::super::Report;
use super::super::test_support::stats;
use super::actions::Actions;
use super::attacks::Attacks;
use super::conditions::Conditions;
use super::end_of_round::EndOfRound;
use crate::dice::Dice;
use crate::encounter::{
    Advance, CombatantId, Encounter, EncounterError, EncounterId, Event, Flags, InitiativeRequest, NewCombatant,
    add_combatant, advance, roll_initiative,
};
use crate::rulesets::{Command, RulesetId, RulesetReport, StatBlock};
use serde_json::{Value, json};

const HERO: &str = r#"{"agility": 12, "initiative": 15, "vitality": 20, "abilities": {"body": 2, "agility": 1},
    "checks": {"melee": {"skill": 4}, "reflex": {"skill": 1}, "fortitude": {"skill": 1}}}"#;
const OGRE: &str = r#"{"agility": 8, "initiative": 10, "vitality": 12, "abilities": {"body": 3},
    "checks": {"melee": {"skill": 2}, "reflex": {"skill": 2}},
    "resistances": [{"type": "slashing", "value": 2}], "vulnerabilities": ["fire"]}"#;
const TROLL: &str = r#"{"agility": 8, "initiative": 10, "vitality": 60, "checks": {"reflex": {"skill": 2}}}"#;

fn id(name: &str) -> CombatantId {
    CombatantId(name.into())
}

/// An encounter of the given combatants (name, stat block, surprised), started.
fn fight(combatants: &[(&str, &str, bool)]) -> Encounter {
    let mut encounter = Encounter::new(EncounterId("enc".into()), RulesetId::Arrgs, "Test".into());
    for (name, block, surprised) in combatants {
        let value: Value = serde_json::from_str(block).unwrap();
        let new = NewCombatant {
            id: id(name),
            name: (*name).into(),
            side: (*name).into(),
            stats: StatBlock::Arrgs(stats(value)),
            flags: Flags { surprised: *surprised, ..Flags::default() },
        };
        add_combatant(&mut encounter, new).unwrap();
    }
    roll_initiative(&mut encounter, &InitiativeRequest::default(), &mut Dice::scripted(vec![], 0).unwrap()).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    encounter
}

fn run<C: Command>(encounter: &mut Encounter, request: Value, rolls: Vec<u32>) -> Result<(Vec<Event>, C::Report), EncounterError> {
    let request: C::Request = serde_json::from_value(request).unwrap();
    C::run(encounter, request, &mut Dice::scripted(rolls, 0).unwrap())
}

fn vitality(encounter: &Encounter, name: &str) -> i32 {
    let combatant = encounter.combatant(&id(name)).unwrap();
    let stats = match &combatant.stats {
        StatBlock::Arrgs(stats) => stats.clone(),
        _ => unreachable!(),
    };
    let state = match &combatant.state {
        crate::rulesets::RulesetState::Arrgs(state) => state.clone(),
        _ => Default::default(),
    };
    stats.starting_vitality().unwrap() - state.vitality_lost
}

fn state(encounter: &Encounter, name: &str) -> crate::rulesets::arrgs::CombatState {
    match &encounter.combatant(&id(name)).unwrap().state {
        crate::rulesets::RulesetState::Arrgs(state) => state.clone(),
        _ => Default::default(),
    }
}

fn refused_field(result: Result<impl std::fmt::Debug, EncounterError>) -> String {
    match result {
        Err(EncounterError::Invalid { field, .. }) => field,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn longsword() -> Value {
    json!({"name": "Longsword", "damage": 6, "types": ["slashing"], "critical_range": 19})
}

#[test]
fn a_surprise_round_critical_hit_inflicts_dying_through_resistance() {
    let mut encounter = fight(&[("Hero", HERO, false), ("Ogre", OGRE, true)]);
    assert_eq!(encounter.current, Some(id("Hero")));
    // Surprise round: Hero has 3 − 1 = 2 AP. Ogre's Reflex: 10 + 2 = 12. Hero: Melee +6 (skill 4,
    // Body 2). d20 19 → 25: 6 + 13 = 19, critical (19–20); re-roll 5 → 11: 6 − 1 = 5 → 24.
    // DR 2/Slashing → 22: Ogre 12 → −10, Dying [1]. Hero pays 1 Vitality: 19.
    let request = json!({"attacker_id": "Hero", "target_id": "Ogre", "weapon": longsword()});
    let (events, report) = run::<Attacks>(&mut encounter, request.clone(), vec![19, 5]).unwrap();
    let super::super::attacking::Outcome::Resolved { strikes } = &report.outcome else { panic!() };
    assert_eq!(strikes[0].defence.as_ref().map(|d| d.result), Some(12));
    assert_eq!(strikes[0].roll.success_value, Some(24));
    assert!(strikes[0].roll.critical_hit);
    assert_eq!((vitality(&encounter, "Ogre"), state(&encounter, "Ogre").dying), (-10, 1));
    assert_eq!(vitality(&encounter, "Hero"), 19);
    assert_eq!(report.spend.remaining.action_points, 0);
    assert!(matches!(&events[0], Event::AttackResolved { report: RulesetReport::Arrgs(Report::Attack(_)), .. }));
    // A second attack with no AP left is refused naming `pace`, and nothing changes.
    let before = encounter.clone();
    assert_eq!(refused_field(run::<Attacks>(&mut encounter, request, vec![10])), "pace");
    assert_eq!(encounter, before);
    // The Surprised Ogre may not act in the surprise round.
    advance(&mut encounter, Advance::NextTurn).unwrap();
    let back = json!({"attacker_id": "Ogre", "target_id": "Hero", "weapon": {"name": "Club", "damage": 5}});
    assert_eq!(refused_field(run::<Attacks>(&mut encounter, back, vec![10])), "attacker_id");
}

#[test]
fn end_of_round_runs_the_dying_check_and_ends_the_surprise() {
    let mut encounter = fight(&[("Hero", HERO, false), ("Ogre", OGRE, true)]);
    let request = json!({"attacker_id": "Hero", "target_id": "Ogre", "weapon": longsword()});
    run::<Attacks>(&mut encounter, request, vec![19, 5]).unwrap();
    // Too early: the Ogre has not had its turn.
    assert!(matches!(run::<EndOfRound>(&mut encounter, json!({}), vec![]), Err(EncounterError::Conflict(_))));
    advance(&mut encounter, Advance::NextTurn).unwrap();
    // Ogre: −10, Dying [1]: DC 10 + 1 = 11; Fortitude +3 (Body): d20 9 → 12, 1 above → loses
    // 1 − 1 = 0; n 1 → 0: Disabled.
    let (events, report) = run::<EndOfRound>(&mut encounter, json!({}), vec![9]).unwrap();
    assert!(report.surprise_ended && !report.automatic);
    let entry = &report.entries[0];
    let dying = entry.dying.as_ref().unwrap();
    assert_eq!((dying.dc, dying.check.result, dying.vitality_lost), (11, 12, 0));
    assert_eq!(state(&encounter, "Ogre").dying, 0);
    assert_eq!(events.len(), 1);
    assert!(encounter.combatants.iter().all(|c| !c.flags.surprised));
    // No one acts between the End of Round and the next round.
    let late = json!({"combatant_id": "Ogre", "manoeuvre": {"type": "sidestep"}});
    assert_eq!(refused_field(run::<Actions>(&mut encounter, late, vec![])), "combatant_id");
    // Advancing does not process the round again; round 2 gives the Hero 3 AP.
    let events = advance(&mut encounter, Advance::NextTurn).unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::ActionTaken { action, .. } if action == "end_of_round")));
    assert_eq!((encounter.round, encounter.current.clone()), (2, Some(id("Hero"))));
    assert_eq!(state(&encounter, "Hero").round.action_points_spent, 0);
}

#[test]
fn advancing_without_the_operation_processes_the_round_with_seeded_dice() {
    let mut encounter = fight(&[("Hero", HERO, false), ("Ogre", OGRE, false)]);
    run::<Conditions>(&mut encounter, json!({"combatant_id": "Ogre", "change": {"type": "staggered", "applications": 1}}), vec![]).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    let events = advance(&mut encounter, Advance::NextTurn).unwrap();
    let report = events.iter().find_map(|e| match e {
        Event::ActionTaken { report: RulesetReport::Arrgs(Report::EndOfRound(report)), .. } => Some(report.clone()),
        _ => None,
    });
    let report = report.expect("an End of Round event");
    assert!(report.automatic);
    assert_eq!(report.entries[0].staggered.as_ref().map(|c| c.dc), Some(16));
}

/// The advance's own dice drive the End of Round it runs (arrgs.txt, "Dying [n]"): Ogre at −10
/// Vitality, Dying [1]: DC 10 + 1 = 11; Fortitude +3 (Body): the scripted d20 9 → 12, a success.
#[test]
fn advancing_rolls_the_end_of_round_checks_with_the_advances_scripted_dice() {
    let mut encounter = fight(&[("Hero", HERO, false), ("Ogre", OGRE, true)]);
    let request = json!({"attacker_id": "Hero", "target_id": "Ogre", "weapon": longsword()});
    run::<Attacks>(&mut encounter, request, vec![19, 5]).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    let mut dice = Dice::scripted(vec![9, 4], 0).unwrap();
    let events = crate::encounter::advance_with(&mut encounter, Advance::NextTurn, &mut dice).unwrap();
    let report = events.iter().find_map(|e| match e {
        Event::ActionTaken { report: RulesetReport::Arrgs(Report::EndOfRound(report)), .. } => Some(report.clone()),
        _ => None,
    });
    let report = report.expect("an End of Round event");
    assert!(report.automatic);
    let dying = report.entries[0].dying.as_ref().unwrap();
    assert_eq!((dying.dc, dying.check.result, dying.success), (11, 12, true));
    assert_eq!(dice.rolls().len(), 1);
    assert_eq!((dice.rolls()[0].sides, dice.rolls()[0].value), (20, 9));
    assert_eq!(dice.rolls()[0].source, crate::dice::DieSource::Scripted);
    assert_eq!(dice.unused_rolls(), vec![4]);
    assert_eq!(state(&encounter, "Ogre").dying, 0);
}

#[test]
fn a_repeated_attack_stacks_minus_two_and_keeps_it_until_end_of_round() {
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    // Troll's Reflex 12. d20 10 each time: 16, 14 (−2), 12 (−4) → 10, 8, 6 = 24 damage: 60 → 36.
    // Hero: 1 Vitality per attack, 20 → 17; −4 on every check until End of Round.
    let request = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(),
        "manoeuvre": {"type": "repeated_attack", "attacks": 3}});
    let (_, report) = run::<Attacks>(&mut encounter, request, vec![10, 10, 10]).unwrap();
    let super::super::attacking::Outcome::Resolved { strikes } = &report.outcome else { panic!() };
    let values: Vec<_> = strikes.iter().map(|s| s.roll.success_value).collect();
    assert_eq!(values, [Some(10), Some(8), Some(6)]);
    assert_eq!((vitality(&encounter, "Troll"), vitality(&encounter, "Hero")), (36, 17));
    assert_eq!(report.round_penalties.iter().map(|m| m.value).collect::<Vec<_>>(), [-4]);
    // A Swift attack (2 AAP; 3 used before → no Multiple Actions yet) carries the −4: 10 + 6 − 4 = 12 → 6.
    let swift = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(), "pace": "swift"});
    let (_, report) = run::<Attacks>(&mut encounter, swift, vec![10]).unwrap();
    let super::super::attacking::Outcome::Resolved { strikes } = &report.outcome else { panic!() };
    assert_eq!(strikes[0].roll.success_value, Some(6));
    // 5 points used now: a third attack has no points at all.
    let again = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(), "pace": "swift"});
    assert_eq!(refused_field(run::<Attacks>(&mut encounter, again, vec![10])), "pace");
}

#[test]
fn an_opportunity_attack_that_kills_wastes_the_provoking_shot() {
    let archer = r#"{"agility": 14, "initiative": 15, "vitality": 3}"#;
    let guard = r#"{"agility": 10, "initiative": 10, "vitality": 20, "abilities": {"body": 2}, "checks": {"melee": {"skill": 4}}}"#;
    let mut encounter = fight(&[("Archer", archer, false), ("Guard", guard, false), ("Troll", TROLL, false)]);
    // The Archer shoots (ranged: provokes) and pays 1: 3 → 2. The Guard, 1 square away, attacks
    // as an Immediate action (2 AAP): Archer's Reflex 10; d20 15 + 6 = 21 → 6 + 11 = 17 → 2 − 17 = −15,
    // dead (≤ −3). The shot is wasted.
    let request = json!({"attacker_id": "Archer", "target_id": "Troll",
        "weapon": {"name": "Bow", "kind": "ranged", "damage": 5, "types": ["piercing"], "range_increment": 10},
        "distance": 8, "opportunities": [{"combatant_id": "Guard", "distance": 1, "weapon": longsword()}]});
    let (_, report) = run::<Attacks>(&mut encounter, request, vec![15]).unwrap();
    assert!(matches!(report.outcome, super::super::attacking::Outcome::Wasted { .. }));
    assert_eq!(vitality(&encounter, "Archer"), -15);
    assert!(encounter.combatant(&id("Archer")).unwrap().flags.defeated);
    assert_eq!(state(&encounter, "Guard").round.additional_points_spent, 2);
    assert_eq!(vitality(&encounter, "Troll"), 60);
}

#[test]
fn an_armed_melee_attack_provokes_nothing() {
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    let request = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(),
        "opportunities": [{"combatant_id": "Troll", "distance": 1, "weapon": longsword()}]});
    assert_eq!(refused_field(run::<Attacks>(&mut encounter, request, vec![10])), "opportunities");
}

#[test]
fn the_defence_manoeuvre_takes_its_margin_off_the_success_value() {
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    // Hero: d20 8 + 6 = 14 vs 12 → 6 + 2 = 8. Troll defends (2 AAP, 1 Vitality: 59): d20 15 + 2 =
    // 17 against 14 → 3 off → 5: 59 → 54.
    let request = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(),
        "defence_action": {"defence": "reflex"}});
    let (_, report) = run::<Attacks>(&mut encounter, request, vec![8, 15]).unwrap();
    let super::super::attacking::Outcome::Resolved { strikes } = &report.outcome else { panic!() };
    let defence = strikes[0].defence_action.as_ref().unwrap();
    assert_eq!((defence.check.result, defence.dc, defence.reduction), (17, 14, 3));
    assert_eq!(strikes[0].final_success_value, Some(5));
    assert_eq!(vitality(&encounter, "Troll"), 54);
}

#[test]
fn trip_needs_the_dc_and_extra_legs_raise_it() {
    let horse = r#"{"agility": 8, "initiative": 10, "vitality": 30, "legs": 4, "checks": {"reflex": {"skill": 2}}}"#;
    let mut encounter = fight(&[("Hero", HERO, false), ("Horse", horse, false)]);
    // Reflex 10 + 2 + 2 (two legs above 2) = 14. d20 7 + 6 = 13: fails; the next turn's 8 → 14 trips.
    let request = json!({"attacker_id": "Hero", "target_id": "Horse", "weapon": longsword(), "effect": {"type": "trip"}});
    let (_, report) = run::<Attacks>(&mut encounter, request.clone(), vec![7]).unwrap();
    let super::super::attacking::Outcome::Resolved { strikes } = &report.outcome else { panic!() };
    assert_eq!(strikes[0].defence.as_ref().map(|d| d.result), Some(14));
    assert!(!state(&encounter, "Horse").prone);
    run::<Attacks>(&mut encounter, json!({"attacker_id": "Hero", "target_id": "Horse", "weapon": longsword(),
        "effect": {"type": "trip"}, "pace": "swift"}), vec![8]).unwrap();
    assert!(state(&encounter, "Horse").prone);
}

#[test]
fn running_fast_costs_checks_and_a_sudden_change_costs_vitality() {
    let runner = r#"{"agility": 12, "initiative": 15, "vitality": 30}"#;
    let mut encounter = fight(&[("Runner", runner, false), ("Troll", TROLL, false)]);
    let step = |squares: i64| json!({"combatant_id": "Runner", "manoeuvre": {"type": "movement", "squares": squares}});
    // Passive Movement: 10 vs DC 10 → 5 squares; then 5 more (10 squares: Increment 2).
    run::<Actions>(&mut encounter, step(5), vec![]).unwrap();
    run::<Actions>(&mut encounter, step(5), vec![]).unwrap();
    // The third check carries −2 (Increment 2): 8 → 5 − 2 = 3 squares; 5 is refused.
    assert_eq!(refused_field(run::<Actions>(&mut encounter, step(5), vec![])), "manoeuvre.squares");
    let (_, report) = run::<Actions>(&mut encounter, step(3), vec![]).unwrap();
    assert!(matches!(report.result, super::super::manoeuvres::ManoeuvreResult::Movement { success_value: 3, movement_increment: 3, .. }));
    // 13 squares: Increment 3, from 0 last round → 5 × 3 = 15 Force at the End of Round. 30 − 3 − 15 = 12.
    advance(&mut encounter, Advance::NextTurn).unwrap();
    let (_, report) = run::<EndOfRound>(&mut encounter, json!({}), vec![]).unwrap();
    assert_eq!(report.entries[0].acceleration.as_ref().map(|a| a.steps.damage), Some(15));
    assert_eq!(vitality(&encounter, "Runner"), 12);
}

#[test]
fn aid_another_grants_its_success_value_to_the_allys_next_check() {
    let helper = r#"{"agility": 14, "initiative": 20, "vitality": 15, "abilities": {"personality": 2}, "checks": {"melee": {"skill": 1}}}"#;
    let mut encounter = fight(&[("Helper", helper, false), ("Hero", HERO, false), ("Troll", TROLL, false)]);
    // Melee skill 1 + Personality 2 = +3; d20 12 → 15 vs DC 10 → 1 + 5 = 6.
    let aid = json!({"combatant_id": "Helper", "manoeuvre": {"type": "aid_another", "ally_id": "Hero", "check": "melee"}});
    let (_, report) = run::<Actions>(&mut encounter, aid, vec![12]).unwrap();
    assert!(matches!(report.result, super::super::manoeuvres::ManoeuvreResult::AidAnother { assisted: Some(6), .. }));
    advance(&mut encounter, Advance::NextTurn).unwrap();
    // Hero: d20 5 + 6 + 6 = 17 vs 12 → 6 + 5 = 11: Troll 60 → 49. The assist is used up.
    let request = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword()});
    run::<Attacks>(&mut encounter, request, vec![5]).unwrap();
    assert_eq!(vitality(&encounter, "Troll"), 49);
    assert!(state(&encounter, "Hero").round.assists.is_empty());
}

#[test]
fn complementary_actions_follow_actions_and_cost_nothing() {
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    let shout = json!({"combatant_id": "Hero", "manoeuvre": {"type": "complementary", "description": "shouts a warning"}});
    assert_eq!(refused_field(run::<Actions>(&mut encounter, shout.clone(), vec![])), "manoeuvre");
    run::<Actions>(&mut encounter, json!({"combatant_id": "Hero", "manoeuvre": {"type": "sidestep"}}), vec![]).unwrap();
    run::<Actions>(&mut encounter, shout, vec![]).unwrap();
    assert_eq!(vitality(&encounter, "Hero"), 19, "only the Sidestep cost Vitality");
}

use super::area::AreaAttacks;

mod gaps;
mod exactness;
mod manoeuvre_exactness;

const MAGE: &str = r#"{"agility": 11, "initiative": 20, "vitality": 14, "abilities": {"intellect": 3}, "checks": {"spell": {"skill": 3}}}"#;

#[test]
fn an_area_spell_hits_the_square_then_each_occupant() {
    let mut encounter = fight(&[("Mage", MAGE, false), ("Troll", TROLL, false)]);
    // Fireball level 3 (difficulty 13) at 8 squares, Range Increment 5: 2 increments, Range
    // modifier −2 ("Area Attacks": the Attack check as normal; "Range Increment"). d20 10 + 6 − 2
    // = 14 ≥ 10 and ≥ 13. Troll Reflex 12 → 6 + 2 = 8: 60 → 52.
    let request = json!({"attacker_id": "Mage", "stage": {"type": "attack", "distance": 8,
        "weapon": {"name": "Fireball", "kind": "spell", "damage": 6, "types": ["fire"], "spell_level": 3, "range_increment": 5},
        "occupants": [{"combatant_id": "Troll"}]}});
    let (_, report) = run::<AreaAttacks>(&mut encounter, request, vec![10]).unwrap();
    assert_eq!((report.check.result, report.square_hit, report.hits[0].success_value), (14, Some(true), 8));
    assert_eq!(vitality(&encounter, "Troll"), 52);
    assert_eq!(vitality(&encounter, "Mage"), 11, "3 Vitality for a level 3 spell");
}

#[test]
fn a_missed_area_attack_scatters_and_is_resolved_where_it_lands() {
    let mut encounter = fight(&[("Mage", MAGE, false), ("Troll", TROLL, false)]);
    // A grenade (Ranged +0) at 12 squares, increment 5 = 3 increments, Range modifier −4: d20 2 −
    // 4 = −2 < 10 misses the square. 1d8 3 (East), 3d4 2 + 4 + 1 = 7 squares.
    let request = json!({"attacker_id": "Mage", "stage": {"type": "attack", "distance": 12,
        "weapon": {"name": "Grenade", "kind": "ranged", "damage": 6, "types": ["fire"], "range_increment": 5},
        "occupants": []}});
    let (_, report) = run::<AreaAttacks>(&mut encounter, request, vec![2, 3, 2, 4, 1]).unwrap();
    let scatter = report.scatter.unwrap();
    assert_eq!((scatter.direction.as_str(), scatter.squares), ("East", 7));
    // Where it landed: a second check with the same modifiers, d20 14 − 4 = 10 vs the Troll's 12
    // → 6 − 2 = 4: 60 → 56.
    let landed = json!({"attacker_id": "Mage", "stage": {"type": "scatter", "occupants": [{"combatant_id": "Troll"}]}});
    run::<AreaAttacks>(&mut encounter, landed.clone(), vec![14]).unwrap();
    assert_eq!(vitality(&encounter, "Troll"), 56);
    assert_eq!(refused_field(run::<AreaAttacks>(&mut encounter, landed, vec![14])), "stage");
}

#[test]
fn charge_moves_then_attacks_at_plus_two_and_lowers_reflex() {
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    // Passive Movement: 10 + Body 2 = 12 → 5 + 2 = 7 squares; 8 is refused.
    let too_far = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(), "manoeuvre": {"type": "charge", "squares": 8}});
    assert_eq!(refused_field(run::<Attacks>(&mut encounter, too_far, vec![10])), "manoeuvre.squares");
    // 4 squares (Increment 1, no penalty); d20 10 + 6 + 2 = 18 vs 12 → 6 + 6 = 12: 60 → 48.
    let charge = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(), "manoeuvre": {"type": "charge", "squares": 4}});
    let (_, report) = run::<Attacks>(&mut encounter, charge, vec![10]).unwrap();
    assert_eq!(report.charge.as_ref().map(|c| c.allowed), Some(7));
    assert_eq!(vitality(&encounter, "Troll"), 48);
    let penalties = state(&encounter, "Hero").round.penalties;
    assert_eq!((penalties[0].modifier.value, penalties[0].only), (-2, Some(crate::rulesets::arrgs::bonuses::CheckKind::Reflex)));
}

#[test]
fn disarm_sunder_and_reposition_replace_the_damage() {
    use crate::rulesets::arrgs::strike::{ItemState, StrikeResult};
    let first = |report: &crate::rulesets::arrgs::attacking::AttackReport| match &report.outcome {
        super::super::attacking::Outcome::Resolved { strikes } => strikes[0].result.clone(),
        other => panic!("{other:?}"),
    };
    // Disarm: d20 15 + 6 = 21 vs 12 → 1 + 9 = 10 → at most 5 squares.
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    let disarm = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(), "effect": {"type": "disarm"}});
    assert_eq!(first(&run::<Attacks>(&mut encounter, disarm, vec![15]).unwrap().1), StrikeResult::Disarm { squares: 5, item: None });
    // Sunder a shield (20, 5 taken): 10 + 6 = 16 → 6 + 4 = 10 → 15 ≥ half: Broken.
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    let sunder = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(),
        "effect": {"type": "sunder", "item": {"name": "Shield", "vitality": 20, "damage_taken": 5}}});
    let result = first(&run::<Attacks>(&mut encounter, sunder, vec![10]).unwrap().1);
    assert_eq!(result, StrikeResult::Sunder { item: "Shield".into(), damage: 10, damage_taken: 15, state: ItemState::Broken });
    assert_eq!(vitality(&encounter, "Troll"), 60, "the item takes the damage");
    // Reposition into a wall: 12 + 6 = 18 → 1 + 6 = 7 squares; 7 Vitality: 60 → 53.
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    let push = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(),
        "effect": {"type": "reposition", "collision": {"type": "object"}}});
    let result = first(&run::<Attacks>(&mut encounter, push, vec![12]).unwrap().1);
    assert_eq!(result, StrikeResult::Reposition { squares: 7, collision_loss: Some(7) });
    assert_eq!(vitality(&encounter, "Troll"), 53);
}

#[test]
fn magnitude_multiplies_the_smaller_attacker_and_divides_the_larger_defender() {
    let tank = r#"{"agility": 5, "initiative": 5, "vitality": 100, "magnitude": 2}"#;
    let mut encounter = fight(&[("Hero", HERO, false), ("Tank", tank, false)]);
    // Hero (1) against a tank (2): attack (5 + 6) × 2 = 22 and damage 6 × 2 = 12; the tank's
    // Reflex 10 ÷ 2 = 5. 12 + 17 = 29: 100 → 71.
    let request = json!({"attacker_id": "Hero", "target_id": "Tank", "weapon": longsword()});
    run::<Attacks>(&mut encounter, request, vec![5]).unwrap();
    assert_eq!(vitality(&encounter, "Tank"), 71);
}

#[test]
fn an_unconscious_targets_reflex_is_zero() {
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    run::<Conditions>(&mut encounter, json!({"combatant_id": "Troll", "change": {"type": "unconscious", "on": true}}), vec![]).unwrap();
    // DC 0: d20 2 + 6 = 8 → 6 + 8 = 14: 60 → 46.
    run::<Attacks>(&mut encounter, json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword()}), vec![2]).unwrap();
    assert_eq!(vitality(&encounter, "Troll"), 46);
}

#[test]
fn spell_manoeuvres_are_pass_fail_and_dismiss_must_exceed() {
    use super::super::manoeuvres::ManoeuvreResult;
    let shaman = r#"{"agility": 9, "initiative": 5, "vitality": 20, "checks": {"spell": {"skill": 4}}}"#;
    let mut encounter = fight(&[("Mage", MAGE, false), ("Shaman", shaman, false)]);
    let act = |manoeuvre: Value| json!({"combatant_id": "Mage", "manoeuvre": manoeuvre, "pace": "standard"});
    // Control Spell level 2: 5 + 6 = 11 < 12.
    let (_, control) = run::<Actions>(&mut encounter, act(json!({"type": "control_spell", "spell_level": 2})), vec![5]).unwrap();
    assert!(matches!(control.result, ManoeuvreResult::ControlSpell { ref test, .. } if !test.success && test.dc == 12));
    // Counterspell (2 AP) against the Shaman's Reaction Spell check 10 + 4 = 14: 8 + 6 = 14 succeeds.
    let (_, counter) = run::<Actions>(&mut encounter, act(json!({"type": "counterspell", "caster_id": "Shaman"})), vec![8]).unwrap();
    assert!(matches!(counter.result, ManoeuvreResult::Counterspell { ref test, .. } if test.success && test.dc == 14));
    // Dismiss Spell level 1 on a Swift action: 5 + 6 = 11 does not exceed 11.
    let dismiss = json!({"combatant_id": "Mage", "manoeuvre": {"type": "dismiss_spell", "spell_level": 1}, "pace": "swift"});
    let (_, dismissed) = run::<Actions>(&mut encounter, dismiss, vec![5]).unwrap();
    assert!(matches!(dismissed.result, ManoeuvreResult::DismissSpell { ref test, .. } if !test.success));
}

#[test]
fn reload_mount_withdraw_and_standup() {
    use super::super::manoeuvres::ManoeuvreResult;
    let rider = r#"{"agility": 12, "initiative": 15, "vitality": 20}"#;
    let mut encounter = fight(&[("Rider", rider, false), ("Troll", TROLL, false)]);
    let act = |manoeuvre: Value| json!({"combatant_id": "Rider", "manoeuvre": manoeuvre});
    // Reload a 3-bolt weapon: 12 vs 10 → 1 + 2 = 3 loaded.
    let (_, reload) = run::<Actions>(&mut encounter, act(json!({"type": "reload", "capacity": 3})), vec![12]).unwrap();
    assert!(matches!(reload.result, ManoeuvreResult::Reload { loaded: 3, .. }));
    // Mount (2 AP): Ride +2 (skill), d20 9 → 11 vs 10 + 1 = 11: mounted.
    let mount = act(json!({"type": "mount", "mount_personality": 1, "bonuses": {"skill": 2}}));
    let (_, mounted) = run::<Actions>(&mut encounter, mount, vec![9]).unwrap();
    assert!(matches!(mounted.result, ManoeuvreResult::Mount { ref test } if test.success));
    // Standing up needs Prone; withdrawing more than Movement Speed (5) is refused.
    assert_eq!(refused_field(run::<Actions>(&mut encounter, act(json!({"type": "standup"})), vec![])), "manoeuvre");
    let far = json!({"combatant_id": "Rider", "pace": "swift", "manoeuvre": {"type": "withdraw", "squares": 6}});
    assert_eq!(refused_field(run::<Actions>(&mut encounter, far, vec![])), "manoeuvre.squares");
}

#[test]
fn revitalising_stops_at_total_vitality() {
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", TROLL, false)]);
    run::<super::damage::Damage>(&mut encounter, json!({"target_id": "Troll", "amount": 9}), vec![]).unwrap();
    run::<Conditions>(&mut encounter, json!({"combatant_id": "Troll", "change": {"type": "revitalise", "amount": 20}}), vec![]).unwrap();
    assert_eq!(vitality(&encounter, "Troll"), 60);
}
