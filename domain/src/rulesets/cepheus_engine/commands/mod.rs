//! Cepheus Engine operations on a stored encounter (attacks, damage, declared actions) and their
//! stateless twins that take stat blocks inline (cepheus-engine.txt, "Personal Combat").
//!
//! A refused command changes nothing (dice already rolled are simply discarded): every command
//! checks its refusals (`economy::check_spend`, `dynamic::check_react`, an allocation against the
//! rolled damage, …) before it changes anything, and only then writes.
//!
//! Decisions:
//! - Only a cepheus-engine encounter accepts these commands; any other ruleset is a conflict.
//!   Attacks and declared actions need an active encounter; damage may also be applied during
//!   setup, but never once the encounter has ended.
//! - Combatant ids in a request that are not in the encounter are refused on the request field
//!   that named them (`attacker_id`, `target_id`, `unit_ids[1]`, …).
//! - A combatant's own check penalties this round (reactions, hastening, suppression; see
//!   `dynamic.rs`) are summed into one modifier, and fatigue (−2) is another; both are added to
//!   every check the combatant makes here, attacks included. The attack circumstances' own
//!   `attacker_hasty` / `attacker_reactions` / `attacker_suppressed` / `attacker_fatigued` flags
//!   are therefore never set, so nothing counts twice.
//! - Characteristic DMs use current (damaged) values, as `character.rs` decides.
//! - The melee skill (for a parry) is the better of the target's "melee_combat" and "melee"
//!   levels, 0 when it has neither (an unskilled parry subtracts nothing, `reactions.rs`).
//! - Aiming is lost when the aimer does anything but aim at the same target: any other recorded
//!   action, a reaction, or attacking (which uses it). Being hit (damage after armour above 0)
//!   also loses it: the text says so for aiming for the kill, and both are tracked as one aim.
//!   Free actions (a shouted warning, comms, hastening, a referee's fatigue) do not break it.

pub mod action_report;
pub mod action_request;
pub mod actions;
pub mod apply;
pub mod attack;
pub mod attack_build;
mod attack_checks;
mod attack_facts;
pub mod damage;
mod delegated_actions;
pub mod extended;
mod free_actions;
mod grapple;
pub mod healing;
pub mod inline;
mod leadership;
pub mod receivers;
pub mod recovery;
pub mod request;
pub mod vehicle_actions;
mod vehicle_occupants;

pub use action_report::ActionReport;
pub use action_request::Action;
pub use actions::act;
pub use apply::HitResult;
pub use attack::{AttackReport, EncounterAttack, StrayHit, attack};
pub use damage::{DamageReport, EncounterDamage, InlineDamage, damage, damage_inline};
pub use extended::{ExtendedCheck, ExtendedCheckOutcome};
pub use inline::{InlineAttack, attack_inline};
pub use request::{Reaction, Weapon};

use super::dynamic::check_penalties;
use super::economy::{ActionEconomy, Cost, Spending, check_spend};
use super::state::CombatState;
use super::modifier::{Modifier, ModifierCode};
use super::{Characteristic, Stats, characteristic_dm};
use super::CepheusEngine;
use crate::encounter::{Combatant, CombatantId, Encounter, EncounterError};
use crate::rulesets::plugin;
use serde::{Deserialize, Serialize};

pub(crate) use crate::rulesets::plugin::{combatant, combatant_mut, ensure_turn};

/// [`plugin::parts`] for a Cepheus Engine combatant: its stat block and combat state.
pub(crate) fn parts<'a>(combatant: &'a Combatant, field: &str) -> Result<(&'a Stats, &'a CombatState), EncounterError> {
    plugin::parts::<CepheusEngine>(combatant, field)
}

/// [`plugin::parts_mut`] for a Cepheus Engine combatant (a combatant stored before the ruleset
/// kept any state starts from the default state).
pub(crate) fn parts_mut<'a>(
    combatant: &'a mut Combatant,
    field: &str,
) -> Result<(&'a mut Stats, &'a mut CombatState), EncounterError> {
    plugin::parts_mut::<CepheusEngine>(combatant, field)
}

/// The combat state alone, mutably.
pub(crate) fn state_mut<'a>(
    encounter: &'a mut Encounter,
    id: &CombatantId,
    field: &str,
) -> Result<&'a mut CombatState, EncounterError> {
    Ok(parts_mut(combatant_mut(encounter, id, field)?, field)?.1)
}

/// Unconscious, dead and defeated combatants take no actions (cepheus-engine.txt, "Damage").
pub(crate) fn ensure_can_act(combatant: &Combatant, field: &str) -> Result<(), EncounterError> {
    let (stats, _) = parts(combatant, field)?;
    let status = stats.status();
    if !status.can_act() || combatant.flags.defeated {
        let why =
            if status.can_act() { "defeated".to_string() } else { format!("{status:?}").to_lowercase() };
        return Err(EncounterError::invalid(field, format!("{} cannot act ({why})", combatant.name)));
    }
    Ok(())
}

/// The combatant's own DMs on every check this round: the one-round penalties summed into one
/// modifier, then fatigue (see the module decisions).
pub(crate) fn own_check_modifiers(stats: &Stats, state: &CombatState, round: u32) -> Vec<Modifier> {
    let penalties = check_penalties(state, round);
    let mut modifiers = Vec::new();
    if !penalties.is_empty() {
        let total: i32 = penalties.iter().map(|(_, dm)| dm).sum();
        let list: Vec<String> = penalties.iter().map(|(reason, dm)| format!("{reason} {dm:+}")).collect();
        let reason = format!("own penalties this round ({})", list.join(", "));
        modifiers.push(Modifier::new(ModifierCode::OwnPenalties, reason, total.clamp(-20, 20)));
    }
    modifiers.extend(stats.check_dm_penalties());
    modifiers
}

pub(crate) fn invalid(field: &str, message: impl Into<String>) -> EncounterError {
    EncounterError::invalid(field, message)
}

/// A turn action: the combatant's turn, able to act, not grappling, and room in the turn.
pub(crate) fn turn_action(
    encounter: &mut Encounter,
    id: &CombatantId,
    cost: Cost,
    what: &str,
    grapple_allowed: bool,
) -> Result<ActionEconomy, EncounterError> {
    check_turn_action(encounter, id, cost, what, grapple_allowed)?.record(encounter, id)
}

/// [`turn_action`]'s refusals, changing nothing: [`Spending::record`] stores the spending.
pub(crate) fn check_turn_action(
    encounter: &Encounter,
    id: &CombatantId,
    cost: Cost,
    what: &str,
    grapple_allowed: bool,
) -> Result<Spending, EncounterError> {
    let found = combatant(encounter, id, "combatant_id")?;
    let (_, state) = parts(found, "combatant_id")?;
    ensure_turn(encounter, id, "combatant_id")?;
    ensure_can_act(found, "combatant_id")?;
    if !grapple_allowed && state.grappling_with.is_some() {
        return Err(invalid(
            "action",
            format!("{} is locked in a grapple and can only make grapple checks", found.name),
        ));
    }
    check_spend(encounter, id, cost, what)
}

pub(crate) fn clear_aim(state: &mut CombatState) -> bool {
    let had = state.aim > 0 || state.aim_for_kill > 0;
    state.aim = 0;
    state.aim_for_kill = 0;
    state.aim_target = None;
    had
}

/// Clears the combatant's aim and notes it.
pub(crate) fn lose_aim(
    encounter: &mut Encounter,
    id: &CombatantId,
    report: &mut ActionReport,
) -> Result<(), EncounterError> {
    if clear_aim(state_mut(encounter, id, "combatant_id")?) {
        report.notes.push(format!("{} stopped aiming and lost the aim", report.name));
    }
    Ok(())
}

/// Another combatant of the encounter than the actor (a dead one is refused before the action
/// runs, by the one rule: `receivers.rs`).
pub(crate) fn other(
    encounter: &Encounter,
    actor: &CombatantId,
    target: &CombatantId,
) -> Result<String, EncounterError> {
    let found = combatant(encounter, target, "target_id")?;
    parts(found, "target_id")?;
    if actor == target {
        return Err(invalid("target_id", "the target must be another combatant"));
    }
    Ok(found.name.clone())
}

/// The melee skill a parry subtracts (see the module decisions).
pub(crate) fn melee_level(stats: &Stats) -> i32 {
    stats.skill_level("melee_combat").max(stats.skill_level("melee")).unwrap_or(0)
}

/// One of the six characteristics, as a client names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineCharacteristicName))]
#[serde(rename_all = "snake_case")]
pub enum CharacteristicName {
    Str,
    Dex,
    End,
    Int,
    Edu,
    Soc,
}

impl CharacteristicName {
    /// The DM of the characteristic's current value.
    pub fn dm(self, stats: &Stats) -> i32 {
        use super::character::Physical;
        match self {
            CharacteristicName::Str => stats.current_dm(Physical::Str),
            CharacteristicName::Dex => stats.current_dm(Physical::Dex),
            CharacteristicName::End => stats.current_dm(Physical::End),
            CharacteristicName::Int => characteristic_dm(stats.int),
            CharacteristicName::Edu => characteristic_dm(stats.edu),
            CharacteristicName::Soc => characteristic_dm(stats.soc),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            CharacteristicName::Str => "STR",
            CharacteristicName::Dex => "DEX",
            CharacteristicName::End => "END",
            CharacteristicName::Int => "INT",
            CharacteristicName::Edu => "EDU",
            CharacteristicName::Soc => "SOC",
        }
    }
}

/// A characteristic value from a current value (always within 0..=30).
pub(crate) fn characteristic(value: i32) -> Characteristic {
    Characteristic::new(i64::from(value.clamp(0, 30))).unwrap_or_else(|_| unreachable!("clamped to 0..=30"))
}

#[cfg(test)]
mod actions_tests;
#[cfg(test)]
mod attack_facts_tests;
#[cfg(test)]
mod attack_tests;
#[cfg(test)]
mod interrupt_tests;
#[cfg(test)]
mod props_tests;
#[cfg(test)]
mod refusal_order_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod vehicle_recovery_tests;
#[cfg(test)]
mod vehicle_track_tests;
