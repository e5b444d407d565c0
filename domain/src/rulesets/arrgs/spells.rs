//! Counterspell against a spell being cast (arrgs.txt, "Counterspell Manoeuvre", "Immediate
//! Actions"): an Immediate action made inside the spell attack it answers.
//!
//! Decisions:
//! - The counterspeller pays 2 AAP and 1 Vitality (an Immediate action), after the caster paid
//!   and after any Opportunity attacks, before the spell's attack check.
//! - Its Spell Attack check is made against the caster's Reaction Spell Attack check (10 +
//!   modifiers, the caster's Multiple Actions penalty included); equal or better cancels the
//!   spell "in a harmless puff of smoke": the caster's action is wasted (points and Vitality
//!   spent).
//! - The spell it expends must be of equal or higher level than the spell cast: the request
//!   gives its level and a lower one is refused. Schools, spell slots and the Close range are not
//!   tracked (the GM checks them).
//! - A Repeated Attack of spells cannot be countered as a whole: each cast would need its own
//!   Counterspell, which the request does not carry; it is refused.

use super::check::{Check, multiple_actions, standing_modifiers};
use super::economy::{Pace, Spend, spend};
use super::fighter::{Fighter, Scene};
use super::manoeuvres::{PassFail, roll};
use super::modifier::Modifier;
use super::stats::{Bonuses, CheckKind};
use super::vitality::{Exertion, SurvivalCheck, exert, react};
use crate::dice::Dice;
use crate::encounter::CombatantId;
use crate::rulesets::RuleError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// Points a Counterspell costs (arrgs.txt, "Counterspell Manoeuvre": 2).
pub const COUNTERSPELL_POINTS: i32 = 2;

/// A Counterspell declared against the spell attack of the request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsCounterspellAction))]
#[serde(deny_unknown_fields)]
pub struct CounterspellAction {
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub combatant_id: CombatantId,
    /// Level of the spell expended to counter: at least the level of the spell cast.
    pub spell_level: Score<0, 9>,
    #[serde(default)]
    pub bonuses: Bonuses,
}

/// A Counterspell as made against a spell attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsCounterspellReport))]
pub struct CounterspellReport {
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub combatant_id: CombatantId,
    pub name: String,
    pub spend: Spend,
    pub exertion: Exertion,
    /// The caster's Dying check for its Reaction check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caster_reaction: Option<SurvivalCheck>,
    /// Absent when the effort killed the counterspeller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<PassFail>,
}

impl CounterspellReport {
    /// The spell is cancelled.
    pub fn cancelled(&self) -> bool {
        self.test.as_ref().is_some_and(|test| test.success)
    }
}

/// The Counterspell check: Spell Attack against the caster's Reaction Spell Attack check.
pub fn counter_check(
    counterer: &mut Fighter,
    caster: &mut Fighter,
    bonuses: &Bonuses,
    penalty: Option<Modifier>,
    dice: &mut Dice,
) -> Result<(Option<SurvivalCheck>, PassFail), RuleError> {
    let caster_penalty = multiple_actions(caster.state.round.points_used());
    let caster_reaction = react(caster, caster_penalty.clone(), dice)?;
    let mut modifiers = standing_modifiers(caster, CheckKind::Spell, None, &Bonuses::default(), true);
    modifiers.extend(caster_penalty);
    let dc = Check::reaction(CheckKind::Spell, modifiers, None).result;
    let check = roll(counterer, CheckKind::Spell, None, bonuses, penalty, dice, "Counterspell")?;
    let success = check.result >= dc;
    Ok((caster_reaction, PassFail { check, dc, success }))
}

/// The counterspeller can pay for it, and its spell is high enough. Refuses naming `counterspell…`.
pub fn validate(counterer: &Fighter, action: &CounterspellAction, cast_level: i32, scene: &Scene) -> Result<(), RuleError> {
    if action.spell_level.get() < cast_level {
        let message = format!("a level {} spell cannot counter a level {cast_level} spell", action.spell_level.get());
        return Err(RuleError::invalid("counterspell.spell_level", message));
    }
    let mut trial = counterer.clone();
    spend(&mut trial, scene, Pace::Immediate, COUNTERSPELL_POINTS, "counterspell").map(|_| ())
}

/// The Immediate Counterspell against a spell being cast.
pub fn counterspell(counterer: &mut Fighter, caster: &mut Fighter, action: &CounterspellAction, scene: &Scene, dice: &mut Dice) -> Result<CounterspellReport, RuleError> {
    let spent = spend(counterer, scene, Pace::Immediate, COUNTERSPELL_POINTS, "counterspell")?;
    let exertion = exert(counterer, 1, scene.options.disabled_dc(), spent.penalty.clone(), dice)?;
    let mut report = CounterspellReport {
        combatant_id: counterer.id.clone(),
        name: counterer.name.clone(),
        spend: spent.clone(),
        exertion,
        caster_reaction: None,
        test: None,
    };
    if !report.exertion.died {
        let (caster_reaction, test) = counter_check(counterer, caster, &action.bonuses, spent.penalty, dice)?;
        report.caster_reaction = caster_reaction;
        report.test = Some(test);
    }
    Ok(report)
}
