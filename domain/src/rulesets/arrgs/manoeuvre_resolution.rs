//! Taking the Standard manoeuvres other than attacks, Ready, and Complementary actions (arrgs.txt,
//! "Aid Another Manoeuvre", "Change Reach Manoeuvre", "Control Spell Manoeuvre", "Counterspell
//! Manoeuvre", "Dismiss Spell Manoeuvre", "Miscellaneous Manoeuvre", "Mount Manoeuvre",
//! "Movement Manoeuvre", "Ready Manoeuvre", "Reload Manoeuvre", "Sidestep Manoeuvre", "Standup
//! Manoeuvre", "Withdraw Manoeuvre", "Complementary Actions", "Movement").
//!
//! Decisions:
//! - Every manoeuvre costs 1 Vitality (Ready included: it is a manoeuvre performed as an
//!   action); Complementary actions cost nothing and may be taken as often as actions were this
//!   round.
//! - Pass/fail manoeuvres succeed when the check equals or beats the DC; Dismiss Spell needs to
//!   exceed it, as its text says.
//! - Criticals ("Any check"): a succeeding rolled check with a Success Value (Aid Another, Change
//!   Reach, rolled Movement, Reload, Miscellaneous with a GM's Success Value) on a natural 20 rolls
//!   again against the same DC and adds that Success Value when above 0, as attacks do.
//! - Aid Another uses the stat block's standing modifiers of the aided kind of check with the
//!   Personality modifier in place of the usual ability.
//! - Change Reach moves the Threat Range from where it is by the requested change, at most the
//!   Success Value, and keeps the total shift between 0 and the Reach attribute; it stays until
//!   the end of combat or the next Change Reach, and a failed check changes nothing.
//! - Movement: passive (10) unless `roll` is set; DC 10 unless given; Difficult Terrain [n] is a
//!   Circumstance penalty; at least 1 square is always possible.
//! - Withdraw moves up to the Base Movement Speed with no check. Sidestep moves 1 square.
//! - Reload uses the Ranged (Missile Weaponry) check; a failed check loads nothing.
//! - Counterspell: an Immediate action is allowed for it (its trigger is a spell being cast); the
//!   caster's Reaction Spell Attack check is the DC.
//! - Immediate actions other than Counterspell need a trigger chosen with Ready this round.
//! - Miscellaneous and Complementary actions may move an item (see `items`): a Miscellaneous
//!   manoeuvre with a GM's check moves it only when the check succeeds.

use super::attack::{MAX_CRITICAL_CHECKS, is_natural_one};
use super::check::{Check, standing_modifiers, take_assist};
use super::economy::{Pace, ensure_can_act, ready, spend};
use super::fighter::{Fighter, Scene, threat_range};
use super::items::{Handling, handle};
use super::manoeuvres::{ActionReport, Cast, GmCheck, ItemMoved, Manoeuvre, ManoeuvreResult, PassFail};
use super::modifier::{Modifier, ModifierCode};
use super::opportunity::{adopt_opportunist_state, opportunity_attack};
use super::spells;
use super::state::Assist;
use super::bonuses::{Ability, Bonuses, CheckKind};
use super::vitality::exert;
use crate::dice::Dice;
use crate::rulesets::RuleError;
use crate::score::Score;

/// Takes a manoeuvre (arrgs.txt, the sections in the module documentation).
pub fn take(cast: &mut Cast, manoeuvre: &Manoeuvre, pace: Pace, scene: &Scene, dice: &mut Dice) -> Result<ActionReport, RuleError> {
    validate(cast, manoeuvre, pace)?;
    let mut report = ActionReport {
        actor: cast.actor.name.clone(),
        manoeuvre: manoeuvre.name().into(),
        spend: None,
        exertion: None,
        opportunities: Vec::new(),
        result: ManoeuvreResult::Standup,
        standings: Vec::new(),
    };
    report.result = match manoeuvre {
        Manoeuvre::Complementary { description, item } => complementary(&mut cast.actor, scene, description, item.as_ref())?,
        Manoeuvre::Ready { points, trigger } => {
            let remaining = ready(&mut cast.actor, scene, points.get(), trigger.clone(), "manoeuvre.points")?;
            report.exertion = Some(exert(&mut cast.actor, 1, scene.options.disabled_dc(), None, dice)?);
            ManoeuvreResult::Ready { points: points.get(), trigger: trigger.clone(), remaining }
        }
        _ => {
            let spent = spend(&mut cast.actor, scene, pace, manoeuvre.points(), "pace")?;
            let exertion = exert(&mut cast.actor, 1, scene.options.disabled_dc(), spent.penalty.clone(), dice)?;
            let died = exertion.died;
            report.spend = Some(spent.clone());
            report.exertion = Some(exertion);
            for (index, (opportunist, opportunity)) in cast.opportunists.iter_mut().enumerate() {
                if died || cast.actor.is_dead() || cast.actor.state.unconscious {
                    break;
                }
                let field = format!("opportunities[{index}]");
                report.opportunities.push(opportunity_attack(opportunist, opportunity, &mut cast.actor, scene, dice, &field)?);
            }
            if let Some(other) = cast.other.as_mut() {
                adopt_opportunist_state(other, &cast.opportunists);
            }
            if cast.actor.is_dead() || cast.actor.state.unconscious {
                let reason = format!("{} was stopped before finishing the {}", cast.actor.name, manoeuvre.name());
                ManoeuvreResult::Wasted { reason }
            } else {
                perform(cast, manoeuvre, spent.penalty, scene, dice)?
            }
        }
    };
    report.standings = std::iter::once(&cast.actor)
        .chain(cast.other.iter())
        .chain(cast.opportunists.iter().map(|(f, _)| f))
        .map(Fighter::standing)
        .collect();
    Ok(report)
}

fn validate(cast: &Cast, manoeuvre: &Manoeuvre, pace: Pace) -> Result<(), RuleError> {
    if let Some(index) = cast.opportunists.iter().position(|(_, o)| o.attack.is_some()) {
        return Err(RuleError::invalid(format!("opportunities[{index}].attack"), "only a Repeated Attack has several attacks"));
    }
    if !cast.opportunists.is_empty() && !manoeuvre.provokes() {
        return Err(RuleError::invalid("opportunities", format!("{} does not provoke Opportunity Actions", manoeuvre.name())));
    }
    let counterspell = matches!(manoeuvre, Manoeuvre::Counterspell { .. });
    if pace == Pace::Immediate && !counterspell && cast.actor.state.round.ready_trigger.is_none() {
        return Err(RuleError::invalid("pace", "an Immediate action needs a trigger chosen with Ready this round"));
    }
    match manoeuvre {
        Manoeuvre::Miscellaneous { description, item, .. } | Manoeuvre::Complementary { description, item } => {
            text("manoeuvre.description", description)?;
            let complementary = matches!(manoeuvre, Manoeuvre::Complementary { .. });
            item.as_ref().map_or(Ok(()), |item| handle(&mut cast.actor.clone(), item, complementary, "manoeuvre.item").map(|_| ()))
        }
        Manoeuvre::Ready { trigger, .. } => text("manoeuvre.trigger", trigger),
        Manoeuvre::ControlSpell { spell_level, spell } | Manoeuvre::DismissSpell { spell_level, spell } => {
            spells::level_of(&cast.actor, spell.as_deref(), *spell_level).map(|_| ())
        }
        Manoeuvre::Counterspell { spell: Some(name), .. } => match &cast.other {
            Some(caster) => spells::level_of(caster, Some(name), None).map(|_| ()),
            None => Ok(()),
        },
        Manoeuvre::Standup if !cast.actor.state.prone => {
            Err(RuleError::invalid("manoeuvre", format!("{} is not Prone", cast.actor.name)))
        }
        Manoeuvre::Withdraw { squares } if squares.get() > cast.actor.stats.speed() => Err(RuleError::invalid(
            "manoeuvre.squares",
            format!("{} withdraws at most its Movement Speed, {} squares", cast.actor.name, cast.actor.stats.speed()),
        )),
        _ => Ok(()),
    }
}

fn text(field: &str, value: &str) -> Result<(), RuleError> {
    let length = value.chars().count();
    if value.trim().is_empty() || length > 200 {
        return Err(RuleError::invalid(field, "must be 1 to 200 characters and not blank"));
    }
    Ok(())
}

/// As many Complementary actions as actions this round (arrgs.txt, "Complementary Actions").
fn complementary(actor: &mut Fighter, scene: &Scene, description: &str, item: Option<&Handling>) -> Result<ManoeuvreResult, RuleError> {
    ensure_can_act(actor, scene)?;
    let round = &mut actor.state.round;
    if round.complementary >= round.actions {
        let message = format!(
            "{} has taken {} action(s) and {} Complementary action(s) this round: one per action",
            actor.name, round.actions, round.complementary
        );
        return Err(RuleError::invalid("manoeuvre", message));
    }
    round.complementary += 1;
    let item = item.map(|item| moved(actor, item, true)).transpose()?;
    Ok(ManoeuvreResult::Complementary { description: description.to_owned(), item })
}

fn moved(actor: &mut Fighter, item: &Handling, complementary: bool) -> Result<ItemMoved, RuleError> {
    let place = handle(actor, item, complementary, "manoeuvre.item")?;
    Ok(ItemMoved { item: item.item.clone(), place })
}

pub(crate) fn roll(actor: &mut Fighter, kind: CheckKind, ability: Option<Ability>, bonuses: &Bonuses, penalty: Option<Modifier>, dice: &mut Dice, purpose: &str) -> Result<Check, RuleError> {
    let mut modifiers = standing_modifiers(actor, kind, ability, bonuses, true);
    modifiers.extend(penalty);
    modifiers.extend(take_assist(actor, kind));
    Ok(Check::roll(kind, modifiers, None, dice, &format!("{purpose}: {}", actor.name))?)
}

fn pass_fail(check: Check, dc: i32) -> PassFail {
    let success = check.result >= dc;
    PassFail { check, dc, success, critical_checks: Vec::new() }
}

/// "Criticals": a check whose natural roll is in the Critical Range (a natural 20) may roll again
/// against the same DC and add that roll's Success Value (`base` ± its margin, only when above 0;
/// a natural 1 adds nothing), again while the natural stays in range. Only a succeeding check
/// chains. Returns the Success Value the re-rolls add; the re-rolls go in `test.critical_checks`.
fn critical_chain(test: &mut PassFail, base: i32, dice: &mut Dice) -> Result<i32, RuleError> {
    let mut added = 0i32;
    if !test.success {
        return Ok(0);
    }
    let mut last = test.check.natural;
    while last.is_some_and(|n| n >= 20) && test.critical_checks.len() < MAX_CRITICAL_CHECKS {
        let check = Check::roll(test.check.kind, test.check.modifiers.clone(), test.check.magnitude, dice, "critical re-roll")?;
        if !is_natural_one(&check) {
            added = added.saturating_add(base.saturating_add(check.result - test.dc).max(0));
        }
        last = check.natural;
        test.critical_checks.push(check);
    }
    Ok(added)
}

fn perform(cast: &mut Cast, manoeuvre: &Manoeuvre, penalty: Option<Modifier>, scene: &Scene, dice: &mut Dice) -> Result<ManoeuvreResult, RuleError> {
    let actor = &mut cast.actor;
    Ok(match manoeuvre {
        Manoeuvre::AidAnother { check, difficulty, bonuses, .. } => {
            let ally = cast.other.as_mut().ok_or_else(|| RuleError::invalid("manoeuvre.ally_id", "needs an ally"))?;
            aid_another(actor, ally, *check, difficulty.map_or(0, Score::get), bonuses, penalty, dice)?
        }
        Manoeuvre::ChangeReach { change } => change_reach(actor, change.get(), penalty, dice)?,
        Manoeuvre::ControlSpell { spell_level, spell } => {
            let level = spells::level_of(actor, spell.as_deref(), *spell_level)?;
            let check = roll(actor, CheckKind::Spell, None, &Bonuses::default(), penalty, dice, "Control Spell")?;
            let test = pass_fail(check, 10 + level);
            if let Some(name) = spell.as_deref().filter(|_| test.success) {
                spells::control(actor, name, scene.round);
            }
            ManoeuvreResult::ControlSpell { test, spell: spell.clone() }
        }
        Manoeuvre::Counterspell { spell, .. } => {
            let caster = cast.other.as_mut().ok_or_else(|| RuleError::invalid("manoeuvre.caster_id", "needs the caster"))?;
            let (caster_reaction, test) = spells::counter_check(actor, caster, &Bonuses::default(), penalty, dice)?;
            if let Some(name) = spell.as_deref().filter(|_| test.success) {
                spells::seize(caster, actor, name, scene.round);
            }
            ManoeuvreResult::Counterspell { caster_reaction, test, spell: spell.clone() }
        }
        Manoeuvre::DismissSpell { spell_level, spell } => {
            let level = spells::level_of(actor, spell.as_deref(), *spell_level)?;
            let check = roll(actor, CheckKind::Spell, None, &Bonuses::default(), penalty, dice, "Dismiss Spell")?;
            let dc = 10 + level;
            let success = check.result > dc;
            if let Some(name) = spell.as_deref().filter(|_| success) {
                spells::dismiss(actor, name);
            }
            ManoeuvreResult::DismissSpell { test: PassFail { check, dc, success, critical_checks: Vec::new() }, spell: spell.clone() }
        }
        Manoeuvre::Miscellaneous { description, check, item } => {
            miscellaneous(actor, description, check.as_ref(), item.as_ref(), penalty, dice)?
        }
        Manoeuvre::Mount { mount_personality, bonuses } => {
            let check = roll(actor, CheckKind::Other, None, bonuses, penalty, dice, "Mount (Ride)")?;
            ManoeuvreResult::Mount { test: pass_fail(check, 10 + mount_personality.get()) }
        }
        Manoeuvre::Movement { squares, roll: rolled, dc, difficult_terrain, bonuses } => {
            let terrain = difficult_terrain.map_or(0, Score::get);
            movement(actor, squares.get(), *rolled, dc.map_or(10, Score::get), terrain, bonuses, penalty, dice)?
        }
        Manoeuvre::Reload { dc, capacity, bonuses, .. } => {
            let check = roll(actor, CheckKind::Ranged, None, bonuses, penalty, dice, "Reload")?;
            let mut test = pass_fail(check, dc.map_or(10, Score::get));
            let added = critical_chain(&mut test, 1, dice)?;
            let capacity = capacity.map_or(1, Score::get);
            let loaded = if test.success { (1 + test.check.result - test.dc).saturating_add(added).min(capacity) } else { 0 };
            ManoeuvreResult::Reload { test, loaded }
        }
        Manoeuvre::Sidestep => {
            actor.state.round.squares_moved = actor.state.round.squares_moved.saturating_add(1);
            ManoeuvreResult::Sidestep { movement_increment: actor.movement_increment() }
        }
        Manoeuvre::Standup => {
            actor.state.prone = false;
            ManoeuvreResult::Standup
        }
        Manoeuvre::Withdraw { squares } => {
            actor.state.round.squares_moved = actor.state.round.squares_moved.saturating_add(squares.get());
            ManoeuvreResult::Withdraw { squares: squares.get(), movement_increment: actor.movement_increment() }
        }
        Manoeuvre::Ready { .. } | Manoeuvre::Complementary { .. } => {
            let _ = scene;
            return Err(RuleError::invalid("manoeuvre", "handled before"));
        }
    })
}

/// Aid Another: DC 10 + Difficulty, Success Value 1 ± margin, granted as an Assisted modifier to
/// the ally's next check of the kind until the End of Round (arrgs.txt, "Aid Another Manoeuvre").
fn aid_another(actor: &mut Fighter, ally: &mut Fighter, kind: CheckKind, difficulty: i32, bonuses: &Bonuses, penalty: Option<Modifier>, dice: &mut Dice) -> Result<ManoeuvreResult, RuleError> {
    let check = roll(actor, kind, Some(Ability::Personality), bonuses, penalty, dice, "Aid Another")?;
    let mut test = pass_fail(check, 10 + difficulty);
    let added = critical_chain(&mut test, 1, dice)?;
    let success_value = (1 + (test.check.result - test.dc)).saturating_add(added);
    let assisted = test.success.then(|| {
        ally.state.round.assists.push(Assist { kind, value: success_value, from: actor.name.clone() });
        success_value
    });
    Ok(ManoeuvreResult::AidAnother { test, success_value, ally: ally.name.clone(), assisted })
}

/// Change Reach: Melee Weaponry against DC 10, Success Value 1 ± margin (arrgs.txt, "Change
/// Reach Manoeuvre").
fn change_reach(actor: &mut Fighter, change: i32, penalty: Option<Modifier>, dice: &mut Dice) -> Result<ManoeuvreResult, RuleError> {
    let check = roll(actor, CheckKind::Melee, None, &Bonuses::default(), penalty, dice, "Change Reach")?;
    let mut test = pass_fail(check, 10);
    let added = critical_chain(&mut test, 1, dice)?;
    let success_value = (1 + (test.check.result - 10)).saturating_add(added);
    if test.success {
        let allowed = change.clamp(-success_value, success_value);
        let shift = (actor.state.reach_shift + allowed).clamp(0, actor.stats.reach());
        actor.state.reach_shift = shift;
    }
    let (min, max) = threat_range(actor);
    Ok(ManoeuvreResult::ChangeReach { test, success_value, shift: actor.state.reach_shift, threat_range: [min, max] })
}

fn miscellaneous(actor: &mut Fighter, description: &str, gm: Option<&GmCheck>, item: Option<&Handling>, penalty: Option<Modifier>, dice: &mut Dice) -> Result<ManoeuvreResult, RuleError> {
    let description = description.to_owned();
    let Some(gm) = gm else {
        let item = item.map(|item| moved(actor, item, false)).transpose()?;
        return Ok(ManoeuvreResult::Miscellaneous { description, test: None, success_value: None, item });
    };
    let check = roll(actor, gm.kind, None, &gm.bonuses, penalty, dice, "Miscellaneous")?;
    let mut test = pass_fail(check, gm.dc.get());
    let added = match gm.success_value {
        Some(base) => critical_chain(&mut test, base.get(), dice)?,
        None => 0,
    };
    let success_value = gm.success_value.map(|base| (base.get() + (test.check.result - test.dc)).saturating_add(added));
    let item = item.filter(|_| test.success).map(|item| moved(actor, item, false)).transpose()?;
    Ok(ManoeuvreResult::Miscellaneous { description, test: Some(test), success_value, item })
}

/// Movement: Athletics against DC 10 (passive for natural movement), Success Value = Movement
/// Speed ± margin squares, at least 1 (arrgs.txt, "Movement Manoeuvre", "Movement", "Difficult
/// Terrain [n]").
#[expect(clippy::too_many_arguments, reason = "one argument per field of the manoeuvre")]
fn movement(actor: &mut Fighter, squares: i32, rolled: bool, dc: i32, terrain: i32, bonuses: &Bonuses, penalty: Option<Modifier>, dice: &mut Dice) -> Result<ManoeuvreResult, RuleError> {
    let mut modifiers = standing_modifiers(actor, CheckKind::Athletics, None, bonuses, true);
    modifiers.extend(penalty);
    if terrain > 0 {
        modifiers.push(Modifier::new(ModifierCode::DifficultTerrain, -terrain, format!("Difficult Terrain [{terrain}]")));
    }
    modifiers.extend(take_assist(actor, CheckKind::Athletics));
    let check = if rolled {
        Check::roll(CheckKind::Athletics, modifiers, None, dice, &format!("Movement: {}", actor.name))?
    } else {
        Check::reaction(CheckKind::Athletics, modifiers, None)
    };
    let mut test = pass_fail(check, dc);
    let added = critical_chain(&mut test, actor.stats.speed(), dice)?;
    let success_value = (actor.stats.speed() + (test.check.result - dc)).saturating_add(added);
    let allowed = success_value.max(1);
    if squares > allowed {
        let message = format!("{} can move {allowed} squares with this Movement check, not {squares}", actor.name);
        return Err(RuleError::invalid("manoeuvre.squares", message));
    }
    actor.state.round.squares_moved = actor.state.round.squares_moved.saturating_add(squares);
    Ok(ManoeuvreResult::Movement { test, success_value, squares, movement_increment: actor.movement_increment() })
}
