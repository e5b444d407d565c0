use super::*;
use crate::rulesets::adeva_d100::actions::aim::{Aim, aim};
use crate::rulesets::adeva_d100::actions::attack_actions::{
    AttackOfOpportunity, CounterAttack, SingleAttack, attack_of_opportunity, counter_attack, heavy_attack,
    standard_attack,
};
use crate::rulesets::adeva_d100::actions::manoeuvres::{Disarm, disarm, feint, guard_mode};
use crate::rulesets::adeva_d100::actions::{Weapon, WeaponClass};

fn sword() -> Weapon {
    Weapon::new("sword", WeaponClass::Melee, 2)
}

fn standard() -> ActionSpec {
    standard_attack(&SingleAttack { weapon: sword() }).unwrap()
}

fn other(name: &str, action_type: ActionType, subtypes: Vec<ActionSubtype>) -> ActionSpec {
    ActionSpec::new(ActionKind::Other(name.into()), action_type, subtypes)
}

fn half_move() -> ActionSpec {
    other("half move", ActionType::Half, vec![ActionSubtype::Movement])
}

fn dodge() -> ActionSpec {
    other("dodge", ActionType::Reaction, vec![])
}

fn aim_half() -> ActionSpec {
    aim(&Aim { action_type: ActionType::Half }).unwrap()
}

fn message(error: RuleError) -> String {
    match error {
        RuleError::Invalid { field, message } => {
            assert_eq!(field, "action");
            message
        }
        other => panic!("expected an invalid action, got {other:?}"),
    }
}

fn on_turn() -> TurnBudget {
    let mut budget = TurnBudget::new(false);
    budget.start_turn();
    budget
}

#[test]
fn a_turn_holds_two_half_actions_or_one_full_action() {
    let mut budget = on_turn();
    budget.spend(&half_move()).unwrap();
    budget.spend(&half_move()).unwrap();
    assert_eq!(
        message(budget.spend(&half_move()).unwrap_err()),
        "refused half move: a third half action in one turn"
    );

    let mut budget = on_turn();
    budget.spend(&half_move()).unwrap();
    let err = budget.spend(&heavy_attack(&SingleAttack { weapon: sword() }).unwrap()).unwrap_err();
    assert_eq!(message(err), "refused heavy attack: a full action after a half action");

    let mut budget = on_turn();
    budget.spend(&guard_mode()).unwrap();
    assert_eq!(
        message(budget.spend(&half_move()).unwrap_err()),
        "refused half move: a half action after a full action"
    );
    assert_eq!(
        message(budget.spend(&guard_mode()).unwrap_err()),
        "refused guard mode: a second full action in one turn"
    );
}

#[test]
fn one_attack_action_per_turn() {
    let mut budget = on_turn();
    budget.spend(&standard()).unwrap();
    assert_eq!(
        message(budget.spend(&standard()).unwrap_err()),
        "refused standard attack: a second attack action in one turn"
    );
    // A failed spend changes nothing: the second half action is still free for a move.
    budget.spend(&half_move()).unwrap();
}

#[test]
fn one_concentration_action_per_turn() {
    let mut budget = on_turn();
    budget.spend(&aim_half()).unwrap();
    assert_eq!(
        message(budget.spend(&aim_half()).unwrap_err()),
        "refused aim: a second concentration action in one turn"
    );
}

#[test]
fn free_actions_are_unlimited_and_feint_plus_attack_fits_a_turn() {
    let mut budget = on_turn();
    for _ in 0..5 {
        budget.spend(&other("talk", ActionType::Free, vec![])).unwrap();
    }
    budget.spend(&feint()).unwrap();
    budget.spend(&standard()).unwrap();
    assert_eq!((budget.half_actions, budget.attack_actions), (2, 1));
}

#[test]
fn one_reaction_and_only_on_other_turns() {
    let mut budget = on_turn();
    assert_eq!(
        message(budget.spend(&dodge()).unwrap_err()),
        "refused dodge: a reaction on the character's own turn (reactions are for other characters' turns)"
    );
    budget.end_turn();
    budget.spend(&dodge()).unwrap();
    assert_eq!(
        message(budget.spend(&dodge()).unwrap_err()),
        "refused dodge: a second reaction before the character's next turn"
    );
    // The reaction comes back at the start of the next turn.
    budget.start_turn();
    budget.end_turn();
    budget.spend(&dodge()).unwrap();
}

#[test]
fn turn_actions_are_refused_outside_the_turn_but_free_actions_are_not() {
    let mut budget = TurnBudget::new(false);
    assert_eq!(
        message(budget.spend(&standard()).unwrap_err()),
        "refused standard attack: a half action outside the character's own turn"
    );
    let opportunity = AttackOfOpportunity {
        weapon: sword(),
        enemy_engaged: true,
        enemy_moves_away: true,
        enemy_disengages: false,
    };
    budget.spend(&attack_of_opportunity(&opportunity).unwrap()).unwrap();
    // Off-turn free actions stand outside the turn's limits.
    budget.start_turn();
    budget.spend(&standard()).unwrap();
}

#[test]
fn a_surprised_character_loses_its_first_turn_and_takes_no_reactions() {
    let mut budget = TurnBudget::new(true);
    assert_eq!(
        message(budget.spend(&dodge()).unwrap_err()),
        "refused dodge: a reaction by a surprised character"
    );
    budget.start_turn();
    assert_eq!(
        message(budget.spend(&half_move()).unwrap_err()),
        "refused half move: an action in the turn a surprised character loses"
    );
    let talk = other("talk", ActionType::Free, vec![]);
    assert!(budget.spend(&talk).is_err());
    budget.end_turn();
    // Surprise is over: reactions and the next turn work as usual.
    budget.spend(&dodge()).unwrap();
    budget.start_turn();
    budget.spend(&standard()).unwrap();
}

#[test]
fn one_counter_attack_until_the_next_turn() {
    let counter =
        counter_attack(&CounterAttack { weapon: sword(), has_talent: true, parried_melee_attack: true })
            .unwrap();
    let mut budget = TurnBudget::new(false);
    budget.spend(&other("parry", ActionType::Reaction, vec![])).unwrap();
    budget.spend(&counter).unwrap();
    assert_eq!(
        message(budget.spend(&counter).unwrap_err()),
        "refused counter-attack: a second counter-attack before the start of the character's next turn"
    );
    budget.start_turn();
    budget.end_turn();
    budget.spend(&counter).unwrap();
}

#[test]
fn an_extended_action_fills_the_turn() {
    let mut work = ExtendedAction::new("repair the lift", Some(2), true).unwrap();
    let mut budget = on_turn();
    budget.spend(&work.spec()).unwrap();
    assert_eq!(
        message(budget.spend(&other("talk", ActionType::Free, vec![])).unwrap_err()),
        "refused talk: another action in a turn given to an extended action"
    );
    let mut busy = on_turn();
    busy.spend(&half_move()).unwrap();
    assert_eq!(
        message(busy.spend(&work.spec()).unwrap_err()),
        "refused repair the lift: an extended action after other actions this turn"
    );
    assert!(!work.work_turn());
    assert!(work.work_turn());
}

#[test]
fn an_interrupted_extended_action_may_have_to_restart() {
    let mut fragile = ExtendedAction::new("ritual", Some(3), true).unwrap();
    fragile.work_turn();
    fragile.work_turn();
    assert_eq!(fragile.interrupt(), Interruption::MustRestart);
    assert_eq!(fragile.turns_done, 0);
    let mut sturdy = ExtendedAction::new("dig", None, false).unwrap();
    sturdy.work_turn();
    assert_eq!(sturdy.interrupt(), Interruption::ProgressKept);
    assert_eq!((sturdy.turns_done, sturdy.is_complete()), (1, false));
    assert!(
        matches!(ExtendedAction::new(" ", None, true), Err(RuleError::Invalid { field, .. }) if field == "name")
    );
    assert!(
        matches!(ExtendedAction::new("x", Some(0), true), Err(RuleError::Invalid { field, .. }) if field == "turns_needed")
    );
}

#[test]
fn aim_waits_for_the_next_attack_and_is_lost_otherwise() {
    // Half aim then an attack: +10 pending, then used.
    let mut budget = on_turn();
    budget.spend(&aim_half()).unwrap();
    assert_eq!(budget.pending_aim().map(|m| m.value), Some(10));
    budget.spend(&other("talk", ActionType::Free, vec![])).unwrap();
    assert_eq!(budget.pending_aim().map(|m| m.value), Some(10));
    budget.spend(&standard()).unwrap();
    assert_eq!(budget.pending_aim(), None);

    // Full aim carried into the next turn, but a dodge in between loses it.
    let mut budget = on_turn();
    budget.spend(&aim(&Aim { action_type: ActionType::Full }).unwrap()).unwrap();
    budget.end_turn();
    assert_eq!(budget.pending_aim().map(|m| m.value), Some(20));
    budget.spend(&dodge()).unwrap();
    assert_eq!(budget.pending_aim(), None);

    // Aim then a move: lost.
    let mut budget = on_turn();
    budget.spend(&aim_half()).unwrap();
    budget.spend(&half_move()).unwrap();
    assert_eq!(budget.pending_aim(), None);
}

#[test]
fn disarm_is_a_full_action_without_the_attack_subtype() {
    // Disarm has no Attack subtype, but as a full action it still fills the turn.
    let mut budget = on_turn();
    budget.spend(&disarm(&Disarm { has_talent: true, advanced_disarm: false }).unwrap()).unwrap();
    assert_eq!(budget.attack_actions, 0);
    assert!(budget.spend(&standard()).is_err());
}
