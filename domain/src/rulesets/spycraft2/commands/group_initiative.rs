//! `group-initiative`: one Initiative check for a whole group of opponents, whose members share
//! the Count (spycraft2.txt, "Step 3: Initiative Checks").
//!
//! Decisions: the group rolls 1d20 + the bonus the caller gives, by default its first-listed
//! member's Initiative bonus; members then tie on the Count and are ordered as any tie is
//! (Initiative bonus, then a d20 roll-off). Counts are rolled before the fight or for groups
//! entering it; a character already in a running fight keeps its Count.

use super::surprise::Named;
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, EncounterStatus, Event, InitiativeRequest, roll_initiative};
use crate::rulesets::spycraft2::modifier::check_text;
use crate::rulesets::spycraft2::round::{OrderEntry, order};
use crate::rulesets::spycraft2::stats::Bonus;
use crate::rulesets::spycraft2::{Report, Spycraft2};
use crate::rulesets::{Registered, Summary, plugin};
use serde::{Deserialize, Serialize};

/// Most groups (and members per group) in one request.
pub const MAX_GROUPS: usize = 20;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2InitiativeGroup))]
#[serde(deny_unknown_fields)]
pub struct InitiativeGroup {
    /// 1 to 100 characters, e.g. "Guards".
    pub name: String,
    pub combatant_ids: Vec<CombatantId>,
    /// The group's Initiative bonus; the first member's by default.
    #[serde(default)]
    pub bonus: Option<Bonus>,
}

/// `POST /v1/encounters/{id}/spycraft2/group-initiative`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2GroupInitiativeRequest))]
#[serde(deny_unknown_fields)]
pub struct GroupInitiativeRequest {
    /// The groups, each rolling one Initiative check for all its members.
    pub groups: Vec<InitiativeGroup>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2GroupRoll))]
pub struct GroupRoll {
    pub name: String,
    pub die: u32,
    pub bonus: i32,
    /// The Count every member shares.
    pub count: i32,
    pub members: Vec<Named>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2GroupInitiativeReport))]
pub struct GroupInitiativeReport {
    pub groups: Vec<GroupRoll>,
    /// Every combatant with a Count, in acting order.
    pub order: Vec<OrderEntry>,
}

impl Summary for GroupInitiativeReport {
    fn summary(&self) -> String {
        let groups: Vec<String> =
            self.groups.iter().map(|g| format!("{} {} (1d20 {} {:+})", g.name, g.count, g.die, g.bonus)).collect();
        format!("Group initiative: {}", groups.join(", "))
    }
}

fn validate(encounter: &Encounter, request: &GroupInitiativeRequest) -> Result<(), EncounterError> {
    if request.groups.is_empty() || request.groups.len() > MAX_GROUPS {
        return Err(EncounterError::invalid("groups", format!("1 to {MAX_GROUPS} groups")));
    }
    let mut seen: Vec<&CombatantId> = Vec::new();
    for (index, group) in request.groups.iter().enumerate() {
        check_text(&format!("groups[{index}].name"), &group.name)?;
        if group.combatant_ids.is_empty() || group.combatant_ids.len() > encounter.combatants.len().max(1) {
            return Err(EncounterError::invalid(format!("groups[{index}].combatant_ids"), "list the group's members (each once)"));
        }
        for (j, id) in group.combatant_ids.iter().enumerate() {
            let field = format!("groups[{index}].combatant_ids[{j}]");
            let member = plugin::combatant(encounter, id, &field)?;
            if seen.contains(&id) {
                return Err(EncounterError::invalid(field, "listed twice"));
            }
            if encounter.status == EncounterStatus::Active && member.initiative.is_some() {
                return Err(EncounterError::invalid(field, format!("{} is already in the fight with a Count", member.name)));
            }
            seen.push(id);
        }
    }
    Ok(())
}

/// Rolls one check per group and gives every member its group's Count.
pub fn group_initiative(
    encounter: &mut Encounter,
    request: GroupInitiativeRequest,
    dice: &mut Dice,
) -> Result<(Vec<Event>, GroupInitiativeReport), EncounterError> {
    plugin::ensure_ruleset::<Spycraft2>(encounter)?;
    if encounter.status == EncounterStatus::Ended {
        return Err(EncounterError::Conflict("the encounter has ended".into()));
    }
    validate(encounter, &request)?;
    let mut rolls = Vec::new();
    let mut fixed = Vec::new();
    for (index, group) in request.groups.iter().enumerate() {
        let first = plugin::combatant(encounter, &group.combatant_ids[0], &format!("groups[{index}].combatant_ids[0]"))?;
        let own = <Spycraft2 as Registered>::stats(&first.stats).map_or(0, |s| s.initiative_bonus.get());
        let bonus = group.bonus.map_or(own, |b| b.get());
        let die = dice.roll(20, format!("group initiative: {}", group.name))?;
        let count = die as i32 + bonus;
        let mut members = Vec::new();
        for id in &group.combatant_ids {
            fixed.push((id.clone(), count));
            members.push(Named { combatant_id: id.clone(), name: encounter.name_of(id) });
        }
        rolls.push(GroupRoll { name: group.name.clone(), die, bonus, count, members });
    }
    let initiative = InitiativeRequest { combatants: Some(Vec::new()), fixed, action_dice: Vec::new() };
    let mut events = roll_initiative(encounter, &initiative, dice)?;
    for roll in &rolls {
        let explanation = format!("group '{}': 1d20 ({}) + Initiative bonus {:+} = {}", roll.name, roll.die, roll.bonus, roll.count);
        for member in &roll.members {
            explain(encounter, &mut events, &member.combatant_id, &explanation);
        }
    }
    let report = GroupInitiativeReport { groups: rolls, order: order(encounter) };
    let first = request.groups[0].combatant_ids[0].clone();
    // The group dice come first in the log, as they were rolled before any roll-off.
    events.insert(0, Event::ActionTaken {
        combatant_id: first,
        action: "group_initiative".into(),
        report: Spycraft2::report(Report::Initiative(Box::new(report.clone()))),
        dice: Vec::new(),
    });
    Ok((events, report))
}

/// Replaces the generic "set by the caller" wording with the group check's working.
fn explain(encounter: &mut Encounter, events: &mut [Event], id: &CombatantId, explanation: &str) {
    if let Some(initiative) = encounter.combatant_mut(id).and_then(|c| c.initiative.as_mut()) {
        initiative.explanation = explanation.to_owned();
    }
    for event in events.iter_mut() {
        if let Event::InitiativeSet { combatant_id, explanation: text, .. } = event
            && combatant_id == id
        {
            *text = explanation.to_owned();
        }
    }
}
