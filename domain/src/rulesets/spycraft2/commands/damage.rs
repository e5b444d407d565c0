//! `damage`: damage outside an attack (a fall, a blast, electricity) on a stored combatant, and
//! its stateless twin (the damage model of `damage.rs`).

use super::{into_rule, snapshot, store};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, EncounterStatus, Event};
use crate::rulesets::spycraft2::damage::{DamageResult, apply};
use crate::rulesets::spycraft2::state::CombatState;
use crate::rulesets::spycraft2::stats::Stats;
use crate::rulesets::spycraft2::{Report, Spycraft2};
use crate::rulesets::{Registered, RuleError, Summary, plugin};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// `POST /v1/encounters/{id}/spycraft2/damage`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2DamageRequest))]
#[serde(deny_unknown_fields)]
pub struct DamageRequest {
    pub combatant_id: CombatantId,
    /// The damage result, before armour.
    pub amount: Score<0, 1000>,
    /// A critical hit: straight to wounds.
    #[serde(default)]
    pub critical: bool,
    /// Armour does not reduce this damage.
    #[serde(default)]
    pub ignore_damage_reduction: bool,
    /// Electrical damage: the Count change the caller's rules give (the text defers it), applied
    /// when 1 or more points are suffered.
    #[serde(default)]
    pub electrical_count_change: Option<Score<-20, 20>>,
}

/// `POST /v1/rulesets/spycraft2/damage`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2InlineDamageRequest))]
#[serde(deny_unknown_fields)]
pub struct InlineDamageRequest {
    pub target: Stats,
    #[serde(default)]
    pub vitality_lost: Option<Score<0, 1000>>,
    #[serde(default)]
    pub wounds_lost: Option<Score<0, 110>>,
    pub amount: Score<0, 1000>,
    #[serde(default)]
    pub critical: bool,
    #[serde(default)]
    pub ignore_damage_reduction: bool,
    #[serde(default)]
    pub electrical_count_change: Option<Score<-20, 20>>,
}

/// Damage taken, with the name of who took it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2DamageReport))]
pub struct DamageReport {
    /// Who took it (was `name`, still read from older stored reports).
    #[serde(alias = "name")]
    pub target: String,
    /// What the damage did (was `result`, still read): the one place of the damage, as in every
    /// report (docs/api-conventions.md).
    #[serde(alias = "result")]
    pub damage: DamageResult,
}

impl Summary for DamageReport {
    fn summary(&self) -> String {
        let r = &self.damage;
        let down = if r.down { format!(", {} is down", self.target) } else { String::new() };
        format!(
            "{} suffers {} of {} damage{}: {} vitality, {} wounds (wounds left {}){down}",
            self.target,
            r.suffered,
            r.amount,
            if r.critical { " (critical)" } else { "" },
            r.to_vitality,
            r.to_wounds,
            r.wounds_left
        )
    }
}

/// Applies damage to a stored combatant (any time before the encounter ends).
pub fn damage(
    encounter: &mut Encounter,
    request: DamageRequest,
    _dice: &mut Dice,
) -> Result<(Vec<Event>, DamageReport), EncounterError> {
    plugin::ensure_ruleset::<Spycraft2>(encounter)?;
    if encounter.status == EncounterStatus::Ended {
        return Err(EncounterError::Conflict("the encounter has ended".into()));
    }
    let (name, stats, mut state) = snapshot(encounter, &request.combatant_id, "combatant_id")?;
    let electrical = request.electrical_count_change.map(Score::get);
    let result = apply(&stats, &mut state, request.amount.get(), request.critical, request.ignore_damage_reduction, electrical)?;
    store(encounter, &request.combatant_id, state);
    if result.down && let Some(combatant) = encounter.combatant_mut(&request.combatant_id) {
        combatant.flags.defeated = true;
    }
    let report = DamageReport { target: name, damage: result };
    let event = Event::DamageApplied {
        combatant_id: request.combatant_id,
        report: Spycraft2::report(Report::Damage(Box::new(report.clone()))),
        dice: Vec::new(),
    };
    Ok((vec![event], report))
}

/// The same damage on an inline stat block.
pub fn damage_inline(request: InlineDamageRequest, _dice: &mut Dice) -> Result<DamageReport, RuleError> {
    let mut state = CombatState {
        vitality_lost: request.vitality_lost.map_or(0, Score::get),
        wounds_lost: request.wounds_lost.map_or(0, Score::get),
        ..CombatState::default()
    };
    let electrical = request.electrical_count_change.map(Score::get);
    let result = apply(
        &request.target,
        &mut state,
        request.amount.get(),
        request.critical,
        request.ignore_damage_reduction,
        electrical,
    )
    .map_err(into_rule)?;
    Ok(DamageReport { target: "the target".into(), damage: result })
}
