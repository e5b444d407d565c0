use super::*;
use crate::rulesets::adeva_d100::actions::test_support::stats;
use crate::rulesets::adeva_d100::actions::{CharacteristicName, HitRule, WeaponClass};

fn lasgun(hit_rating: u32) -> Weapon {
    Weapon::new("Lasgun", WeaponClass::Ranged, hit_rating)
}

fn declaration(attack: OverwatchAttack, triggers: Vec<OverwatchTrigger>) -> Overwatch {
    Overwatch { weapon: lasgun(3), kill_zone_radius_squares: 12, attack, triggers }
}

fn observed(actor: &str, target: Option<&str>, reactions: u32) -> ObservedAction {
    ObservedAction {
        actor: actor.into(),
        actor_is_enemy: true,
        in_kill_zone: true,
        attack_target: target.map(str::to_string),
        actor_reactions_left: reactions,
    }
}

fn c(value: i64) -> Characteristic {
    Characteristic::new(value).unwrap()
}

#[test]
fn overwatch_is_a_full_attack_concentration_action_readying_a_standard_attack() {
    let triggers = vec![OverwatchTrigger::AnyEnemyActs {}];
    let spec = overwatch(&declaration(OverwatchAttack::Standard {}, triggers.clone())).unwrap();
    assert_eq!(spec.action_type, ActionType::Full);
    assert_eq!(
        spec.subtypes,
        vec![ActionSubtype::Attack, ActionSubtype::Concentration, ActionSubtype::Ranged]
    );
    let test = &spec.tests[0];
    assert_eq!(
        (test.characteristic, test.modifier_sum(), test.hits),
        (CharacteristicName::Bs, 10, HitRule::Single)
    );
    assert_eq!(
        spec.lingering,
        vec![LingeringEffect::OverwatchSet { kill_zone_radius_squares: 12, triggers }]
    );
}

#[test]
fn an_overwatch_burst_takes_the_burst_penalty() {
    // +10 − 2 × 5 = 0; up to 2 hits; jams on 94.
    let spec = overwatch(&declaration(
        OverwatchAttack::Burst { declared_hits: 2 },
        vec![OverwatchTrigger::AnyEnemyActs {}],
    ))
    .unwrap();
    let test = &spec.tests[0];
    assert_eq!((test.modifier_sum(), test.hits, test.jams_on), (0, HitRule::PerDegree { max: 2 }, Some(94)));
    let mut single =
        declaration(OverwatchAttack::Burst { declared_hits: 2 }, vec![OverwatchTrigger::AnyEnemyActs {}]);
    single.weapon = lasgun(1);
    assert!(
        matches!(overwatch(&single), Err(RuleError::Invalid { field, .. }) if field == "weapon.hit_rating")
    );
    let too_many =
        declaration(OverwatchAttack::Burst { declared_hits: 4 }, vec![OverwatchTrigger::AnyEnemyActs {}]);
    assert!(
        matches!(overwatch(&too_many), Err(RuleError::Invalid { field, .. }) if field == "attack.declared_hits")
    );
}

#[test]
fn overwatch_needs_a_zone_a_condition_and_a_ranged_weapon() {
    let mut no_zone = declaration(OverwatchAttack::Standard {}, vec![OverwatchTrigger::AnyEnemyActs {}]);
    no_zone.kill_zone_radius_squares = 0;
    assert!(
        matches!(overwatch(&no_zone), Err(RuleError::Invalid { field, .. }) if field == "kill_zone_radius_squares")
    );
    let no_trigger = declaration(OverwatchAttack::Standard {}, vec![]);
    assert!(matches!(overwatch(&no_trigger), Err(RuleError::Invalid { field, .. }) if field == "triggers"));
    let blank =
        declaration(OverwatchAttack::Standard {}, vec![OverwatchTrigger::EnemyAttacks { enemy: " ".into() }]);
    assert!(matches!(overwatch(&blank), Err(RuleError::Invalid { field, .. }) if field == "triggers[0]"));
    let mut sword = declaration(OverwatchAttack::Standard {}, vec![OverwatchTrigger::AnyEnemyActs {}]);
    sword.weapon = Weapon::new("sword", WeaponClass::Melee, 1);
    assert!(matches!(overwatch(&sword), Err(RuleError::Invalid { field, .. }) if field == "weapon.class"));
}

#[test]
fn conditions_fire_only_for_enemies_in_the_kill_zone() {
    let any = [OverwatchTrigger::AnyEnemyActs {}];
    assert_eq!(check_triggers(&any, &observed("Ork", None, 1)), TriggerVerdict::Fires);
    let outside = ObservedAction { in_kill_zone: false, ..observed("Ork", None, 1) };
    assert_eq!(check_triggers(&any, &outside), TriggerVerdict::DoesNotFire);
    let friend = ObservedAction { actor_is_enemy: false, ..observed("Medic", None, 1) };
    assert_eq!(check_triggers(&any, &friend), TriggerVerdict::DoesNotFire);
}

#[test]
fn each_example_condition_is_checked() {
    let out_of_reactions = [OverwatchTrigger::EnemyOutOfReactions {}];
    assert_eq!(check_triggers(&out_of_reactions, &observed("Ork", None, 0)), TriggerVerdict::Fires);
    assert_eq!(check_triggers(&out_of_reactions, &observed("Ork", None, 1)), TriggerVerdict::DoesNotFire);
    let boss_attacks = [OverwatchTrigger::EnemyAttacks { enemy: "Warboss".into() }];
    assert_eq!(check_triggers(&boss_attacks, &observed("warboss", Some("Sarge"), 1)), TriggerVerdict::Fires);
    assert_eq!(check_triggers(&boss_attacks, &observed("Warboss", None, 1)), TriggerVerdict::DoesNotFire);
    assert_eq!(
        check_triggers(&boss_attacks, &observed("Grot", Some("Sarge"), 1)),
        TriggerVerdict::DoesNotFire
    );
    let medic = [OverwatchTrigger::EnemyAttacksAlly { ally: "Medic".into() }];
    assert_eq!(check_triggers(&medic, &observed("Grot", Some("Medic"), 1)), TriggerVerdict::Fires);
    assert_eq!(check_triggers(&medic, &observed("Grot", Some("Sarge"), 1)), TriggerVerdict::DoesNotFire);
}

#[test]
fn a_condition_in_words_is_left_to_the_gm_unless_another_fires() {
    let words = OverwatchTrigger::Other { description: "anyone opens the door".into() };
    assert_eq!(
        check_triggers(std::slice::from_ref(&words), &observed("Ork", None, 1)),
        TriggerVerdict::GmDecides
    );
    let both = [words, OverwatchTrigger::EnemyOutOfReactions {}];
    assert_eq!(check_triggers(&both, &observed("Ork", None, 0)), TriggerVerdict::Fires);
}

#[test]
fn simultaneous_actions_go_to_the_winner_of_opposed_agility() {
    // Overwatcher Ag 45 rolls 12 → 1 + 3 = 4 DoS; other Ag 40 rolls 30 → 1 + 1 = 2 DoS → Overwatch first.
    let mut dice = Dice::scripted(vec![12, 30], 0).unwrap();
    let first = who_goes_first(c(45), c(40), false, false, &mut dice).unwrap();
    assert!(first.overwatch_first);
    assert_eq!(first.contest.as_ref().map(|contest| contest.margin), Some(2));
    assert_eq!(dice.rolls()[0].purpose, "overwatch: overwatcher's Agility");
    // Overwatcher rolls 60 (fails), other rolls 05 → other first.
    let mut dice = Dice::scripted(vec![60, 5], 0).unwrap();
    assert!(!who_goes_first(c(45), c(40), false, false, &mut dice).unwrap().overwatch_first);
    // Both fail (80 > 45, 90 > 40): the Overwatch has not won, the other acts first.
    let mut dice = Dice::scripted(vec![80, 90], 0).unwrap();
    let none = who_goes_first(c(45), c(40), false, false, &mut dice).unwrap();
    assert!(!none.overwatch_first);
    assert!(none.reason.starts_with("nobody won"));
}

#[test]
fn an_ally_may_choose_to_fail_but_an_enemy_may_not() {
    let mut dice = Dice::scripted(vec![], 0).unwrap();
    let yielded = who_goes_first(c(30), c(60), true, true, &mut dice).unwrap();
    assert!(yielded.overwatch_first && yielded.contest.is_none());
    assert!(dice.rolls().is_empty());
    let err = who_goes_first(c(30), c(60), false, true, &mut dice).unwrap_err();
    assert!(matches!(err, RuleError::Invalid { field, .. } if field == "ally_yields"));
}

#[test]
fn targets_test_pinning_after_the_attack_and_are_held_where_they_triggered_it() {
    // Ork WP 25 rolls 40 → pinned at "crate"; Grot WP 30 rolls 30 → passes.
    let target = |name: &str, wp, location: &str| PinningSubject {
        name: name.into(),
        stats: stats(&[("wp", wp)]),
        characteristic: None,
        location: Some(location.into()),
    };
    let targets = [target("Ork", 25, "crate"), target("Grot", 30, "ditch")];
    let mut dice = Dice::scripted(vec![40, 30], 0).unwrap();
    let outcomes = pinning_after_overwatch(&targets, &mut dice).unwrap();
    assert_eq!((outcomes[0].pinned, outcomes[0].held_at.as_deref()), (true, Some("crate")));
    assert_eq!((outcomes[1].pinned, outcomes[1].held_at.as_deref()), (false, None));
    assert!(outcomes.iter().all(|outcome| outcome.test.modifiers.is_empty()));
}

#[test]
fn any_action_but_a_free_one_ends_the_overwatch() {
    let dodge = ActionSpec::new(ActionKind::Other("dodge".into()), ActionType::Reaction, vec![]);
    let talk = ActionSpec::new(ActionKind::Other("talk".into()), ActionType::Free, vec![]);
    let half_move = ActionSpec::new(
        ActionKind::Other("half move".into()),
        ActionType::Half,
        vec![ActionSubtype::Movement],
    );
    assert!(ends_overwatch(&dodge));
    assert!(!ends_overwatch(&talk));
    assert!(ends_overwatch(&half_move));
}
