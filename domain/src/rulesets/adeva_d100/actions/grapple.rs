//! Grappling (adeva-d100.txt, "Action List", "Grapple (Initiate)" and the Controller, Either and
//! Restrained actions listed under it).
//!
//! Decisions:
//! - Starting a grapple is an attack test on WS that scores a single "hit": it deals no damage and,
//!   if not evaded, starts the grapple with the attacker in control. The target may use every usual
//!   evasion except Parry (the row bars only the parry).
//! - The controller's 'Grapple' Full Action keeps the row's subtypes (Attack, Melee). The
//!   Controller or Either action it leads to is part of it and costs nothing more; so are Knock
//!   Down and Take Down, which their rows say "can be done as part of a Grapple".
//! - The Either actions (Activate Power, the Standard Attack) cost the restrained participant their
//!   listed Full Action. The controller reaches them only through its 'Grapple' action, which it
//!   must take each turn anyway; sent on their own by the controller they are refused.
//! - Take Control leads to one Controller action (Damage, Push, Stand, Knock Down, Take Down), never
//!   an Either action, as the row says.
//! - Push moves the opponent 1 square plus 1 per Degree of Success of the controller's own Strength
//!   test, no further than its Half Move. Not moving along ends the grapple.
//! - Stand needs both participants on the ground. Without dragging the opponent up it needs no
//!   test; dragging calls for the opposed Strength test.
//! - Break Free by Acrobatics tests the Acrobatics skill, which the text does not tie to a
//!   characteristic; it is listed on Agility and the caller sends the skill's score.
//! - "Allies may assist" is stated in a note: the text gives assistance no number.
//! - The grapple's Standard Attack uses a natural weapon, unarmed, a small melee weapon (1d5
//!   damage) or a pistol: WS for the first three, BS for the pistol, +10 as any Standard Attack.

use super::attack_actions::{evasions_without, path};
use super::manoeuvres::{knock_down_test, take_down_test};
use super::grapple_strike::grapple_attack_test;
use super::{
    ActionKind, ActionSpec, ActionSubtype, ActionType, CharacteristicName, Evasion, HitRule, LingeringEffect,
    TestSpec,
};
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Grapple (Initiate): a free hand is needed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100GrappleInitiate))]
#[serde(deny_unknown_fields)]
pub struct GrappleInitiate {
    pub hand_free: bool,
}

/// A participant's place in a grapple.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100GrappleRole))]
#[serde(rename_all = "snake_case")]
pub enum GrappleRole {
    Controller,
    Restrained,
}

/// The weapons the grapple's Standard Attack allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100GrappleWeapon))]
#[serde(rename_all = "snake_case")]
pub enum GrappleWeapon {
    Natural,
    Unarmed,
    /// A small melee weapon (1d5 damage).
    SmallMelee,
    Pistol,
}

/// A Power used in a grapple.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100PowerUse))]
#[serde(deny_unknown_fields)]
pub struct PowerUse {
    pub name: String,
    /// The Power's own action type.
    pub action_type: ActionType,
    /// The Power would physically move its user.
    #[serde(default)]
    pub moves_user: bool,
}

/// What Break Free tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100BreakFreeWith))]
#[serde(rename_all = "snake_case")]
pub enum BreakFreeWith {
    Strength,
    Acrobatics,
}

/// The action a controller takes after its 'Grapple' action (or after Take Control).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100GrappleFollowUp))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum GrappleFollowUp {
    /// Controller: opposed Strength; unarmed (or natural) damage and a level of Fatigue.
    Damage {},
    /// Controller: opposed Strength; push 1 square + 1 per DoS, at most a Half Move.
    Push {
        /// The controller's Half Move: on a stored encounter derived from its stat block (AB and
        /// size, "Movement"); sent, it must agree.
        #[serde(default, deserialize_with = "crate::rulesets::adeva_d100::bounds::read::squares_opt")]
        #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 1000))]
        half_move_squares: Option<u32>,
        move_with_target: bool,
    },
    /// Controller: regain one's feet, dragging the opponent up on an opposed Strength test.
    Stand {
        /// Both participants prone: on a stored encounter derived from the recorded prone state;
        /// sent, it must agree.
        #[serde(default)]
        both_on_ground: Option<bool>,
        #[serde(default)]
        drag_opponent: bool,
    },
    /// A Knock Down as part of the grapple.
    KnockDown {},
    /// A Take Down as part of the grapple (needs the talent).
    TakeDown { has_talent: bool },
    /// Either: a Power of a Full Action or less.
    ActivatePower { power: PowerUse },
    /// Either: a Standard Attack with a grapple weapon, rolled (see `grapple_strike.rs`).
    StandardAttack {
        weapon: GrappleWeapon,
        #[serde(flatten)]
        strike: super::grapple_strike::GrappleStrike,
    },
}

impl crate::bare_or_tagged::BareOrTagged for GrappleFollowUp {
    const TAG: &'static str = "kind";
    const BARE: &'static [&'static str] = &["damage", "stand", "knock_down"];
}

impl GrappleFollowUp {
    fn is_either_action(&self) -> bool {
        matches!(self, Self::ActivatePower { .. } | Self::StandardAttack { .. })
    }
}

/// One grapple action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100GrappleMove))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum GrappleMove {
    /// Controller: the 'Grapple' Full Action and what it leads to.
    Grapple {
        #[serde(deserialize_with = "crate::bare_or_tagged::deserialize")]
        #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<GrappleFollowUp>))]
        then: GrappleFollowUp,
    },
    /// Controller: let go, at the start of the turn or after a 'Grapple' action.
    Release {},
    /// Restrained: opposed Strength or Acrobatics against the controller's Strength.
    BreakFree { with: BreakFreeWith },
    /// Restrained: opposed Strength; the winner becomes the controller and takes a Controller
    /// action.
    TakeControl {
        #[serde(deserialize_with = "crate::bare_or_tagged::deserialize")]
        #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<GrappleFollowUp>))]
        then: GrappleFollowUp,
    },
    /// Either (restrained): a Power of a Full Action or less.
    ActivatePower { power: PowerUse },
    /// Either (restrained): a Standard Attack with a grapple weapon, rolled.
    StandardAttack {
        weapon: GrappleWeapon,
        #[serde(flatten)]
        strike: super::grapple_strike::GrappleStrike,
    },
}

impl crate::bare_or_tagged::BareOrTagged for GrappleMove {
    const TAG: &'static str = "kind";
    const BARE: &'static [&'static str] = &["release"];
}

/// A grapple action and who takes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100GrappleAction))]
#[serde(deny_unknown_fields)]
pub struct GrappleAction {
    pub role: GrappleRole,
    /// `"release"` is `{"kind": "release"}`.
    #[serde(rename = "move", deserialize_with = "crate::bare_or_tagged::deserialize")]
    #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<GrappleMove>))]
    pub grapple_move: GrappleMove,
}

const ALLIES_MAY_ASSIST: &str = "allies may assist on this action";

/// The WS test that starts a grapple: no parry allowed (adeva-d100.txt, "Grapple (Initiate)").
pub(crate) fn initiate_test(hand_free: bool, field: &str) -> Result<TestSpec, RuleError> {
    if !hand_free {
        return Err(RuleError::invalid(field, "a Grapple needs at least one hand free"));
    }
    let mut test = TestSpec::attack("grapple attempt", CharacteristicName::Ws, Vec::new(), HitRule::Single);
    test.evasions = evasions_without(&[Evasion::Parry]);
    Ok(test)
}

/// Grapple (Initiate): a full action, a WS test that may be dodged but not parried; on a success
/// the grapple begins with the attacker in control (adeva-d100.txt, "Grapple (Initiate)").
pub fn grapple_initiate(input: &GrappleInitiate) -> Result<ActionSpec, RuleError> {
    let test = initiate_test(input.hand_free, "hand_free")?;
    Ok(ActionSpec::new(
        ActionKind::GrappleInitiate,
        ActionType::Full,
        vec![ActionSubtype::Attack, ActionSubtype::Melee],
    )
    .with_test(test)
    .with_effect(LingeringEffect::ControlsGrapple)
    .with_note("a hit deals no damage: it starts the grapple with the attacker in control"))
}

/// Any grapple action for its participant: refuses actions the role may not take, then lists the
/// cost, tests and notes (adeva-d100.txt, "Grapple (Initiate)" and the actions listed under it).
pub fn grapple_action(input: &GrappleAction) -> Result<ActionSpec, RuleError> {
    let role = input.role;
    match &input.grapple_move {
        GrappleMove::Grapple { then } => {
            only(role, GrappleRole::Controller, "take the 'Grapple' action")?;
            grapple_maintain(then)
        }
        GrappleMove::Release {} => {
            only(role, GrappleRole::Controller, "release the grapple")?;
            Ok(ActionSpec::new(ActionKind::GrappleRelease, ActionType::Free, Vec::new()).with_note(
                "the grapple ends; allowed at the start of the controller's turn or after a 'Grapple' action",
            ))
        }
        GrappleMove::BreakFree { with } => {
            only(role, GrappleRole::Restrained, "break free")?;
            Ok(break_free(*with))
        }
        GrappleMove::TakeControl { then } => {
            only(role, GrappleRole::Restrained, "take control")?;
            take_control(then)
        }
        GrappleMove::ActivatePower { power } => {
            only(role, GrappleRole::Restrained, EITHER_ON_ITS_OWN)?;
            check_power(power, "move.power")?;
            Ok(ActionSpec::new(ActionKind::GrappleActivatePower, ActionType::Full, Vec::new())
                .with_note(power_note(power)))
        }
        GrappleMove::StandardAttack { weapon, .. } => {
            only(role, GrappleRole::Restrained, EITHER_ON_ITS_OWN)?;
            let (test, subtype) = grapple_attack_test(*weapon);
            Ok(ActionSpec::new(
                ActionKind::GrappleStandardAttack,
                ActionType::Full,
                vec![ActionSubtype::Attack, subtype],
            )
            .with_test(test)
            .with_note("the target need not be the other participant"))
        }
    }
}

/// What a restrained participant is told when it is the controller that sends an Either action.
const EITHER_ON_ITS_OWN: &str = "use an Either action on its own (the controller uses it after 'Grapple')";

/// Refuses (field `role`) a grapple action its participant's role may not take: Controller actions
/// are the controller's, Restrained and Either actions sent on their own the restrained
/// participant's (adeva-d100.txt, "Grapple (Initiate)").
fn only(role: GrappleRole, wanted: GrappleRole, what: &str) -> Result<(), RuleError> {
    if role != wanted {
        let who = if wanted == GrappleRole::Controller { "the controller" } else { "the restrained participant" };
        return Err(RuleError::invalid("role", format!("only {who} may {what}")));
    }
    Ok(())
}

/// The controller's 'Grapple' Full Action (Attack, Melee), which it must take each turn, with the
/// action it leads to (adeva-d100.txt, "Grapple (Initiate)").
fn grapple_maintain(then: &GrappleFollowUp) -> Result<ActionSpec, RuleError> {
    let spec = ActionSpec::new(
        ActionKind::GrappleMaintain,
        ActionType::Full,
        vec![ActionSubtype::Attack, ActionSubtype::Melee],
    )
    .with_effect(LingeringEffect::ControlsGrapple)
    .with_note("the controller must take this action every turn or the grapple ends");
    follow_up(spec, then, "move.then")
}

/// Break Free: a half action, an opposed test of Strength, or of Acrobatics (on Agility, see the
/// decisions), against the controller's Strength (adeva-d100.txt, "Grapple (Initiate)",
/// Restrained: "Break Free").
fn break_free(with: BreakFreeWith) -> ActionSpec {
    let test = match with {
        BreakFreeWith::Strength => strength_contest("break free"),
        BreakFreeWith::Acrobatics => TestSpec {
            skill: Some("acrobatics".into()),
            ..TestSpec::opposed("break free", CharacteristicName::Ag, CharacteristicName::S, Vec::new())
        },
    };
    ActionSpec::new(ActionKind::GrappleBreakFree, ActionType::Half, Vec::new())
        .with_test(test)
        .with_note("on a win the grapple ends")
}

/// Take Control: a half action, an opposed Strength test; on a win the roles swap and one
/// Controller action (never an Either action) follows at once (adeva-d100.txt, "Grapple
/// (Initiate)", Restrained: "Take Control").
fn take_control(then: &GrappleFollowUp) -> Result<ActionSpec, RuleError> {
    if then.is_either_action() {
        return Err(RuleError::invalid(
            "move.then.kind",
            "after taking control only a Controller action may follow, not an Either action",
        ));
    }
    let spec = ActionSpec::new(ActionKind::GrappleTakeControl, ActionType::Half, Vec::new())
        .with_test(strength_contest("take control"))
        .with_effect(LingeringEffect::ControlsGrapple)
        .with_note("on a win the roles swap and the new controller takes the Controller action at once")
        .with_note(ALLIES_MAY_ASSIST);
    follow_up(spec, then, "move.then")
}

/// Adds the tests and notes of the action taken after 'Grapple' or Take Control.
fn follow_up(mut spec: ActionSpec, then: &GrappleFollowUp, field: &str) -> Result<ActionSpec, RuleError> {
    match then {
        GrappleFollowUp::Damage {} => {
            spec = spec
                .with_test(strength_contest("grapple: damage"))
                .with_note("on a win: Unarmed (or melee Natural Weapon) damage and one level of Fatigue")
                .with_note(ALLIES_MAY_ASSIST);
        }
        GrappleFollowUp::Push { half_move_squares, move_with_target } => {
            if *half_move_squares == Some(0) {
                return Err(RuleError::invalid(
                    path(field, "half_move_squares"),
                    "a Half Move of 0 squares pushes nobody",
                ));
            }
            let most = half_move_squares.map_or_else(|| "the Half Move".to_string(), |n| format!("{n} (the Half Move)"));
            spec = spec
                .with_test(strength_contest("grapple: push"))
                .with_note(format!("on a win: push 1 square plus 1 per Degree of Success, at most {most}"))
                .with_note(ALLIES_MAY_ASSIST);
            if !move_with_target {
                spec.lingering.retain(|effect| *effect != LingeringEffect::ControlsGrapple);
                spec = spec.with_note("the controller stays put, so the grapple ends after the push");
            }
        }
        GrappleFollowUp::Stand { both_on_ground, drag_opponent } => {
            if *both_on_ground == Some(false) {
                return Err(RuleError::invalid(
                    path(field, "both_on_ground"),
                    "Stand is only possible when both participants are on the ground",
                ));
            }
            spec = spec.with_note("the controller regains its feet");
            if *drag_opponent {
                spec = spec
                    .with_test(strength_contest("grapple: drag the opponent up"))
                    .with_note("on a win the opponent is pulled up too")
                    .with_note(ALLIES_MAY_ASSIST);
            }
        }
        GrappleFollowUp::KnockDown {} => spec = spec.with_test(knock_down_test(false)),
        GrappleFollowUp::TakeDown { has_talent } => {
            spec = spec.with_test(take_down_test(*has_talent, &path(field, "has_talent"))?);
        }
        GrappleFollowUp::ActivatePower { power } => {
            check_power(power, &path(field, "power"))?;
            spec = spec.with_note(power_note(power));
        }
        GrappleFollowUp::StandardAttack { weapon, .. } => {
            let (test, _) = grapple_attack_test(*weapon);
            spec = spec.with_test(test).with_note("the target need not be the other participant");
        }
    }
    Ok(spec)
}

/// An opposed Strength test against the other participant.
fn strength_contest(label: &str) -> TestSpec {
    TestSpec::opposed(label, CharacteristicName::S, CharacteristicName::S, Vec::new())
}

/// A Power of a Full Action or less that does not move its user (adeva-d100.txt, "Either:
/// Activate Power").
fn check_power(power: &PowerUse, field: &str) -> Result<(), RuleError> {
    if power.name.trim().is_empty() {
        return Err(RuleError::invalid(path(field, "name"), "name the Power"));
    }
    if power.action_type == ActionType::Extended {
        return Err(RuleError::invalid(
            path(field, "action_type"),
            "only a Power of a Full Action or less may be used in a grapple",
        ));
    }
    if power.moves_user {
        return Err(RuleError::invalid(
            path(field, "moves_user"),
            "a Power that would move its user cannot be used in a grapple",
        ));
    }
    Ok(())
}

fn power_note(power: &PowerUse) -> String {
    format!(
        "activates {} under its own rules; its target need not be the other participant",
        power.name.trim()
    )
}

/// How far a Push moves the opponent: 1 square plus 1 per Degree of Success, no further than the
/// controller's Half Move (adeva-d100.txt, "Controller: Push").
pub fn push_distance(degrees_of_success: u32, half_move_squares: u32) -> u32 {
    degrees_of_success.saturating_add(1).min(half_move_squares)
}

#[cfg(test)]
#[path = "grapple_tests.rs"]
mod tests;
