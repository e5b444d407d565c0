//! `saves`: a saving throw against a DC, on a stored combatant or an inline stat block
//! (spycraft2.txt, "Table: Fluid Initiative Modifiers", "Saving Throws").

use super::{into_rule, snapshot, store};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::spycraft2::modifier::{CallerModifier, caller_modifiers};
use crate::rulesets::spycraft2::saves::{Save, SaveAgainst, SaveCheck, SaveReport, roll};
use crate::rulesets::spycraft2::state::CombatState;
use crate::rulesets::spycraft2::stats::Stats;
use crate::rulesets::spycraft2::{Report, Spycraft2};
use crate::rulesets::{Registered, RuleError, Summary, plugin};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// `POST /v1/encounters/{id}/spycraft2/saves`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2SaveRequest))]
#[serde(deny_unknown_fields)]
pub struct SaveRequest {
    pub combatant_id: CombatantId,
    /// Which saving throw: Fortitude, Reflex or Will.
    pub save: Save,
    /// The save's Difficulty Class.
    pub dc: Score<1, 100>,
    /// A save against a stress condition or to reduce blast damage (each has its own row).
    #[serde(default)]
    pub against: SaveAgainst,
    /// The caller's own modifiers on the save, each with its reason.
    #[serde(default)]
    pub modifiers: Vec<CallerModifier>,
}

/// `POST /v1/rulesets/spycraft2/saves`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2InlineSaveRequest))]
#[serde(deny_unknown_fields)]
pub struct InlineSaveRequest {
    pub stats: Stats,
    pub save: Save,
    pub dc: Score<1, 100>,
    #[serde(default)]
    pub against: SaveAgainst,
    /// The caller's own modifiers on the save, each with its reason.
    #[serde(default)]
    pub modifiers: Vec<CallerModifier>,
}

impl Summary for SaveReport {
    fn summary(&self) -> String {
        let verdict = if self.success { "saves" } else { "fails" };
        let cost: i32 = self.fluid.iter().map(|e| e.value).sum();
        let count = if cost == 0 { String::new() } else { format!(" (Count {cost:+} at round end)") };
        format!("{} {verdict} a {:?} save: {} against DC {}{count}", self.combatant, self.save, self.total, self.dc)
    }
}

fn check(save: Save, against: SaveAgainst, dc: Score<1, 100>, modifiers: &[CallerModifier]) -> Result<SaveCheck, EncounterError> {
    Ok(SaveCheck { save, against, dc: dc.get(), modifiers: caller_modifiers("modifiers", modifiers)? })
}

/// Rolls a stored combatant's save (any time while the encounter runs).
pub fn save(
    encounter: &mut Encounter,
    request: SaveRequest,
    dice: &mut Dice,
) -> Result<(Vec<Event>, SaveReport), EncounterError> {
    plugin::ensure_active::<Spycraft2>(encounter)?;
    let check = check(request.save, request.against, request.dc, &request.modifiers)?;
    let (name, stats, mut state) = snapshot(encounter, &request.combatant_id, "combatant_id")?;
    let report = roll(&name, &stats, &mut state, check, dice)?;
    store(encounter, &request.combatant_id, state);
    let event = Event::ActionTaken {
        combatant_id: request.combatant_id,
        action: "save".into(),
        report: Spycraft2::report(Report::Save(Box::new(report.clone()))),
        dice: dice.rolls().to_vec(),
    };
    Ok((vec![event], report))
}

/// The same save on an inline stat block.
pub fn save_inline(request: InlineSaveRequest, dice: &mut Dice) -> Result<SaveReport, RuleError> {
    let check = check(request.save, request.against, request.dc, &request.modifiers).map_err(into_rule)?;
    let mut state = CombatState::default();
    roll("the character", &request.stats, &mut state, check, dice).map_err(into_rule)
}
