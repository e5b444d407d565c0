//! Hits on STR 7, DEX 8, END 9 (current values are written [STR, DEX, END]).

use super::*;
use crate::rulesets::cepheus_engine::Characteristic;

fn c(value: i64) -> Characteristic {
    Characteristic::new(value).unwrap()
}

fn fresh() -> Stats {
    Stats::with_characteristics(c(7), c(8), c(9), c(7), c(7), c(7))
}

fn hurt(str: i64, dex: i64, end: i64) -> Stats {
    let mut stats = fresh();
    stats.damage.str = Score::new(str).unwrap();
    stats.damage.dex = Score::new(dex).unwrap();
    stats.damage.end = Score::new(end).unwrap();
    stats
}

fn overflow(to: Overflow) -> AllocationChoice {
    AllocationChoice { overflow_to: Some(to), allocation: None }
}

fn split(str: i32, dex: i32, end: i32) -> AllocationChoice {
    AllocationChoice { overflow_to: None, allocation: Some(Split { str, dex, end }) }
}

fn refusal(stats: &Stats, damage: i32, choice: &AllocationChoice) -> (String, String) {
    match allocate_damage(stats, damage, choice) {
        Err(RuleError::Invalid { field, message }) => (field, message),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn placed(allocation: &Allocation) -> [i32; 4] {
    [allocation.str, allocation.dex, allocation.end, allocation.excess]
}

#[test]
fn first_damage_goes_to_endurance() {
    let hit = allocate_damage(&fresh(), 5, &AllocationChoice::default()).unwrap();
    // 5 ≤ END 9: all of it on END → [7, 8, 4].
    assert_eq!(placed(&hit), [0, 0, 5, 0]);
    assert!(hit.first_damage);
    assert_eq!((hit.status_before, hit.status_after), (Status::Uninjured, Status::Wounded));
    assert!(!hit.unconscious && !hit.dead);
}

#[test]
fn first_damage_overflows_to_the_higher_of_str_and_dex_by_default() {
    // 12 = 9 on END (now 0) + 3 on DEX, the higher (8 > 7) → [7, 5, 0]: wounded.
    let hit = allocate_damage(&fresh(), 12, &AllocationChoice::default()).unwrap();
    assert_eq!(placed(&hit), [0, 3, 9, 0]);
    assert_eq!(hit.status_after, Status::Wounded);
}

#[test]
fn first_damage_overflows_where_the_target_chooses() {
    // 12 = 9 on END + 3 on STR → [4, 8, 0].
    let hit = allocate_damage(&fresh(), 12, &overflow(Overflow::Str)).unwrap();
    assert_eq!(placed(&hit), [3, 0, 9, 0]);
}

#[test]
fn tied_str_and_dex_overflow_to_strength() {
    let stats = Stats::with_characteristics(c(8), c(8), c(6), c(7), c(7), c(7));
    // 8 = 6 on END + 2 on STR (tie 8 = 8 keeps DEX).
    let hit = allocate_damage(&stats, 8, &AllocationChoice::default()).unwrap();
    assert_eq!(placed(&hit), [2, 0, 6, 0]);
}

#[test]
fn first_damage_that_zeroes_the_overflow_knocks_out_then_spills_over() {
    // 17 = END 9 + DEX 8 → [7, 0, 0]: two at zero → unconscious.
    let hit = allocate_damage(&fresh(), 17, &AllocationChoice::default()).unwrap();
    assert_eq!(placed(&hit), [0, 8, 9, 0]);
    assert!(hit.unconscious && !hit.dead);
    // 20 = END 9 + DEX 8 + STR 3 → [4, 0, 0]: still unconscious.
    let hit = allocate_damage(&fresh(), 20, &AllocationChoice::default()).unwrap();
    assert_eq!(placed(&hit), [3, 8, 9, 0]);
    assert_eq!(hit.status_after, Status::Unconscious);
}

#[test]
fn first_damage_beyond_all_three_kills() {
    // 30 − (9 + 8 + 7 = 24) = 6 excess; all three at zero → dead.
    let hit = allocate_damage(&fresh(), 30, &AllocationChoice::default()).unwrap();
    assert_eq!(placed(&hit), [7, 8, 9, 6]);
    assert!(hit.dead && !hit.unconscious);
    assert_eq!(hit.status_after, Status::Dead);
}

#[test]
fn a_split_is_refused_for_the_first_damage() {
    let (field, message) = refusal(&fresh(), 4, &split(2, 2, 0));
    assert_eq!(field, "allocation");
    assert!(message.contains("first damage goes to Endurance"), "{message}");
}

#[test]
fn later_hits_go_where_the_target_splits_them() {
    // Already END −3 → [7, 8, 6]; 4 split 2/1/1 → [5, 7, 5]: all three damaged → seriously wounded.
    let hit = allocate_damage(&hurt(0, 0, 3), 4, &split(2, 1, 1)).unwrap();
    assert_eq!(placed(&hit), [2, 1, 1, 0]);
    assert!(!hit.first_damage);
    assert_eq!((hit.status_before, hit.status_after), (Status::Wounded, Status::SeriouslyWounded));
}

#[test]
fn a_split_that_zeroes_only_strength_is_not_unconscious() {
    // [7, 8, 8] after END −1; 7 on STR → [0, 8, 8]: one at zero → wounded (the table's rule).
    let hit = allocate_damage(&hurt(0, 0, 1), 7, &split(7, 0, 0)).unwrap();
    assert_eq!(hit.status_after, Status::Wounded);
    assert!(!hit.unconscious);
}

#[test]
fn bad_splits_are_refused_by_field() {
    // END 9 − 9 = 0 already.
    let zeroed = hurt(0, 0, 9);
    let endurance = refusal(&zeroed, 2, &split(1, 0, 1));
    assert_eq!(endurance, ("allocation.end".into(), "Endurance is already 0".into()));
    // STR has 7 left; 8 is too many.
    let strength = refusal(&zeroed, 8, &split(8, 0, 0));
    assert_eq!(strength, ("allocation.str".into(), "Strength has only 7 points left, not 8".into()));
    let negative = refusal(&zeroed, 1, &split(2, -1, 0));
    assert_eq!(negative, ("allocation.dex".into(), "damage points cannot be negative".into()));
    // 2 + 1 = 3 placed for a 4-point hit.
    let short = refusal(&zeroed, 4, &split(2, 1, 0));
    assert_eq!(short, ("allocation".into(), "the split totals 3 but the damage is 4".into()));
}

#[test]
fn damage_beyond_what_is_left_must_take_every_point() {
    // [2, 0, 0] left: 30 damage can place only 2, on STR; 28 is excess → dead.
    let nearly = hurt(5, 8, 9);
    let hit = allocate_damage(&nearly, 30, &split(2, 0, 0)).unwrap();
    assert_eq!(placed(&hit), [2, 0, 0, 28]);
    assert!(hit.dead);
    let (field, message) = refusal(&nearly, 30, &split(1, 0, 0));
    assert_eq!(field, "allocation");
    assert_eq!(
        message,
        "the damage (30) is more than the 2 points left, so the split must place all 2; it totals 1"
    );
}

#[test]
fn later_hits_without_a_split_follow_the_first_damage_path() {
    // END −2 → 7 left. 10 = 7 on END + 3 on DEX (8 > 7) → [7, 5, 0].
    let hit = allocate_damage(&hurt(0, 0, 2), 10, &AllocationChoice::default()).unwrap();
    assert_eq!(placed(&hit), [0, 3, 7, 0]);
    assert!(!hit.first_damage);
    // The default compares current values: DEX 8 − 3 = 5 < STR 7, so 4 goes to STR → [3, 5, 0].
    let hit = allocate_damage(&hurt(0, 3, 9), 4, &AllocationChoice::default()).unwrap();
    assert_eq!(placed(&hit), [4, 0, 0, 0]);
    assert_eq!(hit.status_after, Status::SeriouslyWounded);
    // overflow_to is honoured too: 4 on DEX → [7, 1, 0].
    assert_eq!(placed(&allocate_damage(&hurt(0, 3, 9), 4, &overflow(Overflow::Dex)).unwrap()), [0, 4, 0, 0]);
}

#[test]
fn zero_damage_changes_nothing_and_negative_is_refused() {
    let hit = allocate_damage(&fresh(), 0, &AllocationChoice::default()).unwrap();
    assert_eq!(placed(&hit), [0, 0, 0, 0]);
    assert_eq!(hit.status_after, Status::Uninjured);
    let refused = refusal(&fresh(), -1, &AllocationChoice::default());
    assert_eq!(refused, ("damage".into(), "damage cannot be negative".into()));
}

#[test]
fn apply_records_the_damage() {
    let mut stats = fresh();
    let hit = allocate_damage(&stats, 12, &AllocationChoice::default()).unwrap();
    apply(&mut stats, &hit).unwrap();
    // END 9 − 9 = 0, DEX 8 − 3 = 5.
    assert_eq!(stats.damage, hurt(0, 3, 9).damage);
    assert_eq!(stats.current(Physical::Dex), 5);
    assert_eq!(stats.status(), hit.status_after);
    // The next hit is a later hit: a split is accepted now.
    let next = allocate_damage(&stats, 2, &split(1, 1, 0)).unwrap();
    apply(&mut stats, &next).unwrap();
    assert_eq!(stats.damage, hurt(1, 4, 9).damage);
}

#[test]
fn apply_refuses_a_stale_allocation_and_changes_nothing() {
    let hit = allocate_damage(&fresh(), 17, &AllocationChoice::default()).unwrap();
    // Applied to a character whose DEX already took 2, DEX has only 6 of the 8.
    let mut stats = hurt(0, 2, 0);
    let error = apply(&mut stats, &hit).unwrap_err();
    assert_eq!(error, RuleError::invalid("allocation.dex", "Dexterity has only 6 points left, not 8"));
    assert_eq!(stats, hurt(0, 2, 0));
}
