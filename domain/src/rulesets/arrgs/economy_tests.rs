use super::*;
use crate::rulesets::arrgs::test_support::{fighter, turn_of};
use serde_json::json;

fn field(error: RuleError) -> String {
    match error {
        RuleError::Invalid { field, .. } => field,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn three_action_points_pay_for_one_attack_and_a_second_is_refused() {
    // "Actions and Action Points": 3 AP a turn; the Attack manoeuvre costs 2, so a second one
    // (2 more) is refused with 1 left.
    let mut hero = fighter("Hero", json!({"agility": 10, "vitality": 20}));
    let scene = turn_of("Hero");
    let first = spend(&mut hero, &scene, Pace::Standard, 2, "pace").unwrap();
    assert_eq!(first.remaining, Points { action_points: 1, additional_action_points: 2 });
    assert_eq!(field(spend(&mut hero, &scene, Pace::Standard, 2, "pace").unwrap_err()), "pace");
    assert_eq!(hero.state.round.action_points_spent, 2, "nothing spent by the refusal");
}

#[test]
fn the_penalty_starts_after_the_third_point_and_grows_by_two() {
    // "A Turn": −2 cumulative for each point used above 3, on what follows. 2 AP (used 0), 1 AP
    // (used 2), 1 AAP swift (used 3: none yet), 1 AAP swift (used 4: −2).
    let mut hero = fighter("Hero", json!({"agility": 10, "vitality": 20, "additional_action_points": 3}));
    let scene = turn_of("Hero");
    assert_eq!(spend(&mut hero, &scene, Pace::Standard, 2, "pace").unwrap().penalty, None);
    assert_eq!(spend(&mut hero, &scene, Pace::Standard, 1, "pace").unwrap().penalty, None);
    assert_eq!(spend(&mut hero, &scene, Pace::Swift, 1, "pace").unwrap().penalty, None);
    let fifth = spend(&mut hero, &scene, Pace::Swift, 1, "pace").unwrap();
    assert_eq!(fifth.penalty.map(|m| m.value), Some(-2));
    assert_eq!(fifth.used_before, 4);
    // Used 5 now: the next check takes −4.
    assert_eq!(crate::rulesets::arrgs::check::multiple_actions(hero.state.round.points_used()).map(|m| m.value), Some(-4));
}

#[test]
fn swift_on_ones_turn_immediate_on_anothers() {
    let mut hero = fighter("Hero", json!({"agility": 10, "vitality": 20}));
    assert_eq!(field(spend(&mut hero, &turn_of("Hero"), Pace::Immediate, 1, "pace").unwrap_err()), "pace");
    assert_eq!(field(spend(&mut hero, &turn_of("Villain"), Pace::Swift, 1, "pace").unwrap_err()), "pace");
    assert_eq!(field(spend(&mut hero, &turn_of("Villain"), Pace::Standard, 1, "pace").unwrap_err()), "pace");
    let immediate = spend(&mut hero, &turn_of("Villain"), Pace::Immediate, 2, "pace").unwrap();
    assert_eq!(immediate.remaining.additional_action_points, 0);
    // An Immediate action without AAP left is refused.
    assert_eq!(field(spend(&mut hero, &turn_of("Villain"), Pace::Immediate, 1, "pace").unwrap_err()), "pace");
}

#[test]
fn the_surprise_round_takes_a_point_of_each_and_the_surprised_do_nothing() {
    // "Surprise Round": AP − 1 and AAP − 1 for the unsurprised; the Surprised may not act.
    let hero = fighter("Hero", json!({"agility": 10, "vitality": 20}));
    let scene = Scene { surprise_round: true, round: 1, ..turn_of("Hero") };
    assert_eq!(allotment(&hero, &scene), Points { action_points: 2, additional_action_points: 1 });
    let mut victim = fighter("Victim", json!({"agility": 10, "vitality": 20}));
    victim.surprised = true;
    let scene = Scene { surprise_round: true, round: 1, ..turn_of("Victim") };
    assert_eq!(field(spend(&mut victim, &scene, Pace::Standard, 1, "pace").unwrap_err()), "victim_id");
}

#[test]
fn staggered_takes_additional_points_first_then_action_points() {
    // "Staggered [n]": AAP first, then AP. 3 AP / 2 AAP, Staggered [3] → 2 AP / 0 AAP.
    let mut hero = fighter("Hero", json!({"agility": 10, "vitality": 20}));
    hero.state.staggered = 3;
    assert_eq!(allotment(&hero, &turn_of("Hero")), Points { action_points: 2, additional_action_points: 0 });
    // Staggered [5] → 0 AP: nothing on its own turn.
    hero.state.staggered = 5;
    assert_eq!(allotment(&hero, &turn_of("Hero")), Points { action_points: 0, additional_action_points: 0 });
    assert_eq!(field(spend(&mut hero, &turn_of("Hero"), Pace::Standard, 1, "pace").unwrap_err()), "hero_id");
}

#[test]
fn ready_swaps_action_points_for_additional_points_until_end_of_round() {
    // "Ready Manoeuvre": 2 AP become AAP: 1 AP and 4 AAP left.
    let mut hero = fighter("Hero", json!({"agility": 10, "vitality": 20}));
    let left = ready(&mut hero, &turn_of("Hero"), 2, "the ogre charges".into(), "manoeuvre.points").unwrap();
    assert_eq!(left, Points { action_points: 1, additional_action_points: 4 });
    assert_eq!(field(ready(&mut hero, &turn_of("Hero"), 2, "x".into(), "manoeuvre.points").unwrap_err()), "manoeuvre.points");
    // Swapping is not using: no points used yet.
    assert_eq!(hero.state.round.points_used(), 0);
}

#[test]
fn disabled_uses_two_points_a_round_and_dying_one() {
    // "Disabled": 2 points a round; "Dying [n]": 1.
    let mut hero = fighter("Hero", json!({"agility": 10, "vitality": 20, "current_vitality": 0}));
    assert!(hero.is_disabled());
    spend(&mut hero, &turn_of("Hero"), Pace::Standard, 2, "pace").unwrap();
    assert_eq!(field(spend(&mut hero, &turn_of("Hero"), Pace::Standard, 1, "pace").unwrap_err()), "pace");
    let mut dying = fighter("Dying", json!({"agility": 10, "vitality": 20, "current_vitality": -2}));
    dying.state.dying = 1;
    assert_eq!(field(spend(&mut dying, &turn_of("Dying"), Pace::Standard, 2, "pace").unwrap_err()), "pace");
    spend(&mut dying, &turn_of("Dying"), Pace::Standard, 1, "pace").unwrap();
}

#[test]
fn the_dead_and_the_unconscious_do_not_act() {
    use crate::rulesets::{Receipt, Ruleset, arrgs::Arrgs};
    let mut dead = fighter("Dead", json!({"agility": 10, "vitality": 5}));
    dead.state.vitality_lost = 10;
    assert!(dead.is_dead());
    // The dead are refused by the ruleset's one rule, before any operation spends a point.
    assert!(Arrgs::may_receive(&dead.stats, &dead.state, Receipt::Action).is_err());
    let mut out = fighter("Out", json!({"agility": 10, "vitality": 5}));
    out.state.unconscious = true;
    assert_eq!(field(spend(&mut out, &turn_of("Out"), Pace::Standard, 1, "pace").unwrap_err()), "out_id");
}
