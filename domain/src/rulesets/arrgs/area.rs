//! Area attacks (arrgs.txt, "Area Attacks"): the Attack check against 10 for the target square;
//! on a hit the same check against each occupant's Defence; on a miss the attack scatters 1d8
//! compass points (1 North, clockwise) and 1d4 squares per Range Increment, and a second Attack
//! check is made against the occupants where it lands.
//!
//! Decisions:
//! - Hitting the square is pass/fail: check ≥ 10. Each occupant then takes base + (check − its
//!   Defence), failing at 0 or less, through resistance and vulnerability.
//! - One check serves many targets, so area attacks make no critical chain and inflict no Dying.
//! - The scatter is resolved by a second request naming the occupants of the square it landed
//!   on; the attacker keeps the pending attack until then (or until the End of Round). The
//!   second check costs no further points or Vitality.
//! - A spell under its base difficulty (10 + level) fails with no effect and does not scatter.
//! - The attacker is not one of the occupants it names.
//! - The number of Range Increments is the distance over the increment, rounded up, at least 1.
//! - The square check is "the Attack check as normal": it carries the Range modifier of the
//!   distance to the target square (−2 per Range Increment beyond the first) and is refused
//!   beyond the weapon's `max_increments`; the scattered check ("roll Attack check again") keeps
//!   the same modifiers. A natural 1 always fails ("Attack Manoeuvre"): the square is missed, and
//!   on the scattered check no occupant is hit.
//! - A Dying occupant makes its Dying check when it makes its Reaction Defence ("Dying [n]").

use super::attack::{is_natural_one, range_penalty};
use super::check::{Against, Check, magnitude, multiple_actions, standing_modifiers, take_assist};
use super::damage_types::{DamageSteps, apply_resistance};
use super::fighter::Fighter;
use super::modifier::{Modifier, ModifierCode};
use super::bonuses::Bonuses;
use super::defence::DefenceKind;
use super::vitality::{SurvivalCheck, react};
use super::state::PendingArea;
use super::weapon::Weapon;
use crate::dice::{Dice, DiceError};
use crate::encounter::CombatantId;
use serde::{Deserialize, Serialize};

/// The DC of the target square (arrgs.txt, "Area Attacks").
pub const SQUARE_DC: i32 = 10;

/// The Range modifier of an area attack at `distance` squares (arrgs.txt, "Range Increment"), or
/// why the distance is out of reach (the weapon's `max_increments`).
pub fn area_range(weapon: &Weapon, distance: i32) -> Result<Option<Modifier>, String> {
    let Some(increment) = weapon.range_increment.map(crate::score::Score::get) else { return Ok(None) };
    let increments = super::fighter::increment(distance, increment);
    if let Some(max) = weapon.max_increments.map(crate::score::Score::get)
        && increments > max
    {
        return Err(format!("{distance} squares is {increments} Range Increments; the weapon reaches {max}"));
    }
    let value = range_penalty(distance, increment);
    let reason = format!("{distance} squares at Range Increment {increment}");
    Ok((value != 0).then(|| Modifier::new(ModifierCode::RangeIncrement, value, reason)))
}

/// Where a missed area attack lands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsScatter))]
pub struct Scatter {
    /// 1d8: 1 North, 2 North-East, … 8 North-West.
    pub roll: u32,
    pub direction: String,
    pub increments: i32,
    /// The 1d4 per Range Increment.
    pub dice: Vec<u32>,
    pub squares: i32,
}

const DIRECTIONS: [&str; 8] = ["North", "North-East", "East", "South-East", "South", "South-West", "West", "North-West"];

/// Rolls the scatter (arrgs.txt, "Area Attacks").
pub fn scatter(distance: i32, increment: i32, dice: &mut Dice) -> Result<Scatter, DiceError> {
    let roll = dice.roll(8, "area attack scatter: direction")?;
    let direction = DIRECTIONS.get(usize::try_from(roll).unwrap_or(1).saturating_sub(1)).copied().unwrap_or("North");
    let increments = super::fighter::increment(distance, increment).max(1);
    let mut rolled = Vec::new();
    for _ in 0..increments {
        rolled.push(dice.roll(4, "area attack scatter: squares")?);
    }
    let squares = rolled.iter().map(|v| i32::try_from(*v).unwrap_or(0)).sum();
    Ok(Scatter { roll, direction: direction.into(), increments, dice: rolled, squares })
}

/// One occupant of the area and what the check did to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAreaHit))]
pub struct AreaHit {
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub combatant_id: CombatantId,
    /// The occupant's Dying check for making its Reaction check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reaction_check: Option<SurvivalCheck>,
    /// The occupant's Reaction Defence check (was `defence`, still read: a request's `defence`
    /// is the Reaction Defence kind).
    #[serde(rename = "defence_check", alias = "defence")]
    pub defence: Check,
    pub success_value: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<DamageSteps>,
    /// The occupant's name (its Vitality afterwards is in the report's `standings`).
    pub target: String,
}

/// The Attack check of an area attack (no target, so no Magnitude and no moving-target penalty).
/// `assist` is the attacker's pending Aid Another bonus, used by the first check only.
pub fn area_check(attacker: &Fighter, pending: &PendingArea, assist: Option<Modifier>, dice: &mut Dice) -> Result<Check, DiceError> {
    let kind = pending.weapon.kind.check();
    let mut modifiers = standing_modifiers(attacker, kind, pending.ability, &pending.bonuses, true);
    modifiers.extend(pending.penalty.clone());
    modifiers.extend(assist);
    modifiers.extend(pending.range.clone());
    Check::roll(kind, modifiers, None, dice, &format!("area attack check: {}", attacker.name))
}

/// Compares the check with each occupant's Defence and applies the damage.
pub fn hit_occupants(
    attacker: &Fighter,
    check: &Check,
    weapon: &Weapon,
    occupants: &mut [(Fighter, DefenceKind)],
    dice: &mut Dice,
) -> Result<Vec<AreaHit>, DiceError> {
    let mut hits = Vec::new();
    for (occupant, defence) in occupants.iter_mut() {
        let reaction_check = react(occupant, multiple_actions(occupant.state.round.points_used()), dice)?;
        let kind = defence.check();
        let against = if *defence == DefenceKind::Reflex { Against::Reflex } else { Against::Resist };
        let scale = magnitude(occupant.stats.magnitude(), attacker.stats.magnitude(), against);
        let mut modifiers = standing_modifiers(occupant, kind, None, &Bonuses::default(), scale.is_none());
        modifiers.extend(multiple_actions(occupant.state.round.points_used()));
        modifiers.extend(take_assist(occupant, kind));
        let mut reaction = Check::reaction(kind, modifiers, scale);
        if occupant.state.unconscious && kind != super::bonuses::CheckKind::Fortitude {
            reaction.result = 0;
            reaction.automatic_failure = true;
        }
        let success_value = weapon.damage() + (check.result - reaction.result);
        let damage = (success_value > 0 && !is_natural_one(check)).then(|| {
            let steps = apply_resistance(success_value, &weapon.types, &occupant.stats.resistances, &occupant.stats.vulnerabilities);
            occupant.lose_vitality(steps.damage);
            steps
        });
        hits.push(AreaHit { combatant_id: occupant.id.clone(), reaction_check, defence: reaction, success_value, damage, target: occupant.name.clone() });
    }
    Ok(hits)
}
