//! What kind of action an action is: its type (what it costs), its subtypes (when it may be used)
//! and which row of the Action List it is (adeva-d100.txt, "Actions", "Action List").

use serde::{Deserialize, Serialize};

/// The five kinds of action and what they cost (adeva-d100.txt, "Actions").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ActionType))]
#[serde(rename_all = "snake_case")]
pub enum ActionType {
    /// One per turn, and then no Half Actions.
    Full,
    /// Two per turn.
    Half,
    /// One, used during other characters' turns.
    Reaction,
    /// No formal limit.
    Free,
    /// Spans several rounds and fills each turn it is worked on.
    Extended,
}

impl ActionType {
    pub fn label(self) -> &'static str {
        match self {
            Self::Full => "full action",
            Self::Half => "half action",
            Self::Reaction => "reaction",
            Self::Free => "free action",
            Self::Extended => "extended action",
        }
    }
}

/// Action subtypes, which decide when an action may be used (adeva-d100.txt, "Action List").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ActionSubtype))]
#[serde(rename_all = "snake_case")]
pub enum ActionSubtype {
    Attack,
    Melee,
    Ranged,
    Movement,
    Concentration,
}

/// Which action from the table (or another action, by name, for the budget).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ActionKind))]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    StandardAttack,
    Burst,
    Flurry,
    CalledShot,
    Charge,
    HeavyAttack,
    MultipleAttack,
    AttackOfOpportunity,
    CounterAttack,
    Overwatch,
    SuppressiveFire,
    GrappleInitiate,
    /// The controller's 'Grapple' Full Action, with the Controller or Either action it leads to.
    GrappleMaintain,
    GrappleRelease,
    GrappleBreakFree,
    GrappleTakeControl,
    GrappleActivatePower,
    GrappleStandardAttack,
    GuardMode,
    KnockDown,
    TakeDown,
    Aim,
    Disarm,
    Feint,
    Boarding,
    Ram,
    /// Anything outside the Action List (a dodge, a move, talking), named by the caller.
    Other(String),
}

impl ActionKind {
    /// The action's name in words, e.g. "attack of opportunity".
    pub fn label(&self) -> String {
        let name = match self {
            Self::StandardAttack => "standard attack",
            Self::Burst => "burst",
            Self::Flurry => "flurry",
            Self::CalledShot => "called shot",
            Self::Charge => "charge",
            Self::HeavyAttack => "heavy attack",
            Self::MultipleAttack => "multiple attack",
            Self::AttackOfOpportunity => "attack of opportunity",
            Self::CounterAttack => "counter-attack",
            Self::Overwatch => "overwatch",
            Self::SuppressiveFire => "suppressive fire",
            Self::GrappleInitiate => "grapple (initiate)",
            Self::GrappleMaintain => "grapple",
            Self::GrappleRelease => "release grapple",
            Self::GrappleBreakFree => "break free",
            Self::GrappleTakeControl => "take control",
            Self::GrappleActivatePower => "activate power (grapple)",
            Self::GrappleStandardAttack => "standard attack (grapple)",
            Self::GuardMode => "guard mode",
            Self::KnockDown => "knock down",
            Self::TakeDown => "take down",
            Self::Aim => "aim",
            Self::Disarm => "disarm",
            Self::Feint => "feint",
            Self::Boarding => "boarding",
            Self::Ram => "ram",
            Self::Other(name) => name,
        };
        name.to_string()
    }
}
