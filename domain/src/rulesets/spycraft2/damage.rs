//! Damage to vitality and wounds, and the injury rows of the fluid-initiative table it triggers.
//!
//! The chapter only names the events ("loses 1 or more wounds", "suffers a critical hit",
//! "suffers electrical damage"); the damage model is the one Spycraft 2.0 players use (see the
//! docs' decisions): armour damage reduction comes off each damage result, damage goes to
//! vitality points first and the rest to wounds, and a critical hit goes straight to wounds.

use super::fluid::FluidEntry;
use super::state::CombatState;
use super::stats::Stats;
use crate::encounter::EncounterError;
use serde::{Deserialize, Serialize};

/// Most wounds below 0 a character can be driven (the book's dead at −10).
pub const MAX_WOUNDS_BELOW_ZERO: i32 = 10;

/// How one damage result was taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2DamageResult))]
pub struct DamageResult {
    /// The damage before armour.
    pub amount: i32,
    pub damage_reduction: i32,
    /// After armour.
    pub suffered: i32,
    /// A critical hit: straight to wounds.
    pub critical: bool,
    pub to_vitality: i32,
    pub to_wounds: i32,
    pub vitality_left: i32,
    pub wounds_left: i32,
    /// At 0 wounds or fewer the character is out of the fight.
    pub down: bool,
    /// The fluid-initiative rows this injury triggered on the character.
    pub fluid: Vec<FluidEntry>,
}

/// Whether the character is dead: wounds at −10 (docs/rulesets/spycraft2.md, "The dead and the
/// defeated": the chapter names no death, and wounds stop there already).
pub fn is_dead(stats: &Stats, state: &CombatState) -> bool {
    stats.wounds.get() - state.wounds_lost <= -MAX_WOUNDS_BELOW_ZERO
}

/// Applies `amount` damage to the character: armour first (unless `ignore_dr`), then vitality,
/// then wounds (critical: wounds only). Records the Injuries rows: −5 for a critical hit that
/// costs wounds, otherwise −2 for lost wounds, never both for one injury; and the caller's
/// electrical amount when 1 or more points were suffered.
pub fn apply(
    stats: &Stats,
    state: &mut CombatState,
    amount: i32,
    critical: bool,
    ignore_dr: bool,
    electrical: Option<i32>,
) -> Result<DamageResult, EncounterError> {
    let damage_reduction = if ignore_dr { 0 } else { stats.damage_reduction.get() };
    let suffered = (amount - damage_reduction).max(0);
    let vitality_left_before = (stats.vitality.get() - state.vitality_lost).max(0);
    let to_vitality = if critical { 0 } else { suffered.min(vitality_left_before) };
    let wounds_floor = -MAX_WOUNDS_BELOW_ZERO;
    let wounds_left_before = stats.wounds.get() - state.wounds_lost;
    let to_wounds = (suffered - to_vitality).min(wounds_left_before - wounds_floor).max(0);
    state.vitality_lost += to_vitality;
    state.wounds_lost += to_wounds;
    let mut fluid = Vec::new();
    let injury = match (critical, to_wounds > 0) {
        (true, true) => Some(FluidEntry::critical_hit(to_wounds)),
        (false, true) => Some(FluidEntry::wounds_lost(to_wounds)),
        _ => None,
    };
    let electric = electrical.filter(|_| suffered > 0).map(|value| FluidEntry::electrical(value, suffered));
    for entry in injury.into_iter().chain(electric) {
        if state.record(entry.clone(), None)? {
            fluid.push(entry);
        }
    }
    let wounds_left = stats.wounds.get() - state.wounds_lost;
    Ok(DamageResult {
        amount,
        damage_reduction,
        suffered,
        critical,
        to_vitality,
        to_wounds,
        vitality_left: vitality_left_before - to_vitality,
        wounds_left,
        down: wounds_left <= 0,
        fluid,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::spycraft2::fluid::FluidCode;
    use crate::score::Score;

    fn stats(vitality: i64, wounds: i64, dr: i64) -> Stats {
        let mut stats = Stats::with_initiative_bonus(Score::new(0).unwrap());
        stats.vitality = Score::new(vitality).unwrap();
        stats.wounds = Score::new(wounds).unwrap();
        stats.damage_reduction = Score::new(dr).unwrap();
        stats
    }

    #[test]
    fn vitality_first_then_wounds_with_one_minus_two() {
        // 14 damage, DR 2 → 12; 9 vitality left takes 9, wounds take 3 → −2 (wounds lost).
        let stats = stats(9, 12, 2);
        let mut state = CombatState::default();
        let result = apply(&stats, &mut state, 14, false, false, None).unwrap();
        assert_eq!((result.suffered, result.to_vitality, result.to_wounds), (12, 9, 3));
        assert_eq!((result.vitality_left, result.wounds_left, result.down), (0, 9, false));
        assert_eq!(result.fluid, vec![FluidEntry::wounds_lost(3)]);
    }

    #[test]
    fn vitality_alone_costs_no_count() {
        // 5 damage against 20 vitality: no wounds lost, no fluid-initiative row.
        let mut state = CombatState::default();
        let result = apply(&stats(20, 12, 0), &mut state, 5, false, false, None).unwrap();
        assert_eq!((result.to_vitality, result.to_wounds), (5, 0));
        assert!(result.fluid.is_empty() && state.fluid.is_empty());
    }

    #[test]
    fn a_critical_hit_goes_to_wounds_and_costs_five_not_seven() {
        // Critical 8, DR 1 → 7 straight to wounds despite 20 vitality: −5 only (the ** note).
        let mut state = CombatState::default();
        let result = apply(&stats(20, 12, 1), &mut state, 8, true, false, None).unwrap();
        assert_eq!((result.to_vitality, result.to_wounds, result.wounds_left), (0, 7, 5));
        assert_eq!(state.fluid.iter().map(|e| e.value).collect::<Vec<_>>(), vec![-5]);
        assert_eq!(state.fluid[0].code, FluidCode::CriticalHit);
    }

    #[test]
    fn armour_that_stops_a_critical_leaves_no_row_and_electricity_needs_a_point() {
        // Critical 3 against DR 5: nothing suffered, so neither −5 nor the electrical amount.
        let mut state = CombatState::default();
        let result = apply(&stats(0, 10, 5), &mut state, 3, true, false, Some(-4)).unwrap();
        assert_eq!((result.suffered, result.fluid.len()), (0, 0));
        // 6 electrical damage ignoring DR to a 0-vitality character: 6 wounds → −2 and −4.
        let result = apply(&stats(0, 10, 5), &mut state, 6, false, true, Some(-4)).unwrap();
        assert_eq!(result.fluid.iter().map(|e| e.value).collect::<Vec<_>>(), vec![-2, -4]);
        assert_eq!((result.wounds_left, result.down), (4, false));
    }

    #[test]
    fn wounds_stop_at_minus_ten() {
        // 10 wounds, 30 damage: down at −10, not −20.
        let mut state = CombatState::default();
        let result = apply(&stats(0, 10, 0), &mut state, 30, false, false, None).unwrap();
        assert_eq!((result.to_wounds, result.wounds_left, result.down), (20, -10, true));
    }
}
