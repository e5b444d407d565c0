//! Turn hooks (lur-asko.txt, "Damage Auras", its last paragraph): maintaining auras is a free
//! action on the owner's turn, so an owner unable to act loses them at the end of its turn.
//!
//! Decisions (docs/rulesets/lur-asko.md, "Auras and an owner who cannot act"):
//! - "Unable to take actions" is read from what the encounter records about the owner at the end
//!   of its turn, before effects lasting "until the end of" that turn expire: the `defeated` flag
//!   (its turn is skipped), or an effect on it named `stunned` (the engine's own electric and
//!   blast stun), `incapacitated`, `paralyzed`, `pinned` or `unconscious` (any case). A turn
//!   skipped because it is defeated still ends, so its auras lapse then.
//! - An effect named `mental actions only` keeps the auras created by a purely mental action
//!   (`mental: true`) and lets the others lapse.
//! - Auras lapse whole (their stored damage is gone), with one `auras_lapsed` event naming them
//!   and the reason; no event when nothing lapses.

use super::commands::ActionReport;
use super::{LurAsko, Report};
use crate::encounter::{CombatantId, Encounter, Event};
use crate::rulesets::RulesetReport;
use crate::rulesets::plugin::parts_mut;

/// Conditions under which a character can take no action at all (matched case-insensitively).
pub const CANNOT_ACT: [&str; 5] = ["stunned", "incapacitated", "paralyzed", "pinned", "unconscious"];
/// The condition under which only purely mental actions are possible.
pub const MENTAL_ONLY: &str = "mental actions only";

/// What the owner can do at the end of its turn, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Capacity {
    Acts,
    /// Only purely mental actions: auras created by a purely mental action are kept.
    MentalOnly,
    /// No action at all, and why.
    CannotAct(String),
}

/// Reads the owner's capacity from the encounter: its `defeated` flag, then the effects on it.
pub fn capacity(encounter: &Encounter, id: &CombatantId) -> Capacity {
    if encounter.combatant(id).is_some_and(|c| c.flags.defeated) {
        return Capacity::CannotAct("defeated".into());
    }
    let on_owner = || encounter.effects.iter().filter(|e| e.target.as_ref() == Some(id));
    let named = |name: &str| on_owner().find(|e| e.name.trim().eq_ignore_ascii_case(name)).map(|e| e.name.trim().to_lowercase());
    if let Some(reason) = CANNOT_ACT.iter().find_map(|name| named(name)) {
        return Capacity::CannotAct(reason);
    }
    if named(MENTAL_ONLY).is_some() {
        return Capacity::MentalOnly;
    }
    Capacity::Acts
}

/// At the end of a combatant's turn, its auras lapse if it could not take the free action to
/// maintain them (lur-asko.txt, "Damage Auras").
pub fn end_of_turn(encounter: &mut Encounter, id: &CombatantId, events: &mut Vec<Event>) {
    let (keep_mental, reason) = match capacity(encounter, id) {
        Capacity::Acts => return,
        Capacity::MentalOnly => (true, MENTAL_ONLY.to_owned()),
        Capacity::CannotAct(reason) => (false, reason),
    };
    let Some(combatant) = encounter.combatant_mut(id) else { return };
    let name = combatant.name.clone();
    let Ok((_, state)) = parts_mut::<LurAsko>(combatant, "combatant_id") else { return };
    let (kept, lapsed): (Vec<_>, Vec<_>) = std::mem::take(&mut state.auras).into_iter().partition(|a| keep_mental && a.mental);
    state.auras = kept;
    if lapsed.is_empty() {
        return;
    }
    let auras = lapsed.into_iter().map(|aura| aura.name).collect();
    let report = ActionReport::AurasLapsed { combatant: name, auras, reason };
    events.push(Event::ActionTaken {
        combatant_id: id.clone(),
        action: "auras_lapsed".into(),
        report: RulesetReport::LurAsko(Report::Action(Box::new(report))),
        dice: Vec::new(),
    });
}
