//! The initiative order, generic over rulesets: highest score first, then the ruleset's tie keys
//! (highest first), then roll-off dice, then join order.

use super::model::{Combatant, CombatantId, Encounter};
use crate::rulesets::TiePolicy;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::BTreeMap;

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
    let ranked = ranked_units(encounter);
    let policy = encounter.ruleset.tie_policy();
    let mut slots: Vec<TurnSlot> = Vec::with_capacity(ranked.len());
    for (position, entry) in ranked.iter().enumerate() {
        let combatant = entry.combatant;
        let shares_previous = position > 0
            && policy == TiePolicy::Simultaneous
            && ranked[position - 1].standing == entry.standing;
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

/// A combatant in acting order, with the standing of its unit and the unit's head.
pub(crate) struct Ranked<'e> {
    pub combatant: &'e Combatant,
    /// Its unit's score and tie keys (the head's).
    pub standing: (i32, Vec<i32>),
    /// The unit's head: the first member in join order (its own for a combatant alone).
    pub head: &'e Combatant,
}

/// Combatants with an initiative, sorted into acting order. A **unit** is a combatant alone, or
/// the members of one group that hold the same score (a group rolls once, so its members do
/// until a rule moves one's score): a unit is ordered as its head (the member first in join
/// order) would be, by score, the head's tie keys and roll-off, and its members act one after
/// another in join order. A stable sort keeps join order last. Each standing is computed once,
/// not at every comparison (the tie keys are a fresh `Vec` each time).
pub(crate) fn ranked_units(encounter: &Encounter) -> Vec<Ranked<'_>> {
    let mut heads: BTreeMap<(&str, i32), (usize, &Combatant)> = BTreeMap::new();
    let mut keyed: Vec<(usize, Ranked)> = Vec::with_capacity(encounter.combatants.len());
    for (index, combatant) in encounter.combatants.iter().enumerate() {
        let Some(initiative) = &combatant.initiative else { continue };
        let (head_index, head) = match &combatant.group {
            Some(group) => *heads.entry((group.as_str(), initiative.score)).or_insert((index, combatant)),
            None => (index, combatant),
        };
        keyed.push((head_index, Ranked { combatant, standing: standing(head), head }));
    }
    keyed.sort_by(|(a_head, a), (b_head, b)| {
        compare(&b.standing, b.head, &a.standing, a.head).then_with(|| a_head.cmp(b_head))
    });
    keyed.into_iter().map(|(_, ranked)| ranked).collect()
}

/// Combatants with an initiative, in acting order (see [`ranked_units`]).
pub(crate) fn ranked(encounter: &Encounter) -> Vec<&Combatant> {
    ranked_units(encounter).into_iter().map(|entry| entry.combatant).collect()
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

fn roll_off(combatant: &Combatant) -> &[u32] {
    combatant.initiative.as_ref().map_or(&[], |i| i.roll_off.as_slice())
}
