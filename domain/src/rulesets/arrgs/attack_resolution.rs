//! Resolving the attack manoeuvres: Attack, Charge and Repeated Attack, each with any of the effects that
//! replace damage (Disarm, Sunder, Trip, Reposition), Opportunity attacks they provoke and the
//! target's Defence manoeuvre (arrgs.txt, "Attack Manoeuvre", "Charge Manoeuvre", "Repeated
//! Attack Manoeuvre", "Opportunity Manoeuvre", "Threat Range", "Ranged Attacks").
//!
//! Decisions:
//! - The attacker pays first (points, Vitality, its condition check); then Opportunity attacks
//!   interrupt; then the attack is made. If an Opportunity kills the attacker or leaves it
//!   Unconscious, the attack is wasted: points and Vitality spent, nothing done.
//! - Opportunity attacks are armed melee Attack manoeuvres (the Standard manoeuvres that can
//!   target an opponent and do not provoke themselves), 2 AAP each, with the provoker inside the
//!   opportunist's Threat Range. In a Repeated Attack each provoking attack provokes anew
//!   ("incurred for each applicable attack"): an Opportunity names the attack it interrupts
//!   (`attack`, default 1) and comes after that attack's Vitality is paid; one that kills the
//!   attacker or knocks it out stops the attacks not yet made.
//! - Charge moves `squares` (at least 2) with a passive Movement check (10 + Athletics against DC
//!   10, Success Value = Base Movement Speed ± margin; the Multiple Actions penalty and a pending
//!   Athletics assist apply, as to a Movement manoeuvre) that must cover them; the squares count
//!   toward the Movement Increment. The attack gets +2, the charger −2 Reflex until End of Round.
//! - Repeated Attack: Damage only; each attack after the first −2 cumulative; the last penalty
//!   stays on every check until the End of Round; 1 Vitality (or the spell level) per attack; it
//!   stops early when the target dies. A Defence manoeuvre is made against each hit while the
//!   target has the points; then it stops defending.
//! - An Immediate attack needs a trigger chosen with Ready this round.
//! - A spell attack may carry a Counterspell (see `spells`); a success wastes it.
//! - A melee attack given a `distance` must be within the attacker's Threat Range.

use super::attack::range_penalty;
use super::attacking::{AttackReport, Cast, ChargeMove, Manoeuvre, Order, Outcome};
use super::check::{Check, standing_modifiers, take_assist};
use super::defence::{DEFENCE_POINTS, DefenceKind};
use super::economy::{Pace, spend};
use super::fighter::{Fighter, Scene, Standing, threat_range};
use super::modifier::{Modifier, ModifierCode};
use super::opportunity::{OpportunityReport, adopt_opportunist_state, interrupted, opportunities};
use super::spells::{CounterspellReport, counterspell};
use super::state::RoundPenalty;
use super::bonuses::{Bonuses, CheckKind};
use super::strike::{Effect, Strike, StrikeSpec, strike};
use super::vitality::exert;
use super::weapon::{AttackKind, Weapon};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use crate::score::Score;

/// Resolves an attack manoeuvre on the cast (arrgs.txt, "Attack Manoeuvre" and the sections
/// named in the module documentation). Refusals name the request field.
pub fn resolve(cast: &mut Cast, order: &Order, scene: &Scene, dice: &mut Dice) -> Result<AttackReport, RuleError> {
    let weapon = order.weapon.as_ref().ok_or_else(|| RuleError::invalid("weapon", "an attack needs a weapon"))?;
    validate(cast, order, weapon)?;
    validate_defence(cast, order, scene)?;
    validate_counter(cast, order, weapon, scene)?;
    let mut range_mods = range_modifiers(&cast.attacker, order, weapon)?;
    let spent = spend(&mut cast.attacker, scene, order.pace, order.manoeuvre.points(), "pace")?;
    let charge = match order.manoeuvre {
        Manoeuvre::Charge { squares } => Some(charge_move(&mut cast.attacker, squares.get(), spent.penalty.clone())?),
        _ => None,
    };
    let cost = weapon.vitality_cost() + order.extra_vitality.map_or(0, Score::get);
    let exertion = exert(&mut cast.attacker, cost, scene.options.disabled_dc(), spent.penalty.clone(), dice)?;
    let mut report = AttackReport {
        attacker: cast.attacker.name.clone(),
        target: cast.target.name.clone(),
        manoeuvre: order.manoeuvre.clone(),
        effect: order.effect.clone(),
        weapon: weapon.name.clone(),
        spend: spent.clone(),
        exertion,
        charge,
        opportunities: Vec::new(),
        counterspell: None,
        outcome: Outcome::Resolved { strikes: Vec::new() },
        interrupted: None,
        round_penalties: Vec::new(),
        standings: Vec::new(),
    };
    if report.exertion.died {
        report.outcome = Outcome::Wasted { reason: format!("{} died of the effort", cast.attacker.name) };
    } else {
        report.opportunities = opportunities(cast, scene, dice, 1)?;
        if let Some(bystander) = cast.bystander.as_mut() {
            adopt_opportunist_state(bystander, &cast.opportunists);
        }
        if interrupted(&cast.attacker).is_none() {
            report.counterspell = countered(cast, scene, dice)?;
        }
        if let Some(reason) = interrupted(&cast.attacker) {
            report.outcome = Outcome::Wasted { reason };
        } else if let Some(counter) = report.counterspell.as_ref().filter(|c| c.cancelled()) {
            let reason = format!("{}'s Counterspell cancelled the spell in a harmless puff of smoke", counter.name);
            report.outcome = Outcome::Wasted { reason };
        } else {
            range_mods.extend(spent.penalty.clone());
            let (strikes, stopped) = strikes(cast, order, weapon, range_mods, scene, dice, &mut report.opportunities)?;
            if let (Some(duration), Some(first)) = (weapon.duration, strikes.first())
                && first.roll.succeeded()
            {
                super::spells::begin(&mut cast.attacker, &weapon.name, weapon.spell_level.map_or(0, Score::get), duration, scene.round);
            }
            report.outcome = Outcome::Resolved { strikes };
            report.interrupted = stopped;
        }
    }
    report.round_penalties = round_penalties(&mut cast.attacker, order, &report.outcome);
    report.standings = standings(cast);
    Ok(report)
}

fn validate(cast: &Cast, order: &Order, weapon: &Weapon) -> Result<(), RuleError> {
    weapon.validate("weapon")?;
    let melee_only = matches!(order.effect, Effect::Disarm { .. } | Effect::Trip | Effect::Reposition { .. })
        || matches!(order.manoeuvre, Manoeuvre::Charge { .. });
    if melee_only && weapon.kind != AttackKind::Melee {
        return Err(RuleError::invalid("weapon.kind", format!("a {} is made with a melee attack", order_name(order))));
    }
    if matches!(order.manoeuvre, Manoeuvre::RepeatedAttack { .. }) && order.effect != Effect::Damage {
        return Err(RuleError::invalid("effect", "a Repeated Attack deals damage"));
    }
    if let Effect::Reposition { .. } = order.effect
        && cast.target.stats.size().step() - cast.attacker.stats.size().step() >= 2
    {
        return Err(RuleError::invalid("effect", "no Reposition against a creature 2 size categories or more larger"));
    }
    if order.pace == Pace::Immediate && cast.attacker.state.round.ready_trigger.is_none() {
        return Err(RuleError::invalid("pace", "an Immediate attack needs a trigger chosen with Ready this round"));
    }
    match &order.effect {
        Effect::Disarm { item } => {
            super::items::disarm_target(&cast.target, item.as_deref(), "effect.item")?;
        }
        Effect::Sunder { item } => {
            super::items::sunder_target(&cast.target, item)?;
        }
        _ => {}
    }
    let count = match order.manoeuvre {
        Manoeuvre::RepeatedAttack { attacks } => attacks.get(),
        _ => 1,
    };
    for (index, (_, opportunity)) in cast.opportunists.iter().enumerate() {
        if opportunity.before_attack() > count {
            let message = format!("this {} makes {count} attack(s)", order_name(order));
            return Err(RuleError::invalid(format!("opportunities[{index}].attack"), message));
        }
    }
    let provokes = provokes(order, weapon);
    if !cast.opportunists.is_empty() && !provokes {
        return Err(RuleError::invalid("opportunities", format!("this {} does not provoke Opportunity Actions", order_name(order))));
    }
    Ok(())
}

/// The target must be able to pay for the Defence manoeuvre it declares.
fn validate_defence(cast: &Cast, order: &Order, scene: &Scene) -> Result<(), RuleError> {
    if order.defence_action.is_some() {
        let mut trial = cast.target.clone();
        spend(&mut trial, scene, Pace::Immediate, DEFENCE_POINTS, "defence_action")?;
    }
    Ok(())
}

/// A Counterspell answers one spell being cast, by someone able to pay for it.
fn validate_counter(cast: &Cast, order: &Order, weapon: &Weapon, scene: &Scene) -> Result<(), RuleError> {
    let Some(counter) = &cast.counter else { return Ok(()) };
    if weapon.kind != AttackKind::Spell {
        return Err(RuleError::invalid("counterspell", "only a spell being cast can be countered"));
    }
    if matches!(order.manoeuvre, Manoeuvre::RepeatedAttack { .. }) {
        return Err(RuleError::invalid("counterspell", "a Counterspell answers one cast, not a Repeated Attack"));
    }
    let by = counter.by.as_ref().unwrap_or(&cast.target);
    super::spells::validate(by, &counter.action, weapon.spell_level.map_or(0, Score::get), scene)
}

/// The Counterspell, if one is declared.
fn countered(cast: &mut Cast, scene: &Scene, dice: &mut Dice) -> Result<Option<CounterspellReport>, RuleError> {
    let Some(counter) = cast.counter.as_mut() else { return Ok(None) };
    let by = counter.by.as_mut().unwrap_or(&mut cast.target);
    counterspell(by, &mut cast.attacker, &counter.action, scene, dice).map(Some)
}

fn order_name(order: &Order) -> &'static str {
    match (&order.manoeuvre, &order.effect) {
        (_, Effect::Damage) => order.manoeuvre.name(),
        (_, effect) => effect.name(),
    }
}

/// Does the manoeuvre provoke Opportunity Actions (arrgs.txt, each manoeuvre's "Opportunity
/// Actions")? Ranged, spell and unarmed attacks do; Charge (its movement), Disarm, Sunder, Trip
/// and Reposition do.
pub fn provokes(order: &Order, weapon: &Weapon) -> bool {
    weapon.provokes() || matches!(order.manoeuvre, Manoeuvre::Charge { .. }) || order.effect != Effect::Damage
}

fn range_modifiers(attacker: &Fighter, order: &Order, weapon: &Weapon) -> Result<Vec<Modifier>, RuleError> {
    let Some(distance) = order.distance.map(Score::get) else { return Ok(Vec::new()) };
    if weapon.kind == AttackKind::Melee {
        let (min, max) = threat_range(attacker);
        if distance < min || distance > max {
            let message = format!("{distance} squares is outside {}'s Threat Range {min}–{max}", attacker.name);
            return Err(RuleError::invalid("distance", message));
        }
        return Ok(Vec::new());
    }
    // No silent default: a ranged or spell attack at a distance is judged by its Range Increment
    // (arrgs.txt, "Range Increment"), so one without it is refused rather than taken at no penalty.
    let Some(increment) = weapon.range_increment.map(Score::get) else {
        let message = format!("{} attacks at {distance} squares: its Range Increment is needed for the range modifier", weapon.name);
        return Err(RuleError::invalid("weapon.range_increment", message));
    };
    let increments = super::fighter::increment(distance, increment);
    if let Some(max) = weapon.max_increments.map(Score::get)
        && increments > max
    {
        let message = format!("{distance} squares is {increments} Range Increments; the weapon reaches {max}");
        return Err(RuleError::invalid("distance", message));
    }
    let value = range_penalty(distance, increment);
    let reason = format!("{distance} squares at Range Increment {increment}");
    Ok(if value == 0 { Vec::new() } else { vec![Modifier::new(ModifierCode::RangeIncrement, value, reason)] })
}

/// Charge's movement: a passive Movement check, DC 10, "as per the Movement Manoeuvre": with the
/// Multiple Actions penalty and a pending Athletics assist, like a Movement manoeuvre's check
/// (arrgs.txt, "Charge Manoeuvre", "Movement Manoeuvre").
fn charge_move(attacker: &mut Fighter, squares: i32, penalty: Option<Modifier>) -> Result<ChargeMove, RuleError> {
    let mut modifiers = standing_modifiers(attacker, CheckKind::Athletics, None, &Bonuses::default(), true);
    modifiers.extend(penalty);
    modifiers.extend(take_assist(attacker, CheckKind::Athletics));
    let check = Check::reaction(CheckKind::Athletics, modifiers, None);
    let allowed = attacker.stats.speed() + (check.result - 10);
    if squares > allowed.max(1) {
        let message = format!("{} can move {} squares with this Movement check, not {squares}", attacker.name, allowed.max(1));
        return Err(RuleError::invalid("manoeuvre.squares", message));
    }
    attacker.state.round.squares_moved = attacker.state.round.squares_moved.saturating_add(squares);
    Ok(ChargeMove { check, allowed, squares })
}

/// The attacks of the manoeuvre, with the Opportunity attacks that interrupt the later ones of a
/// Repeated Attack; also why they stopped early, if an Opportunity stopped them.
fn strikes(
    cast: &mut Cast,
    order: &Order,
    weapon: &Weapon,
    base_mods: Vec<Modifier>,
    scene: &Scene,
    dice: &mut Dice,
    opportunity_reports: &mut Vec<OpportunityReport>,
) -> Result<(Vec<Strike>, Option<String>), RuleError> {
    let count = match order.manoeuvre {
        Manoeuvre::RepeatedAttack { attacks } => attacks.get(),
        _ => 1,
    };
    let kind = weapon.kind.check();
    let mut first_extra = base_mods;
    if matches!(order.manoeuvre, Manoeuvre::Charge { .. }) {
        first_extra.push(Modifier::new(ModifierCode::Charge, 2, "charging"));
    }
    if let Some(Effect::Trip) = Some(&order.effect)
        && let Some(bonus) = weapon.trip_bonus.map(Score::get).filter(|b| *b > 0)
    {
        first_extra.push(Modifier::new(ModifierCode::Circumstance, bonus, format!("{} helps to trip", weapon.name)));
    }
    first_extra.extend(take_assist(&mut cast.attacker, kind));
    let mut strikes = Vec::new();
    for number in 1..=count {
        let mut extra = first_extra.clone();
        let mut cost = None;
        if number > 1 {
            if cast.target.is_dead() || cast.attacker.is_dead() {
                break;
            }
            let vitality = weapon.vitality_cost();
            cast.attacker.total_vitality()?;
            cast.attacker.lose_vitality(vitality);
            cost = Some(vitality);
            opportunity_reports.extend(opportunities(cast, scene, dice, number)?);
            if let Some(reason) = interrupted(&cast.attacker) {
                return Ok((strikes, Some(format!("attack {number} was not made: {reason}"))));
            }
            extra.retain(|m| m.code != ModifierCode::AidAnother);
            let reason = format!("attack {number} of a Repeated Attack");
            extra.push(Modifier::new(ModifierCode::RepeatedAttack, -2 * (number - 1), reason));
        }
        let defence = if weapon.kind == AttackKind::Melee && order.effect.is_reflex_only() {
            DefenceKind::Reflex
        } else {
            order.defence.unwrap_or_default()
        };
        let spec = StrikeSpec {
            weapon,
            effect: &order.effect,
            ability: order.ability,
            bonuses: &order.bonuses,
            target_bonuses: &order.target_bonuses,
            defence,
            no_defence: order.no_defence,
            extra,
            defence_action: order.defence_action.as_ref(),
        };
        let mut made = strike(&mut cast.attacker, &mut cast.target, cast.bystander.as_mut(), &spec, scene, dice)?;
        made.vitality_cost = cost;
        strikes.push(made);
    }
    Ok((strikes, None))
}

fn round_penalties(attacker: &mut Fighter, order: &Order, outcome: &Outcome) -> Vec<Modifier> {
    let mut added = Vec::new();
    if matches!(order.manoeuvre, Manoeuvre::Charge { .. }) {
        let modifier = Modifier::new(ModifierCode::ChargedThisRound, -2, "charged this round");
        attacker.state.round.penalties.push(RoundPenalty { modifier: modifier.clone(), only: Some(CheckKind::Reflex) });
        added.push(modifier);
    }
    if let (Manoeuvre::RepeatedAttack { .. }, Outcome::Resolved { strikes }) = (&order.manoeuvre, outcome) {
        let made = i32::try_from(strikes.len()).unwrap_or(5);
        if made > 1 {
            let reason = format!("made {made} attacks in a Repeated Attack this round");
            let modifier = Modifier::new(ModifierCode::RepeatedAttack, -2 * (made - 1), reason);
            attacker.state.round.penalties.push(RoundPenalty { modifier: modifier.clone(), only: None });
            added.push(modifier);
        }
    }
    added
}

fn standings(cast: &Cast) -> Vec<Standing> {
    let mut standings = vec![cast.attacker.standing(), cast.target.standing()];
    for (fighter, _) in &cast.opportunists {
        if !standings.iter().any(|s| s.combatant_id == fighter.id) {
            standings.push(fighter.standing());
        }
    }
    standings.extend(cast.bystander.iter().map(Fighter::standing));
    standings.extend(cast.counter.iter().filter_map(|c| c.by.as_ref()).map(Fighter::standing));
    standings
}
