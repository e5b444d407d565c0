//! Melee manoeuvres (adeva-d100.txt, "Action List": Guard Mode, Knock Down, Take Down, Disarm and
//! Feint), with the outcome of their opposed tests and of Take Down's Toughness test.
//!
//! Decisions:
//! - Opposed tests are settled by `opposed.rs`; the actor is side A. With no winner (both failed,
//!   or a tie that never broke) nothing happens.
//! - Knock Down: "surpass your enemy's DoS by two or more" reads the opposed test's margin (the
//!   winner's DoS minus the loser's, a failed loser counting 0).
//! - Disarm: "score three or more Degrees of Success" reads the actor's own DoS on its winning
//!   test, not the margin: the row says "score", where Knock Down says "surpass".
//! - Take Down: the damage compared with the Toughness Bonus is the damage roll's total before
//!   soak; soak already contains the TB. Damage above TB gives −10, and each whole multiple of TB
//!   reached sets the penalty to −10 × that multiple (TB 3: 4–5 damage −10, 6–8 −20, 9–11 −30).
//!   There is no cap. With TB 0 every point of damage is "more than TB" but multiples mean
//!   nothing, so the penalty is −10.
//! - Take Down's stun lasts one round: [`super::Until::OneRound`].
//! - Feint's opening applies only if the melee Standard Attack or Called Shot against the feinted
//!   target is the actor's very next action; it removes Dodge and Parry, and leaves Deflect and
//!   Point Defend, which the row does not name.
//! - Guard Mode and Feint speak of the Guardian and Protect Ally actions, which the Action List does
//!   not define; a note repeats what the row says about them.

use super::{
    ActionKind, ActionSpec, ActionSubtype, ActionType, CharacteristicName, HitRule, LingeringEffect,
    TestSpec, Until, Weapon,
};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use crate::rulesets::adeva_d100::Characteristic;
use crate::rulesets::adeva_d100::opposed::{OpposedResult, Side};
use crate::rulesets::adeva_d100::test_modifiers::Modifier;
use crate::rulesets::adeva_d100::test_roll::{ModifiedTest, modified_test};
use serde::{Deserialize, Serialize};

/// Knock Down: made right after a Half Move or not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100KnockDown))]
#[serde(deny_unknown_fields)]
pub struct KnockDown {
    #[serde(default)]
    pub after_half_move: bool,
}

/// Take Down: the weapon and the talent it needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100TakeDown))]
#[serde(deny_unknown_fields)]
pub struct TakeDown {
    pub weapon: Weapon,
    pub has_talent: bool,
}

/// Disarm: the talent it needs, and Advanced Disarm's bonus.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Disarm))]
#[serde(deny_unknown_fields)]
pub struct Disarm {
    pub has_talent: bool,
    #[serde(default)]
    pub advanced_disarm: bool,
}

/// Guard Mode: a full action; until the start of the actor's next turn, attacks and Critical Hit
/// confirmation tests against it take −20 (adeva-d100.txt, "Guard Mode").
pub fn guard_mode() -> ActionSpec {
    ActionSpec::new(
        ActionKind::GuardMode,
        ActionType::Full,
        vec![ActionSubtype::Attack, ActionSubtype::Melee],
    )
    .with_effect(LingeringEffect::AttacksAgainst {
        modifier: Modifier::new("target in guard mode", -20),
        critical_confirmation: true,
        until: Until::StartOfOwnNextTurn,
    })
}

/// Knock Down's opposed Strength test, +10 right after a Half Move (adeva-d100.txt, "Knock Down").
pub(crate) fn knock_down_test(after_half_move: bool) -> TestSpec {
    let modifiers =
        if after_half_move { vec![Modifier::new("knock down after a half move", 10)] } else { Vec::new() };
    TestSpec::opposed("knock down", CharacteristicName::S, CharacteristicName::S, modifiers)
}

/// Knock Down: a half action, an opposed Strength test, +10 after a Half Move; also allowed in
/// place of a Charge's attack and as part of a grapple (adeva-d100.txt, "Knock Down").
pub fn knock_down(input: &KnockDown) -> ActionSpec {
    ActionSpec::new(
        ActionKind::KnockDown,
        ActionType::Half,
        vec![ActionSubtype::Attack, ActionSubtype::Melee],
    )
    .with_test(knock_down_test(input.after_half_move))
}

/// What a Knock Down did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100KnockDownOutcome))]
#[serde(rename_all = "snake_case")]
pub enum KnockDownOutcome {
    /// The target is knocked prone.
    TargetProne,
    /// The target is knocked prone, and the actor may also deal Unarmed damage and a level of
    /// Fatigue.
    TargetProneMayHurt,
    /// The target keeps its footing.
    TargetStands,
    /// The target won by two or more DoS: the actor is knocked prone.
    ActorProne,
}

/// The outcome of a Knock Down's opposed test, the actor being side A (adeva-d100.txt, "Knock
/// Down").
pub fn knock_down_outcome(contest: &OpposedResult) -> KnockDownOutcome {
    match contest.winner {
        Some(Side::A) if contest.margin >= 2 => KnockDownOutcome::TargetProneMayHurt,
        Some(Side::A) => KnockDownOutcome::TargetProne,
        Some(Side::B) if contest.margin >= 2 => KnockDownOutcome::ActorProne,
        Some(Side::B) | None => KnockDownOutcome::TargetStands,
    }
}

/// Take Down's melee WS test: no modifier, one hit (adeva-d100.txt, "Take Down").
pub(crate) fn take_down_test(has_talent: bool, field: &str) -> Result<TestSpec, RuleError> {
    if !has_talent {
        return Err(RuleError::invalid(field, "a Take Down needs the Takedown talent"));
    }
    Ok(TestSpec::attack("take down", CharacteristicName::Ws, Vec::new(), HitRule::Single))
}

/// Take Down: a half action with the talent; a melee WS attack whose damage, if any gets past soak,
/// is replaced by a Toughness test against being stunned (adeva-d100.txt, "Take Down").
pub fn take_down(input: &TakeDown) -> Result<ActionSpec, RuleError> {
    input.weapon.validate("weapon")?;
    input.weapon.require_melee("weapon", "a Take Down")?;
    let mut test = take_down_test(input.has_talent, "has_talent")?;
    test.label = format!("take down with {}", input.weapon.name);
    Ok(ActionSpec::new(ActionKind::TakeDown, ActionType::Half, vec![ActionSubtype::Attack, ActionSubtype::Melee])
        .with_test(test)
        .with_note("if the damage gets at least 1 point past soak it is negated; the target tests Toughness or is stunned for one round"))
}

/// The penalty on the Toughness test of a Take Down: −10 for damage above the TB, −10 more for
/// each further whole multiple of it (adeva-d100.txt, "Take Down"; see the decisions).
pub fn take_down_penalty(damage: u32, toughness_bonus: u32) -> Option<Modifier> {
    if damage <= toughness_bonus {
        return None;
    }
    let multiples = damage.checked_div(toughness_bonus).unwrap_or(1).max(1);
    let value = -10i32.saturating_mul(multiples.min(1000) as i32);
    Some(Modifier::new(format!("take down: {damage} damage against TB {toughness_bonus}"), value))
}

/// A Take Down's hit, after the damage roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100TakeDownResult))]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum TakeDownResult {
    /// No damage got past soak: the attack does nothing.
    Soaked,
    /// The damage is negated; the target tested Toughness.
    Tested { test: ModifiedTest, stunned: bool, until: Until },
}

/// Resolves a Take Down's hit: with at least 1 point past `soak`, the damage is negated and the
/// target tests Toughness with the penalty, a failure stunning it for one round (adeva-d100.txt,
/// "Take Down").
pub fn resolve_take_down(
    damage: u32,
    soak: u32,
    toughness_bonus: u32,
    toughness: Characteristic,
    dice: &mut Dice,
) -> Result<TakeDownResult, RuleError> {
    if toughness_bonus > soak {
        return Err(RuleError::invalid("soak", "soak includes the Toughness Bonus, so it cannot be smaller"));
    }
    if damage <= soak {
        return Ok(TakeDownResult::Soaked);
    }
    let modifiers: Vec<Modifier> = take_down_penalty(damage, toughness_bonus).into_iter().collect();
    let test = modified_test(toughness, &modifiers, dice, "take down: Toughness test")?;
    let stunned = !test.test.passed;
    Ok(TakeDownResult::Tested { test, stunned, until: Until::OneRound })
}

/// Disarm: a full action with the talent; an opposed WS test, +20 with Advanced Disarm
/// (adeva-d100.txt, "Disarm").
pub fn disarm(input: &Disarm) -> Result<ActionSpec, RuleError> {
    if !input.has_talent {
        return Err(RuleError::invalid("has_talent", "Disarm needs the Disarm talent"));
    }
    let modifiers =
        if input.advanced_disarm { vec![Modifier::new("advanced disarm talent", 20)] } else { Vec::new() };
    Ok(ActionSpec::new(ActionKind::Disarm, ActionType::Full, vec![ActionSubtype::Melee])
        .with_test(TestSpec::opposed("disarm", CharacteristicName::Ws, CharacteristicName::Ws, modifiers))
        .with_note("the opponent must be within melee range"))
}

/// What a Disarm did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100DisarmOutcome))]
#[serde(rename_all = "snake_case")]
pub enum DisarmOutcome {
    Failed,
    /// The opponent drops one held object of the actor's choice.
    Drops,
    /// As `Drops`, or the actor takes the object instead.
    MayTake,
}

/// The outcome of a Disarm's opposed test, the actor being side A (adeva-d100.txt, "Disarm").
pub fn disarm_outcome(contest: &OpposedResult) -> DisarmOutcome {
    if contest.winner != Some(Side::A) {
        return DisarmOutcome::Failed;
    }
    let own = contest.rounds.last().map_or(0, |round| round.a.test.degrees_of_success());
    if own >= 3 { DisarmOutcome::MayTake } else { DisarmOutcome::Drops }
}

/// Feint: a half action, an opposed WS test; on a win the actor's next melee Standard Attack or
/// Called Shot against the target, if it is the next action, may not be parried or dodged
/// (adeva-d100.txt, "Feint").
pub fn feint() -> ActionSpec {
    ActionSpec::new(ActionKind::Feint, ActionType::Half, vec![ActionSubtype::Melee])
        .with_test(TestSpec::opposed("feint", CharacteristicName::Ws, CharacteristicName::Ws, Vec::new()))
        .with_note("the opening below applies only if the feint wins")
        .with_note("the opening also works against the Guardian action, but not the Protect Ally action")
        .with_effect(LingeringEffect::NoParryOrDodge { until: Until::NextAction })
}

#[cfg(test)]
#[path = "manoeuvres_tests.rs"]
mod tests;
