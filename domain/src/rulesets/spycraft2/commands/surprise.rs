//! `surprise`: the opposed team checks that decide the surprise round, before round 1
//! (spycraft2.txt, "Step 4: Surprise Round" and its sections).
//!
//! Decisions: a group is a `side`; the team check is one d20 per group plus the bonus the caller
//! gives (its Blend/Stealth or Sneak/Hide result with every modifier); groups tied for the
//! highest result get no surprise round; the surprise round is the encounter's round 1.
//! Surprise is decided once: a second check in setup is refused (409), so the dice cannot be
//! rolled again until a result pleases; undo the check to decide it again (the log keeps both).
//! A combatant is listed once among a group's participants.

use super::{snapshot, store};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, EncounterStatus, Event};
use crate::rulesets::spycraft2::modifier::check_text;
use crate::rulesets::spycraft2::state::SurpriseRole;
use crate::rulesets::spycraft2::surprise::{Awareness, SurpriseRuling, TeamCheckResult, roll_team_checks, rule};
use crate::rulesets::spycraft2::{Report, Spycraft2};
use crate::rulesets::{Registered, Summary, plugin};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// Most groups in one surprise check.
pub const MAX_GROUPS: usize = 20;

/// One group's team check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2TeamCheck))]
#[serde(deny_unknown_fields)]
pub struct TeamCheck {
    /// The group: a `side` of the encounter's combatants.
    pub side: String,
    /// The team's Blend/Stealth or Sneak/Hide bonus with every modifier of the skill.
    pub bonus: Score<-50, 100>,
    /// An acting group (some_aware only): conceals its presence or a sudden action.
    #[serde(default)]
    pub acting: bool,
    /// Partial group awareness: only these members take part in the check (and may act in the
    /// surprise round). Every member of the side by default.
    #[serde(default)]
    pub participants: Option<Vec<CombatantId>>,
}

/// `POST /v1/encounters/{id}/spycraft2/surprise`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2SurpriseRequest))]
#[serde(deny_unknown_fields)]
pub struct SurpriseRequest {
    pub awareness: Awareness,
    /// One team check per group (none when all are aware).
    #[serde(default)]
    pub groups: Vec<TeamCheck>,
}

/// A combatant named in a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Named))]
pub struct Named {
    pub combatant_id: CombatantId,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2SurpriseReport))]
pub struct SurpriseReport {
    pub awareness: Awareness,
    pub checks: Vec<TeamCheckResult>,
    pub ruling: SurpriseRuling,
    /// Who takes 1 free, 1 half or 1 full action in the surprise round (round 1).
    pub acting: Vec<Named>,
    /// Who may not act in it.
    pub waiting: Vec<Named>,
}

impl Summary for SurpriseReport {
    fn summary(&self) -> String {
        let checks: Vec<String> = self.checks.iter().map(|c| format!("{} {}", c.side, c.total)).collect();
        let checks = if checks.is_empty() { String::new() } else { format!(" (team checks: {})", checks.join(", ")) };
        match &self.ruling {
            SurpriseRuling::SurpriseRound { side } => {
                let names: Vec<&str> = self.acting.iter().map(|n| n.name.as_str()).collect();
                format!("{side} get the surprise round{checks}: {} act", names.join(", "))
            }
            SurpriseRuling::AllAware => "Everyone is aware: no surprise round".into(),
            SurpriseRuling::TiedForHighest { sides } => {
                format!("{} tie for the highest team check{checks}: no surprise round", sides.join(" and "))
            }
            SurpriseRuling::AmbushFailed { winner } => {
                format!("{winner} win the team check{checks}: the ambush fails, no surprise round")
            }
        }
    }
}

fn validate(encounter: &Encounter, request: &SurpriseRequest) -> Result<(), EncounterError> {
    match request.awareness {
        Awareness::AllAware if !request.groups.is_empty() => {
            return Err(EncounterError::invalid("groups", "no team checks when all groups are aware of each other"));
        }
        Awareness::AllAware => return Ok(()),
        _ if request.groups.len() < 2 => {
            return Err(EncounterError::invalid("groups", "an opposed team check needs two or more groups"));
        }
        _ if request.groups.len() > MAX_GROUPS => {
            return Err(EncounterError::invalid("groups", format!("at most {MAX_GROUPS} groups")));
        }
        Awareness::SomeAware if !request.groups.iter().any(|g| g.acting) => {
            return Err(EncounterError::invalid("groups", "some_aware needs an acting group (the ambushers)"));
        }
        _ => {}
    }
    for (index, group) in request.groups.iter().enumerate() {
        check_text(&format!("groups[{index}].side"), &group.side)?;
        if group.acting && request.awareness == Awareness::NoneAware {
            return Err(EncounterError::invalid(format!("groups[{index}].acting"), "only some_aware has acting groups"));
        }
        if !encounter.combatants.iter().any(|c| c.side == group.side) {
            return Err(EncounterError::invalid(format!("groups[{index}].side"), format!("no combatant is on side '{}'", group.side)));
        }
        if request.groups[..index].iter().any(|g| g.side == group.side) {
            return Err(EncounterError::invalid(format!("groups[{index}].side"), "listed twice"));
        }
        let participants = group.participants.as_deref().unwrap_or_default();
        for (j, id) in participants.iter().enumerate() {
            let field = format!("groups[{index}].participants[{j}]");
            if participants[..j].contains(id) {
                return Err(EncounterError::invalid(field, "listed twice"));
            }
            let member = plugin::combatant(encounter, id, &field)?;
            if member.side != group.side {
                return Err(EncounterError::invalid(field, format!("{} is not on side '{}'", member.name, group.side)));
            }
        }
    }
    Ok(())
}

/// Rolls the team checks and marks who acts in the surprise round (setup only).
pub fn surprise(
    encounter: &mut Encounter,
    request: SurpriseRequest,
    dice: &mut Dice,
) -> Result<(Vec<Event>, SurpriseReport), EncounterError> {
    plugin::ensure_ruleset::<Spycraft2>(encounter)?;
    if encounter.status != EncounterStatus::Setup {
        return Err(EncounterError::Conflict("surprise is decided before the encounter starts (round 1)".into()));
    }
    let decided = encounter.combatants.iter().filter_map(|c| <Spycraft2 as Registered>::state(&c.state));
    if decided.into_iter().any(|state| state.surprise != SurpriseRole::None) {
        return Err(EncounterError::Conflict(
            "surprise was already decided for this encounter; undo that change to decide it again".into(),
        ));
    }
    validate(encounter, &request)?;
    let groups: Vec<(String, bool, Score<-50, 100>)> =
        request.groups.iter().map(|g| (g.side.clone(), g.acting, g.bonus)).collect();
    let checks = roll_team_checks(&groups, dice)?;
    let ruling = rule(request.awareness, &checks);
    let winner = match &ruling {
        SurpriseRuling::SurpriseRound { side } => request.groups.iter().find(|g| &g.side == side),
        _ => None,
    };
    let (mut acting, mut waiting) = (Vec::new(), Vec::new());
    let ids: Vec<CombatantId> = encounter.combatants.iter().map(|c| c.id.clone()).collect();
    for id in &ids {
        let (name, _, mut state) = snapshot(encounter, id, "groups")?;
        let side = encounter.combatant(id).map(|c| c.side.clone()).unwrap_or_default();
        let eligible = winner.is_some_and(|group| {
            group.side == side && group.participants.as_ref().is_none_or(|listed| listed.contains(id))
        });
        state.surprise = match (winner, eligible) {
            (None, _) => SurpriseRole::NoSurpriseRound,
            (Some(_), true) => SurpriseRole::Acts,
            (Some(_), false) => SurpriseRole::Waits,
        };
        let named = Named { combatant_id: id.clone(), name };
        match state.surprise {
            SurpriseRole::Acts => acting.push(named),
            SurpriseRole::Waits => waiting.push(named),
            SurpriseRole::None | SurpriseRole::NoSurpriseRound => {}
        }
        store(encounter, id, state);
    }
    let report = SurpriseReport { awareness: request.awareness, checks, ruling, acting, waiting };
    let first = ids.first().cloned().ok_or_else(|| EncounterError::invalid("groups", "the encounter has no combatants"))?;
    let event = Event::ActionTaken {
        combatant_id: first,
        action: "surprise".into(),
        report: Spycraft2::report(Report::Surprise(Box::new(report.clone()))),
        dice: dice.rolls().to_vec(),
    };
    Ok((vec![event], report))
}
