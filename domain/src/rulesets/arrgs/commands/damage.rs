//! `damage`: typed damage outside an attack (a trap, a fall, a collision, a spell's fixed
//! effect), through Damage Resistance and Vulnerability (arrgs.txt, "Damage", "Damage
//! Resistance", "Damage Vulnerability", "Dying [n]").

use super::super::damage_types::{DamageSteps, DamageType, apply_resistance, check_types};
use super::super::fighter::{Fighter, Standing};
use super::super::table::{fighter, store};
use super::super::vitality::inflict_dying;
use super::super::{Arrgs, Report};
use super::attacks::InlineCombatant;
use super::event_report;
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::plugin::ensure_ruleset;
use crate::rulesets::{Command, Delivery, InlineDelivery, Receipt, RuleError, Stateless, Summary};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// Damage to a stored combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsDamageRequest))]
#[serde(deny_unknown_fields)]
pub struct DamageRequest {
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub target_id: CombatantId,
    /// The Success Value (damage) before resistance.
    pub amount: Score<0, 10_000>,
    /// Its damage types (each once); none for untyped Vitality loss.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<DamageType>,
    /// A mortal blow: one more application of Dying.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dying: bool,
}

/// Damage to an inline stat block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsInlineDamageRequest))]
#[serde(deny_unknown_fields)]
pub struct InlineDamageRequest {
    pub target: InlineCombatant,
    pub amount: Score<0, 10_000>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<DamageType>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dying: bool,
}

/// Damage as applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsDamageReport))]
pub struct DamageReport {
    pub target: String,
    pub steps: DamageSteps,
    pub dying_inflicted: bool,
    /// The target afterwards (docs/api-conventions.md: always a list).
    pub standings: Vec<Standing>,
}

impl Summary for DamageReport {
    fn summary(&self) -> String {
        let resisted = self.steps.resistance.as_ref().map_or(String::new(), |r| format!(", DR {}", r.value.get()));
        let vulnerable = if self.steps.vulnerability.is_some() { ", vulnerable ×1.5" } else { "" };
        let dying = if self.dying_inflicted { ", one more Dying" } else { "" };
        format!(
            "{} takes {} damage ({}{resisted}{vulnerable}){dying}: {}",
            self.target,
            self.steps.damage,
            self.steps.success_value,
            self.standings.iter().map(Standing::describe).collect::<Vec<_>>().join("; ")
        )
    }
}

/// Applies damage to a fighter (arrgs.txt, "Damage Resistance": highest only, then
/// "Damage Vulnerability" ×1.5 once, rounded down).
pub fn apply(target: &mut Fighter, amount: i32, types: &[DamageType], dying: bool) -> Result<DamageReport, RuleError> {
    target.total_vitality()?;
    check_types("types", types).map_err(|message| RuleError::invalid("types", message))?;
    let steps = apply_resistance(amount, types, &target.stats.resistances, &target.stats.vulnerabilities);
    target.lose_vitality(steps.damage);
    if dying {
        inflict_dying(target);
    }
    Ok(DamageReport { target: target.name.clone(), steps, dying_inflicted: dying, standings: vec![target.standing()] })
}

/// `POST …/arrgs/damage`.
pub struct Damage;

impl Command for Damage {
    type Ruleset = Arrgs;
    const NAME: &'static str = "damage";
    const DESCRIPTION: &'static str = "Applies typed damage to a combatant outside an attack (arrgs.txt, \"Damage\", \
        \"Damage Resistance\", \"Damage Vulnerability\"): the highest applicable resistance, then ×1.5 once for a \
        vulnerability (rounded down), then Vitality and the conditions it brings; `dying` adds one application of \
        Dying.";
    const EXAMPLE: &'static str = r#"{"target_id": "cmb_target", "amount": 9, "types": ["fire"]}"#;
    type Request = DamageRequest;
    type Report = DamageReport;

    fn deliveries(request: &DamageRequest) -> Vec<Delivery<'_>> {
        vec![Delivery::new(&request.target_id, "target_id", Receipt::Damage)]
    }

    fn run(encounter: &mut Encounter, request: DamageRequest, _dice: &mut Dice) -> Result<(Vec<Event>, DamageReport), EncounterError> {
        ensure_ruleset::<Arrgs>(encounter)?;
        let mut target = fighter(encounter, &request.target_id, "target_id")?;
        let report = apply(&mut target, request.amount.get(), &request.types, request.dying)?;
        store(encounter, &target)?;
        let event = Event::DamageApplied {
            combatant_id: request.target_id,
            report: event_report(Report::Damage(Box::new(report.clone()))),
            dice: Vec::new(),
        };
        Ok((vec![event], report))
    }
}

impl Stateless for Damage {
    type InlineRequest = InlineDamageRequest;
    const INLINE_EXAMPLE: &'static str = r#"{"target": {"name": "Troll", "stats": {"agility": 8, "vitality": 30,
        "resistances": [{"type": "slashing", "value": 3}], "vulnerabilities": ["fire"]}}, "amount": 9, "types": ["fire", "slashing"]}"#;

    fn inline_deliveries(request: &InlineDamageRequest) -> Vec<InlineDelivery<'_, Arrgs>> {
        vec![request.target.delivery("target", Receipt::Damage)]
    }

    fn run_inline(request: InlineDamageRequest, _dice: &mut Dice) -> Result<DamageReport, RuleError> {
        let mut target = request.target.fighter("target", "target")?;
        apply(&mut target, request.amount.get(), &request.types, request.dying)
    }
}
