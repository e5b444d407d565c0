//! Overwatch (adeva-d100.txt, "Action List", "Overwatch"): the kill zone, the conditions that fire
//! the readied attack, who goes first when it coincides with another character's action, the
//! Pinning tests afterwards, and what ends it early.
//!
//! Decisions:
//! - The kill zone is a radius around the overwatcher, in squares (at least 1). A condition only
//!   fires for a character inside it.
//! - The readied attack is a Standard Attack (+10, one hit) or a Burst (+10, −5 per declared hit,
//!   jams on 94+), with a ranged weapon, as the row allows.
//! - The four conditions the row gives as examples are built in; any other is sent as text and
//!   left to the GM ([`TriggerVerdict::GmDecides`]). Several conditions fire on any one of them.
//! - "Enemy out of reactions" fires when an enemy in the kill zone acts with no reaction left.
//! - Who goes first: an ally who chooses to fail lets the Overwatch go first with no roll. Otherwise
//!   the overwatcher (side A) and the other character test Agility against each other; the
//!   overwatcher goes first only if it wins. With no winner (both failed) the other character's
//!   action goes first: the Overwatch has not beaten it.
//! - Pinning afterwards: every target of the attack tests, with no modifier, hit or missed, and a
//!   pinned target is held where it stood when it triggered the attack.
//! - Any action other than a free action (a dodge included) ends the Overwatch before it fires.

use super::attack_actions::{STANDARD_BONUS, check_declared_hits, multi_hit_test, standard_test};
use super::pinning::{PinningOutcome, PinningSubject, pinning_tests};
use super::{ActionKind, ActionSpec, ActionSubtype, ActionType, LingeringEffect, Weapon};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use crate::rulesets::adeva_d100::Characteristic;
use crate::rulesets::adeva_d100::opposed::{Contestant, OpposedResult, Side, opposed_labelled};
use crate::rulesets::adeva_d100::test_modifiers::{Modifier, ModifierCode};
use serde::{Deserialize, Serialize};

/// The attack an Overwatch readies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100OverwatchAttack))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum OverwatchAttack {
    Standard {},
    Burst {
        #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
        #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
        declared_hits: u32,
    },
}

impl crate::bare_or_tagged::BareOrTagged for OverwatchAttack {
    const TAG: &'static str = "kind";
    const BARE: &'static [&'static str] = &["standard"];
}

/// A condition that fires the Overwatch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100OverwatchTrigger))]
#[serde(tag = "condition", rename_all = "snake_case", deny_unknown_fields)]
pub enum OverwatchTrigger {
    /// Any enemy performs an action.
    AnyEnemyActs {},
    /// An enemy acts with no reaction left.
    EnemyOutOfReactions {},
    /// This enemy attacks.
    EnemyAttacks { enemy: String },
    /// An enemy attacks this ally.
    EnemyAttacksAlly { ally: String },
    /// Any other condition, in words; the GM judges it.
    Other { description: String },
}

impl crate::bare_or_tagged::BareOrTagged for OverwatchTrigger {
    const TAG: &'static str = "condition";
    const BARE: &'static [&'static str] = &["any_enemy_acts", "enemy_out_of_reactions"];
}

/// An Overwatch as declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Overwatch))]
#[serde(deny_unknown_fields)]
pub struct Overwatch {
    pub weapon: Weapon,
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::squares")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 1000))]
    pub kill_zone_radius_squares: u32,
    pub attack: OverwatchAttack,
    pub triggers: Vec<OverwatchTrigger>,
}

/// Overwatch: a full action; a kill zone around the actor, a readied ranged Standard Attack or
/// Burst and the conditions that fire it (adeva-d100.txt, "Overwatch").
pub fn overwatch(input: &Overwatch) -> Result<ActionSpec, RuleError> {
    input.weapon.validate("weapon")?;
    input.weapon.require_ranged("weapon", "Overwatch")?;
    if input.kill_zone_radius_squares == 0 {
        return Err(RuleError::invalid(
            "kill_zone_radius_squares",
            "the kill zone needs a radius of at least 1 square",
        ));
    }
    if input.triggers.is_empty() {
        return Err(RuleError::invalid("triggers", "say on what conditions the Overwatch fires"));
    }
    for (index, trigger) in input.triggers.iter().enumerate() {
        let blank = match trigger {
            OverwatchTrigger::EnemyAttacks { enemy: name }
            | OverwatchTrigger::EnemyAttacksAlly { ally: name } => name.trim().is_empty(),
            OverwatchTrigger::Other { description } => description.trim().is_empty(),
            OverwatchTrigger::AnyEnemyActs {} | OverwatchTrigger::EnemyOutOfReactions {} => false,
        };
        if blank {
            return Err(RuleError::invalid(format!("triggers[{index}]"), "the condition names nobody"));
        }
    }
    let test = match input.attack {
        OverwatchAttack::Standard {} => standard_test(&input.weapon, "standard attack (overwatch)"),
        OverwatchAttack::Burst { declared_hits } => {
            check_declared_hits("weapon", "attack.declared_hits", &input.weapon, declared_hits, "a Burst")?;
            multi_hit_test(&input.weapon, declared_hits, Modifier::coded(ModifierCode::AttackAction, "burst (overwatch)", STANDARD_BONUS))
        }
    };
    Ok(ActionSpec::new(
        ActionKind::Overwatch,
        ActionType::Full,
        vec![ActionSubtype::Attack, ActionSubtype::Concentration, ActionSubtype::Ranged],
    )
    .with_test(test)
    .with_effect(LingeringEffect::OverwatchSet {
        kill_zone_radius_squares: input.kill_zone_radius_squares,
        triggers: input.triggers.clone(),
    })
    .with_note("the attack is made the moment a condition is met; afterwards, hit or miss, its targets make Pinning tests")
    .with_note("any action but a free action ends the Overwatch before it fires"))
}

/// Something a character does that may fire an Overwatch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ObservedAction))]
#[serde(deny_unknown_fields)]
pub struct ObservedAction {
    pub actor: String,
    pub actor_is_enemy: bool,
    pub in_kill_zone: bool,
    /// Whom the action attacks, if it is an attack.
    #[serde(default)]
    pub attack_target: Option<String>,
    pub actor_reactions_left: u32,
}

/// Whether an observed action fires the Overwatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100TriggerVerdict))]
#[serde(rename_all = "snake_case")]
pub enum TriggerVerdict {
    Fires,
    DoesNotFire,
    /// Only a condition given in words could apply: the GM decides.
    GmDecides,
}

/// Checks the conditions against an observed action (adeva-d100.txt, "Overwatch"; see the
/// decisions).
pub fn check_triggers(triggers: &[OverwatchTrigger], observed: &ObservedAction) -> TriggerVerdict {
    if !observed.in_kill_zone || !observed.actor_is_enemy {
        return TriggerVerdict::DoesNotFire;
    }
    let mut verdict = TriggerVerdict::DoesNotFire;
    for trigger in triggers {
        let fires = match trigger {
            OverwatchTrigger::AnyEnemyActs {} => true,
            OverwatchTrigger::EnemyOutOfReactions {} => observed.actor_reactions_left == 0,
            OverwatchTrigger::EnemyAttacks { enemy } => {
                observed.attack_target.is_some() && same(enemy, &observed.actor)
            }
            OverwatchTrigger::EnemyAttacksAlly { ally } => {
                observed.attack_target.as_deref().is_some_and(|target| same(ally, target))
            }
            OverwatchTrigger::Other { .. } => {
                verdict = TriggerVerdict::GmDecides;
                false
            }
        };
        if fires {
            return TriggerVerdict::Fires;
        }
    }
    verdict
}

fn same(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

/// Who acts first when the Overwatch fires at the same moment as another character's action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100FirstToAct))]
pub struct FirstToAct {
    pub overwatch_first: bool,
    /// The opposed Agility test, when one was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contest: Option<OpposedResult>,
    pub reason: String,
}

/// Settles an Overwatch that coincides with another character's action: an opposed Agility test,
/// unless an ally chooses to fail (adeva-d100.txt, "Overwatch"; see the decisions).
pub fn who_goes_first(
    overwatcher_agility: Characteristic,
    other_agility: Characteristic,
    other_is_ally: bool,
    ally_yields: bool,
    dice: &mut Dice,
) -> Result<FirstToAct, RuleError> {
    if ally_yields {
        if !other_is_ally {
            return Err(RuleError::invalid(
                "ally_yields",
                "only an ally may choose to fail the Agility test",
            ));
        }
        return Ok(FirstToAct {
            overwatch_first: true,
            contest: None,
            reason: "the ally chose to fail".into(),
        });
    }
    let contestant = |agility| Contestant { characteristic: agility, modifiers: Vec::new() };
    let contest = opposed_labelled(
        &contestant(overwatcher_agility),
        &contestant(other_agility),
        ["overwatch: overwatcher's Agility", "overwatch: other character's Agility"],
        dice,
    )?;
    let overwatch_first = contest.winner == Some(Side::A);
    let reason = match contest.winner {
        Some(Side::A) => "the overwatcher won the opposed Agility test",
        Some(Side::B) => "the other character won the opposed Agility test",
        None => "nobody won the opposed Agility test, so the Overwatch did not beat the other action",
    };
    Ok(FirstToAct { overwatch_first, contest: Some(contest), reason: reason.into() })
}

/// The Pinning tests after the Overwatch attack, hit or miss: each target tests with no modifier
/// and, if pinned, is held where it triggered the attack (adeva-d100.txt, "Overwatch").
pub fn pinning_after_overwatch(
    targets: &[PinningSubject],
    dice: &mut Dice,
) -> Result<Vec<PinningOutcome>, RuleError> {
    pinning_tests(targets, &[], "targets", dice)
}

/// Whether taking `action` ends a standing Overwatch: any action but a free one does
/// (adeva-d100.txt, "Overwatch").
pub fn ends_overwatch(action: &ActionSpec) -> bool {
    action.action_type != ActionType::Free
}

#[cfg(test)]
#[path = "overwatch_tests.rs"]
mod tests;
