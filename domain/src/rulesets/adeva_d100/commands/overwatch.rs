//! Overwatch on a stored encounter (adeva-d100.txt, "Action List", "Overwatch"): setting it and
//! a trigger that may fire it.
//!
//! Decisions:
//! - Overwatch: `overwatch_set` spends the full action and stores the Overwatch on the actor's
//!   combat state. Any later non-free action through the act command ends it (the attack
//!   command does not know of it). `overwatch_trigger` checks the triggers against the observed
//!   enemy; if it fires (or the GM says so with `gm_fires`), an opposed Agility test settles a
//!   simultaneous action (`simultaneous`, an ally may `ally_yields`). The readied attack is then
//!   rolled through the attack path against the observed enemy ("This attack occurs the moment
//!   the conditions are met"), off the overwatcher's turn and spending nothing (the Overwatch's
//!   full action paid for it); the trigger carries its `damage`, `penetration`, the target's
//!   `evasion` and further `modifiers`. If the other character won the Agility test the attack
//!   is still rolled, after its action (noted). Afterwards, hit or miss, the observed enemy makes
//!   its Pinning test (its `pinning_characteristic`), and the Overwatch is used up. A non-free
//!   attack made through the attack command, or a dodge/parry as a reaction, also ends it.

use super::super::actions::attack_actions::{MultiHitAttack, SingleAttack};
use super::super::actions::declared::DeclaredAction;
use super::super::actions::overwatch::{
    FirstToAct, ObservedAction, Overwatch, OverwatchAttack, TriggerVerdict, check_triggers,
    pinning_after_overwatch, who_goes_first,
};
use super::super::actions::action_spec;
use super::super::damage::DamageDice;
use super::super::decay::CharacteristicName;
use super::super::test_modifiers::CallerModifier;
use super::action_outcome::{ActionOutcome, Ran};
use super::attack::{EncounterAttack, overwatch_attack};
use super::core::{EvasionChoice, effective};
use super::fire::{apply_pinning, subject};
use super::manoeuvres::spend;
use super::{refreshed_mut, peek};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};
use serde::Deserialize;

pub(super) fn overwatch_set(
    encounter: &mut Encounter,
    actor: CombatantId,
    input: Overwatch,
) -> Result<Ran, EncounterError> {
    let spec = action_spec(&DeclaredAction::Overwatch(input.clone()))?;
    spend(encounter, &actor, &spec)?;
    refreshed_mut(encounter, &actor, "combatant_id")?.1.overwatch = Some(input.clone());
    let notes = spec.notes.clone();
    Ok((actor, "overwatch".into(), ActionOutcome::OverwatchSet { overwatch: Box::new(input) }, notes))
}

/// What the client says it saw.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Observed))]
#[serde(deny_unknown_fields)]
pub struct Observed {
    pub in_kill_zone: bool,
    #[serde(default = "yes")]
    pub is_enemy: bool,
    /// Whom the observed action attacks, if it is an attack.
    #[serde(default)]
    pub attack_target_id: Option<CombatantId>,
    /// Where it stood when it triggered the Overwatch.
    #[serde(default)]
    pub location: Option<String>,
}

fn yes() -> bool {
    true
}

pub(super) struct Trigger {
    pub actor: CombatantId,
    pub target: CombatantId,
    pub observed: Observed,
    pub simultaneous: bool,
    pub ally_yields: bool,
    pub gm_fires: bool,
    pub attack: ReadiedAttack,
}

/// What the readied attack needs to be rolled when the Overwatch fires.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct ReadiedAttack {
    pub damage: Option<DamageDice>,
    pub penetration: u32,
    pub evasion: EvasionChoice,
    pub modifiers: Vec<CallerModifier>,
}

pub(super) fn overwatch_trigger(
    encounter: &mut Encounter,
    input: Trigger,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let Trigger { actor, target, observed, simultaneous, ally_yields, gm_fires, attack: readied } = input;
    if actor == target {
        return Err(EncounterError::invalid("target_id", "the target must be another combatant"));
    }
    let (actor_stats, actor_state, _) = peek(encounter, &actor, "combatant_id")?;
    let Some(overwatch) = actor_state.overwatch.clone() else {
        return Err(EncounterError::invalid("combatant_id", "this combatant has no Overwatch set"));
    };
    let (target_stats, target_state, _) = peek(encounter, &target, "target_id")?;
    let attack_target = observed.attack_target_id.as_ref().map(|id| encounter.name_of(id));
    let seen = ObservedAction {
        actor: encounter.name_of(&target),
        actor_is_enemy: observed.is_enemy,
        in_kill_zone: observed.in_kill_zone,
        attack_target,
        actor_reactions_left: u32::from(!target_state.budget.reaction_used),
    };
    let verdict = check_triggers(&overwatch.triggers, &seen);
    let fires = verdict == TriggerVerdict::Fires || (verdict == TriggerVerdict::GmDecides && gm_fires);
    let mut notes = Vec::new();
    if !fires {
        notes.push("the Overwatch does not fire and stays set".into());
        let outcome = ActionOutcome::OverwatchTrigger {
            target_id: target,
            verdict,
            first: None,
            attack: None,
            pinning: None,
        };
        return Ok((actor, "overwatch trigger".into(), outcome, notes));
    }
    let first: Option<FirstToAct> = if simultaneous {
        let ours = effective(&actor_stats, CharacteristicName::Ag)?;
        let theirs = effective(&target_stats, CharacteristicName::Ag)?;
        Some(who_goes_first(ours, theirs, !observed.is_enemy, ally_yields, dice)?)
    } else {
        None
    };
    if matches!(&first, Some(f) if !f.overwatch_first) {
        notes.push("the other character's action went first; the Overwatch fires after it".into());
    }
    let request = readied_request(&actor, &target, &overwatch, readied);
    let report = overwatch_attack(encounter, &request, dice)?;
    let mut subject = subject(&target, target_stats)?;
    subject.location = observed.location.clone();
    let pinning = pinning_after_overwatch(std::slice::from_ref(&subject), dice)?;
    apply_pinning(encounter, std::slice::from_ref(&target), &pinning, &mut notes)?;
    refreshed_mut(encounter, &actor, "combatant_id")?.1.overwatch = None;
    let outcome = ActionOutcome::OverwatchTrigger {
        target_id: target,
        verdict,
        first: first.map(Box::new),
        attack: Some(Box::new(report)),
        pinning: pinning.into_iter().next().map(Box::new),
    };
    Ok((actor, "overwatch trigger".into(), outcome, notes))
}

/// The Overwatch's readied attack against the observed enemy, as the attack path takes it: its
/// weapon on a Standard Attack or a Burst, with what the trigger carries (adeva-d100.txt,
/// "Overwatch").
fn readied_request(
    actor: &CombatantId,
    target: &CombatantId,
    overwatch: &Overwatch,
    readied: ReadiedAttack,
) -> EncounterAttack {
    let weapon = overwatch.weapon.clone();
    let action = match overwatch.attack {
        OverwatchAttack::Standard {} => DeclaredAction::StandardAttack(SingleAttack { weapon }),
        OverwatchAttack::Burst { declared_hits } => {
            DeclaredAction::Burst(MultiHitAttack { weapon, declared_hits })
        }
    };
    EncounterAttack {
        attacker_id: actor.clone(),
        target_id: target.clone(),
        action,
        damage: readied.damage,
        penetration: readied.penetration,
        evasion: readied.evasion,
        evasion_modifiers: Vec::new(),
        modifiers: readied.modifiers,
        extra_targets: Vec::new(),
        long_range_weapon: false,
        unarmed: false,
        dos_hit: None,
        engine_modifiers: Vec::new(),
    }
}
