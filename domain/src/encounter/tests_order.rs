//! Turn order and tie-breaks, per ruleset.

use super::test_support::*;
use super::*;
use crate::dice::Dice;
use crate::rulesets::RulesetId;

#[test]
fn cepheus_orders_by_score_then_dex_and_leaves_full_ties_simultaneous() {
    // cepheus-engine.txt "The Combat Round": ties → higher DEX; still tied → act simultaneously.
    let mut enc = encounter(RulesetId::CepheusEngine);
    add(&mut enc, "Ana", cepheus(7)); // DM 0
    add(&mut enc, "Bo", cepheus(10)); // DM +1
    add(&mut enc, "Cy", cepheus(7)); // DM 0
    add(&mut enc, "Di", cepheus(4)); // DM −1
    // Ana 3+5+0 = 8; Bo 4+3+1 = 8; Cy 6+2+0 = 8; Di 6+6−1 = 11.
    roll_all(&mut enc, vec![3, 5, 4, 3, 6, 2, 6, 6]);
    let order = turn_order(&enc);
    let summary: Vec<_> = order.iter().map(|s| (s.name.as_str(), s.score, s.slot, s.simultaneous)).collect();
    assert_eq!(
        summary,
        [("Di", 11, 1, false), ("Bo", 8, 2, false), ("Ana", 8, 3, true), ("Cy", 8, 3, true)],
        "Bo beats Ana and Cy on DEX; Ana and Cy share slot 3"
    );
}

#[test]
fn adeva_breaks_ties_by_agility_then_a_d10_roll_off_rerolling_ties() {
    // adeva-d100.txt Step Three: 1d10 + AB; ties → higher Agility; then 1d10 each.
    let mut enc = encounter(RulesetId::AdevaD100);
    add(&mut enc, "Ash", adeva(35)); // AB 3
    add(&mut enc, "Bex", adeva(35)); // AB 3
    add(&mut enc, "Cal", adeva(41)); // AB 4
    // Ash 5+3 = 8, Bex 5+3 = 8, Cal 4+4 = 8. Cal first on Agility 41.
    // Ash and Bex roll off: 6 and 6 (tie, re-roll), then 2 and 9 → Bex ahead.
    let events = roll_all(&mut enc, vec![5, 5, 4, 6, 6, 2, 9]);
    assert_eq!(order_names(&enc), ["Cal", "Bex", "Ash"]);
    let roll_off = events.iter().find_map(|e| match e {
        Event::InitiativeTieBroken { dice, .. } => Some(dice.iter().map(|d| d.value).collect::<Vec<_>>()),
        _ => None,
    });
    assert_eq!(roll_off, Some(vec![6, 6, 2, 9]));
    assert_eq!(enc.combatant(&id("Bex")).unwrap().initiative.as_ref().unwrap().roll_off, [6, 9]);
}

#[test]
fn spycraft_breaks_ties_by_bonus_then_d20() {
    // spycraft2.txt Step 5 (Combat Round): equal counts → higher Initiative bonus; then 1d20 re-rolling ties.
    let mut enc = encounter(RulesetId::Spycraft2);
    add(&mut enc, "Agent", spycraft(2));
    add(&mut enc, "Thug", spycraft(4));
    add(&mut enc, "Guard", spycraft(2));
    // Agent 12+2 = 14, Thug 10+4 = 14, Guard 12+2 = 14; Thug first on bonus.
    // Agent vs Guard roll off 3 vs 17 → Guard ahead.
    roll_all(&mut enc, vec![12, 10, 12, 3, 17]);
    assert_eq!(order_names(&enc), ["Thug", "Guard", "Agent"]);
}

#[test]
fn resolved_roll_offs_are_kept_when_someone_else_rerolls() {
    let mut enc = encounter(RulesetId::Spycraft2);
    add(&mut enc, "A", spycraft(0));
    add(&mut enc, "B", spycraft(0));
    add(&mut enc, "C", spycraft(0));
    roll_all(&mut enc, vec![10, 10, 5, 8, 3]); // A, B tie on 10; roll-off A 8, B 3.
    let request = InitiativeRequest { combatants: Some(vec![id("C")]), fixed: vec![], action_dice: vec![] };
    let mut dice = Dice::scripted(vec![1], 0).unwrap();
    let events = roll_initiative(&mut enc, &request, &mut dice).unwrap();
    assert_eq!(events.len(), 1, "C rolls 1 → 1; no tie, so A and B keep their roll-off");
    assert_eq!(order_names(&enc), ["A", "B", "C"]);
}

#[test]
fn lur_asko_takes_caller_values_and_keeps_join_order_on_ties() {
    let mut enc = encounter(RulesetId::LurAsko);
    add(&mut enc, "First", lur_asko());
    add(&mut enc, "Second", lur_asko());
    add(&mut enc, "Third", lur_asko());
    fix(&mut enc, &[("Third", 9), ("Second", 12), ("First", 12)]);
    assert_eq!(order_names(&enc), ["First", "Second", "Third"]);

    let error = roll_initiative(&mut enc, &InitiativeRequest::default(), &mut Dice::seeded(1)).unwrap_err();
    assert!(matches!(error, EncounterError::Invalid { ref field, .. } if field == "fixed"), "{error}");
}

#[test]
fn cepheus_ambush_gives_the_aware_an_automatic_12() {
    // cepheus-engine.txt "Initiative": some but not all aware → aware take 12 + DEX DM.
    let mut enc = encounter(RulesetId::CepheusEngine);
    add(&mut enc, "Sniper", cepheus(9)); // DM +1 → 13
    add(&mut enc, "Guard", cepheus(7)); // surprised: rolls 2D6 (6+6) + 0 = 12
    update_combatant(&mut enc, &id("Guard"), CombatantPatch { surprised: Some(true), ..Default::default() })
        .unwrap();
    roll_all(&mut enc, vec![6, 6]);
    let scores: Vec<_> = turn_order(&enc).iter().map(|s| (s.name.clone(), s.score)).collect();
    assert_eq!(scores, [("Sniper".to_string(), 13), ("Guard".to_string(), 12)]);
}

#[test]
fn unknown_combatants_and_bad_fixed_values_name_the_field() {
    let mut enc = encounter(RulesetId::LurAsko);
    add(&mut enc, "A", lur_asko());
    let cases = [
        (
            InitiativeRequest { combatants: Some(vec![id("nobody")]), fixed: vec![], ..Default::default() },
            "combatant_ids[0]",
        ),
        (
            InitiativeRequest {
                combatants: None,
                fixed: vec![(id("A"), 1), (id("ghost"), 2)],
                ..Default::default()
            },
            "fixed[1].combatant_id",
        ),
        (
            InitiativeRequest { combatants: None, fixed: vec![(id("A"), 10_001)], ..Default::default() },
            "fixed[0].value",
        ),
        (
            InitiativeRequest {
                combatants: None,
                fixed: vec![(id("A"), 1), (id("A"), 2)],
                ..Default::default()
            },
            "fixed[1].combatant_id",
        ),
    ];
    for (request, expected) in cases {
        let before = enc.clone();
        let error = roll_initiative(&mut enc, &request, &mut Dice::seeded(0)).unwrap_err();
        assert!(
            matches!(&error, EncounterError::Invalid { field, .. } if field == expected),
            "{expected}: {error}"
        );
        assert_eq!(enc, before, "{expected}: nothing changes on error");
    }
}
