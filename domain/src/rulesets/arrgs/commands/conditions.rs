//! `conditions`: the game master sets a condition the rules inflict outside these operations
//! (a spell, a poison, a blow to the head), revitalises, or lets an Unconscious character try to
//! wake (arrgs.txt, "Conditions", "Unconscious", "Vitality").
//!
//! Decisions:
//! - Staggered [n] and Dying [n] are set to the number given (0 removes them); Unconscious and
//!   Prone are switched on or off. Staggered down to 0 Action Points drops every item held.
//! - Revitalisation raises Current Vitality up to the Total Vitality ("Vitality").
//! - The waking check (DC = negative Vitality + applications of Dying) is refused while the
//!   character is Dying ("Unconscious").
//! - A dead character receives no change at all, revitalisation included ("Death": it "may no
//!   longer interact with the world unless it is restored to life somehow").

use super::super::economy::staggered_to_zero;
use super::super::fighter::Standing;
use super::super::items::drop_all_held;
use super::super::table::{fighter, scene, store};
use super::super::vitality::{SurvivalCheck, wake_check};
use super::super::{Arrgs, Report};
use super::event_report;
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::plugin::ensure_ruleset;
use crate::rulesets::{Command, Delivery, Receipt, Summary};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// A change to a combatant's conditions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsConditionChange))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ConditionChange {
    Staggered { applications: Score<0, 20> },
    Dying { applications: Score<0, 20> },
    Unconscious { on: bool },
    Prone { on: bool },
    Revitalise { amount: Score<1, 10_000> },
    /// An Unconscious character disturbed by noise or touch tries to wake.
    Wake,
}

impl crate::bare_or_tagged::BareOrTagged for ConditionChange {
    const TAG: &'static str = "type";
    const BARE: &'static [&'static str] = &["wake"];
}

/// A condition change on a stored combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsConditionRequest))]
#[serde(deny_unknown_fields)]
pub struct ConditionRequest {
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub combatant_id: CombatantId,
    /// `"wake"` is `{"type": "wake"}`.
    #[serde(deserialize_with = "crate::bare_or_tagged::deserialize")]
    #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<ConditionChange>))]
    pub change: ConditionChange,
}

/// A condition change as made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsConditionReport))]
pub struct ConditionReport {
    pub change: ConditionChange,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wake_check: Option<SurvivalCheck>,
    /// Items dropped: Staggered to 0 Action Points drops all items held.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
    /// The combatant afterwards (docs/api-conventions.md: always a list).
    pub standings: Vec<Standing>,
}

impl Summary for ConditionReport {
    fn summary(&self) -> String {
        let check = self.wake_check.as_ref().map_or(String::new(), |c| {
            format!(" (check {} vs DC {}: {})", c.check.result, c.dc, c.outcome)
        });
        let dropped = if self.dropped.is_empty() { String::new() } else { format!("; drops {}", self.dropped.join(", ")) };
        let standings: Vec<String> = self.standings.iter().map(|s| format!("{}{check}: {}", s.name, s.describe())).collect();
        format!("{}{dropped}", standings.join("; "))
    }
}

/// `POST …/arrgs/conditions`.
pub struct Conditions;

impl Command for Conditions {
    type Ruleset = Arrgs;
    const NAME: &'static str = "conditions";
    const DESCRIPTION: &'static str = "Sets Staggered [n], Dying [n], Unconscious or Prone, revitalises, or makes an \
        Unconscious character's waking Fortitude check (arrgs.txt, \"Conditions\", \"Unconscious\", \"Vitality\").";
    const EXAMPLE: &'static str =
        r#"{"combatant_id": "cmb_target", "change": {"type": "staggered", "applications": 2}}"#;
    type Request = ConditionRequest;
    type Report = ConditionReport;

    fn deliveries(request: &ConditionRequest) -> Vec<Delivery<'_>> {
        let receipt = match request.change {
            ConditionChange::Revitalise { .. } => Receipt::Healing,
            _ => Receipt::Condition,
        };
        vec![Delivery::new(&request.combatant_id, "combatant_id", receipt)]
    }

    fn run(encounter: &mut Encounter, request: ConditionRequest, dice: &mut Dice) -> Result<(Vec<Event>, ConditionReport), EncounterError> {
        ensure_ruleset::<Arrgs>(encounter)?;
        let mut one = fighter(encounter, &request.combatant_id, "combatant_id")?;
        let mut wake = None;
        let mut dropped = Vec::new();
        match &request.change {
            ConditionChange::Staggered { applications } => {
                one.state.staggered = applications.get().unsigned_abs();
                if staggered_to_zero(&one, &scene(encounter)) {
                    dropped = drop_all_held(&mut one);
                }
            }
            ConditionChange::Dying { applications } => {
                one.total_vitality()?;
                one.state.dying = applications.get().unsigned_abs();
                one.state.disabled_after_dying = false;
            }
            ConditionChange::Unconscious { on } => one.state.unconscious = *on,
            ConditionChange::Prone { on } => one.state.prone = *on,
            ConditionChange::Revitalise { amount } => {
                let total = one.total_vitality()?;
                let room = (total - one.current_vitality()).max(0);
                one.lose_vitality(-amount.get().min(room));
            }
            ConditionChange::Wake => {
                if !one.state.unconscious {
                    return Err(EncounterError::invalid("change", format!("{} is not Unconscious", one.name)));
                }
                if one.state.dying > 0 {
                    return Err(EncounterError::invalid("change", format!("{} is Dying and cannot wake", one.name)));
                }
                wake = Some(wake_check(&mut one, dice)?);
            }
        }
        store(encounter, &one)?;
        let report =
            ConditionReport { change: request.change, wake_check: wake, dropped, standings: vec![one.standing()] };
        let event = Event::ActionTaken {
            combatant_id: request.combatant_id,
            action: "condition".into(),
            report: event_report(Report::Condition(Box::new(report.clone()))),
            dice: dice.rolls().to_vec(),
        };
        Ok((vec![event], report))
    }
}
