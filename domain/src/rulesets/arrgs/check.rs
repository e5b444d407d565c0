//! Skill checks: Action checks roll 1d20, Reaction checks use 10, then every modifier family,
//! then the Magnitude multiplier (arrgs.txt, "Skill Checks", "Attacks"; Appendix, "Size
//! Modifier", "Magnitude Modifier", "Check Penalty").
//!
//! Decisions:
//! - Magnitude: the factor is 1 + the difference of the two magnitudes, at most ×5 (a tank
//!   against a man ×2, a carrier against a man ×3, a carrier against a tank ×2). It replaces the
//!   Size modifier whenever the magnitudes differ. Division rounds down.
//! - The Size modifier follows the ability the check uses: a creature larger than Medium adds it
//!   to Body, Intellect and Personality checks and takes it from Agility checks; a smaller one the
//!   reverse. Checks of kind `other` with no ability named get none.
//! - Penalties that last the round (Multiple Actions, Repeated Attack, Movement Increment) apply
//!   to Reaction checks too ("all subsequent checks").

use super::fighter::Fighter;
use super::modifier::{Modifier, ModifierCode, total};
use super::bonuses::{Ability, Bonuses, CheckKind};
use super::stats::Size;
use crate::dice::{Dice, DiceError};
use serde::{Deserialize, Serialize};

/// An Action check (1d20) or a Reaction check (10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsCheckMode))]
#[serde(rename_all = "snake_case")]
pub enum CheckMode {
    Action,
    Reaction,
}

/// Multiplied or divided by the Magnitude modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsMagnitudeOperation))]
#[serde(rename_all = "snake_case")]
pub enum MagnitudeOperation {
    Multiply,
    Divide,
}

/// The Magnitude modifier applied to a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsMagnitude))]
pub struct Magnitude {
    pub factor: i32,
    pub operation: MagnitudeOperation,
}

impl Magnitude {
    /// Applies the factor, rounding a division down.
    pub fn apply(self, value: i32) -> i32 {
        match self.operation {
            MagnitudeOperation::Multiply => value.saturating_mul(self.factor),
            MagnitudeOperation::Divide => value.div_euclid(self.factor.max(1)),
        }
    }
}

/// What a check is for, as far as Magnitude cares (Appendix, "Magnitude Modifier").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Against {
    /// Attack and damage: the larger divides, the smaller multiplies.
    Attack,
    /// Reflex Defence: the larger divides, the smaller multiplies.
    Reflex,
    /// Fortitude and Willpower Defence: the larger multiplies, the smaller divides.
    Resist,
}

/// The Magnitude modifier of `own` acting against `other`, if their magnitudes differ.
pub fn magnitude(own: i32, other: i32, against: Against) -> Option<Magnitude> {
    if own == other {
        return None;
    }
    let factor = (1 + (own - other).abs()).min(5);
    let larger = own > other;
    let multiply = match against {
        Against::Attack | Against::Reflex => !larger,
        Against::Resist => larger,
    };
    let operation = if multiply { MagnitudeOperation::Multiply } else { MagnitudeOperation::Divide };
    Some(Magnitude { factor, operation })
}

/// A check as made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsCheck))]
pub struct Check {
    pub kind: CheckKind,
    pub mode: CheckMode,
    /// The d20 of an Action check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub natural: Option<u32>,
    /// The d20 or the 10 of a Reaction check.
    pub base: i32,
    pub modifiers: Vec<Modifier>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub magnitude: Option<Magnitude>,
    /// The Check Result.
    pub result: i32,
    /// An Unconscious character's Reflex or Willpower reaction: result 0, automatic failure.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub automatic_failure: bool,
}

impl Check {
    /// Base plus modifiers, then Magnitude.
    pub fn new(
        kind: CheckKind,
        mode: CheckMode,
        natural: Option<u32>,
        modifiers: Vec<Modifier>,
        magnitude: Option<Magnitude>,
    ) -> Self {
        let base = natural.map_or(10, |n| i32::try_from(n).unwrap_or(i32::MAX));
        let subtotal = base.saturating_add(total(&modifiers));
        let result = magnitude.map_or(subtotal, |m| m.apply(subtotal));
        Self { kind, mode, natural, base, modifiers, magnitude, result, automatic_failure: false }
    }

    /// Rolls an Action check: 1d20 plus modifiers.
    pub fn roll(
        kind: CheckKind,
        modifiers: Vec<Modifier>,
        magnitude: Option<Magnitude>,
        dice: &mut Dice,
        purpose: &str,
    ) -> Result<Self, DiceError> {
        let natural = dice.roll(20, purpose)?;
        Ok(Self::new(kind, CheckMode::Action, Some(natural), modifiers, magnitude))
    }

    /// A Reaction check: 10 plus modifiers.
    pub fn reaction(kind: CheckKind, modifiers: Vec<Modifier>, magnitude: Option<Magnitude>) -> Self {
        Self::new(kind, CheckMode::Reaction, None, modifiers, magnitude)
    }

    /// "Check 17 (d20 12 + 5)" or "Reflex 13 (10 + 3)".
    pub fn describe(&self) -> String {
        let sum = total(&self.modifiers);
        let head = match self.natural {
            Some(n) => format!("d20 {n}"),
            None => "10".into(),
        };
        let sign = if sum < 0 { "−" } else { "+" };
        let scaled = match self.magnitude {
            Some(Magnitude { factor, operation: MagnitudeOperation::Multiply }) => format!(" ×{factor}"),
            Some(Magnitude { factor, operation: MagnitudeOperation::Divide }) => format!(" ÷{factor}"),
            None => String::new(),
        };
        format!("{} ({head} {sign} {}{scaled})", self.result, sum.unsigned_abs())
    }
}

/// The standing and situational modifiers of `fighter`'s check of `kind` (arrgs.txt, "Skill
/// Checks": skill, ability, inherent, augmented, assisted, magic, tech, size, circumstance, check
/// penalty), plus the penalties it carries this round. `ability` overrides the usual one;
/// `size_applies` is false when Magnitude replaces Size.
pub fn standing_modifiers(
    fighter: &Fighter,
    kind: CheckKind,
    ability: Option<Ability>,
    situational: &Bonuses,
    size_applies: bool,
) -> Vec<Modifier> {
    let mut modifiers = Vec::new();
    if let Some(bonuses) = fighter.stats.checks.of(kind) {
        push_bonuses(&mut modifiers, bonuses, kind.name());
    }
    let ability = ability.or(kind.usual_ability());
    if let Some(ability) = ability {
        let value = fighter.stats.abilities.of(ability);
        push(&mut modifiers, ModifierCode::Ability, value, format!("{} modifier", ability_name(ability)));
        if size_applies {
            let value = size_modifier(fighter.stats.size(), fighter.stats.size_modifier(), ability);
            push(&mut modifiers, ModifierCode::Size, value, format!("{:?} size", fighter.stats.size()));
        }
    }
    push_bonuses(&mut modifiers, situational, "this check");
    let penalty = fighter.stats.check_penalty();
    push(&mut modifiers, ModifierCode::CheckPenalty, -penalty, "armour Check Penalty");
    for penalty in fighter.state.round.penalties.iter().filter(|p| p.applies_to(kind)) {
        modifiers.push(penalty.modifier.clone());
    }
    let increment = fighter.movement_increment();
    let moving = -2 * (increment - 1).max(0);
    push(&mut modifiers, ModifierCode::MovementIncrement, moving, format!("moving at Movement Increment {increment}"));
    modifiers
}

/// −2 per point used above 3 this round (arrgs.txt, "A Turn"; "Multiple Actions").
pub fn multiple_actions(points_used: i32) -> Option<Modifier> {
    let over = (points_used - 3).max(0);
    (over > 0).then(|| {
        Modifier::new(
            ModifierCode::MultipleActions,
            -2 * over,
            format!("{points_used} points used this round, {over} above 3"),
        )
    })
}

/// The penalty on a check made against a target moving fast (arrgs.txt, "Movement Increment").
pub fn against_mover(target: &Fighter) -> Option<Modifier> {
    let increment = target.movement_increment();
    (increment > 1).then(|| {
        Modifier::new(
            ModifierCode::TargetMovementIncrement,
            -2 * (increment - 1),
            format!("{} is moving at Movement Increment {increment}", target.name),
        )
    })
}

/// Takes the Assisted modifier waiting for `fighter`'s next check of `kind` (arrgs.txt, "Aid
/// Another Manoeuvre").
pub fn take_assist(fighter: &mut Fighter, kind: CheckKind) -> Option<Modifier> {
    let index = fighter.state.round.assists.iter().position(|a| a.kind == kind)?;
    let assist = fighter.state.round.assists.remove(index);
    Some(Modifier::new(ModifierCode::AidAnother, assist.value, format!("aided by {}", assist.from)))
}

/// The Size modifier for a check with `ability` (Appendix, "Size Modifier").
pub fn size_modifier(size: Size, value: i32, ability: Ability) -> i32 {
    let larger = match size.cmp(&Size::Medium) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => return 0,
    };
    let physical_or_mental = ability != Ability::Agility;
    if larger == physical_or_mental { value } else { -value }
}

fn ability_name(ability: Ability) -> &'static str {
    match ability {
        Ability::Body => "Body",
        Ability::Agility => "Agility",
        Ability::Intellect => "Intellect",
        Ability::Personality => "Personality",
    }
}

fn push_bonuses(modifiers: &mut Vec<Modifier>, bonuses: &Bonuses, source: &str) {
    let families = [
        (ModifierCode::Skill, bonuses.skill),
        (ModifierCode::Inherent, bonuses.inherent),
        (ModifierCode::Augmented, bonuses.augmented),
        (ModifierCode::Assisted, bonuses.assisted),
        (ModifierCode::Magic, bonuses.magic),
        (ModifierCode::Tech, bonuses.tech),
        (ModifierCode::Circumstance, bonuses.circumstance),
    ];
    for (code, value) in families {
        let value = value.map_or(0, |v| v.get());
        push(modifiers, code, value, format!("{} ({source})", code_name(code)));
    }
}

fn code_name(code: ModifierCode) -> &'static str {
    match code {
        ModifierCode::Skill => "skill",
        ModifierCode::Inherent => "inherent",
        ModifierCode::Augmented => "augmented",
        ModifierCode::Assisted => "assisted",
        ModifierCode::Magic => "magic",
        ModifierCode::Tech => "tech",
        ModifierCode::Circumstance => "circumstance",
        _ => "modifier",
    }
}

fn push(modifiers: &mut Vec<Modifier>, code: ModifierCode, value: i32, reason: impl Into<String>) {
    if value != 0 {
        modifiers.push(Modifier::new(code, value, reason));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magnitude_divides_the_larger_attacker_and_multiplies_the_smaller() {
        // Appendix, "Magnitude Modifier": a tank (2) attacking a man (1): ÷2; the man: ×2. The
        // tank's Fortitude against the man ×2, its Reflex ÷2. A carrier (3) against a man: ×3.
        assert_eq!(magnitude(2, 1, Against::Attack), Some(Magnitude { factor: 2, operation: MagnitudeOperation::Divide }));
        assert_eq!(magnitude(1, 2, Against::Attack), Some(Magnitude { factor: 2, operation: MagnitudeOperation::Multiply }));
        assert_eq!(magnitude(2, 1, Against::Resist).map(|m| m.operation), Some(MagnitudeOperation::Multiply));
        assert_eq!(magnitude(2, 1, Against::Reflex).map(|m| m.operation), Some(MagnitudeOperation::Divide));
        assert_eq!(magnitude(3, 1, Against::Attack).map(|m| m.factor), Some(3));
        assert_eq!(magnitude(1, 1, Against::Attack), None);
        // 17 ÷ 2 = 8.5 → 8; −3 ÷ 2 → −2 (down).
        let halve = Magnitude { factor: 2, operation: MagnitudeOperation::Divide };
        assert_eq!((halve.apply(17), halve.apply(-3)), (8, -2));
    }

    #[test]
    fn size_helps_the_large_at_body_and_hurts_them_at_agility() {
        assert_eq!(size_modifier(Size::Large, 2, Ability::Body), 2);
        assert_eq!(size_modifier(Size::Large, 2, Ability::Agility), -2);
        assert_eq!(size_modifier(Size::Small, 1, Ability::Agility), 1);
        assert_eq!(size_modifier(Size::Small, 1, Ability::Personality), -1);
        assert_eq!(size_modifier(Size::Medium, 0, Ability::Body), 0);
    }

    #[test]
    fn more_than_three_points_cost_two_each() {
        assert_eq!(multiple_actions(3), None);
        assert_eq!(multiple_actions(4).map(|m| m.value), Some(-2));
        assert_eq!(multiple_actions(6).map(|m| m.value), Some(-6));
    }

    #[test]
    fn checks_add_modifiers_to_the_d20_or_to_10() {
        let mods = vec![Modifier::new(ModifierCode::Skill, 4, "s"), Modifier::new(ModifierCode::Ability, 2, "a")];
        let mut dice = Dice::scripted(vec![13], 0).unwrap();
        let rolled = Check::roll(CheckKind::Melee, mods.clone(), None, &mut dice, "attack").unwrap();
        assert_eq!((rolled.natural, rolled.result), (Some(13), 19));
        let reaction = Check::reaction(CheckKind::Reflex, mods, None);
        assert_eq!(reaction.result, 16);
    }
}
