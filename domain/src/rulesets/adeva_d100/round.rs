//! Adeva d100 round hooks (adeva-d100.txt, "Take Down", "Altitude", "Grapple (Initiate)"): the
//! end of a round ends stuns and moves falling combatants down a band (see `state.rs` for the
//! decisions); the end of a controller's turn without the 'Grapple' Full Action ends its grapple.

use super::actions::grapple::GrappleRole;
use super::altitude::AltitudeBand;
use super::commands::{ActionOutcome, ActionReport};
use crate::encounter::{CombatantId, Encounter, Event};
use crate::rulesets::{RulesetReport, RulesetState, StatBlock};

/// End of round: falling combatants drop one band (see the decisions).
pub fn end_of_round(encounter: &mut Encounter, events: &mut Vec<Event>) {
    let ids: Vec<CombatantId> = encounter.combatants.iter().map(|c| c.id.clone()).collect();
    let round = encounter.round;
    // A stun ends with the round it lasts until (Take Down: "stunned for one round").
    for combatant in &mut encounter.combatants {
        if let RulesetState::AdevaD100(state) = &mut combatant.state
            && state.stunned_until_round.is_some_and(|until| until <= round)
        {
            state.stunned_until_round = None;
        }
    }
    for id in ids {
        let Some(combatant) = encounter.combatant_mut(&id) else { continue };
        let name = combatant.name.clone();
        let (StatBlock::AdevaD100(stats), RulesetState::AdevaD100(state)) =
            (&mut combatant.stats, &mut combatant.state)
        else {
            continue;
        };
        if !stats.falling {
            continue;
        }
        let from = stats.altitude;
        if from == AltitudeBand::Ground {
            // Already down (a stat block sent `falling` on the Ground): nothing to fall, no crash.
            stats.falling = false;
            state.fall_started_at = None;
            continue;
        }
        // A stat-block `falling` with no recorded start falls from where it is now.
        let started = *state.fall_started_at.get_or_insert(from);
        let to = match from {
            AltitudeBand::High => AltitudeBand::Low,
            AltitudeBand::Low | AltitudeBand::Ground => AltitudeBand::Ground,
        };
        stats.altitude = to;
        let mut notes = vec![format!("fell from {from:?} to {to:?} at the end of the round")];
        if to == AltitudeBand::Ground {
            stats.falling = false;
            state.fall_started_at = None;
            state.pending_crash = Some(started);
            notes.push(format!(
                "crashed after a fall from {started:?}: take the resolve_crash action to roll its damage"
            ));
        }
        let report = ActionReport {
            combatant_id: id.clone(),
            name,
            action: "fall".into(),
            outcome: ActionOutcome::Fell { from, to, crashed: to == AltitudeBand::Ground },
            notes,
        };
        events.push(Event::ActionTaken {
            combatant_id: id,
            action: "fall".into(),
            report: RulesetReport::AdevaD100(crate::rulesets::adeva_d100::Report::Action(Box::new(report))),
            dice: Vec::new(),
        });
    }
}

/// End of a combatant's turn: a controller that has not taken the 'Grapple' Full Action this turn
/// loses the grapple (adeva-d100.txt, "Grapple (Initiate)": the controller must take that action
/// on its turn or the grapple ends). Decision: a grapple begun or taken over during the turn
/// (Grapple (Initiate), a Charge ending in a Grapple, Take Control) holds through that turn's end.
/// The turn counts only if its budget was started this round (`turn_round`), so a turn that passed
/// untouched, or was skipped, ends the grapple too. Reported as an `ActionTaken` event
/// ("grapple ended") whose summary names both.
pub fn end_of_turn(encounter: &mut Encounter, id: &CombatantId, events: &mut Vec<Event>) {
    let round = encounter.round;
    let Some(combatant) = encounter.combatant(id) else { return };
    let RulesetState::AdevaD100(state) = &combatant.state else { return };
    if state.grapple_role != Some(GrappleRole::Controller) {
        return;
    }
    let kept = state.turn_round == Some(round) && state.budget.grapple_kept;
    let Some(other) = state.grappled_with.clone().filter(|_| !kept) else { return };
    for who in [id, &other] {
        if let Some(c) = encounter.combatant_mut(who)
            && let RulesetState::AdevaD100(state) = &mut c.state
        {
            state.grappled_with = None;
            state.grapple_role = None;
        }
    }
    let name = encounter.name_of(id);
    let note = format!(
        "{name} did not take the 'Grapple' Full Action on its turn: the grapple with {} ends",
        encounter.name_of(&other)
    );
    let report = ActionReport {
        combatant_id: id.clone(),
        name,
        action: "grapple ended".into(),
        outcome: ActionOutcome::GrappleEnded { other_id: other },
        notes: vec![note],
    };
    events.push(Event::ActionTaken {
        combatant_id: id.clone(),
        action: "grapple ended".into(),
        report: RulesetReport::AdevaD100(crate::rulesets::adeva_d100::Report::Action(Box::new(report))),
        dice: Vec::new(),
    });
}
