//! `end-of-round`: the End of Round checks made with the caller's dice, before the round is
//! advanced (arrgs.txt, "Structure", steps 3 and 5; "Dying [n]", "Staggered [n]").

use super::super::round::{EndOfRoundReport, push_events, run};
use super::super::Arrgs;
use crate::dice::Dice;
use crate::encounter::{Encounter, EncounterError, Event, turn_order};
use crate::rulesets::Command;
use crate::rulesets::plugin::ensure_active;
use serde::{Deserialize, Serialize};

/// No fields: everyone goes through the End of Round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsEndOfRoundRequest))]
#[serde(deny_unknown_fields)]
pub struct EndOfRoundRequest {}

/// `POST …/arrgs/end-of-round`.
pub struct EndOfRound;

impl Command for EndOfRound {
    type Ruleset = Arrgs;
    const NAME: &'static str = "end-of-round";
    const DESCRIPTION: &'static str = "Runs the End of Round with the caller's dice (arrgs.txt, \"Structure\"): in turn \
        order each combatant loses Vitality to a sudden change of Movement Increment, makes its Dying check (DC = \
        negative Vitality + n) and its Staggered check (DC 15 + n); points and one-round modifiers are cleared and the \
        surprise round's Surprised condition ends. Allowed once every other combatant has had its turn; afterwards \
        no one acts until the round is advanced. Advancing without it rolls these checks with the advance's dice \
        (its `rolls`, then its `seed`).";
    const EXAMPLE: &'static str = "{}";
    type Request = EndOfRoundRequest;
    type Report = EndOfRoundReport;

    fn run(encounter: &mut Encounter, _request: EndOfRoundRequest, dice: &mut Dice) -> Result<(Vec<Event>, EndOfRoundReport), EncounterError> {
        ensure_active::<Arrgs>(encounter)?;
        let current = encounter.current.clone();
        let waiting: Vec<String> = turn_order(encounter)
            .into_iter()
            .filter(|slot| !slot.acted && !slot.defeated && Some(&slot.combatant_id) != current.as_ref())
            .map(|slot| encounter.name_of(&slot.combatant_id))
            .collect();
        if !waiting.is_empty() {
            return Err(EncounterError::Conflict(format!(
                "the round is not over: {} still to act",
                waiting.join(", ")
            )));
        }
        let report = run(encounter, dice, false)?;
        let mut events = Vec::new();
        push_events(encounter, report.clone(), dice.rolls().to_vec(), &mut events);
        Ok((events, report))
    }
}
