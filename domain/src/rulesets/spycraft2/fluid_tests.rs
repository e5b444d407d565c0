//! Step 6 worked by hand (spycraft2.txt, "Step 6: Fluid Initiative Modifiers").

use super::*;
use crate::rulesets::spycraft2::state::CombatState;

fn values(state: &CombatState) -> Vec<i32> {
    state.fluid.iter().map(|entry| entry.value).collect()
}

#[test]
fn every_row_has_the_tables_value() {
    let rows = [
        (FluidEntry::aim(), FluidCode::Aim, 1),
        (FluidEntry::brace(), FluidCode::Brace, 1),
        (FluidEntry::regroup(3), FluidCode::Regroup, 8),
        (FluidEntry::regroup(-1), FluidCode::Regroup, 4),
        (FluidEntry::terrain(), FluidCode::Terrain, -2),
        (FluidEntry::tactical("M16"), FluidCode::TacticalWeapon, -2),
        (FluidEntry::non_proficient("RPG"), FluidCode::NonProficientWeapon, -4),
        (FluidEntry::final_attack(), FluidCode::FinalAttack, -2),
        (FluidEntry::critical_miss(1), FluidCode::CriticalMiss, -2),
        (FluidEntry::critical_miss(3), FluidCode::CriticalMiss, -6),
        (FluidEntry::triumph(), FluidCode::Triumph, 10),
        (Condition::Bleeding.entry(), FluidCode::Bleeding, -1),
        (Condition::Fatigued.entry(), FluidCode::Fatigued, -3),
        (Condition::Exhausted.entry(), FluidCode::Exhausted, -10),
        (FluidEntry::wounds_lost(1), FluidCode::WoundsLost, -2),
        (FluidEntry::critical_hit(4), FluidCode::CriticalHit, -5),
        (FluidEntry::electrical(-3, 5), FluidCode::Electrical, -3),
    ];
    for (entry, code, value) in rows {
        assert_eq!((entry.code, entry.value), (code, value), "{}", entry.reason);
    }
}

#[test]
fn a_rounds_rise_stops_at_plus_ten() {
    // Aim +1, Regroup +5 + Int 3 = +8, Triumph +10: +19, held to +10. Count 12 → 22.
    let entries = [FluidEntry::aim(), FluidEntry::regroup(3), FluidEntry::triumph()];
    let (table, capped, press, consequence, to) = settle(12, &entries);
    assert_eq!((table, capped, press, to), (19, 10, 0, 22));
    assert_eq!(consequence, CountConsequence::None);
}

#[test]
fn a_rounds_fall_stops_at_minus_ten() {
    // Critical hit −5, failed stress save −2 and −5, tactical weapon −2: −14, held to −10.
    // Count 18 → 8.
    let entries = [
        FluidEntry::critical_hit(3),
        FluidEntry::new(FluidCode::FailedSave, -2, "failed"),
        FluidEntry::new(FluidCode::FailedStressSave, -5, "stress"),
        FluidEntry::tactical("M60"),
    ];
    assert_eq!(settle(18, &entries).4, 8);
}

#[test]
fn press_is_outside_the_cap_and_fifty_demands_a_press() {
    // Triumph +10 and Aim +1 = +11 → +10; Press +5 on top (uncapped): 35 + 10 + 5 = 50 → the
    // first action next round must be a Press.
    let entries = [FluidEntry::triumph(), FluidEntry::aim(), FluidEntry::new(FluidCode::Press, 5, "pressed")];
    let (_, capped, press, consequence, to) = settle(35, &entries);
    assert_eq!((capped, press, to), (10, 5, 50));
    assert_eq!(consequence, CountConsequence::PressRequired);
    // 49 is not enough.
    assert_eq!(settle(39, &entries[..2]).3, CountConsequence::None);
}

#[test]
fn zero_or_less_reels_then_rises_by_twenty_or_to_one() {
    // Count 6, exhausted −10 and bleeding −1 → −11 held to −10: 6 − 10 = −4 → reeling,
    // flat-footed, then −4 + 20 = 16 (higher than 1).
    let entries = [Condition::Exhausted.entry(), Condition::Bleeding.entry()];
    let (_, capped, _, consequence, to) = settle(6, &entries);
    assert_eq!((capped, to), (-10, 16));
    assert_eq!(consequence, CountConsequence::Reeling { from: -4, raised_to: 16 });
    // Exactly 0 counts: 10 − 10 = 0 → 20.
    assert_eq!(settle(10, &[Condition::Exhausted.entry()]).4, 20);
    // A Press of −30 (uncapped) from 5: −25 → −25 + 20 = −5, so the Count goes to 1 instead.
    let press = [FluidEntry::new(FluidCode::Press, -30, "pressed")];
    assert_eq!(settle(5, &press).3, CountConsequence::Reeling { from: -25, raised_to: 1 });
}

#[test]
fn conditions_count_once_per_round_even_after_they_end() {
    let mut state = CombatState::default();
    // Bleeding declared twice, then still bleeding at the end of the round: −1 once.
    assert!(state.set_condition(Condition::Bleeding, true).unwrap());
    assert!(!state.set_condition(Condition::Bleeding, true).unwrap());
    // Fatigued starts and ends within the round: its −3 still applies.
    state.set_condition(Condition::Fatigued, true).unwrap();
    state.set_condition(Condition::Fatigued, false).unwrap();
    state.record_conditions().unwrap();
    assert_eq!(values(&state), vec![-1, -3]);
    // Next round: bleeding goes on (−1 again), fatigue is over.
    state.new_round();
    state.record_conditions().unwrap();
    assert_eq!(values(&state), vec![-1]);
    // A critical injury is a once-per-round row too.
    let injury = FluidEntry::new(FluidCode::CriticalInjury, -10, "critical injury");
    assert!(state.record(injury.clone(), None).unwrap());
    assert!(!state.record(injury, None).unwrap());
}

#[test]
fn non_proficiency_counts_once_per_weapon_per_round_other_rows_every_time() {
    let mut state = CombatState::default();
    for weapon in ["RPG", "rpg", "Crossbow"] {
        state.record(FluidEntry::non_proficient(weapon), Some(weapon)).unwrap();
    }
    state.record(FluidEntry::final_attack(), None).unwrap();
    state.record(FluidEntry::final_attack(), None).unwrap();
    // RPG −4 once (names compared without case), Crossbow −4, two final attacks −2 each.
    assert_eq!(values(&state), vec![-4, -4, -2, -2]);
    state.new_round();
    state.record(FluidEntry::non_proficient("RPG"), Some("RPG")).unwrap();
    assert_eq!(values(&state), vec![-4]);
}
