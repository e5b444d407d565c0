//! `enter`: a character entering a running fight rolls its Initiative check on entry, and is
//! flat-footed unless it entered intentionally (spycraft2.txt, "Step 1: Flat-Footedness",
//! "Step 3: Initiative Checks").

use super::surprise::Named;
use super::{snapshot, store};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event, InitiativeRequest, roll_initiative};
use crate::rulesets::spycraft2::{Report, Spycraft2};
use crate::rulesets::{Registered, Summary, plugin};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// `POST /v1/encounters/{id}/spycraft2/enter`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2EnterRequest))]
#[serde(deny_unknown_fields)]
pub struct EnterRequest {
    pub combatant_id: CombatantId,
    /// The character chose to join the fight after it began: not flat-footed.
    #[serde(default)]
    pub intentional: bool,
    /// Action Dice spent on the entry's Initiative check (1 to 10, at most those the stat block
    /// leaves; spycraft2.txt, "Step 3", Special Note).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_dice: Option<Score<1, 10>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2EnterReport))]
pub struct EnterReport {
    pub combatant: Named,
    pub count: i32,
    pub explanation: String,
    pub intentional: bool,
    pub flat_footed: bool,
    /// Its Count comes after the current turn, so it acts this round; otherwise from the next.
    pub acts_this_round: bool,
}

impl Summary for EnterReport {
    fn summary(&self) -> String {
        let how = if self.intentional { "joins the fight" } else { "is caught up in the fight, flat-footed" };
        let when = if self.acts_this_round { "acts this round" } else { "acts from the next round" };
        format!("{} {how}: Initiative Count {} ({}), {when}", self.combatant.name, self.count, self.explanation)
    }
}

/// Rolls the newcomer's Initiative check (1d20 + bonus) and sets its flat-footedness.
pub fn enter(
    encounter: &mut Encounter,
    request: EnterRequest,
    dice: &mut Dice,
) -> Result<(Vec<Event>, EnterReport), EncounterError> {
    plugin::ensure_active::<Spycraft2>(encounter)?;
    let id = request.combatant_id;
    let newcomer = plugin::combatant(encounter, &id, "combatant_id")?;
    if newcomer.initiative.is_some() {
        let message = format!("{} is already in the fight (Count already rolled)", newcomer.name);
        return Err(EncounterError::invalid("combatant_id", message));
    }
    let action_dice = request.action_dice.map(|count| (id.clone(), count.get() as u32)).into_iter().collect();
    let initiative = InitiativeRequest { combatants: Some(vec![id.clone()]), fixed: Vec::new(), action_dice };
    let mut events = roll_initiative(encounter, &initiative, dice).map_err(|error| match error {
        EncounterError::Invalid { field, message } if field.starts_with("action_dice[0]") => {
            EncounterError::invalid("action_dice", message)
        }
        other => other,
    })?;
    let (name, _, mut state) = snapshot(encounter, &id, "combatant_id")?;
    state.flat_footed = !request.intentional;
    store(encounter, &id, state);
    let entered = encounter.combatant(&id).ok_or_else(|| EncounterError::UnknownCombatant(id.clone()))?;
    let (count, explanation) = entered.initiative.as_ref().map_or((0, String::new()), |i| (i.score, i.explanation.clone()));
    let report = EnterReport {
        combatant: Named { combatant_id: id.clone(), name },
        count,
        explanation,
        intentional: request.intentional,
        flat_footed: !request.intentional,
        acts_this_round: !entered.acted_this_round,
    };
    events.push(Event::ActionTaken {
        combatant_id: id,
        action: "enter".into(),
        report: Spycraft2::report(Report::Enter(Box::new(report.clone()))),
        dice: Vec::new(),
    });
    Ok((events, report))
}
