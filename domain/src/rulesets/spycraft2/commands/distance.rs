//! `distance`: the base encounter distance for a stored encounter (capped at the farthest sense
//! of its combatants) or for inline senses (spycraft2.txt, "Step 2: Base Encounter Distance").

use super::into_rule;
use crate::dice::Dice;
use crate::encounter::{Encounter, EncounterError, EncounterStatus, Event};
use crate::rulesets::spycraft2::distance::{DistanceReport, Terrain, base_distance};
use crate::rulesets::spycraft2::stats::Feet;
use crate::rulesets::spycraft2::{Report, Spycraft2};
use crate::rulesets::{Registered, RuleError, plugin};
use serde::{Deserialize, Serialize};

/// Most senses an inline request may list.
pub const MAX_SENSES: usize = 200;

/// `POST /v1/encounters/{id}/spycraft2/distance`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2DistanceRequest))]
#[serde(deny_unknown_fields)]
pub struct DistanceRequest {
    pub terrain: Terrain,
    /// Indoors only: the line of sight in feet, when known.
    #[serde(default)]
    pub line_of_sight_ft: Option<Feet>,
}

/// `POST /v1/rulesets/spycraft2/distance`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2InlineDistanceRequest))]
#[serde(deny_unknown_fields)]
pub struct InlineDistanceRequest {
    pub terrain: Terrain,
    #[serde(default)]
    pub line_of_sight_ft: Option<Feet>,
    /// Every visual and hearing range present, in feet (the highest caps the distance).
    #[serde(default)]
    pub senses_ft: Vec<Feet>,
}

/// Rolls the distance for a stored encounter, before or during the fight; the cap is the
/// farthest visual or hearing range in the combatants' stat blocks.
pub fn distance(
    encounter: &mut Encounter,
    request: DistanceRequest,
    dice: &mut Dice,
) -> Result<(Vec<Event>, DistanceReport), EncounterError> {
    plugin::ensure_ruleset::<Spycraft2>(encounter)?;
    if encounter.status == EncounterStatus::Ended {
        return Err(EncounterError::Conflict("the encounter has ended".into()));
    }
    let first = encounter
        .combatants
        .first()
        .map(|c| c.id.clone())
        .ok_or_else(|| EncounterError::Conflict("add the groups' combatants first: their senses cap the distance".into()))?;
    let cap = encounter
        .combatants
        .iter()
        .filter_map(|c| <Spycraft2 as Registered>::stats(&c.stats))
        .filter_map(|stats| stats.farthest_sense_ft())
        .max();
    let report = base_distance(request.terrain, request.line_of_sight_ft, cap, dice)?;
    let event = Event::ActionTaken {
        combatant_id: first,
        action: "base_encounter_distance".into(),
        report: Spycraft2::report(Report::Distance(Box::new(report.clone()))),
        dice: dice.rolls().to_vec(),
    };
    Ok((vec![event], report))
}

/// The same roll for inline senses.
pub fn distance_inline(request: InlineDistanceRequest, dice: &mut Dice) -> Result<DistanceReport, RuleError> {
    if request.senses_ft.len() > MAX_SENSES {
        return Err(RuleError::invalid("senses_ft", format!("at most {MAX_SENSES} ranges")));
    }
    let cap = request.senses_ft.iter().map(|feet| feet.get()).max();
    base_distance(request.terrain, request.line_of_sight_ft, cap, dice).map_err(into_rule)
}
