//! Groups that share initiative (issue 29 item 2; the rule texts are silent but for spycraft2's
//! one check per group, spycraft2.txt "Step 3: Initiative Checks"): a group rolls once, by its
//! first member in join order, and acts as one unit, its members one after another.

use super::test_support::*;
use super::*;
use crate::dice::Dice;
use crate::rulesets::RulesetId;

fn grouped(encounter: &mut Encounter, name: &str, stats: crate::rulesets::StatBlock, group: &str) {
    add(encounter, name, stats);
    let patch = CombatantPatch { group: Some(Some(group.into())), ..Default::default() };
    update_combatant(encounter, &id(name), patch).unwrap();
}

#[test]
fn a_group_rolls_once_and_its_members_act_one_after_another_in_join_order() {
    // adeva-d100.txt Step Three: 1d10 + Agility Bonus, ties by Agility then a d10 roll-off.
    let mut enc = encounter(RulesetId::AdevaD100);
    grouped(&mut enc, "Goblin 1", adeva(30), "Goblins"); // AB 3
    add(&mut enc, "Sergeant", adeva(42)); // AB 4
    grouped(&mut enc, "Goblin 2", adeva(50), "Goblins"); // AB 5, but rolls with Goblin 1
    add(&mut enc, "Heretic", adeva(20)); // AB 2
    // Goblins 6 + 3 = 9 (one die for both); Sergeant 2 + 4 = 6; Heretic 7 + 2 = 9.
    // The Goblins (Agility 30, Goblin 1's) tie the Heretic (Agility 20) at 9: higher Agility first.
    let events = roll_all(&mut enc, vec![6, 2, 7]);

    assert_eq!(order_names(&enc), ["Goblin 1", "Goblin 2", "Heretic", "Sergeant"]);
    let set: Vec<(String, i32, usize)> = events
        .iter()
        .filter_map(|event| match event {
            Event::InitiativeSet { name, score, dice, .. } => Some((name.clone(), *score, dice.len())),
            _ => None,
        })
        .collect();
    let expected = [("Goblin 1", 9, 1), ("Sergeant", 6, 1), ("Goblin 2", 9, 0), ("Heretic", 9, 1)];
    assert_eq!(set, expected.map(|(name, score, dice)| (name.to_owned(), score, dice)));
    let shared = enc.combatant(&id("Goblin 2")).and_then(|c| c.initiative.clone()).unwrap();
    assert_eq!(shared.explanation, "9: rolls with its group Goblins (Goblin 1)");
}

#[test]
fn a_tied_group_rolls_off_once_as_a_unit() {
    // spycraft2.txt "Step 3": 1d20 + Initiative bonus; ties by bonus, then a d20 roll-off
    // (docs/rulesets/spycraft2.md).
    let mut enc = encounter(RulesetId::Spycraft2);
    let stats = || spycraft(0);
    grouped(&mut enc, "Wolf 1", stats(), "Pack");
    grouped(&mut enc, "Wolf 2", stats(), "Pack");
    add(&mut enc, "Hero", stats());
    // Pack 12, Hero 12: one roll-off die each (Pack 3, Hero 15): Hero first, then the wolves.
    let events = roll_all(&mut enc, vec![12, 12, 3, 15]);
    assert_eq!(order_names(&enc), ["Hero", "Wolf 1", "Wolf 2"]);
    let roll_offs: Vec<usize> = events
        .iter()
        .filter_map(|event| match event {
            Event::InitiativeTieBroken { combatant_ids, dice } => Some(combatant_ids.len() + dice.len()),
            _ => None,
        })
        .collect();
    assert_eq!(roll_offs, [4], "one tie of two units (Wolf 1 for the pack, Hero), two dice");
}

#[test]
fn cepheus_group_members_act_together_in_one_slot() {
    // cepheus-engine.txt "The Combat Round": 2D6 + DEX DM; full ties act simultaneously.
    let mut enc = encounter(RulesetId::CepheusEngine);
    grouped(&mut enc, "Drone 1", cepheus(4), "Drones"); // DM −1
    grouped(&mut enc, "Drone 2", cepheus(12), "Drones"); // DM +2, rolls with Drone 1
    add(&mut enc, "Hicks", cepheus(7));
    // Drones 5 + 4 − 1 = 8; Hicks 3 + 3 + 0 = 6.
    roll_all(&mut enc, vec![5, 4, 3, 3]);
    let order: Vec<_> =
        turn_order(&enc).into_iter().map(|s| (s.name, s.score, s.slot, s.simultaneous)).collect();
    let expected = [("Drone 1", 8, 1, true), ("Drone 2", 8, 1, true), ("Hicks", 6, 2, false)];
    assert_eq!(order, expected.map(|(n, score, slot, same)| (n.to_owned(), score, slot, same)));
}

#[test]
fn reinforcements_join_their_group_in_its_place_and_a_leaver_keeps_its_score() {
    let mut enc = encounter(RulesetId::AdevaD100);
    grouped(&mut enc, "Goblin 1", adeva(30), "Goblins");
    add(&mut enc, "Sergeant", adeva(42));
    roll_all(&mut enc, vec![8, 2]); // Goblins 11, Sergeant 6
    grouped(&mut enc, "Goblin 2", adeva(30), "Goblins");
    let request = InitiativeRequest { combatants: Some(vec![id("Goblin 2")]), ..Default::default() };
    let events = roll_initiative(&mut enc, &request, &mut Dice::scripted(vec![], 0).unwrap()).unwrap();
    assert!(matches!(&events[0], Event::InitiativeSet { score: 11, dice, .. } if dice.is_empty()));
    assert_eq!(order_names(&enc), ["Goblin 1", "Goblin 2", "Sergeant"]);

    // Leaving the group keeps the score; it is then ordered alone (ties by Agility, join order).
    let patch = CombatantPatch { group: Some(None), ..Default::default() };
    update_combatant(&mut enc, &id("Goblin 1"), patch).unwrap();
    assert_eq!(enc.combatant(&id("Goblin 1")).and_then(|c| c.initiative.as_ref()).map(|i| i.score), Some(11));
}

#[test]
fn a_member_that_rolls_with_its_group_takes_no_value_of_its_own() {
    let mut enc = encounter(RulesetId::AdevaD100);
    grouped(&mut enc, "Goblin 1", adeva(30), "Goblins");
    grouped(&mut enc, "Goblin 2", adeva(30), "Goblins");
    let request = InitiativeRequest { fixed: vec![(id("Goblin 2"), 7)], ..Default::default() };
    let refused = roll_initiative(&mut enc, &request, &mut Dice::scripted(vec![5], 0).unwrap()).unwrap_err();
    assert!(
        matches!(&refused, EncounterError::Invalid { field, .. } if field == "fixed[0].combatant_id"),
        "{refused:?}"
    );
    // The group's value goes on its first member.
    let request = InitiativeRequest { fixed: vec![(id("Goblin 1"), 7)], ..Default::default() };
    roll_initiative(&mut enc, &request, &mut Dice::seeded(0)).unwrap();
    assert_eq!(enc.combatant(&id("Goblin 2")).and_then(|c| c.initiative.as_ref()).map(|i| i.score), Some(7));
}
