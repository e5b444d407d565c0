//! Attacks and called damage, on stored combatants and inline (lur-asko.txt, "Back in Combat").
//!
//! Decisions:
//! - An attack is not limited to the attacker's turn: the GM decides when it happens (reactions
//!   exist outside this chapter).
//! - An aura response is checked before any die is rolled (it must name an aura the target holds,
//!   with a legal amount, against an attack with a melee weapon); whether it fires depends on the
//!   roll, so a defended attack or a critical melee hit reports it as not provoked.

use super::super::LurAsko;
use super::super::aura::{self, AuraResponse};
use super::super::options::Options;
use super::super::outcome::{AuraOutcome, AuraStrike, EnergyEffect, Outcome};
use super::super::pipeline::{self, Attack, DefenseInput, Resolution, Target};
use super::super::shielding::Pool;
use super::super::state::{Aura, Precision};
use super::super::weapon::Delivery;
use super::report::AttackReport;
use super::request::{DefenseRequest, EncounterAttack, EncounterDamage, InlineAttack, InlineCombatant, InlineDamage, Strike};
use super::stored::{self, EffectIds, Landing};
use crate::dice::{Dice, DiceExpr};
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::RuleError;
use crate::rulesets::plugin::{ensure_active, options, parts_mut};

/// The attack half of the pipeline's input.
fn attack_of<'a>(attacker: &'a str, strike: &'a Strike) -> Attack<'a> {
    Attack {
        attacker,
        weapons: &strike.weapons,
        reduction: strike.reduction,
        strength_withheld: strike.strength_withheld,
        situation: strike.situation,
        injury_type: &strike.injury_type,
        critical_choice: &strike.critical_choice,
    }
}

fn defense_of<'a>(request: DefenseRequest, expr: &'a DiceExpr, options: &Options) -> DefenseInput<'a> {
    match request {
        DefenseRequest::Roll { tn, critical_possible } => DefenseInput::Roll {
            tn: tn.get(),
            dice: expr,
            tn_per_hindrance: options.tn_per_hindrance(),
            critical_possible,
        },
        DefenseRequest::Undefended { critical_possible } => DefenseInput::Undefended { critical_possible },
        DefenseRequest::Hit { critical } => DefenseInput::Called { critical },
    }
}

/// Checks an aura response before any roll: an aura the target holds, a legal amount, and an
/// attack that can provoke it (a melee weapon). Returns the aura's index and the amount.
fn check_response(response: &AuraResponse, auras: &[Aura], strike: &Strike) -> Result<(usize, u32), RuleError> {
    if !strike.weapons.iter().any(|w| w.delivery == Delivery::Melee) {
        let message = "only a melee hit, touch, grab, trip or grapple provokes a damage aura";
        return Err(RuleError::invalid("aura_response", message));
    }
    let index = auras
        .iter()
        .position(|aura| aura.name == response.aura)
        .ok_or_else(|| RuleError::invalid("aura_response.aura", format!("the target holds no aura named '{}'", response.aura)))?;
    let amount = aura::discharge_amount(&auras[index], response.amount, "aura_response")?;
    Ok((index, amount))
}

/// Whether the attack's outcome provokes the aura (Damage Auras), or why not.
fn provoked(outcome: &Outcome) -> Result<(), String> {
    match outcome {
        Outcome::Hit { critical: None, .. } => Ok(()),
        Outcome::Hit { critical: Some(_), .. } => Err("a critical melee hit does not provoke damage auras".into()),
        Outcome::Defended | Outcome::StoppedByShielding => Err("the attack did not hit".into()),
    }
}

fn report(attacker: (Option<CombatantId>, String), target: (Option<CombatantId>, String), resolution: Resolution) -> AttackReport {
    AttackReport {
        attacker_id: attacker.0,
        attacker: attacker.1,
        target_id: target.0,
        target: target.1,
        hindrance: resolution.hindrance,
        portions: resolution.portions,
        shielding: resolution.shielding,
        defense: resolution.defense,
        outcome: resolution.outcome,
        aura: None,
        conditions: Vec::new(),
        standings: Vec::new(),
    }
}

/// Resolves and stores one attack (a refusal is discarded whole: see [`crate::rulesets::Command::run`]).
pub fn attack(encounter: &mut Encounter, request: EncounterAttack, dice: &mut Dice) -> Result<(Vec<Event>, AttackReport), EncounterError> {
    ensure_active::<LurAsko>(encounter)?;
    request.attack.check("attack")?;
    if request.attacker_id == request.target_id {
        return Err(EncounterError::invalid("target_id", "a combatant cannot attack itself"));
    }
    let settings = options::<LurAsko>(encounter);
    let expr = settings.defense_dice("options.defense_dice")?;
    let mut events = Vec::new();
    let (attacker_name, attacker_stats, attacker_state) = stored::lur(encounter, &request.attacker_id, "attacker_id")?;
    let (attacker_name, attacker_stats, attacker_taken) = (attacker_name.to_owned(), attacker_stats.clone(), attacker_state.damage_taken);
    let (target_name, target_stats, target_state) = stored::lur(encounter, &request.target_id, "target_id")?;
    let (target_name, target_stats, target_taken) = (target_name.to_owned(), target_stats.clone(), target_state.damage_taken);
    let plan = match &request.aura_response {
        Some(response) => Some(check_response(response, &target_state.auras, &request.attack)?),
        None => None,
    };
    let target_factor = target_stats.injury_factor("target_id")?;
    let attacker_factor = if plan.is_some() { attacker_stats.injury_factor("attacker_id")? } else { 0 };
    let (mut pools, refs) = stored::pools_for(encounter, &request.target_id, false);
    let target = Target { name: &target_name, stats: &target_stats, injury_factor: target_factor, damage_taken: target_taken };
    let defense = defense_of(request.defense, &expr, &settings);
    let resolution = pipeline::resolve(attack_of(&attacker_name, &request.attack), target, defense, &mut pools, dice)?;
    stored::write_pools(encounter, &pools, &refs);
    let mut report = report(
        (Some(request.attacker_id.clone()), attacker_name.clone()),
        (Some(request.target_id.clone()), target_name),
        resolution,
    );
    let strike = match plan {
        Some((index, amount)) => match provoked(&report.outcome) {
            Ok(()) => {
                let struck = Target {
                    name: &attacker_name,
                    stats: &attacker_stats,
                    injury_factor: attacker_factor,
                    damage_taken: attacker_taken,
                };
                Some(strike_stored(encounter, &request.target_id, &request.attacker_id, index, amount, struck)?)
            }
            Err(reason) => {
                report.aura = Some(AuraOutcome::NotProvoked { reason });
                None
            }
        },
        None => None,
    };
    // Both hits are resolved before either's effects (Damage Auras).
    let mut ids = EffectIds::new(encounter);
    if let Outcome::Hit { hit, .. } = &report.outcome {
        let landing = Landing { target: &request.target_id, attacker: &request.attacker_id, injury: &hit.injury, effects: &hit.effects };
        let standing = stored::land(encounter, landing, &mut ids, &mut report.conditions, &mut events)?;
        report.standings.push(standing);
    }
    if let Some(strike) = strike {
        let landing = Landing {
            target: &request.attacker_id,
            attacker: &request.attacker_id,
            injury: &strike.hit.injury,
            effects: &strike.hit.effects,
        };
        let standing = stored::land(encounter, landing, &mut ids, &mut report.conditions, &mut events)?;
        report.standings.push(standing);
        report.aura = Some(AuraOutcome::Struck(Box::new(strike)));
    }
    events.insert(0, Event::AttackResolved {
        attacker_id: request.attacker_id,
        target_id: request.target_id,
        report: crate::rulesets::RulesetReport::LurAsko(super::Report::Attack(Box::new(report.clone()))),
        dice: dice.rolls().to_vec(),
    });
    Ok((events, report))
}

/// The owner's aura strikes `struck` on a stored encounter; the aura's store falls.
pub(super) fn strike_stored(
    draft: &mut Encounter,
    owner_id: &CombatantId,
    struck_id: &CombatantId,
    aura_index: usize,
    amount: u32,
    struck: Target<'_>,
) -> Result<AuraStrike, EncounterError> {
    let (mut pools, refs) = stored::pools_for(draft, struck_id, true);
    let owner_name = draft.name_of(owner_id);
    let owner = crate::rulesets::plugin::combatant_mut(draft, owner_id, "combatant_id")?;
    let (_, state) = parts_mut::<LurAsko>(owner, "combatant_id")?;
    let aura = state.auras.get_mut(aura_index).ok_or_else(|| EncounterError::invalid("aura", "no such aura"))?;
    let strike = aura::strike(&owner_name, aura, amount, struck, &mut pools);
    stored::write_pools(draft, &pools, &refs);
    Ok(strike)
}

/// Called damage on a stored combatant: the hit has landed; shields still act in their order.
pub fn damage(encounter: &mut Encounter, request: EncounterDamage, dice: &mut Dice) -> Result<(Vec<Event>, AttackReport), EncounterError> {
    ensure_active::<LurAsko>(encounter)?;
    request.attack.check("attack")?;
    let mut events = Vec::new();
    let anchor = request.attacker_id.clone().unwrap_or_else(|| request.target_id.clone());
    let attacker_name = match &request.attacker_id {
        Some(id) => stored::lur(encounter, id, "attacker_id")?.0.to_owned(),
        None => "the GM".to_owned(),
    };
    let (target_name, target_stats, target_state) = stored::lur(encounter, &request.target_id, "target_id")?;
    let (target_name, target_stats, target_taken) = (target_name.to_owned(), target_stats.clone(), target_state.damage_taken);
    let anchor_name = encounter.name_of(&anchor);
    let injury_factor = target_stats.injury_factor("target_id")?;
    let (mut pools, refs) = stored::pools_for(encounter, &request.target_id, false);
    let target = Target { name: &target_name, stats: &target_stats, injury_factor, damage_taken: target_taken };
    let defense = DefenseInput::Called { critical: request.critical };
    let resolution = pipeline::resolve(attack_of(&anchor_name, &request.attack), target, defense, &mut pools, dice)?;
    stored::write_pools(encounter, &pools, &refs);
    let mut report = report((request.attacker_id.clone(), attacker_name), (Some(request.target_id.clone()), target_name), resolution);
    if let Outcome::Hit { hit, .. } = &report.outcome {
        let landing = Landing { target: &request.target_id, attacker: &anchor, injury: &hit.injury, effects: &hit.effects };
        let mut ids = EffectIds::new(encounter);
        let standing = stored::land(encounter, landing, &mut ids, &mut report.conditions, &mut events)?;
        report.standings.push(standing);
    }
    events.insert(0, Event::DamageApplied {
        combatant_id: request.target_id,
        report: crate::rulesets::RulesetReport::LurAsko(super::Report::Attack(Box::new(report.clone()))),
        dice: dice.rolls().to_vec(),
    });
    Ok((events, report))
}

fn inline_pools(combatant: &InlineCombatant, only_high: bool) -> Vec<Pool> {
    combatant
        .shields
        .iter()
        .filter(|shield| !only_high || shield.precision == Precision::High)
        .map(|shield| Pool {
            owner: combatant.name.clone(),
            name: shield.name.clone(),
            precision: shield.precision,
            points: shield.points.get() as u32,
            techshield: shield.techshield,
        })
        .collect()
}

fn inline_auras(combatant: &InlineCombatant) -> Vec<Aura> {
    combatant
        .auras
        .iter()
        .map(|aura| Aura { name: aura.name.clone(), kind: aura.kind, stored: aura.stored.get() as u32, mental: false })
        .collect()
}

/// Refuses an inline hit that would owe `combatant` a war-fever roll past the bound its stored
/// twin keeps (`WarFeverRolls::owe`), so both forms answer alike.
fn ensure_war_fever_room(combatant: &InlineCombatant, effects: &[EnergyEffect], field: &str) -> Result<(), RuleError> {
    let owed = effects.iter().filter(|effect| matches!(effect, EnergyEffect::WarFeverRoll { .. })).count();
    combatant.war_fever_rolls.ensure_room(owed, &format!("{field}.war_fever_rolls"), &combatant.name)
}

/// An attack between inline stat blocks; nothing is stored.
pub fn attack_inline(request: InlineAttack, dice: &mut Dice) -> Result<AttackReport, RuleError> {
    request.attack.check("attack")?;
    request.attacker.check("attacker")?;
    request.target.check("target")?;
    let expr = request.options.defense_dice("options.defense_dice")?;
    let mut auras = inline_auras(&request.target);
    let plan = match &request.aura_response {
        Some(response) => Some(check_response(response, &auras, &request.attack)?),
        None => None,
    };
    let (attacker, target) = (&request.attacker, &request.target);
    let target_factor = target.stats.injury_factor("target.stats.injury_factor")?;
    let attacker_factor = if plan.is_some() { attacker.stats.injury_factor("attacker.stats.injury_factor")? } else { 0 };
    let mut pools = inline_pools(target, false);
    let defender = Target { name: &target.name, stats: &target.stats, injury_factor: target_factor, damage_taken: target.damage_taken() };
    let defense = defense_of(request.defense, &expr, &request.options);
    let resolution = pipeline::resolve(attack_of(&attacker.name, &request.attack), defender, defense, &mut pools, dice)?;
    let mut report = report((None, attacker.name.clone()), (None, target.name.clone()), resolution);
    if let Outcome::Hit { hit, .. } = &report.outcome {
        ensure_war_fever_room(target, &hit.effects, "target")?;
    }
    if let Some((index, amount)) = plan {
        report.aura = Some(match (provoked(&report.outcome), auras.get_mut(index)) {
            (Ok(()), Some(aura)) => {
                let struck = Target {
                    name: &attacker.name,
                    stats: &attacker.stats,
                    injury_factor: attacker_factor,
                    damage_taken: attacker.damage_taken(),
                };
                let mut attacker_pools = inline_pools(attacker, true);
                let strike = aura::strike(&target.name, aura, amount, struck, &mut attacker_pools);
                ensure_war_fever_room(attacker, &strike.hit.effects, "attacker")?;
                AuraOutcome::Struck(Box::new(strike))
            }
            (Err(reason), _) => AuraOutcome::NotProvoked { reason },
            (Ok(()), None) => AuraOutcome::NotProvoked { reason: "no such aura".into() },
        });
    }
    Ok(report)
}

/// Called damage on an inline stat block; nothing is stored.
pub fn damage_inline(request: InlineDamage, dice: &mut Dice) -> Result<AttackReport, RuleError> {
    request.attack.check("attack")?;
    request.target.check("target")?;
    let target = &request.target;
    let anchor = request.attacker_name.clone().unwrap_or_else(|| target.name.clone());
    let injury_factor = target.stats.injury_factor("target.stats.injury_factor")?;
    let mut pools = inline_pools(target, false);
    let defender = Target { name: &target.name, stats: &target.stats, injury_factor, damage_taken: target.damage_taken() };
    let defense = DefenseInput::Called { critical: request.critical };
    let resolution = pipeline::resolve(attack_of(&anchor, &request.attack), defender, defense, &mut pools, dice)?;
    let attacker = request.attacker_name.unwrap_or_else(|| "the GM".to_owned());
    let report = report((None, attacker), (None, target.name.clone()), resolution);
    if let Outcome::Hit { hit, .. } = &report.outcome {
        ensure_war_fever_room(target, &hit.effects, "target")?;
    }
    Ok(report)
}
