//! Counterspell against a spell being cast (arrgs.txt, "Counterspell Manoeuvre", "Immediate
//! Actions"): an Immediate action made inside the spell attack it answers. Spells in effect and
//! who controls them ("Control Spell Manoeuvre", "Dismiss Spell Manoeuvre").
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
//! - A spell attack whose weapon has a `duration` (`lasting` or `concentration`) and whose first
//!   attack succeeds comes into effect under its caster's control (one per name; casting again
//!   replaces it). Casting counts as controlling it that round.
//! - Control Spell, Dismiss Spell and Counterspell may name a spell in effect (`spell`): its
//!   level is the tracked one. Control keeps a Concentration spell for the round; Dismiss ends
//!   it; Counterspell moves it to the counterspeller's control. Without a name they report the
//!   check only (a spell the encounter does not track).
//! - At the End of Round a Concentration spell not controlled that round ends.

use super::check::{Check, multiple_actions, standing_modifiers, take_assist};
use super::economy::{Pace, Spend, spend};
use super::fighter::{Fighter, Scene};
use super::manoeuvre_resolution::roll;
use super::manoeuvres::PassFail;
use super::modifier::Modifier;
use super::bonuses::{Bonuses, CheckKind};
use super::state::{MAX_SPELLS, SpellInEffect};
use super::vitality::{Exertion, SurvivalCheck, exert, react};
use super::weapon::SpellDuration;
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
    modifiers.extend(take_assist(caster, CheckKind::Spell));
    let dc = Check::reaction(CheckKind::Spell, modifiers, None).result;
    let check = roll(counterer, CheckKind::Spell, None, bonuses, penalty, dice, "Counterspell")?;
    let success = check.result >= dc;
    Ok((caster_reaction, PassFail { check, dc, success, critical_checks: Vec::new() }))
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

impl Fighter {
    fn spell_index(&self, name: &str) -> Option<usize> {
        self.state.spells.iter().position(|spell| spell.name == name)
    }
}

/// A cast spell with a duration comes into effect under its caster's control (replacing one of
/// the same name).
pub fn begin(caster: &mut Fighter, name: &str, level: i32, duration: SpellDuration, round: u32) {
    let spell = SpellInEffect { name: name.to_owned(), level, duration, controlled_round: round };
    take_control(caster, spell);
}

fn take_control(controller: &mut Fighter, spell: SpellInEffect) {
    match controller.spell_index(&spell.name) {
        Some(index) => controller.state.spells[index] = spell,
        None if controller.state.spells.len() < MAX_SPELLS => controller.state.spells.push(spell),
        None => {}
    }
}

/// The level of the spell a manoeuvre is aimed at: the named spell the fighter controls, or the
/// level sent. Refuses naming `manoeuvre.spell` / `manoeuvre.spell_level`.
pub fn level_of(controller: &Fighter, spell: Option<&str>, level: Option<Score<0, 9>>) -> Result<i32, RuleError> {
    let Some(name) = spell else {
        return level.map(Score::get).ok_or_else(|| RuleError::invalid("manoeuvre.spell_level", "name a spell in effect or give its level"));
    };
    let index = controller
        .spell_index(name)
        .ok_or_else(|| RuleError::invalid("manoeuvre.spell", format!("{} controls no spell named {name}", controller.name)))?;
    let known = controller.state.spells[index].level;
    match level.map(Score::get) {
        Some(sent) if sent != known => Err(RuleError::invalid("manoeuvre.spell_level", format!("{name} is a level {known} spell"))),
        _ => Ok(known),
    }
}

/// Control Spell succeeded: a Concentration spell persists this round.
pub fn control(controller: &mut Fighter, name: &str, round: u32) {
    if let Some(index) = controller.spell_index(name) {
        controller.state.spells[index].controlled_round = round;
    }
}

/// Dismiss Spell succeeded: the spell ends.
pub fn dismiss(controller: &mut Fighter, name: &str) {
    controller.state.spells.retain(|spell| spell.name != name);
}

/// Counterspell succeeded against a spell in effect: the counterspeller controls it now.
pub fn seize(from: &mut Fighter, to: &mut Fighter, name: &str, round: u32) {
    if let Some(index) = from.spell_index(name) {
        let mut spell = from.state.spells.remove(index);
        spell.controlled_round = round;
        take_control(to, spell);
    }
}

/// End of Round: Concentration spells not controlled this round end. Returns their names.
pub fn lapse(controller: &mut Fighter, round: u32) -> Vec<String> {
    let (ended, kept): (Vec<SpellInEffect>, Vec<SpellInEffect>) = std::mem::take(&mut controller.state.spells)
        .into_iter()
        .partition(|spell| spell.duration == SpellDuration::Concentration && spell.controlled_round < round);
    controller.state.spells = kept;
    ended.into_iter().map(|spell| spell.name).collect()
}
