use super::*;

fn side(dm: i32, choice: Option<GrappleChoice>) -> GrappleSide {
    GrappleSide { dm, armour: 0, choice }
}

fn choose(option: GrappleOption) -> Option<GrappleChoice> {
    Some(GrappleChoice { option, distance_m: None, end_grapple: false })
}

fn choose_moving(option: GrappleOption, metres: f64) -> Option<GrappleChoice> {
    Some(GrappleChoice { option, distance_m: Some(crate::score::Measure::new(metres).unwrap()), end_grapple: false })
}

fn start(attacker: GrappleSide, defender: GrappleSide) -> GrappleRequest {
    GrappleRequest { range: RangeBand::Personal, in_grapple: false, attacker, defender }
}

fn resolve(request: &GrappleRequest, rolls: Vec<u32>) -> GrappleOutcome {
    let mut dice = Dice::scripted(rolls, 0).unwrap();
    resolve_grapple(request, &mut dice).unwrap()
}

fn refused_field(request: &GrappleRequest) -> String {
    let mut dice = Dice::scripted(vec![], 0).unwrap();
    match resolve_grapple(request, &mut dice) {
        Err(RuleError::Invalid { field, .. }) => field,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_won_grapple_deals_two_plus_effect_through_armour() {
    // Attacker 5 + 4 + 2 = 11, Effect +3; defender 2 + 3 + 1 = 6, Effect −2 → attacker wins.
    // Damage 2 + 3 = 5, armour 2 → 3. The grapple holds.
    let mut request = start(side(2, choose(GrappleOption::Damage)), side(1, None));
    request.defender.armour = 2;
    let outcome = resolve(&request, vec![5, 4, 2, 3]);
    assert_eq!(outcome.winner, Some(GrappleRole::Attacker));
    let action = outcome.action.unwrap();
    assert_eq!(action.effect, 3);
    let damage = action.damage.unwrap();
    assert_eq!((damage.before_armour, damage.armour, damage.after_armour), (5, 2, 3));
    assert!(!damage.minimum_one_applied);
    assert!(outcome.grappling);
    assert_eq!(outcome.dice.len(), 4);
}

#[test]
fn disarm_takes_the_weapon_on_effect_six() {
    // Attacker 6 + 5 + 3 = 14, Effect +6 → takes it; defender 1 + 1 = 2.
    let request = start(side(3, choose(GrappleOption::Disarm)), side(0, None));
    let action = resolve(&request, vec![6, 5, 1, 1]).action.unwrap();
    assert_eq!(action.disarm, Some(DisarmResult::TakenByWinner));
    // Attacker 6 + 4 + 3 = 13, Effect +5 → the weapon only drops.
    let action = resolve(&request, vec![6, 4, 1, 1]).action.unwrap();
    assert_eq!(action.disarm, Some(DisarmResult::Dropped));
}

#[test]
fn a_throw_rolls_1d6_and_ends_the_grapple() {
    // Attacker 6 + 4 + 4 = 14, Effect +6; defender 3 + 3 = 6. Throw 1D6 = 4 into armour 5:
    // 4 − 5 → 0, but Effect 6 forces 1 point through.
    let mut request = start(side(4, choose_moving(GrappleOption::Throw, 2.5)), side(0, None));
    request.defender.armour = 5;
    let outcome = resolve(&request, vec![6, 4, 3, 3, 4]);
    let action = outcome.action.unwrap();
    assert_eq!(action.moved_m, Some(2.5));
    let damage = action.damage.unwrap();
    assert_eq!((damage.dice.clone(), damage.before_armour, damage.after_armour), (vec![4], 4, 1));
    assert!(damage.minimum_one_applied);
    assert!(!outcome.grappling);
    assert_eq!(outcome.dice[4].purpose, "grapple: throw damage (1D6)");
}

#[test]
fn a_defender_who_wins_a_new_grapple_only_resists() {
    // Attacker 1 + 2 + 0 = 3; defender 4 + 4 + 0 = 8 → no grapple, no action.
    let request = start(side(0, choose(GrappleOption::Damage)), side(0, None));
    let outcome = resolve(&request, vec![1, 2, 4, 4]);
    assert_eq!(outcome.check.winner, Some(OpposedSide::B));
    assert_eq!((outcome.winner, outcome.action, outcome.grappling), (None, None, false));
}

#[test]
fn a_tie_starts_nothing_and_holds_an_established_grapple() {
    // 3 + 3 + 1 = 7 against 4 + 3 + 0 = 7: Effect −1 each.
    let request = start(side(1, None), side(0, None));
    assert!(!resolve(&request, vec![3, 3, 4, 3]).grappling);
    let held = GrappleRequest { in_grapple: true, ..request };
    let outcome = resolve(&held, vec![3, 3, 4, 3]);
    assert_eq!((outcome.winner, outcome.grappling), (None, true));
}

#[test]
fn in_a_grapple_the_defender_can_win_and_escape() {
    // Attacker 2 + 2 + 0 = 4; defender 5 + 5 + 1 = 11 → defender escapes.
    let request = GrappleRequest {
        range: RangeBand::Personal,
        in_grapple: true,
        attacker: side(0, choose(GrappleOption::Damage)),
        defender: side(1, choose(GrappleOption::Escape)),
    };
    let outcome = resolve(&request, vec![2, 2, 5, 5]);
    assert_eq!(outcome.winner, Some(GrappleRole::Defender));
    assert_eq!(outcome.action.unwrap().option, GrappleOption::Escape);
    assert!(!outcome.grappling);
}

#[test]
fn knocking_prone_may_end_the_grapple_and_dragging_holds_it() {
    // Attacker 4 + 4 = 8 against 1 + 1 = 2 both times.
    let prone =
        Some(GrappleChoice { option: GrappleOption::KnockProne, distance_m: None, end_grapple: true });
    let outcome = resolve(&start(side(0, prone), side(0, None)), vec![4, 4, 1, 1]);
    assert!(outcome.action.unwrap().loser_prone);
    assert!(!outcome.grappling);
    let drag = start(side(0, choose_moving(GrappleOption::Drag, 3.0)), side(0, None));
    let outcome = resolve(&drag, vec![4, 4, 1, 1]);
    assert_eq!(outcome.action.unwrap().moved_m, Some(3.0));
    assert!(outcome.grappling);
}

#[test]
fn both_failing_still_lets_the_better_win_but_damage_stops_at_zero() {
    // Attacker 1 + 2 = 3, Effect −5; defender 1 + 1 = 2, Effect −6. Damage 2 − 5 = −3 → 0.
    let request = start(side(0, choose(GrappleOption::Damage)), side(0, None));
    let damage = resolve(&request, vec![1, 2, 1, 1]).action.unwrap().damage.unwrap();
    assert_eq!((damage.before_armour, damage.after_armour), (0, 0));
}

#[test]
fn bad_requests_are_refused_by_field() {
    let plain = start(side(0, None), side(0, None));
    assert_eq!(refused_field(&GrappleRequest { range: RangeBand::Close, ..plain }), "range");
    // More than 3 m is refused when the request is read.
    assert!(crate::score::Measure::<0, 3>::new(3.5).is_err());
    assert_eq!(
        refused_field(&start(side(0, choose(GrappleOption::Throw)), side(0, None))),
        "attacker.choice.distance_m"
    );
    assert_eq!(
        refused_field(&start(side(0, choose_moving(GrappleOption::Damage, 1.0)), side(0, None))),
        "attacker.choice.distance_m"
    );
    assert_eq!(
        refused_field(&start(side(0, choose_moving(GrappleOption::Drag, 0.0)), side(0, None))),
        "attacker.choice.distance_m"
    );
    assert!(crate::score::Measure::<0, 3>::new(f64::NAN).is_err());
    assert_eq!(
        refused_field(&start(side(0, choose(GrappleOption::Escape)), side(0, None))),
        "attacker.choice.option"
    );
    assert_eq!(
        refused_field(&start(side(0, None), side(0, choose(GrappleOption::Damage)))),
        "defender.choice"
    );
    assert_eq!(refused_field(&start(side(60, None), side(0, None))), "attacker.value");
}
