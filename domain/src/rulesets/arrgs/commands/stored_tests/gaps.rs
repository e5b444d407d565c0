//! Held items, stored Sunder damage, Counterspell against a spell attack, and Opportunities on
//! each attack of a Repeated Attack — through the stored operations, numbers worked by hand.

use super::*;
use crate::rulesets::Summary;
use crate::rulesets::arrgs::attacking::Outcome;
use crate::rulesets::arrgs::state::{ItemState, Place};
use crate::rulesets::arrgs::manoeuvres::ManoeuvreResult;
use crate::rulesets::arrgs::strike::StrikeResult;

const ARMED_HERO: &str = r#"{"agility": 12, "initiative": 15, "vitality": 20, "abilities": {"body": 2, "agility": 1},
    "checks": {"melee": {"skill": 4}, "reflex": {"skill": 1}, "fortitude": {"skill": 1}},
    "items": [{"name": "Longsword"}, {"name": "Shield"}, {"name": "Dagger", "held": false}]}"#;
const ARMED_TROLL: &str = r#"{"agility": 8, "initiative": 10, "vitality": 60, "checks": {"reflex": {"skill": 2}},
    "items": [{"name": "Club"}, {"name": "Shield", "vitality": 20}]}"#;

fn places(encounter: &Encounter, name: &str) -> Vec<(String, Place)> {
    let items = state(encounter, name).items.unwrap_or_default();
    items.into_iter().map(|item| (item.name, item.place)).collect()
}

fn strike_result(report: &crate::rulesets::arrgs::attacking::AttackReport) -> StrikeResult {
    match &report.outcome {
        Outcome::Resolved { strikes } => strikes[0].result.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn staggered_down_to_zero_action_points_drops_everything_held() {
    let mut encounter = fight(&[("Hero", ARMED_HERO, false), ("Troll", TROLL, false)]);
    let stagger = |n: u32| json!({"combatant_id": "Hero", "change": {"type": "staggered", "applications": n}});
    // Staggered [4]: AAP 2 − 2 = 0 first, then AP 3 − 2 = 1: still 1 AP, nothing drops.
    let (_, report) = run::<Conditions>(&mut encounter, stagger(4), vec![]).unwrap();
    assert!(report.dropped.is_empty());
    // Staggered [5]: AP 3 − 3 = 0 → "drop all items held in the hands"; the Dagger on the belt stays.
    let (_, report) = run::<Conditions>(&mut encounter, stagger(5), vec![]).unwrap();
    assert_eq!(report.dropped, ["Longsword", "Shield"]);
    assert!(report.summary().contains("drops Longsword, Shield"), "{}", report.summary());
    let expected = [("Longsword", Place::Dropped), ("Shield", Place::Dropped), ("Dagger", Place::Carried)];
    assert_eq!(places(&encounter, "Hero"), expected.map(|(n, p)| (n.to_owned(), p)));
}

#[test]
fn disarm_knocks_the_named_item_out_of_the_hands() {
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", ARMED_TROLL, false)]);
    // The Troll holds a Club and a Shield: a Disarm must say which; refused, nothing stored.
    let unnamed = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(), "effect": {"type": "disarm"}});
    let before = encounter.clone();
    assert_eq!(refused_field(run::<Attacks>(&mut encounter, unnamed, vec![15])), "effect.item");
    assert_eq!(encounter, before);
    // Club: d20 15 + 6 = 21 vs Reflex 12 → 1 + 9 = 10 squares, at most 5.
    let club = json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(), "effect": {"type": "disarm", "item": "Club"}});
    let (_, report) = run::<Attacks>(&mut encounter, club.clone(), vec![15]).unwrap();
    assert_eq!(strike_result(&report), StrikeResult::Disarm { squares: 5, item: Some("Club".into()) });
    assert_eq!(places(&encounter, "Troll")[0], ("Club".to_owned(), Place::Dropped));
    // The Club is on the floor now: a second Disarm of it is refused.
    let mut swift = club;
    swift["pace"] = json!("swift");
    assert_eq!(refused_field(run::<Attacks>(&mut encounter, swift, vec![15])), "effect.item");
}

#[test]
fn a_second_sunder_continues_from_the_stored_damage_until_the_item_is_destroyed() {
    let mut encounter = fight(&[("Hero", HERO, false), ("Troll", ARMED_TROLL, false)]);
    let sunder = |pace: &str| json!({"attacker_id": "Hero", "target_id": "Troll", "weapon": longsword(), "pace": pace,
        "effect": {"type": "sunder", "item": {"name": "Shield"}}});
    // Shield, Vitality 20 from the sheet. d20 4 + 6 = 10 vs 12 → 6 − 2 = 4: 4 of 20, intact.
    let (_, report) = run::<Attacks>(&mut encounter, sunder("standard"), vec![4]).unwrap();
    assert!(matches!(strike_result(&report), StrikeResult::Sunder { damage: 4, damage_taken: 4, state: ItemState::Intact, .. }));
    // Swift (2 AAP; 2 points used before: no Multiple Actions penalty): d20 12 + 6 = 18 → 6 + 6 =
    // 12: 4 + 12 = 16 ≥ 10 → Broken, stored on the Troll.
    let (_, report) = run::<Attacks>(&mut encounter, sunder("swift"), vec![12]).unwrap();
    assert!(matches!(strike_result(&report), StrikeResult::Sunder { damage: 12, damage_taken: 16, state: ItemState::Broken, .. }));
    let shield = state(&encounter, "Troll").items.unwrap()[1].clone();
    assert_eq!((shield.damage_taken, shield.condition), (16, ItemState::Broken));
    assert_eq!(vitality(&encounter, "Troll"), 60, "the item takes the damage");
    // Round 2: d20 10 + 6 = 16 → 6 + 4 = 10: 26 ≥ 20 → destroyed; a fourth Sunder is refused.
    advance(&mut encounter, Advance::NextTurn).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    let (_, report) = run::<Attacks>(&mut encounter, sunder("standard"), vec![10]).unwrap();
    assert!(matches!(strike_result(&report), StrikeResult::Sunder { damage_taken: 26, state: ItemState::Destroyed, .. }));
    assert_eq!(refused_field(run::<Attacks>(&mut encounter, sunder("swift"), vec![10])), "effect.item.name");
    // A tracked item's earlier damage comes from the encounter, not the request.
    let mut sent = sunder("swift");
    sent["effect"]["item"] = json!({"name": "Club", "vitality": 10, "damage_taken": 3});
    assert_eq!(refused_field(run::<Attacks>(&mut encounter, sent, vec![10])), "effect.item.damage_taken");
}

#[test]
fn items_are_drawn_and_dropped_as_complementary_actions_and_picked_up_as_miscellaneous() {
    let mut encounter = fight(&[("Hero", ARMED_HERO, false), ("Troll", TROLL, false)]);
    let act = |manoeuvre: Value| json!({"combatant_id": "Hero", "manoeuvre": manoeuvre});
    let item = |name: &str, action: &str| json!({"item": name, "action": action});
    run::<Actions>(&mut encounter, act(json!({"type": "sidestep"})), vec![]).unwrap();
    let drop = act(json!({"type": "complementary", "description": "lets go", "item": item("Longsword", "drop")}));
    run::<Actions>(&mut encounter, drop, vec![]).unwrap();
    // Picking up is no Complementary action.
    let grab = act(json!({"type": "complementary", "description": "grabs", "item": item("Longsword", "pick_up")}));
    assert_eq!(refused_field(run::<Actions>(&mut encounter, grab, vec![])), "manoeuvre.item.action");
    let pick = act(json!({"type": "miscellaneous", "description": "picks it up", "item": item("Longsword", "pick_up")}));
    let (_, report) = run::<Actions>(&mut encounter, pick, vec![]).unwrap();
    assert!(matches!(report.result, ManoeuvreResult::Miscellaneous { item: Some(ref moved), .. } if moved.place == Place::Held));
    let draw = act(json!({"type": "complementary", "description": "draws", "item": item("Dagger", "draw")}));
    run::<Actions>(&mut encounter, draw, vec![]).unwrap();
    assert_eq!(places(&encounter, "Hero").iter().filter(|(_, p)| *p == Place::Held).count(), 3);
    // Two actions, each 1 Vitality; the Complementary actions cost none: 20 → 18.
    assert_eq!(vitality(&encounter, "Hero"), 18);
}

const SHAMAN: &str = r#"{"agility": 9, "initiative": 5, "vitality": 20, "checks": {"spell": {"skill": 4}}}"#;

fn firebolt_at_troll(counter_level: u32) -> Value {
    json!({"attacker_id": "Mage", "target_id": "Troll", "counterspell": {"combatant_id": "Shaman", "spell_level": counter_level},
        "weapon": {"name": "Firebolt", "kind": "spell", "damage": 5, "types": ["fire"], "spell_level": 1}})
}

#[test]
fn a_counterspell_that_meets_the_casters_reaction_wastes_the_spell() {
    let mut encounter = fight(&[("Mage", MAGE, false), ("Shaman", SHAMAN, false), ("Troll", TROLL, false)]);
    // Mage pays 1 Vitality (level 1): 14 → 13. Shaman, Immediate: 2 AAP, 1 Vitality (20 → 19);
    // Spell d20 12 + 4 = 16 against the Mage's Reaction Spell 10 + 6 = 16: cancelled.
    let (_, report) = run::<Attacks>(&mut encounter, firebolt_at_troll(1), vec![12]).unwrap();
    let counter = report.counterspell.as_ref().unwrap();
    assert_eq!(counter.test.as_ref().map(|t| (t.check.result, t.dc, t.success)), Some((16, 16, true)));
    assert!(matches!(report.outcome, Outcome::Wasted { .. }));
    assert_eq!((vitality(&encounter, "Mage"), vitality(&encounter, "Shaman"), vitality(&encounter, "Troll")), (13, 19, 60));
    assert_eq!(state(&encounter, "Shaman").round.additional_points_spent, 2);
}

#[test]
fn a_failed_counterspell_lets_the_spell_through_and_a_lower_spell_cannot_counter() {
    let mut encounter = fight(&[("Mage", MAGE, false), ("Shaman", SHAMAN, false), ("Troll", TROLL, false)]);
    let before = encounter.clone();
    assert_eq!(refused_field(run::<Attacks>(&mut encounter, firebolt_at_troll(0), vec![12])), "counterspell.spell_level");
    assert_eq!(encounter, before);
    // Shaman 11 + 4 = 15 < 16: the spell goes on. Mage d20 10 + 6 = 16 vs 12 → 5 + 4 = 9: 60 → 51.
    let (_, report) = run::<Attacks>(&mut encounter, firebolt_at_troll(2), vec![11, 10]).unwrap();
    assert!(!report.counterspell.unwrap().cancelled());
    assert_eq!(vitality(&encounter, "Troll"), 51);
    // A sword is no spell.
    let mut sword = firebolt_at_troll(1);
    sword["weapon"] = longsword();
    sword["pace"] = json!("swift");
    assert_eq!(refused_field(run::<Attacks>(&mut encounter, sword, vec![10])), "counterspell");
}

const ARCHER: &str = r#"{"agility": 14, "initiative": 15, "vitality": 3}"#;
const GUARD: &str = r#"{"agility": 10, "initiative": 10, "vitality": 20, "abilities": {"body": 2}, "checks": {"melee": {"skill": 4}}}"#;

fn volley(opportunity_attack: u32, attacks: u32) -> Value {
    json!({"attacker_id": "Archer", "target_id": "Troll", "manoeuvre": {"type": "repeated_attack", "attacks": attacks},
        "weapon": {"name": "Bow", "kind": "ranged", "damage": 5, "types": ["piercing"]},
        "opportunities": [{"combatant_id": "Guard", "distance": 1, "weapon": longsword(), "attack": opportunity_attack}]})
}

#[test]
fn an_opportunity_may_interrupt_a_later_attack_of_a_repeated_attack() {
    let mut encounter = fight(&[("Archer", ARCHER, false), ("Guard", GUARD, false), ("Troll", TROLL, false)]);
    assert_eq!(refused_field(run::<Attacks>(&mut encounter, volley(4, 3), vec![])), "opportunities[0].attack");
    // Attack 1: Archer pays 1 (3 → 2); d20 10 + 0 vs 12 → 5 − 2 = 3: Troll 57. Attack 2: pays 1
    // (2 → 1); the Guard strikes first: d20 15 + 6 = 21 vs Reflex 10 → 6 + 11 = 17: 1 → −16, dead.
    // Attacks 2 and 3 are not made.
    let (_, report) = run::<Attacks>(&mut encounter, volley(2, 3), vec![10, 15]).unwrap();
    let Outcome::Resolved { strikes } = &report.outcome else { panic!("{:?}", report.outcome) };
    assert_eq!(strikes.len(), 1);
    assert_eq!(report.opportunities[0].attack, Some(2));
    assert!(report.interrupted.as_deref().is_some_and(|r| r.starts_with("attack 2 was not made")), "{:?}", report.interrupted);
    assert_eq!((vitality(&encounter, "Troll"), vitality(&encounter, "Archer")), (57, -16));
}

#[test]
fn the_target_may_make_the_opportunity_attack_and_keeps_both_losses() {
    let archer = r#"{"agility": 14, "initiative": 15, "vitality": 20}"#;
    let mut encounter = fight(&[("Archer", archer, false), ("Troll", TROLL, false)]);
    // Archer pays 1: 19. The Troll (2 AAP, 1 Vitality: 59) strikes: d20 10 + 0 vs Reflex 10 → 6: 13.
    // The shot: d20 10 vs 12 → 5 − 2 = 3: Troll 59 → 56 (its Opportunity's Vitality kept too).
    let request = json!({"attacker_id": "Archer", "target_id": "Troll",
        "weapon": {"name": "Bow", "kind": "ranged", "damage": 5, "types": ["piercing"]},
        "opportunities": [{"combatant_id": "Troll", "distance": 1, "weapon": longsword()}]});
    run::<Attacks>(&mut encounter, request, vec![10, 10]).unwrap();
    assert_eq!((vitality(&encounter, "Archer"), vitality(&encounter, "Troll")), (13, 56));
    assert_eq!(state(&encounter, "Troll").round.additional_points_spent, 2);
}

fn spell(name: &str, level: u32, damage: u32, duration: &str) -> Value {
    json!({"name": name, "kind": "spell", "damage": damage, "types": ["force"], "spell_level": level, "duration": duration})
}

fn spell_names(encounter: &Encounter, name: &str) -> Vec<String> {
    state(encounter, name).spells.into_iter().map(|spell| spell.name).collect()
}

#[test]
fn a_concentration_spell_ends_at_the_first_end_of_round_without_control_and_dismiss_ends_a_lasting_one() {
    let mut encounter = fight(&[("Mage", MAGE, false), ("Troll", TROLL, false), ("Shaman", SHAMAN, false)]);
    // Round 1. Web (level 1, Concentration): d20 10 + 6 = 16 ≥ 11, vs 12 → 2 + 4 = 6: Troll 54.
    let web = json!({"attacker_id": "Mage", "target_id": "Troll", "weapon": spell("Web", 1, 2, "concentration")});
    run::<Attacks>(&mut encounter, web, vec![10]).unwrap();
    // Swift Flame Wall (level 0, lasting): 16 vs 12 → 1 + 4 = 5: Troll 49.
    let wall = json!({"attacker_id": "Mage", "target_id": "Troll", "pace": "swift", "weapon": spell("Flame Wall", 0, 1, "lasting")});
    run::<Attacks>(&mut encounter, wall, vec![10]).unwrap();
    assert_eq!(vitality(&encounter, "Troll"), 49);
    assert_eq!(spell_names(&encounter, "Mage"), ["Web", "Flame Wall"]);
    // End of Round 1: Web was cast (controlled) this round: it stays.
    advance(&mut encounter, Advance::NextTurn).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    assert_eq!((encounter.round, spell_names(&encounter, "Mage").len()), (2, 2));
    // Round 2. Dismiss Flame Wall: DC 10 + 0, d20 5 + 6 = 11 exceeds it: ended.
    let act = |manoeuvre: Value| json!({"combatant_id": "Mage", "manoeuvre": manoeuvre});
    run::<Actions>(&mut encounter, act(json!({"type": "dismiss_spell", "spell": "Flame Wall"})), vec![5]).unwrap();
    assert_eq!(spell_names(&encounter, "Mage"), ["Web"]);
    // Control Web: d20 4 + 6 = 10 < 11 fails; a spell the Mage does not control is refused.
    let (_, report) = run::<Actions>(&mut encounter, act(json!({"type": "control_spell", "spell": "Web"})), vec![4]).unwrap();
    assert!(matches!(report.result, ManoeuvreResult::ControlSpell { ref test, .. } if !test.success && test.dc == 11));
    let unknown = act(json!({"type": "control_spell", "spell": "Fog"}));
    assert_eq!(refused_field(run::<Actions>(&mut encounter, unknown, vec![10])), "manoeuvre.spell");
    // End of Round 2: Web was not controlled this round: it ends.
    advance(&mut encounter, Advance::NextTurn).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    let (_, report) = run::<EndOfRound>(&mut encounter, json!({}), vec![]).unwrap();
    assert_eq!(report.entries[0].spells_ended, ["Web"]);
    assert!(spell_names(&encounter, "Mage").is_empty());
}

#[test]
fn a_counterspell_against_a_spell_in_effect_seizes_control_of_it() {
    let mut encounter = fight(&[("Mage", MAGE, false), ("Troll", TROLL, false), ("Shaman", SHAMAN, false)]);
    let web = json!({"attacker_id": "Mage", "target_id": "Troll", "weapon": spell("Web", 1, 2, "concentration")});
    run::<Attacks>(&mut encounter, web, vec![10]).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    // Shaman (2 AP): d20 12 + 4 = 16 against the Mage's Reaction Spell 10 + 6 = 16: seized.
    let counter = json!({"combatant_id": "Shaman", "manoeuvre": {"type": "counterspell", "caster_id": "Mage", "spell": "Web"}});
    run::<Actions>(&mut encounter, counter, vec![12]).unwrap();
    assert!(spell_names(&encounter, "Mage").is_empty());
    assert_eq!(spell_names(&encounter, "Shaman"), ["Web"]);
    assert_eq!(state(&encounter, "Shaman").spells[0].controlled_round, 1);
}

#[test]
fn the_caster_may_make_the_opportunity_attack_on_its_counterspeller_and_still_loses_the_spell() {
    let mut encounter = fight(&[("Mage", MAGE, false), ("Troll", TROLL, false), ("Shaman", SHAMAN, false)]);
    // Web on the Troll (2 AP, 1 Vitality: 13): 10 + 6 = 16 → 6 damage.
    let web = json!({"attacker_id": "Mage", "target_id": "Troll", "weapon": spell("Web", 1, 2, "concentration")});
    run::<Attacks>(&mut encounter, web, vec![10]).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    advance(&mut encounter, Advance::NextTurn).unwrap();
    // Shaman's Counterspell on the Web (2 AP, 1 Vitality: 19) provokes. The Mage's staff (2 AAP,
    // 1 Vitality: 12): d20 10 + 0 vs Reflex 10 → 3: Shaman 16. The Mage has used 4 points now:
    // its Reaction Spell is 10 + 6 − 2 = 14; Shaman d20 12 + 4 = 16 seizes the Web.
    let staff = json!({"name": "Staff", "damage": 3, "types": ["bludgeoning"]});
    let request = json!({"combatant_id": "Shaman", "manoeuvre": {"type": "counterspell", "caster_id": "Mage", "spell": "Web"},
        "opportunities": [{"combatant_id": "Mage", "distance": 1, "weapon": staff}]});
    let (_, report) = run::<Actions>(&mut encounter, request, vec![10, 12]).unwrap();
    assert!(matches!(report.result, ManoeuvreResult::Counterspell { ref test, .. } if test.success && test.dc == 14));
    assert_eq!((vitality(&encounter, "Shaman"), vitality(&encounter, "Mage")), (16, 12));
    assert_eq!(state(&encounter, "Mage").round.additional_points_spent, 2);
    assert!(spell_names(&encounter, "Mage").is_empty(), "the Web is the Shaman's alone");
    assert_eq!(spell_names(&encounter, "Shaman"), ["Web"]);
}
