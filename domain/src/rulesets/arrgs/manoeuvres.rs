//! The Standard manoeuvres other than attacks as the client sends them and as they are reported
//! (arrgs.txt, "Aid Another Manoeuvre", "Change Reach Manoeuvre", "Control Spell Manoeuvre",
//! "Counterspell Manoeuvre", "Dismiss Spell Manoeuvre", "Miscellaneous Manoeuvre", "Mount
//! Manoeuvre", "Movement Manoeuvre", "Ready Manoeuvre", "Reload Manoeuvre", "Sidestep Manoeuvre",
//! "Standup Manoeuvre", "Withdraw Manoeuvre", "Complementary Actions"). How they are taken, and
//! the decisions where the text is silent, are in `manoeuvre_resolution`.

use super::check::Check;
use super::economy::{Points, Spend};
use super::fighter::{Fighter, Standing};
use super::items::Handling;
use super::opportunity::{Opportunity, OpportunityReport};
use super::state::Place;
use super::bonuses::{Bonuses, CheckKind};
use super::vitality::{Exertion, SurvivalCheck};
use crate::encounter::CombatantId;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// A GM-defined check for a Miscellaneous manoeuvre.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsGmCheck))]
#[serde(deny_unknown_fields)]
pub struct GmCheck {
    pub kind: CheckKind,
    pub dc: Score<0, 100>,
    /// Base Success Value, when the GM sets one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success_value: Option<Score<0, 1000>>,
    #[serde(default)]
    pub bonuses: Bonuses,
}

/// A manoeuvre other than an attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsManoeuvre))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Manoeuvre {
    /// 1 AP: grant an ally an Assisted modifier for its next check of this kind.
    AidAnother {
        #[cfg_attr(feature = "schema", schema(value_type = String))]
        ally_id: CombatantId,
        check: CheckKind,
        /// The Difficulty of the Scene (DC = 10 + this; default 0).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        difficulty: Option<Score<0, 50>>,
        #[serde(default)]
        bonuses: Bonuses,
    },
    /// 1 AP: move the Threat Range (Melee Weaponry, DC 10).
    ChangeReach { change: Score<-20, 20> },
    /// 1 AP: Spell Attack check against 10 + spell level.
    ControlSpell {
        /// The spell's level; taken from the spell in effect when `spell` names one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spell_level: Option<Score<0, 9>>,
        /// A spell in effect under the actor's control.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spell: Option<String>,
    },
    /// 2 AP: Spell Attack check against the caster's Reaction Spell Attack check.
    Counterspell {
        #[cfg_attr(feature = "schema", schema(value_type = String))]
        caster_id: CombatantId,
        /// A spell in effect under the caster's control: a success seizes control of it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spell: Option<String>,
    },
    /// 1 AP: Spell check exceeding 10 + spell level.
    DismissSpell {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spell_level: Option<Score<0, 9>>,
        /// A spell in effect under the actor's control: a success ends it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spell: Option<String>,
    },
    /// 1 AP: any interaction; a check only when the GM asks for one.
    Miscellaneous {
        description: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        check: Option<GmCheck>,
        /// An item picked up, drawn, stowed or dropped (moved when the check, if any, succeeds).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<Handling>,
    },
    /// 2 AP: Ride check against 10 + the mount's Personality modifier.
    Mount {
        mount_personality: Score<-20, 20>,
        #[serde(default)]
        bonuses: Bonuses,
    },
    /// 1 AP: Athletics check, Success Value = Movement Speed ± margin squares.
    Movement {
        squares: Score<1, 1000>,
        /// Roll the check instead of taking 10 (natural movement is passive).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        roll: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dc: Option<Score<0, 100>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        difficult_terrain: Option<Score<0, 50>>,
        #[serde(default)]
        bonuses: Bonuses,
    },
    /// As many AP as desired become AAP until the End of Round.
    Ready { points: Score<1, 10>, trigger: String },
    /// 1 AP (or as the weapon says): Missile Weaponry check, DC 10 (or as the weapon says).
    Reload {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        points: Option<Score<1, 5>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dc: Option<Score<0, 100>>,
        /// How many ammunition items the weapon takes at once (default 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        capacity: Option<Score<1, 100>>,
        #[serde(default)]
        bonuses: Bonuses,
    },
    /// 1 AP: move exactly 1 square.
    Sidestep,
    /// 1 AP: stand up (ends Prone).
    Standup,
    /// 2 AP: move up to Movement Speed away, provoking nothing.
    Withdraw { squares: Score<1, 100> },
    /// No points, no Vitality: part of another action.
    Complementary {
        description: String,
        /// An item drawn or dropped.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<Handling>,
    },
}

impl crate::bare_or_tagged::BareOrTagged for Manoeuvre {
    const TAG: &'static str = "type";
    const BARE: &'static [&'static str] = &["control_spell", "dismiss_spell", "reload", "sidestep", "standup"];
}

impl Manoeuvre {
    pub(super) fn points(&self) -> i32 {
        match self {
            Self::Counterspell { .. } | Self::Mount { .. } | Self::Withdraw { .. } => 2,
            Self::Reload { points, .. } => points.map_or(1, Score::get),
            Self::Ready { .. } | Self::Complementary { .. } => 0,
            _ => 1,
        }
    }

    /// Whether it provokes Opportunity Actions (each manoeuvre's "Opportunity Actions").
    pub fn provokes(&self) -> bool {
        match self {
            Self::Miscellaneous { check, .. } => check.is_some(),
            Self::DismissSpell { .. } | Self::Ready { .. } | Self::Sidestep | Self::Withdraw { .. } | Self::Complementary { .. } => {
                false
            }
            _ => true,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Self::AidAnother { .. } => "Aid Another",
            Self::ChangeReach { .. } => "Change Reach",
            Self::ControlSpell { .. } => "Control Spell",
            Self::Counterspell { .. } => "Counterspell",
            Self::DismissSpell { .. } => "Dismiss Spell",
            Self::Miscellaneous { .. } => "Miscellaneous",
            Self::Mount { .. } => "Mount",
            Self::Movement { .. } => "Movement",
            Self::Ready { .. } => "Ready",
            Self::Reload { .. } => "Reload",
            Self::Sidestep => "Sidestep",
            Self::Standup => "Standup",
            Self::Withdraw { .. } => "Withdraw",
            Self::Complementary { .. } => "Complementary action",
        }
    }
}

/// A check against a DC that either succeeds or not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsPassFail))]
pub struct PassFail {
    pub check: Check,
    pub dc: i32,
    pub success: bool,
    /// Critical re-rolls against the same DC, each adding its Success Value when above 0
    /// ("Criticals"; manoeuvres with a Success Value only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub critical_checks: Vec<Check>,
}

/// An item moved by a manoeuvre.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsItemMoved))]
pub struct ItemMoved {
    pub item: String,
    pub place: Place,
}

/// What a manoeuvre did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsManoeuvreResult))]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum ManoeuvreResult {
    AidAnother { test: PassFail, success_value: i32, ally: String, assisted: Option<i32> },
    ChangeReach { test: PassFail, success_value: i32, shift: i32, threat_range: [i32; 2] },
    ControlSpell {
        test: PassFail,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spell: Option<String>,
    },
    Counterspell {
        caster_reaction: Option<SurvivalCheck>,
        test: PassFail,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spell: Option<String>,
    },
    DismissSpell {
        test: PassFail,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spell: Option<String>,
    },
    Miscellaneous {
        description: String,
        test: Option<PassFail>,
        success_value: Option<i32>,
        /// Where the handled item is now.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<ItemMoved>,
    },
    Mount { test: PassFail },
    Movement { test: PassFail, success_value: i32, squares: i32, movement_increment: i32 },
    Ready { points: i32, trigger: String, remaining: Points },
    Reload { test: PassFail, loaded: i32 },
    Sidestep { movement_increment: i32 },
    Standup,
    Withdraw { squares: i32, movement_increment: i32 },
    Complementary {
        description: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<ItemMoved>,
    },
    /// Interrupted by an Opportunity attack: points and Vitality spent, nothing done.
    Wasted { reason: String },
}

/// A manoeuvre as taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsActionReport))]
pub struct ActionReport {
    pub actor: String,
    pub manoeuvre: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spend: Option<Spend>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exertion: Option<Exertion>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opportunities: Vec<OpportunityReport>,
    pub result: ManoeuvreResult,
    pub standings: Vec<Standing>,
}

/// The combatants a manoeuvre involves.
#[derive(Debug, Clone)]
pub struct Cast {
    pub actor: Fighter,
    /// The ally of Aid Another, the caster of Counterspell.
    pub other: Option<Fighter>,
    pub opportunists: Vec<(Fighter, Opportunity)>,
}
