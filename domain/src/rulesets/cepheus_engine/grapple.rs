//! Grappling (cepheus-engine.txt, "Grappling"; opposed checks in `opposed.rs`).
//!
//! Decisions:
//! - Each side's DM is worked out by the caller (Natural Weapons skill plus characteristic DM, and
//!   any penalties); the attacker is side `a` of the opposed check, the defender side `b`.
//! - Starting a grapple (`in_grapple: false`): the attacker must beat the defender. A tie or a
//!   defender win means no grapple and nothing else happens; the defender only resists, so it
//!   sends no choice. In an established grapple (`in_grapple: true`) whoever wins picks; a tie
//!   changes nothing and the grapple holds.
//! - Each side says in advance what it will do if it wins (`choice`, default: continue), so one
//!   request resolves the whole check.
//! - The winner's Effect is its own check's Effect (total − 8), not the margin between the sides.
//!   Disarm takes the weapon on Effect 6+, otherwise it falls to the floor. Damage is 2 + Effect,
//!   never below 0.
//! - Grapple damage and the throw's 1D6 go through the loser's armour like any damage
//!   ("Armor"), with the winner's Effect for the at-least-one-point rule.
//! - Drag and throw need `distance_m`, more than 0 and at most 3; no other option takes one.
//! - Throwing and escaping always end the grapple. After any other option the winner may end it
//!   (`end_grapple`). Escaping a grapple that has not started is refused.
//! - Escape: the winner moves away as with a movement action (up to 6 m, "Movement"); the
//!   distance is the caller's.

use super::damage::apply_armour;
use super::opposed::{OpposedOutcome, OpposedSide, check_dm, opposed_check_labelled};
use super::range::RangeBand;
use crate::dice::{Dice, DieRoll};
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Farthest a grapple winner may drag or throw the loser (cepheus-engine.txt, "Grappling").
pub const MAX_GRAPPLE_MOVE_M: f64 = 3.0;

/// Effect at which a disarm takes the weapon rather than dropping it.
pub const DISARM_TAKE_EFFECT: i32 = 6;

/// The winner's options (cepheus-engine.txt, "Grappling").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineGrappleOption))]
#[serde(rename_all = "snake_case")]
pub enum GrappleOption {
    #[default]
    Continue,
    Disarm,
    Drag,
    Escape,
    Damage,
    KnockProne,
    Throw,
}

/// What a side will do if it wins.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineGrappleChoice))]
#[serde(deny_unknown_fields)]
pub struct GrappleChoice {
    #[serde(default)]
    pub option: GrappleOption,
    /// Drag and throw only: metres, more than 0 and at most 3.
    #[serde(default)]
    pub distance_m: Option<crate::score::Measure<0, 3>>,
    /// End the grapple after the option (throw and escape always end it).
    #[serde(default)]
    pub end_grapple: bool,
}

/// One side of the grapple.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineGrappleSide))]
#[serde(deny_unknown_fields)]
pub struct GrappleSide {
    /// Natural Weapons skill + characteristic DM (+ any other DMs), worked out by the caller.
    #[serde(rename = "value", alias = "dm")]
    pub dm: i32,
    #[serde(default)]
    pub armour: u32,
    #[serde(default)]
    pub choice: Option<GrappleChoice>,
}

/// One opposed grappling check.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineGrappleRequest))]
#[serde(deny_unknown_fields)]
pub struct GrappleRequest {
    pub range: RangeBand,
    /// The two are already locked in a grapple.
    #[serde(default)]
    pub in_grapple: bool,
    pub attacker: GrappleSide,
    pub defender: GrappleSide,
}

/// Which combatant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineGrappleRole))]
#[serde(rename_all = "snake_case")]
pub enum GrappleRole {
    Attacker,
    Defender,
}

/// What became of a disarmed weapon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDisarmResult))]
#[serde(rename_all = "snake_case")]
pub enum DisarmResult {
    TakenByWinner,
    Dropped,
}

/// Damage to the loser, through its armour.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineGrappleDamage))]
pub struct GrappleDamage {
    pub reason: String,
    pub dice: Vec<u32>,
    pub before_armour: i32,
    pub armour: u32,
    pub after_armour: i32,
    pub minimum_one_applied: bool,
}

/// What the winner did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineGrappleAction))]
pub struct GrappleAction {
    pub by: GrappleRole,
    pub option: GrappleOption,
    /// The winner's Effect.
    pub effect: i32,
    pub disarm: Option<DisarmResult>,
    /// Metres the loser is dragged or thrown.
    pub moved_m: Option<f64>,
    pub damage: Option<GrappleDamage>,
    pub loser_prone: bool,
    pub description: String,
}

/// The check, the winner's action and whether the grapple holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineGrappleOutcome))]
pub struct GrappleOutcome {
    /// Side `a` is the attacker, `b` the defender.
    pub check: OpposedOutcome,
    pub winner: Option<GrappleRole>,
    pub action: Option<GrappleAction>,
    /// The two are grappling after this check.
    pub grappling: bool,
    /// Not published: the action report lists every die once (`dice`).
    #[serde(skip)]
    pub dice: Vec<DieRoll>,
}

/// Resolves one opposed Natural Weapons check between two grapplers and the winner's chosen
/// option (cepheus-engine.txt, "Grappling"; see the decisions).
pub fn resolve_grapple(request: &GrappleRequest, dice: &mut Dice) -> Result<GrappleOutcome, RuleError> {
    validate_grapple(request)?;
    let start = dice.rolls().len();
    let purposes = ["grapple: attacker's Natural Weapons check", "grapple: defender's Natural Weapons check"];
    let check = opposed_check_labelled(request.attacker.dm, request.defender.dm, purposes, dice)?;
    let winner = match check.winner {
        Some(OpposedSide::A) => Some(GrappleRole::Attacker),
        Some(OpposedSide::B) if request.in_grapple => Some(GrappleRole::Defender),
        _ => None,
    };
    let (action, grappling) = match winner {
        None => (None, request.in_grapple),
        Some(role) => {
            let effect = check.winning_roll().map_or(0, |roll| roll.effect);
            let action = apply_option(request, role, effect, dice)?;
            let ends = action.option == GrappleOption::Throw
                || action.option == GrappleOption::Escape
                || choice_of(request, role).end_grapple;
            (Some(action), !ends)
        }
    };
    Ok(GrappleOutcome { check, winner, action, grappling, dice: dice.rolls()[start..].to_vec() })
}

fn choice_of(request: &GrappleRequest, role: GrappleRole) -> GrappleChoice {
    match role {
        GrappleRole::Attacker => request.attacker.choice.unwrap_or_default(),
        GrappleRole::Defender => request.defender.choice.unwrap_or_default(),
    }
}

fn loser_armour(request: &GrappleRequest, winner: GrappleRole) -> u32 {
    match winner {
        GrappleRole::Attacker => request.defender.armour,
        GrappleRole::Defender => request.attacker.armour,
    }
}

/// Carries out the winner's option (cepheus-engine.txt, "Grappling").
fn apply_option(
    request: &GrappleRequest,
    by: GrappleRole,
    effect: i32,
    dice: &mut Dice,
) -> Result<GrappleAction, RuleError> {
    let choice = choice_of(request, by);
    let armour = loser_armour(request, by);
    let mut action = GrappleAction {
        by,
        option: choice.option,
        effect,
        disarm: None,
        moved_m: None,
        damage: None,
        loser_prone: false,
        description: String::new(),
    };
    action.description = match choice.option {
        GrappleOption::Continue => "holds the grapple with no other effect".to_string(),
        GrappleOption::Disarm => disarm(&mut action, effect),
        GrappleOption::Drag => {
            action.moved_m = choice.distance_m.map(crate::score::Measure::get);
            format!("drags the opponent {} m", choice.distance_m.map_or(0.0, crate::score::Measure::get))
        }
        GrappleOption::Escape => "escapes the grapple and moves away as with a movement action".to_string(),
        GrappleOption::Damage => {
            let base = (2 + effect).max(0);
            action.damage =
                Some(through_armour(format!("2 + Effect {effect:+}"), Vec::new(), base, armour, effect));
            format!("inflicts 2 + Effect ({effect:+}) = {base} damage before armour")
        }
        GrappleOption::KnockProne => {
            action.loser_prone = true;
            "knocks the opponent prone".to_string()
        }
        GrappleOption::Throw => throw(&mut action, choice.distance_m.map_or(0.0, crate::score::Measure::get), armour, dice)?,
    };
    Ok(action)
}

fn disarm(action: &mut GrappleAction, effect: i32) -> String {
    if effect >= DISARM_TAKE_EFFECT {
        action.disarm = Some(DisarmResult::TakenByWinner);
        format!("disarms the opponent and takes the weapon (Effect {effect:+}, 6+ needed)")
    } else {
        action.disarm = Some(DisarmResult::Dropped);
        format!("disarms the opponent; the weapon falls to the floor (Effect {effect:+}, under 6)")
    }
}

fn throw(
    action: &mut GrappleAction,
    distance_m: f64,
    armour: u32,
    dice: &mut Dice,
) -> Result<String, RuleError> {
    let roll = dice.roll(6, "grapple: throw damage (1D6)")?;
    action.moved_m = Some(distance_m);
    let damage = through_armour("thrown (1D6)".to_string(), vec![roll], roll as i32, armour, action.effect);
    action.damage = Some(damage);
    Ok(format!(
        "throws the opponent {distance_m} m for 1D6 ({roll}) damage before armour, ending the grapple"
    ))
}

fn through_armour(reason: String, dice: Vec<u32>, before: i32, armour: u32, effect: i32) -> GrappleDamage {
    let after_armour = apply_armour(before, armour, effect);
    let stopped = before.saturating_sub(i32::try_from(armour).unwrap_or(i32::MAX)).max(0);
    GrappleDamage {
        reason,
        dice,
        before_armour: before,
        armour,
        after_armour,
        minimum_one_applied: after_armour > stopped,
    }
}

/// Personal range, sane DMs, and choices that fit the options (cepheus-engine.txt, "Grappling").
fn validate_grapple(request: &GrappleRequest) -> Result<(), RuleError> {
    if request.range != RangeBand::Personal {
        return Err(RuleError::invalid(
            "range",
            "a grapple needs the attacker at Personal range (the same square)",
        ));
    }
    check_dm("attacker.value", request.attacker.dm)?;
    check_dm("defender.value", request.defender.dm)?;
    if let Some(choice) = request.attacker.choice {
        check_choice("attacker.choice", choice, request.in_grapple)?;
    }
    if let Some(choice) = request.defender.choice {
        if !request.in_grapple {
            return Err(RuleError::invalid(
                "defender.choice",
                "the defender only resists a new grapple; choices belong to an established one",
            ));
        }
        check_choice("defender.choice", choice, true)?;
    }
    Ok(())
}

fn check_choice(field: &str, choice: GrappleChoice, in_grapple: bool) -> Result<(), RuleError> {
    if choice.option == GrappleOption::Escape && !in_grapple {
        return Err(RuleError::invalid(format!("{field}.option"), "there is no grapple to escape yet"));
    }
    let moves = matches!(choice.option, GrappleOption::Drag | GrappleOption::Throw);
    match (moves, choice.distance_m.map(crate::score::Measure::get)) {
        (true, None) => {
            Err(RuleError::invalid(format!("{field}.distance_m"), "drag and throw need a distance"))
        }
        (true, Some(metres)) if !(metres > 0.0 && metres <= MAX_GRAPPLE_MOVE_M) => Err(RuleError::invalid(
            format!("{field}.distance_m"),
            "a grappler drags or throws the opponent more than 0 and at most 3 metres",
        )),
        (false, Some(_)) => {
            Err(RuleError::invalid(format!("{field}.distance_m"), "only drag and throw take a distance"))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
#[path = "grapple_tests.rs"]
mod tests;
