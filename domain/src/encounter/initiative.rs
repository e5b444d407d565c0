//! Rolling (or setting) initiative and breaking ties by the ruleset's policy.

use super::error::EncounterError;
use super::events::Event;
use super::model::{CombatantId, Encounter, EncounterStatus, Initiative};
use super::order::{ranked_units, turn_order};
use crate::dice::Dice;
use crate::rulesets::{InitiativeContext, InitiativeExtension, TiePolicy};
use std::collections::BTreeMap;

/// Bounds a caller-set initiative value.
pub const MAX_FIXED_INITIATIVE: i32 = 10_000;
/// Roll-off rounds before a tie is left in join order (only reachable with scripted dice).
const MAX_ROLL_OFF_ROUNDS: usize = 20;

/// Who gets an initiative and how.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InitiativeRequest {
    /// Roll for these combatants; `None` means every combatant.
    pub combatants: Option<Vec<CombatantId>>,
    /// Caller-set values (physical rolls already totalled, or a ruleset without a formula).
    /// These combatants take the value instead of rolling, whether listed above or not.
    pub fixed: Vec<(CombatantId, i32)>,
    /// Each combatant's initiative extension: a count of its own resources to spend on its rolled
    /// check (the wire's `action_dice`), 1 to [`MAX_BOOST_DICE`] each; its ruleset applies it
    /// ([`crate::rulesets::Ruleset::extend_initiative`]).
    pub action_dice: Vec<(CombatantId, u32)>,
}

/// Most Action Dice one combatant may spend on one Initiative check in one request.
pub const MAX_BOOST_DICE: u32 = 10;

/// Sets initiative for the requested combatants, then breaks ties. A combatant getting its first
/// initiative mid-round ahead of the current turn has missed its count and acts from the next
/// round; one whose initiative changes keeps its turn this round if it has not acted yet. Like a
/// ruleset command, an error may leave `encounter` half-changed: the caller discards it (see
/// [`crate::rulesets::Command::run`]).
pub fn roll_initiative(
    encounter: &mut Encounter,
    request: &InitiativeRequest,
    dice: &mut Dice,
) -> Result<Vec<Event>, EncounterError> {
    if encounter.status == EncounterStatus::Ended {
        return Err(EncounterError::Conflict("the encounter has ended".into()));
    }
    let fixed = validate_fixed(encounter, &request.fixed)?;
    let targets = targets(encounter, request, &fixed)?;
    let boosts = validate_boosts(encounter, &request.action_dice, &fixed, &targets)?;
    let context = ambush_context(encounter);
    let newcomers: Vec<CombatantId> = targets
        .iter()
        .filter(|id| encounter.combatant(id).is_some_and(|c| c.initiative.is_none()))
        .cloned()
        .collect();
    let sources = group_sources(encounter, &targets, request)?;
    let mut events = Vec::new();
    for id in &targets {
        if let Some(source) = sources.get(id) {
            events.push(share(encounter, id, source)?);
            continue;
        }
        let how = How { fixed: fixed.get(id).copied(), boost: boosts.get(id).copied(), context };
        events.push(set_one(encounter, id, how, dice)?);
    }
    break_ties(encounter, dice, &mut events)?;
    if encounter.status == EncounterStatus::Active {
        mark_late_joiners(encounter, &newcomers);
    }
    Ok(events)
}

fn validate_fixed(
    encounter: &Encounter,
    fixed: &[(CombatantId, i32)],
) -> Result<BTreeMap<CombatantId, i32>, EncounterError> {
    let mut values = BTreeMap::new();
    for (index, (id, value)) in fixed.iter().enumerate() {
        if encounter.combatant(id).is_none() {
            let message = format!("combatant '{id}' is not in this encounter");
            return Err(EncounterError::invalid(format!("fixed[{index}].combatant_id"), message));
        }
        if !(-MAX_FIXED_INITIATIVE..=MAX_FIXED_INITIATIVE).contains(value) {
            let message = format!("must be between -{MAX_FIXED_INITIATIVE} and {MAX_FIXED_INITIATIVE}");
            return Err(EncounterError::invalid(format!("fixed[{index}].value"), message));
        }
        if values.insert(id.clone(), *value).is_some() {
            return Err(EncounterError::invalid(format!("fixed[{index}].combatant_id"), "listed twice"));
        }
    }
    Ok(values)
}

/// Checks each boost: a combatant in the encounter, listed once, rolled in this request (a fixed
/// value already holds whatever the table added), 1 to [`MAX_BOOST_DICE`] dice. Returns each
/// combatant's (index, dice).
fn validate_boosts(
    encounter: &Encounter,
    boosts: &[(CombatantId, u32)],
    fixed: &BTreeMap<CombatantId, i32>,
    targets: &[CombatantId],
) -> Result<BTreeMap<CombatantId, (usize, u32)>, EncounterError> {
    let mut checked = BTreeMap::new();
    for (index, (id, count)) in boosts.iter().enumerate() {
        let field = format!("action_dice[{index}].combatant_id");
        let refuse = |message: String| Err(EncounterError::invalid(field.clone(), message));
        if encounter.combatant(id).is_none() {
            return refuse(format!("combatant '{id}' is not in this encounter"));
        }
        if fixed.contains_key(id) {
            return refuse("has a fixed value in this request: Action Dice boost a check rolled here".into());
        }
        if !targets.contains(id) {
            return refuse("is not rolling initiative in this request (combatant_ids)".into());
        }
        if !(1..=MAX_BOOST_DICE).contains(count) {
            let message = format!("must be 1 to {MAX_BOOST_DICE}");
            return Err(EncounterError::invalid(format!("action_dice[{index}].dice"), message));
        }
        if checked.insert(id.clone(), (index, *count)).is_some() {
            return refuse("listed twice".into());
        }
    }
    Ok(checked)
}

/// A ruleset's refusal of a boost, its field placed under `action_dice[index]`.
fn in_list(error: crate::rulesets::RuleError, index: usize) -> EncounterError {
    match error {
        crate::rulesets::RuleError::Invalid { field, message } => {
            EncounterError::invalid(format!("action_dice[{index}].{field}"), message)
        }
        other => other.into(),
    }
}

/// The combatants to set, in join order.
fn targets(
    encounter: &Encounter,
    request: &InitiativeRequest,
    fixed: &BTreeMap<CombatantId, i32>,
) -> Result<Vec<CombatantId>, EncounterError> {
    if let Some(listed) = &request.combatants {
        for (index, id) in listed.iter().enumerate() {
            if encounter.combatant(id).is_none() {
                let message = format!("combatant '{id}' is not in this encounter");
                return Err(EncounterError::invalid(format!("combatant_ids[{index}]"), message));
            }
        }
    }
    let wanted = |id: &CombatantId| {
        fixed.contains_key(id) || request.combatants.as_ref().is_none_or(|listed| listed.contains(id))
    };
    let targets: Vec<_> = encounter.combatants.iter().map(|c| c.id.clone()).filter(wanted).collect();
    if targets.is_empty() {
        return Err(EncounterError::invalid("combatant_ids", "no combatant to roll initiative for"));
    }
    Ok(targets)
}

/// For each target in a group that rolls once: the member whose initiative it takes. That is the
/// group's member already holding one when the group is in the fight and that member is not
/// rolled again (reinforcements join their group's place), else the group's first target (join
/// order), which rolls (or takes its `fixed` value) for all. A member that takes another's may
/// not carry its own `fixed` value or Action Dice: 422 naming the entry.
fn group_sources(
    encounter: &Encounter,
    targets: &[CombatantId],
    request: &InitiativeRequest,
) -> Result<BTreeMap<CombatantId, CombatantId>, EncounterError> {
    let mut sources = BTreeMap::new();
    let mut rolling: BTreeMap<&str, &CombatantId> = BTreeMap::new();
    for id in targets {
        let Some(group) = encounter.combatant(id).and_then(|c| c.group.as_deref()) else { continue };
        let in_fight = encounter.combatants.iter().find(|c| {
            c.group.as_deref() == Some(group) && c.initiative.is_some() && !targets.contains(&c.id)
        });
        let source = match (in_fight, rolling.get(group)) {
            (Some(member), _) => member.id.clone(),
            (None, Some(first)) => (*first).clone(),
            (None, None) => {
                rolling.insert(group, id);
                continue;
            }
        };
        let own = |listed: Option<usize>, list: &str| match listed {
            Some(index) => Err(EncounterError::invalid(
                format!("{list}[{index}].combatant_id"),
                format!(
                    "rolls with its group '{group}' (the roll of '{}'): give the group's value there",
                    encounter.name_of(&source)
                ),
            )),
            None => Ok(()),
        };
        own(request.fixed.iter().position(|(listed, _)| listed == id), "fixed")?;
        own(request.action_dice.iter().position(|(listed, _)| listed == id), "action_dice")?;
        sources.insert(id.clone(), source);
    }
    Ok(sources)
}

/// `id` takes the initiative of `source`, a member of its group.
fn share(encounter: &mut Encounter, id: &CombatantId, source: &CombatantId) -> Result<Event, EncounterError> {
    let shared = encounter.combatant(source).and_then(|c| c.initiative.clone().map(|i| (i, c.name.clone())));
    let Some((initiative, source_name)) = shared else {
        return Err(EncounterError::UnknownCombatant(source.clone()));
    };
    let combatant =
        encounter.combatant_mut(id).ok_or_else(|| EncounterError::UnknownCombatant(id.clone()))?;
    let group = combatant.group.clone().unwrap_or_default();
    let explanation = format!("{}: rolls with its group {group} ({source_name})", initiative.score);
    combatant.initiative =
        Some(Initiative { score: initiative.score, roll_off: Vec::new(), explanation: explanation.clone() });
    Ok(Event::InitiativeSet {
        combatant_id: id.clone(),
        name: combatant.name.clone(),
        score: initiative.score,
        explanation,
        dice: Vec::new(),
    })
}

/// An ambush is some, but not all, combatants being surprised.
fn ambush_context(encounter: &Encounter) -> InitiativeContext {
    let surprised = encounter.combatants.iter().filter(|c| c.flags.surprised).count();
    InitiativeContext { ambush: surprised > 0 && surprised < encounter.combatants.len(), surprised: false }
}

/// How one combatant's initiative is set: a fixed value, or a roll with an optional boost
/// (`(index in action_dice, dice)`).
struct How {
    fixed: Option<i32>,
    boost: Option<(usize, u32)>,
    context: InitiativeContext,
}

fn set_one(
    encounter: &mut Encounter,
    id: &CombatantId,
    how: How,
    dice: &mut Dice,
) -> Result<Event, EncounterError> {
    let in_combat = encounter.status == EncounterStatus::Active;
    let combatant =
        encounter.combatant_mut(id).ok_or_else(|| EncounterError::UnknownCombatant(id.clone()))?;
    let first_die = dice.rolls().len();
    let (mut score, mut explanation) = match how.fixed {
        Some(score) => (score, format!("{score}, set by the caller")),
        None => {
            let context = InitiativeContext { surprised: combatant.flags.surprised, ..how.context };
            let purpose = format!("initiative: {}", combatant.name);
            let roll = combatant.stats.roll_initiative(context, dice, &purpose)?;
            (roll.score, roll.explanation)
        }
    };
    if let Some((index, count)) = how.boost {
        let purpose = format!("initiative boost: {}", combatant.name);
        let had_count = in_combat && combatant.initiative.is_some();
        let extension = InitiativeExtension { count, had_count };
        let boost = combatant
            .stats
            .extend_initiative(&mut combatant.state, extension, dice, &purpose)
            .map_err(|error| in_list(error, index))?;
        score = score.saturating_add(boost.score);
        explanation = format!("{explanation}; {} = {score}", boost.explanation);
    }
    combatant.initiative = Some(Initiative { score, roll_off: Vec::new(), explanation: explanation.clone() });
    let rolled = dice.rolls()[first_die..].to_vec();
    Ok(Event::InitiativeSet {
        combatant_id: id.clone(),
        name: combatant.name.clone(),
        score,
        explanation,
        dice: rolled,
    })
}

/// Rolls off every group of combatants tied on score and tie keys whose roll-off does not
/// already separate them (roll-off rulesets only). Ties within a roll-off are re-rolled. Also
/// called by round hooks whose rules move initiative scores (spycraft2's fluid Counts).
pub fn break_ties(
    encounter: &mut Encounter,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<(), EncounterError> {
    let TiePolicy::RollOff { sides } = encounter.ruleset.tie_policy() else {
        return Ok(());
    };
    for group in tied_groups(encounter) {
        if separated(encounter, &group) {
            continue;
        }
        let first_die = dice.rolls().len();
        roll_off(encounter, &group, sides, dice)?;
        events.push(Event::InitiativeTieBroken {
            combatant_ids: group,
            dice: dice.rolls()[first_die..].to_vec(),
        });
    }
    Ok(())
}

/// Score and tie keys (see [`ranked_units`]).
type Standing = (i32, Vec<i32>);

/// Units (of two or more; see [`ranked_units`]) with equal score and tie keys, each unit named
/// by its head: the members of a group roll off as one, by their head's die.
fn tied_groups(encounter: &Encounter) -> Vec<Vec<CombatantId>> {
    let mut groups: Vec<(Standing, Vec<CombatantId>)> = Vec::new();
    for entry in ranked_units(encounter) {
        if !std::ptr::eq(entry.combatant, entry.head) {
            continue;
        }
        match groups.last_mut() {
            Some((standing, group)) if *standing == entry.standing => group.push(entry.combatant.id.clone()),
            _ => groups.push((entry.standing, vec![entry.combatant.id.clone()])),
        }
    }
    groups.into_iter().map(|(_, group)| group).filter(|group| group.len() > 1).collect()
}

/// True when every member has a roll-off and none is equal to or a prefix of another.
fn separated(encounter: &Encounter, group: &[CombatantId]) -> bool {
    let offs: Vec<&[u32]> = group.iter().map(|id| roll_off_of(encounter, id)).collect();
    offs.iter()
        .enumerate()
        .all(|(i, a)| !a.is_empty() && offs[i + 1..].iter().all(|b| !a.starts_with(b) && !b.starts_with(a)))
}

fn roll_off_of<'e>(encounter: &'e Encounter, id: &CombatantId) -> &'e [u32] {
    encounter.combatant(id).and_then(|c| c.initiative.as_ref()).map_or(&[], |i| i.roll_off.as_slice())
}

/// Everyone in the group rolls a die; those still level roll again, up to a bound.
fn roll_off(
    encounter: &mut Encounter,
    group: &[CombatantId],
    sides: u32,
    dice: &mut Dice,
) -> Result<(), EncounterError> {
    let mut pending = vec![group.to_vec()];
    for member in group {
        if let Some(initiative) = encounter.combatant_mut(member).and_then(|c| c.initiative.as_mut()) {
            initiative.roll_off.clear();
        }
    }
    for _ in 0..MAX_ROLL_OFF_ROUNDS {
        let mut still_tied = Vec::new();
        for tie in pending {
            let mut by_value: BTreeMap<u32, Vec<CombatantId>> = BTreeMap::new();
            for id in tie {
                let name = encounter.name_of(&id);
                let value = dice.roll(sides, format!("initiative roll-off: {name}"))?;
                if let Some(initiative) = encounter.combatant_mut(&id).and_then(|c| c.initiative.as_mut()) {
                    initiative.roll_off.push(value);
                }
                by_value.entry(value).or_default().push(id);
            }
            still_tied.extend(by_value.into_values().filter(|ids| ids.len() > 1));
        }
        if still_tied.is_empty() {
            break;
        }
        pending = still_tied;
    }
    Ok(())
}

/// Newcomers who got an initiative mid-round ahead of the current turn have missed their count:
/// they act from the next round.
fn mark_late_joiners(encounter: &mut Encounter, newcomers: &[CombatantId]) {
    let Some(current) = encounter.current.clone() else { return };
    let order = turn_order(encounter);
    let Some(current_position) = order.iter().position(|slot| slot.combatant_id == current) else { return };
    for (position, slot) in order.iter().enumerate() {
        if position < current_position
            && newcomers.contains(&slot.combatant_id)
            && let Some(combatant) = encounter.combatant_mut(&slot.combatant_id)
        {
            combatant.acted_this_round = true;
        }
    }
}
