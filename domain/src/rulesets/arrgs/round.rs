//! The End of Round (arrgs.txt, "Structure", steps 3 and 5; "Dying [n]", "Staggered [n]",
//! "Movement Increment"; "Actions and Action Points": unused points do not carry over).
//!
//! Decisions:
//! - Each combatant in turn order (then join order) goes through its End of Round: the
//!   acceleration loss first (this round's movement), then Dying, then Staggered.
//! - Acceleration: a Movement Increment 3 or more away from last round's costs Base Movement
//!   Speed × the higher of the two increments as Force damage (through resistance).
//! - The checks roll the request's dice when the `end-of-round` operation is sent before the
//!   round is advanced; otherwise advancing rolls them with the advance's dice (its `rolls`, else
//!   its `seed`, reported with the advance), so no round ends unprocessed and every die can be
//!   scripted either way.
//! - The Staggered check is always made (it can only help).
//! - The round's penalties (Multiple Actions, Repeated Attack, Charge, Movement Increment) end
//!   when the End of Round begins, so its checks carry none of them.
//! - An Assisted modifier from Aid Another on Fortitude not yet used ("until the End of Round")
//!   is used by the first End of Round Fortitude check (Dying, else Staggered), then every
//!   assist ends.
//! - The Surprised condition ends at the surprise round's End of Round.
//! - Concentration spells not controlled this round end ("Control Spell Manoeuvre").

use super::damage_types::{DamageSteps, apply_resistance};
use super::damage_types::DamageType;
use super::fighter::{Fighter, Standing};
use super::state::RoundUse;
use super::bonuses::CheckKind;
use super::table::{fighter, scene, store};
use super::vitality::{SurvivalCheck, SurvivalReason, dying_check, staggered_check};
use super::{Arrgs, Report};
use crate::dice::{Dice, DiceError, DieRoll};
use crate::encounter::{CombatantId, Encounter, EncounterError, Event, turn_order};
use crate::rulesets::plugin::Registered;
use serde::{Deserialize, Serialize};

/// The acceleration loss (arrgs.txt, "Movement Increment").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAcceleration))]
pub struct Acceleration {
    pub from_increment: i32,
    pub to_increment: i32,
    pub steps: DamageSteps,
}

/// One combatant's End of Round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsEndOfRoundEntry))]
pub struct EndOfRoundEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acceleration: Option<Acceleration>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dying: Option<SurvivalCheck>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub staggered: Option<SurvivalCheck>,
    /// Concentration spells that ended: no Control Spell this round.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells_ended: Vec<String>,
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub combatant_id: CombatantId,
    pub name: String,
}

/// The End of Round of every combatant that had something to check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsEndOfRoundReport))]
pub struct EndOfRoundReport {
    pub round: u32,
    /// The surprise round ended: no one is Surprised any more.
    pub surprise_ended: bool,
    /// Rolled by advancing (with the advance's dice) rather than by the `end-of-round` operation.
    pub automatic: bool,
    pub entries: Vec<EndOfRoundEntry>,
    /// Every combatant an entry names, afterwards (docs/api-conventions.md: always a list).
    pub standings: Vec<Standing>,
}

impl crate::rulesets::Summary for EndOfRoundReport {
    fn summary(&self) -> String {
        let mut parts: Vec<String> = self
            .entries
            .iter()
            .map(|entry| {
                let mut bits = Vec::new();
                if let Some(a) = &entry.acceleration {
                    bits.push(format!("loses {} Vitality to acceleration", a.steps.damage));
                }
                for check in entry.dying.iter().chain(&entry.staggered) {
                    let verdict = if check.success { "passes" } else { "fails" };
                    bits.push(format!("{verdict} {} DC {} ({})", check.check.result, check.dc, check.outcome));
                }
                if !entry.spells_ended.is_empty() {
                    bits.push(format!("loses {} (no Control Spell this round)", entry.spells_ended.join(", ")));
                }
                let after = self.standings.iter().find(|s| s.combatant_id == entry.combatant_id).map(Standing::describe);
                format!("{} {} → {}", entry.name, bits.join(", "), after.unwrap_or_default())
            })
            .collect();
        if self.surprise_ended {
            parts.push("the surprise round is over".into());
        }
        if parts.is_empty() {
            return format!("End of Round {}: nothing to check", self.round);
        }
        format!("End of Round {}: {}", self.round, parts.join("; "))
    }
}

/// One fighter's End of Round checks (arrgs.txt, "Dying [n]", "Staggered [n]", "Movement
/// Increment"). The round's points and penalties are cleared before the checks: they last until
/// the End of Round.
pub fn process(fighter: &mut Fighter, round: u32, dice: &mut Dice) -> Result<Option<EndOfRoundEntry>, DiceError> {
    let alive = !fighter.is_dead();
    let acceleration = if alive { acceleration(fighter) } else { None };
    fighter.state.last_increment = fighter.movement_increment();
    let fortitude_assists = std::mem::take(&mut fighter.state.round.assists).into_iter().filter(|a| a.kind == CheckKind::Fortitude).collect();
    fighter.state.round = RoundUse { assists: fortitude_assists, ..RoundUse::default() };
    let dying = if alive && fighter.state.dying > 0 && fighter.stats.vitality.is_some() {
        Some(dying_check(fighter, SurvivalReason::DyingEndOfRound, None, dice)?)
    } else {
        None
    };
    let staggered = if alive && !fighter.is_dead() && fighter.state.staggered > 0 {
        Some(staggered_check(fighter, dice)?)
    } else {
        None
    };
    fighter.state.round.assists.clear();
    let spells_ended = super::spells::lapse(fighter, round);
    let entry = (acceleration.is_some() || dying.is_some() || staggered.is_some() || !spells_ended.is_empty())
        .then(|| EndOfRoundEntry {
            acceleration,
            dying,
            staggered,
            spells_ended,
            combatant_id: fighter.id.clone(),
            name: fighter.name.clone(),
        });
    Ok(entry)
}

fn acceleration(fighter: &mut Fighter) -> Option<Acceleration> {
    let (from, to) = (fighter.state.last_increment, fighter.movement_increment());
    if (to - from).abs() < 3 || fighter.stats.vitality.is_none() {
        return None;
    }
    let loss = fighter.stats.speed().saturating_mul(from.max(to));
    let steps = apply_resistance(loss, &[DamageType::Force], &fighter.stats.resistances, &fighter.stats.vulnerabilities);
    fighter.lose_vitality(steps.damage);
    Some(Acceleration { from_increment: from, to_increment: to, steps })
}

/// The combatants of an encounter in turn order, then any without a place in it.
fn in_order(encounter: &Encounter) -> Vec<CombatantId> {
    let mut ids: Vec<CombatantId> = turn_order(encounter).into_iter().map(|slot| slot.combatant_id).collect();
    for combatant in &encounter.combatants {
        if !ids.contains(&combatant.id) {
            ids.push(combatant.id.clone());
        }
    }
    ids
}

/// Runs the End of Round for everyone not yet processed this round, with `dice`.
pub fn run(encounter: &mut Encounter, dice: &mut Dice, automatic: bool) -> Result<EndOfRoundReport, EncounterError> {
    let round = encounter.round;
    let surprise_ended = scene(encounter).surprise_round;
    let (mut entries, mut standings) = (Vec::new(), Vec::new());
    for id in in_order(encounter) {
        let mut one = fighter(encounter, &id, "combatant_id")?;
        if one.state.end_of_round_done == round {
            continue;
        }
        if let Some(entry) = process(&mut one, round, dice)? {
            entries.push(entry);
            standings.push(one.standing());
        }
        one.state.end_of_round_done = round;
        store(encounter, &one)?;
    }
    if surprise_ended {
        for combatant in &mut encounter.combatants {
            combatant.flags.surprised = false;
        }
    }
    Ok(EndOfRoundReport { round, surprise_ended, automatic, entries, standings })
}

/// The ruleset's End of Round hook: whoever the `end-of-round` operation did not process is
/// processed now with the advance's dice; then held actions are forfeited. A die that does not
/// fit (or runs out, with `strict_rolls`) refuses the advance, which discards the encounter.
pub fn end_of_round_hook(encounter: &mut Encounter, events: &mut Vec<Event>, dice: &mut Dice) -> Result<(), EncounterError> {
    let first_die = dice.rolls().len();
    let report = run(encounter, dice, true)?;
    push_events(encounter, report, dice.rolls()[first_die..].to_vec(), events);
    crate::rulesets::hooks::forfeit_delayed_actions(encounter, events);
    Ok(())
}

/// The event of an End of Round with something to report (or of the surprise round ending),
/// with the dice it rolled.
pub fn push_events(encounter: &Encounter, report: EndOfRoundReport, dice: Vec<DieRoll>, events: &mut Vec<Event>) {
    let Some(first) = encounter.combatants.first() else { return };
    if report.entries.is_empty() && !report.surprise_ended {
        return;
    }
    let combatant_id = report.entries.first().map_or_else(|| first.id.clone(), |e| e.combatant_id.clone());
    events.push(Event::ActionTaken {
        combatant_id,
        action: "end_of_round".into(),
        report: Arrgs::report(Report::EndOfRound(Box::new(report))),
        dice,
    });
}
