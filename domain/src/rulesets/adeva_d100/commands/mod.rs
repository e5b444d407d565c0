//! Adeva d100 operations on a stored encounter (attacks, damage, declared actions) and their
//! stateless twins that take stat blocks inline (adeva-d100.txt, "Combat Rules").
//!
//! A refused command changes nothing (dice already rolled are discarded). `attack` and `damage`
//! check every refusal before they store anything: they read combatants with [`peek`], which
//! leaves the turn refresh unstored, and write through [`refreshed_mut`] at the end. The actions
//! command still runs its handlers on a copy of the encounter (see `act`). On any error the store
//! discards its working copy as well (the `Command` contract in `rulesets/plugin.rs`).
//!
//! Decisions:
//! - Only an adeva-d100 encounter accepts these commands (others: conflict). Attacks and actions
//!   need an active encounter; damage may be applied at any time before the encounter ends.
//! - An attack is taken on the attacker's turn (`encounter.current`), except an Attack of
//!   Opportunity and a Counter-Attack (free actions on other characters' turns). The declared
//!   action is spent on the attacker's `TurnBudget` (refusals on field `action`).
//! - Surprise: a combatant flagged `surprised` is surprised in round 1 only: attacks against it get
//!   +30 and it may not dodge, parry or point-defend (field `evasion`, "a reaction by a surprised
//!   character"); a Deflect (free, unlimited, strongest Deflector only) is still allowed.
//! - Evasion characteristics: dodge tests Agility, parry Weapon Skill, point defence Ballistic
//!   Skill (the text does not say); decays apply to every characteristic tested.
//! - Multi-hit: a Burst or Flurry may list `extra_targets`, each wanting some hits, spread with
//!   `spread_hits` (the first hit stays on the main target; range, reach and "not harder to hit"
//!   are checked from what is sent and stored, see `core.rs`). Extra targets take their hits in
//!   the order listed, out of the hits scored; the main target keeps the rest. The one attack test uses the main target's modifiers (surprise,
//!   altitude, Guard Mode). "The enemy may make one evasion per attack": each target is an enemy
//!   of the attack, so each gets its own one evasion against the hits allocated to it (spending
//!   its own Reaction). Altitude is checked for every target.
//! - The Degrees of Success replace a die of the landed hit named by `dos_hit` (counted from 1 in
//!   rolling order, the main target's hits first), by default the first; a named hit that does not
//!   land leaves every die as rolled.
//! - Melee and thrown weapons add the attacker's Strength Bonus; ranged weapons do not. Soak is
//!   TB + AP − Penetration (AP not below 0). Critical confirmation uses the tested characteristic
//!   with no modifiers but Guard Mode's; the Lethal Damage chart names come from the encounter's
//!   `lethal_damage_table` option.
//! - Wounds: `wounds_taken` grows by the wounds lost, up to `wounds`. At 0 wounds without Fate
//!   Points the combatant is dead and `flags.defeated` is set; with Fate Points, damage past 0 is
//!   reported as Lethal Damage for the table (Fate is not spent automatically).
//! - Aim is read from the budget before the attack is spent (spending uses it up).
//! - Heavy Attack leaves −30 on the attacker's own Evasion, Guard Mode leaves its modifier on
//!   attacks against the actor; both end at the start of the actor's next turn (`dynamic.rs`).

mod action_groups;
pub mod action_outcome;
pub mod actions;
pub mod attack;
mod attack_report;
mod attack_checks;
mod attack_store;
mod charge;
pub mod core;
mod hits;
pub mod damage;
mod economy;
mod fire;
mod gm_actions;
mod grapple;
mod grapple_rolls;
pub mod inline;
mod manoeuvres;
mod overwatch;
mod starship;

pub use action_outcome::{ActionOutcome, ActionReport};
pub use actions::{Action, act};
pub use attack::{AttackReport, EncounterAttack, ExtraTarget, TargetReport, attack};
pub use core::{EvasionChoice, TargetOutcome};
pub use damage::{DamageReport, EncounterDamage, damage};
pub use inline::{InlineAttack, InlineDamage, attack_inline, damage_inline};

use super::Stats;
use super::state::CombatState;
use super::AdevaD100;
use crate::encounter::{Combatant, CombatantId, Encounter, EncounterError, Flags};
use crate::rulesets::receiving::{self, Delivery, Receipt};
use crate::rulesets::{RulesetState, plugin};

pub(crate) use crate::rulesets::plugin::ensure_turn;

/// A stunned combatant can neither attack nor act until its stun's round has passed
/// (adeva-d100.txt, "Take Down": "stunned for one round"); refused with field `action`.
pub(crate) fn ensure_not_stunned(encounter: &Encounter, id: &CombatantId) -> Result<(), EncounterError> {
    let Some(Combatant { state: RulesetState::AdevaD100(state), .. }) = encounter.combatant(id) else {
        return Ok(());
    };
    match state.stunned_until_round {
        Some(until) if encounter.round <= until => Err(EncounterError::invalid(
            "action",
            format!(
                "refused: {} is stunned (Take Down) and cannot attack or act until round {until} has passed",
                encounter.name_of(id)
            ),
        )),
        _ => Ok(()),
    }
}

/// A won Feint holds only while the attack is the feinter's very next action (adeva-d100.txt,
/// "Feint": "so long as it is the next action you take"): any other action of `actor`, a
/// reaction included, makes every opening it holds lapse. Its own record of a parry it may answer
/// with a Counter-Attack ("as part of the parry action") lapses too.
pub(crate) fn lapse_openings(encounter: &mut Encounter, actor: &CombatantId) {
    for combatant in &mut encounter.combatants {
        if let RulesetState::AdevaD100(state) = &mut combatant.state {
            if state.feinted_by.as_ref() == Some(actor) {
                state.feinted_by = None;
            }
            if &combatant.id == actor {
                state.parried = None;
            }
        }
    }
}

/// A pinned combatant is "held where it stood" (adeva-d100.txt, "Overwatch", "Suppressive
/// Fire"): any action with the Movement subtype is refused, field `action`. `state` is the
/// combatant's refreshed state ([`peek`]), so a pinning that has run out no longer holds it.
pub(crate) fn ensure_may_move(
    encounter: &Encounter,
    id: &CombatantId,
    state: &CombatState,
    spec: &super::actions::ActionSpec,
) -> Result<(), EncounterError> {
    if state.pinned && spec.has_subtype(super::actions::ActionSubtype::Movement) {
        return Err(EncounterError::invalid(
            "action",
            format!(
                "refused: {} is pinned, held where it stood, and cannot move until the end of its next turn",
                encounter.name_of(id)
            ),
        ));
    }
    Ok(())
}

/// The stat block, combat state and flags of a combatant, mutably (errors name `field`; see
/// [`plugin::parts_and_flags_mut`]).
pub(crate) fn parts_mut<'a>(
    encounter: &'a mut Encounter,
    id: &CombatantId,
    field: &str,
) -> Result<(&'a mut Stats, &'a mut CombatState, &'a mut Flags), EncounterError> {
    plugin::parts_and_flags_mut::<AdevaD100>(plugin::combatant_mut(encounter, id, field)?, field)
}

/// Where a combatant stands in the turn order, for [`CombatState::refresh`].
struct TurnFacts {
    round: u32,
    own: bool,
    passed: bool,
    surprised_now: bool,
}

impl TurnFacts {
    fn of(encounter: &Encounter, id: &CombatantId) -> Self {
        Self {
            round: encounter.round,
            own: encounter.current.as_ref() == Some(id),
            passed: encounter.combatant(id).is_some_and(|c| c.acted_this_round),
            surprised_now: encounter.round <= 1,
        }
    }

    /// Refreshes `state`; returns whether the combatant is surprised now.
    fn refresh(&self, state: &mut CombatState, flagged_surprised: bool) -> bool {
        let surprised = flagged_surprised && self.surprised_now;
        state.refresh(self.round, self.own, self.passed, surprised);
        surprised
    }
}

/// A clone of the stat block and refreshed state of a combatant, and whether it is surprised now,
/// leaving the encounter as it is (the refresh is stored by [`refreshed_mut`] when the command
/// stores its changes). A defeated combatant is refused.
pub(crate) fn peek(
    encounter: &Encounter,
    id: &CombatantId,
    field: &str,
) -> Result<(Stats, CombatState, bool), EncounterError> {
    // The one rule for the dead (`AdevaD100::may_receive`, through `receiving::check`), for
    // whom an operation reaches besides what it declares: the dead are refused (409), the
    // defeated but living go on (docs/rulesets/adeva-d100.md, "The dead and the defeated").
    let receipt = if matches!(field, "combatant_id" | "attacker_id") { Receipt::Action } else { Receipt::Damage };
    receiving::check(encounter, &Delivery::new(id, field, receipt))?;
    let mut probe = plugin::combatant(encounter, id, field)?.clone();
    let (stats, state, flags) = plugin::parts_and_flags_mut::<AdevaD100>(&mut probe, field)?;
    let surprised = TurnFacts::of(encounter, id).refresh(state, flags.surprised);
    Ok((stats.clone(), state.clone(), surprised))
}

/// [`parts_mut`] with the combat state refreshed first (the refresh [`peek`] left unstored).
pub(crate) fn refreshed_mut<'a>(
    encounter: &'a mut Encounter,
    id: &CombatantId,
    field: &str,
) -> Result<(&'a mut Stats, &'a mut CombatState, &'a mut Flags), EncounterError> {
    let facts = TurnFacts::of(encounter, id);
    let (stats, state, flags) = parts_mut(encounter, id, field)?;
    facts.refresh(state, flags.surprised);
    Ok((stats, state, flags))
}

#[cfg(test)]
mod stored_tests;
#[cfg(test)]
mod actions_tests;
#[cfg(test)]
mod attack_path_tests;
#[cfg(test)]
mod props_tests;
#[cfg(test)]
mod derived_tests;
#[cfg(test)]
mod resolved_tests;
