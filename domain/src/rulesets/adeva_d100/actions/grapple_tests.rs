use super::*;

fn act(role: GrappleRole, grapple_move: GrappleMove) -> Result<ActionSpec, RuleError> {
    grapple_action(&GrappleAction { role, grapple_move })
}

fn controller(then: GrappleFollowUp) -> Result<ActionSpec, RuleError> {
    act(GrappleRole::Controller, GrappleMove::Grapple { then })
}

fn field_of(error: RuleError) -> String {
    match error {
        RuleError::Invalid { field, .. } => field,
        other => panic!("expected an invalid field, got {other:?}"),
    }
}

#[test]
fn starting_a_grapple_is_a_full_ws_attack_that_cannot_be_parried() {
    let spec = grapple_initiate(&GrappleInitiate { hand_free: true }).unwrap();
    assert_eq!(
        (spec.action_type, spec.subtypes.clone()),
        (ActionType::Full, vec![ActionSubtype::Attack, ActionSubtype::Melee])
    );
    let test = &spec.tests[0];
    assert_eq!((test.characteristic, test.modifier_sum()), (CharacteristicName::Ws, 0));
    assert_eq!(test.evasions, vec![Evasion::Deflect, Evasion::Dodge, Evasion::PointDefence]);
    assert_eq!(spec.lingering, vec![LingeringEffect::ControlsGrapple]);
    let err = grapple_initiate(&GrappleInitiate { hand_free: false }).unwrap_err();
    assert_eq!(err, RuleError::invalid("hand_free", "a Grapple needs at least one hand free"));
}

#[test]
fn the_controllers_grapple_action_leads_to_damage_on_opposed_strength() {
    let spec = controller(GrappleFollowUp::Damage {}).unwrap();
    assert_eq!((spec.action, spec.action_type), (ActionKind::GrappleMaintain, ActionType::Full));
    let test = &spec.tests[0];
    assert_eq!(test.characteristic, CharacteristicName::S);
    assert_eq!(test.opposed_by.map(|o| o.characteristic), Some(CharacteristicName::S));
    assert!(spec.notes.iter().any(|note| note.contains("level of Fatigue")));
    assert!(spec.notes.iter().any(|note| note == ALLIES_MAY_ASSIST));
    assert!(spec.lingering.contains(&LingeringEffect::ControlsGrapple));
}

#[test]
fn a_push_moves_one_square_plus_one_per_degree_within_the_half_move() {
    // 2 DoS → 1 + 2 = 3 squares; 5 DoS → 6, held to a Half Move of 4.
    assert_eq!(push_distance(2, 4), 3);
    assert_eq!(push_distance(5, 4), 4);
    let stays = controller(GrappleFollowUp::Push { half_move_squares: Some(4), move_with_target: true }).unwrap();
    assert!(stays.lingering.contains(&LingeringEffect::ControlsGrapple));
    let lets_go =
        controller(GrappleFollowUp::Push { half_move_squares: Some(4), move_with_target: false }).unwrap();
    assert!(!lets_go.lingering.contains(&LingeringEffect::ControlsGrapple));
    let nowhere =
        controller(GrappleFollowUp::Push { half_move_squares: Some(0), move_with_target: true }).unwrap_err();
    assert_eq!(field_of(nowhere), "move.then.half_move_squares");
}

#[test]
fn standing_needs_both_on_the_ground_and_a_test_only_to_drag() {
    let alone = controller(GrappleFollowUp::Stand { both_on_ground: Some(true), drag_opponent: false }).unwrap();
    assert!(alone.tests.is_empty());
    let drag = controller(GrappleFollowUp::Stand { both_on_ground: Some(true), drag_opponent: true }).unwrap();
    assert_eq!(drag.tests.len(), 1);
    let standing =
        controller(GrappleFollowUp::Stand { both_on_ground: Some(false), drag_opponent: false }).unwrap_err();
    assert_eq!(field_of(standing), "move.then.both_on_ground");
}

#[test]
fn knock_down_and_take_down_may_follow_the_grapple_action() {
    let knock = controller(GrappleFollowUp::KnockDown {}).unwrap();
    assert_eq!(knock.tests[0].label, "knock down");
    let take = controller(GrappleFollowUp::TakeDown { has_talent: true }).unwrap();
    assert_eq!((take.tests[0].characteristic, take.tests[0].hits), (CharacteristicName::Ws, HitRule::Single));
    let untrained = controller(GrappleFollowUp::TakeDown { has_talent: false }).unwrap_err();
    assert_eq!(field_of(untrained), "move.then.has_talent");
}

#[test]
fn the_grapple_standard_attack_uses_ws_or_bs_with_a_pistol() {
    let punch = controller(GrappleFollowUp::StandardAttack { weapon: GrappleWeapon::Unarmed, strike: Default::default() }).unwrap();
    assert_eq!((punch.tests[0].characteristic, punch.tests[0].modifier_sum()), (CharacteristicName::Ws, 10));
    let pistol =
        act(GrappleRole::Restrained, GrappleMove::StandardAttack { weapon: GrappleWeapon::Pistol, strike: Default::default() }).unwrap();
    assert_eq!(
        (pistol.action_type, pistol.tests[0].characteristic),
        (ActionType::Full, CharacteristicName::Bs)
    );
    assert_eq!(pistol.subtypes, vec![ActionSubtype::Attack, ActionSubtype::Ranged]);
}

#[test]
fn powers_must_be_a_full_action_or_less_and_must_not_move_the_user() {
    let power = |action_type, moves_user| PowerUse { name: "Pyre".into(), action_type, moves_user };
    let ok =
        act(GrappleRole::Restrained, GrappleMove::ActivatePower { power: power(ActionType::Half, false) })
            .unwrap();
    assert_eq!(ok.action_type, ActionType::Full);
    let long =
        controller(GrappleFollowUp::ActivatePower { power: power(ActionType::Extended, false) }).unwrap_err();
    assert_eq!(field_of(long), "move.then.power.action_type");
    let moving =
        act(GrappleRole::Restrained, GrappleMove::ActivatePower { power: power(ActionType::Full, true) })
            .unwrap_err();
    assert_eq!(field_of(moving), "move.power.moves_user");
}

#[test]
fn the_restrained_break_free_or_take_control_as_half_actions() {
    let strength =
        act(GrappleRole::Restrained, GrappleMove::BreakFree { with: BreakFreeWith::Strength }).unwrap();
    assert_eq!(
        (strength.action_type, strength.tests[0].characteristic),
        (ActionType::Half, CharacteristicName::S)
    );
    let acrobatics =
        act(GrappleRole::Restrained, GrappleMove::BreakFree { with: BreakFreeWith::Acrobatics }).unwrap();
    let test = &acrobatics.tests[0];
    assert_eq!((test.characteristic, test.skill.as_deref()), (CharacteristicName::Ag, Some("acrobatics")));
    assert_eq!(test.opposed_by.map(|o| o.characteristic), Some(CharacteristicName::S));
    let take =
        act(GrappleRole::Restrained, GrappleMove::TakeControl { then: GrappleFollowUp::Damage {} }).unwrap();
    assert_eq!((take.action_type, take.tests.len()), (ActionType::Half, 2));
    assert!(take.lingering.contains(&LingeringEffect::ControlsGrapple));
}

#[test]
fn take_control_refuses_an_either_action() {
    let then = GrappleFollowUp::StandardAttack { weapon: GrappleWeapon::Natural, strike: Default::default() };
    let err = act(GrappleRole::Restrained, GrappleMove::TakeControl { then }).unwrap_err();
    assert_eq!(field_of(err), "move.then.kind");
}

#[test]
fn each_role_keeps_to_its_own_actions() {
    let err =
        act(GrappleRole::Restrained, GrappleMove::Grapple { then: GrappleFollowUp::Damage {} }).unwrap_err();
    assert_eq!(err, RuleError::invalid("role", "only the controller may take the 'Grapple' action"));
    let err =
        act(GrappleRole::Controller, GrappleMove::BreakFree { with: BreakFreeWith::Strength }).unwrap_err();
    assert_eq!(err, RuleError::invalid("role", "only the restrained participant may break free"));
    let err = act(GrappleRole::Restrained, GrappleMove::Release {}).unwrap_err();
    assert_eq!(field_of(err), "role");
    let err = act(GrappleRole::Controller, GrappleMove::StandardAttack { weapon: GrappleWeapon::Unarmed, strike: Default::default() })
        .unwrap_err();
    assert_eq!(field_of(err), "role");
    let release = act(GrappleRole::Controller, GrappleMove::Release {}).unwrap();
    assert_eq!((release.action_type, release.subtypes.len()), (ActionType::Free, 0));
}
