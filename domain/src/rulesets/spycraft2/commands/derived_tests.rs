//! Caller flags checked against what the encounter records (issue 28): `off_count` on the
//! character's own Count, and `activate_threat` against its recorded Action Dice.

use super::actions::{ActionRequest, act};
use super::attacks::{AttackRequest, attack};
use crate::dice::Dice;
use crate::encounter::test_support::{add, encounter, fix, id};
use crate::encounter::{Advance, Encounter, EncounterError, advance};
use crate::rulesets::spycraft2::Stats;
use crate::rulesets::spycraft2::attack::AttackOutcome;
use crate::rulesets::spycraft2::state::state_of;
use crate::rulesets::{RulesetId, StatBlock};
use serde_json::{Value, json};

/// Ana (+5 attack, 1 Action Die) on her Count (18) and flat-footed Cy (Defense 14, vulnerable 2).
fn fight() -> Encounter {
    let mut enc = encounter(RulesetId::Spycraft2);
    let ana: Stats = serde_json::from_value(json!({"initiative_bonus": 4, "attack_bonus": 5, "action_dice": 1})).expect("Ana");
    let cy: Stats = serde_json::from_value(json!({"initiative_bonus": 1, "defense": 14, "vulnerable_defense": 2,
        "wounds": 20})).expect("Cy");
    add(&mut enc, "Ana", StatBlock::Spycraft2(ana));
    add(&mut enc, "Cy", StatBlock::Spycraft2(cy));
    fix(&mut enc, &[("Ana", 18), ("Cy", 14)]);
    advance(&mut enc, Advance::NextTurn).expect("start");
    enc
}

fn field(result: Result<impl std::fmt::Debug, EncounterError>) -> String {
    match result {
        Err(EncounterError::Invalid { field, .. }) => field,
        other => panic!("not refused: {other:?}"),
    }
}

fn shot(extra: Value) -> AttackRequest {
    let mut body = json!({"attacker_id": "Ana", "target_id": "Cy",
        "weapon": {"name": "Pistol", "damage": {"count": 2, "sides": 6}, "threat_range": 19}});
    if let (Some(body), Value::Object(extra)) = (body.as_object_mut(), extra) {
        body.extend(extra);
    }
    serde_json::from_value(body).expect("request")
}

#[test]
fn off_count_on_the_characters_own_count_is_refused_naming_it() {
    // Step 5, first Special Note: off_count is for an action at a time other than the
    // character's Initiative Count; on Ana's own Count it contradicts the encounter.
    let mut enc = fight();
    let before = enc.clone();
    let dice = &mut Dice::scripted(vec![10], 0).expect("dice");
    assert_eq!(field(attack(&mut enc, shot(json!({"off_count": true})), dice)), "off_count");
    let aim: ActionRequest =
        serde_json::from_value(json!({"combatant_id": "Ana", "action": {"action": "aim"}, "off_count": true})).expect("aim");
    assert_eq!(field(act(&mut enc, aim, dice)), "off_count");
    assert_eq!(enc, before);
}

#[test]
fn an_activated_threat_spends_a_recorded_action_die_and_none_left_is_refused() {
    // 19 + 5 = 24 against Defense 14 − 2 (flat-footed) = 12: a hit on a threat (19-20); the
    // activated threat is a critical hit and spends Ana's one Action Die (2d6: 3 + 4 = 7).
    let mut enc = fight();
    let (_, report) = attack(&mut enc, shot(json!({"activate_threat": true})), &mut Dice::scripted(vec![19, 3, 4], 0).expect("dice"))
        .expect("attack");
    assert!(matches!(report.outcome, AttackOutcome::CriticalHit { .. }), "{:?}", report.outcome);
    assert_eq!(state_of(&enc, &id("Ana")).map(|s| s.action_dice_spent), Some(1));
    // Her second half action: no Action Die left to activate another threat.
    let before = enc.clone();
    let refused = attack(&mut enc, shot(json!({"activate_threat": true})), &mut Dice::scripted(vec![19], 0).expect("dice"));
    assert_eq!(field(refused), "activate_threat");
    assert_eq!(enc, before);
}
