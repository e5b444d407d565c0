//! `actions`: every manoeuvre that is not an attack, Ready and Complementary actions (arrgs.txt,
//! "Combat Actions" and the manoeuvres after it).

use super::super::opportunity::Opportunity;
use super::super::economy::Pace;
use super::super::manoeuvre_resolution::take;
use super::super::manoeuvres::{ActionReport, Cast, Manoeuvre, ManoeuvreResult};
use super::super::table::{ensure_distinct, fighter, scene, store};
use super::super::{Arrgs, Report};
use super::attacks::{MAX_OPPORTUNITIES, opportunists};
use super::event_report;
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::plugin::ensure_active;
use crate::rulesets::{Command, Delivery, Receipt, Summary};
use serde::{Deserialize, Serialize};

/// A manoeuvre by a stored combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsActionRequest))]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub combatant_id: CombatantId,
    /// Standard (AP, default), Swift (AAP) or Immediate (AAP; after Ready, or a Counterspell).
    #[serde(default)]
    pub pace: Pace,
    /// A manoeuvre without required fields may be its bare name: `"standup"`.
    #[serde(deserialize_with = "crate::bare_or_tagged::deserialize")]
    #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<Manoeuvre>))]
    pub manoeuvre: Manoeuvre,
    /// Opportunity attacks the manoeuvre provokes, made before it resolves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opportunities: Vec<Opportunity>,
}

impl Summary for ActionReport {
    fn summary(&self) -> String {
        let what = match &self.result {
            ManoeuvreResult::Wasted { reason } => format!("wasted: {reason}"),
            ManoeuvreResult::Complementary { description, .. } => format!("also {description}"),
            ManoeuvreResult::Ready { points, trigger, .. } => format!("readies {points} point(s) for \"{trigger}\""),
            ManoeuvreResult::Movement { squares, movement_increment, .. } => {
                format!("moves {squares} squares (Movement Increment {movement_increment})")
            }
            ManoeuvreResult::Withdraw { squares, .. } => format!("withdraws {squares} squares"),
            ManoeuvreResult::Sidestep { .. } => "sidesteps 1 square".into(),
            ManoeuvreResult::Standup => "stands up".into(),
            ManoeuvreResult::AidAnother { test, ally, assisted, .. } => match assisted {
                Some(value) => format!("check {} vs DC {}: {ally} gets +{value} Assisted", test.check.result, test.dc),
                None => format!("check {} vs DC {}: no help", test.check.result, test.dc),
            },
            ManoeuvreResult::ChangeReach { test, threat_range, .. } => {
                format!("check {} vs DC {}: Threat Range {}–{}", test.check.result, test.dc, threat_range[0], threat_range[1])
            }
            ManoeuvreResult::Reload { test, loaded } => format!("check {} vs DC {}: {loaded} loaded", test.check.result, test.dc),
            ManoeuvreResult::Miscellaneous { description, test, .. } => match test {
                Some(test) => format!("{description}: check {} vs DC {}, {}", test.check.result, test.dc, verdict(test.success)),
                None => description.clone(),
            },
            ManoeuvreResult::ControlSpell { test, spell }
            | ManoeuvreResult::Counterspell { test, spell, .. }
            | ManoeuvreResult::DismissSpell { test, spell } => {
                let on = spell.as_ref().map_or(String::new(), |name| format!(" on {name}"));
                format!("check {} vs DC {}{on}: {}", test.check.result, test.dc, verdict(test.success))
            }
            ManoeuvreResult::Mount { test } => format!("check {} vs DC {}: {}", test.check.result, test.dc, verdict(test.success)),
        };
        let after = self.standings.first().map_or(String::new(), |s| format!(" ({})", s.describe()));
        format!("{} — {}: {what}{after}", self.actor, self.manoeuvre)
    }
}

fn verdict(success: bool) -> &'static str {
    if success { "success" } else { "failure" }
}

/// `POST …/arrgs/actions`.
pub struct Actions;

impl Command for Actions {
    type Ruleset = Arrgs;
    const NAME: &'static str = "actions";
    const DESCRIPTION: &'static str = "Takes a manoeuvre other than an attack (arrgs.txt, \"Combat Actions\"): Aid \
        Another, Change Reach, Control Spell, Counterspell, Dismiss Spell, Miscellaneous, Mount, Movement, Ready, \
        Reload, Sidestep, Standup, Withdraw, or a Complementary action, as a Standard, Swift or Immediate action, with \
        its points, Vitality, check and effect, and the Opportunity attacks it provokes.";
    const EXAMPLE: &'static str =
        r#"{"combatant_id": "cmb_attacker", "manoeuvre": {"type": "movement", "squares": 5}}"#;
    type Request = ActionRequest;
    type Report = ActionReport;

    /// The actor and each opportunist act.
    fn deliveries(request: &ActionRequest) -> Vec<Delivery<'_>> {
        let mut deliveries = vec![Delivery::new(&request.combatant_id, "combatant_id", Receipt::Action)];
        deliveries.extend(opportunists(&request.opportunities));
        deliveries
    }

    fn run(encounter: &mut Encounter, request: ActionRequest, dice: &mut Dice) -> Result<(Vec<Event>, ActionReport), EncounterError> {
        ensure_active::<Arrgs>(encounter)?;
        if request.opportunities.len() > MAX_OPPORTUNITIES {
            return Err(EncounterError::invalid("opportunities", format!("at most {MAX_OPPORTUNITIES}")));
        }
        let other = match &request.manoeuvre {
            Manoeuvre::AidAnother { ally_id, .. } => Some((ally_id, "manoeuvre.ally_id")),
            Manoeuvre::Counterspell { caster_id, .. } => Some((caster_id, "manoeuvre.caster_id")),
            _ => None,
        };
        let mut cast = Cast { actor: fighter(encounter, &request.combatant_id, "combatant_id")?, other: None, opportunists: Vec::new() };
        if let Some((id, field)) = other {
            ensure_distinct(id, &request.combatant_id, field)?;
            cast.other = Some(fighter(encounter, id, field)?);
        }
        for (index, opportunity) in request.opportunities.iter().enumerate() {
            let field = format!("opportunities[{index}].combatant_id");
            ensure_distinct(&opportunity.combatant_id, &request.combatant_id, &field)?;
            if request.opportunities[..index].iter().any(|o| o.combatant_id == opportunity.combatant_id) {
                return Err(EncounterError::invalid(field, "listed twice"));
            }
            cast.opportunists.push((fighter(encounter, &opportunity.combatant_id, &field)?, opportunity.clone()));
        }
        let report = take(&mut cast, &request.manoeuvre, request.pace, &scene(encounter), dice)?;
        // Opportunists first: a combatant also named as the other carries their latest state.
        for fighter in cast.opportunists.iter().map(|(f, _)| f).chain(cast.other.iter()) {
            store(encounter, fighter)?;
        }
        store(encounter, &cast.actor)?;
        let action = request.manoeuvre.name().to_lowercase().replace(' ', "_");
        let event = Event::ActionTaken {
            combatant_id: request.combatant_id,
            action,
            report: event_report(Report::Action(Box::new(report.clone()))),
            dice: dice.rolls().to_vec(),
        };
        Ok((vec![event], report))
    }
}
