//! Opportunity manoeuvres (arrgs.txt, "Opportunity Manoeuvre", "Threat Range", "Immediate
//! Actions"; "Repeated Attack Manoeuvre": "incurred for each applicable attack").
//!
//! Decisions:
//! - An Opportunity attack is an Immediate armed melee Attack manoeuvre (the Standard manoeuvres
//!   that can target an opponent and do not provoke themselves), 2 AAP and 1 Vitality, with the
//!   provoker inside the opportunist's Threat Range, made after the provoker paid and before it
//!   acts. If it kills the provoker or knocks it out, the provoker's action is wasted.
//! - The opportunist's pending Aid Another bonus on its weapon's kind of check is used by the
//!   Opportunity attack, its next check of that kind.
//! - In a Repeated Attack an Opportunity names the attack it interrupts (default the first).
//! - A combatant with several roles in one operation (the target, a bystander, the other of a
//!   manoeuvre, or an opportunist on several attacks) carries one state through all of them.

use super::attacking::Cast;
use super::check::take_assist;
use super::economy::{Pace, Spend, spend};
use super::defence::DefenceKind;
use super::fighter::{Fighter, Scene, threat_range};
use super::bonuses::Bonuses;
use super::stats::Squares;
use super::strike::{Effect, Strike, StrikeSpec, strike};
use super::vitality::{Exertion, exert};
use super::weapon::Weapon;
use crate::dice::Dice;
use crate::encounter::CombatantId;
use crate::rulesets::RuleError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// An Opportunity attack on the attacker, provoked by its manoeuvre.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsOpportunity))]
#[serde(deny_unknown_fields)]
pub struct Opportunity {
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub combatant_id: CombatantId,
    /// Squares between the opportunist and the provoker.
    pub distance: Squares,
    /// An armed melee weapon.
    pub weapon: Weapon,
    #[serde(default)]
    pub bonuses: Bonuses,
    #[serde(default)]
    pub defence: DefenceKind,
    /// The attack of a Repeated Attack it interrupts (default the first): each provoking attack
    /// provokes anew.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<Score<1, 5>>,
}

impl Opportunity {
    /// The attack it interrupts (1 for any other manoeuvre).
    pub fn before_attack(&self) -> i32 {
        self.attack.map_or(1, Score::get)
    }
}

/// An Opportunity attack as made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsOpportunityReport))]
pub struct OpportunityReport {
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub combatant_id: CombatantId,
    pub name: String,
    pub spend: Spend,
    pub exertion: Exertion,
    /// The attack of a Repeated Attack it interrupted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<i32>,
    /// Absent when the effort killed the opportunist.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strike: Option<Strike>,
}

/// The Opportunity attacks that interrupt attack `number` (1 for every manoeuvre but a Repeated
/// Attack), until one stops the attacker.
pub(crate) fn opportunities(cast: &mut Cast, scene: &Scene, dice: &mut Dice, number: i32) -> Result<Vec<OpportunityReport>, RuleError> {
    let mut reports = Vec::new();
    for index in 0..cast.opportunists.len() {
        if interrupted(&cast.attacker).is_some() {
            break;
        }
        let (opportunist, opportunity) = &mut cast.opportunists[index];
        if opportunity.before_attack() != number {
            continue;
        }
        let is_target = opportunist.id == cast.target.id;
        if is_target {
            opportunist.state = cast.target.state.clone();
        }
        let field = format!("opportunities[{index}]");
        reports.push(opportunity_attack(opportunist, opportunity, &mut cast.attacker, scene, dice, &field)?);
        if is_target {
            cast.target.state = opportunist.state.clone();
        }
        share_state(&mut cast.opportunists, index);
    }
    Ok(reports)
}

/// A combatant in a second role (the bystander of a Reposition, the other of a manoeuvre) who also
/// made an Opportunity attack carries on from the state that attack left.
pub fn adopt_opportunist_state(fighter: &mut Fighter, opportunists: &[(Fighter, Opportunity)]) {
    if let Some((same, _)) = opportunists.iter().find(|(o, _)| o.id == fighter.id) {
        fighter.state = same.state.clone();
    }
}

/// One combatant may make Opportunity attacks on several attacks of a Repeated Attack: every
/// entry for it carries the state of the latest. (The target making one shares its state with
/// the target's entry around each Opportunity attack.)
fn share_state(opportunists: &mut [(Fighter, Opportunity)], from: usize) {
    let (id, state) = (opportunists[from].0.id.clone(), opportunists[from].0.state.clone());
    for (fighter, _) in opportunists.iter_mut().filter(|(fighter, _)| fighter.id == id) {
        fighter.state = state.clone();
    }
}

/// One Opportunity manoeuvre (arrgs.txt, "Opportunity Manoeuvre"): an Immediate armed melee
/// attack on the provoker within Threat Range.
pub fn opportunity_attack(
    opportunist: &mut Fighter,
    opportunity: &Opportunity,
    provoker: &mut Fighter,
    scene: &Scene,
    dice: &mut Dice,
    field: &str,
) -> Result<OpportunityReport, RuleError> {
    opportunity.weapon.validate(&format!("{field}.weapon"))?;
    if opportunity.weapon.provokes() {
        let message = "an Opportunity manoeuvre must not provoke: use an armed melee attack";
        return Err(RuleError::invalid(format!("{field}.weapon"), message));
    }
    let (min, max) = threat_range(opportunist);
    let distance = opportunity.distance.get();
    if distance < min || distance > max {
        let message = format!("{} is {distance} squares away, outside {}'s Threat Range {min}–{max}", provoker.name, opportunist.name);
        return Err(RuleError::invalid(format!("{field}.distance"), message));
    }
    let spent = spend(opportunist, scene, Pace::Immediate, 2, field)?;
    let exertion = exert(opportunist, 1, scene.options.disabled_dc(), spent.penalty.clone(), dice)?;
    let mut report = OpportunityReport {
        combatant_id: opportunist.id.clone(),
        name: opportunist.name.clone(),
        spend: spent.clone(),
        exertion,
        attack: opportunity.attack.map(Score::get),
        strike: None,
    };
    if report.exertion.died {
        return Ok(report);
    }
    let no_bonuses = Bonuses::default();
    let spec = StrikeSpec {
        weapon: &opportunity.weapon,
        effect: &Effect::Damage,
        ability: None,
        bonuses: &opportunity.bonuses,
        target_bonuses: &no_bonuses,
        defence: opportunity.defence,
        no_defence: false,
        extra: spent.penalty.into_iter().chain(take_assist(opportunist, opportunity.weapon.kind.check())).collect(),
        defence_action: None,
    };
    report.strike = Some(strike(opportunist, provoker, None, &spec, scene, dice)?);
    Ok(report)
}

/// Why the provoker's action is wasted, if it is.
pub(crate) fn interrupted(provoker: &Fighter) -> Option<String> {
    if provoker.is_dead() {
        Some(format!("{} was killed before acting", provoker.name))
    } else if provoker.state.unconscious {
        Some(format!("{} was knocked Unconscious before acting", provoker.name))
    } else {
        None
    }
}
