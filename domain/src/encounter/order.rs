//! The initiative order, generic over rulesets: highest score first, then the ruleset's tie keys
//! (highest first), then roll-off dice, then join order.

use super::model::{Combatant, CombatantId, Encounter};
use crate::rulesets::TiePolicy;
use serde::Serialize;
use std::cmp::Ordering;

/// One place in the turn order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct TurnSlot {
    pub combatant_id: CombatantId,
    pub name: String,
    pub score: i32,
    /// 1-based position; combatants who act simultaneously share a slot.
    pub slot: u32,
    /// Shares its slot with another combatant (Cepheus Engine's unresolved ties).
    pub simultaneous: bool,
    pub acted: bool,
    pub defeated: bool,
}

/// Combatants with an initiative, in the order they act.
pub fn turn_order(encounter: &Encounter) -> Vec<TurnSlot> {
    let ranked = ranked(encounter);
    let policy = encounter.ruleset.tie_policy();
    let mut slots: Vec<TurnSlot> = Vec::with_capacity(ranked.len());
    for (position, combatant) in ranked.iter().enumerate() {
        let shares_previous = position > 0
            && policy == TiePolicy::Simultaneous
            && same_standing(ranked[position - 1], combatant);
        let slot = match slots.last() {
            Some(last) if shares_previous => last.slot,
            Some(last) => last.slot + 1,
            None => 1,
        };
        if shares_previous && let Some(last) = slots.last_mut() {
            last.simultaneous = true;
        }
        slots.push(TurnSlot {
            combatant_id: combatant.id.clone(),
            name: combatant.name.clone(),
            score: combatant.initiative.as_ref().map_or(0, |i| i.score),
            slot,
            simultaneous: shares_previous,
            acted: combatant.acted_this_round,
            defeated: combatant.flags.defeated,
        });
    }
    slots
}

/// Combatants with an initiative, sorted into acting order (a stable sort keeps join order last).
/// Each combatant's standing is computed once, not at every comparison (the tie keys are a
/// fresh `Vec` each time, and every change reads the order several times).
pub(crate) fn ranked(encounter: &Encounter) -> Vec<&Combatant> {
    let mut keyed: Vec<((i32, Vec<i32>), &Combatant)> =
        encounter.combatants.iter().filter(|c| c.initiative.is_some()).map(|c| (standing(c), c)).collect();
    keyed.sort_by(|(a_standing, a), (b_standing, b)| compare(b_standing, b, a_standing, a));
    keyed.into_iter().map(|(_, combatant)| combatant).collect()
}

/// Ascending comparison of `a` and `b` (with their standings) by score, tie keys, then
/// roll-off dice.
fn compare(
    a_standing: &(i32, Vec<i32>),
    a: &Combatant,
    b_standing: &(i32, Vec<i32>),
    b: &Combatant,
) -> Ordering {
    a_standing.cmp(b_standing).then_with(|| roll_off(a).cmp(roll_off(b)))
}

/// Score and the ruleset's tie keys: what decides order before any roll-off.
pub(crate) fn standing(combatant: &Combatant) -> (i32, Vec<i32>) {
    (combatant.initiative.as_ref().map_or(i32::MIN, |i| i.score), combatant.stats.tie_keys())
}

pub(crate) fn same_standing(a: &Combatant, b: &Combatant) -> bool {
    standing(a) == standing(b)
}

fn roll_off(combatant: &Combatant) -> &[u32] {
    combatant.initiative.as_ref().map_or(&[], |i| i.roll_off.as_slice())
}
