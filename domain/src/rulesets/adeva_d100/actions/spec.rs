//! What one declared action calls for and leaves behind: its tests (with their modifiers, hit
//! rule, opposition and evasions), its lingering effects and its [`ActionSpec`]
//! (adeva-d100.txt, "Actions", "Action List", "Attacking").

use super::overwatch;
use super::{ActionKind, ActionSubtype, ActionType};
use crate::rulesets::adeva_d100::decay::CharacteristicName;
use crate::rulesets::adeva_d100::evasion::EvasionKind;
use crate::rulesets::adeva_d100::test_modifiers::Modifier;
use serde::{Deserialize, Serialize};

/// How many hits a test scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100HitRule))]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum HitRule {
    /// The test decides something other than hits (an opposed test, a grapple).
    NoHits,
    /// One hit on a pass.
    Single,
    /// One hit per Degree of Success, at most `max` (Burst, Flurry).
    PerDegree { max: u32 },
    /// One hit, plus one more for every two Degrees of Success, at most `max` (Suppressive Fire).
    OnePlusPerTwoDegrees { max: u32 },
}

impl HitRule {
    /// Hits scored by a test that passed (or not) with this many Degrees of Success. A pass always
    /// scores at least one hit where the rule scores hits at all (adeva-d100.txt, "Attacking",
    /// Step Three; "Burst", "Flurry", "Suppressive Fire").
    pub fn hits(self, passed: bool, degrees: u32) -> u32 {
        if !passed {
            return 0;
        }
        match self {
            Self::NoHits => 0,
            Self::Single => 1,
            Self::PerDegree { max } => degrees.clamp(1, max.max(1)),
            Self::OnePlusPerTwoDegrees { max } => (1 + degrees / 2).min(max.max(1)),
        }
    }

    /// The `max_hits` an attack resolved by `attack_sequence.rs` takes: `None` for one hit, the
    /// declared hits for one hit per DoS. Suppressive Fire's hits go to random victims instead
    /// (`suppressive.rs`), and tests that score no hits are not attacks: both give `None`.
    pub fn attack_max_hits(self) -> Option<u32> {
        match self {
            Self::PerDegree { max } => Some(max),
            Self::NoHits | Self::Single | Self::OnePlusPerTwoDegrees { .. } => None,
        }
    }
}

/// The ways a target may try to evade an attack (adeva-d100.txt, "Attacking", Step Four;
/// "Deflectors"; "Boarding").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Evasion))]
#[serde(rename_all = "snake_case")]
pub enum Evasion {
    Dodge,
    Parry,
    PointDefence,
    Deflect,
    /// The starship action against Boarding.
    RepelBoarders,
}

impl From<EvasionKind> for Evasion {
    fn from(kind: EvasionKind) -> Self {
        match kind {
            EvasionKind::Dodge => Self::Dodge,
            EvasionKind::Parry => Self::Parry,
            EvasionKind::PointDefence => Self::PointDefence,
            EvasionKind::Deflect => Self::Deflect,
        }
    }
}

/// The usual evasions against an attack (adeva-d100.txt, "Attacking", Step Four).
pub const USUAL_EVASIONS: [Evasion; 4] =
    [Evasion::Deflect, Evasion::Dodge, Evasion::Parry, Evasion::PointDefence];

/// The other side of an opposed test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Opposition))]
pub struct Opposition {
    /// The characteristic the opponent tests.
    pub characteristic: CharacteristicName,
}

/// One test an action calls for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100TestSpec))]
pub struct TestSpec {
    /// What the test is for, e.g. "attack with Autogun" or "opposed Strength test".
    pub label: String,
    pub characteristic: CharacteristicName,
    /// A skill tested in place of the bare characteristic (e.g. "acrobatics"), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    /// The action's own modifiers, each with its reason.
    pub modifiers: Vec<Modifier>,
    pub hits: HitRule,
    /// An opposed test: what the opponent tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opposed_by: Option<Opposition>,
    /// Evasions the target may use against the hits; empty when the test is not an attack.
    pub evasions: Vec<Evasion>,
    /// The weapon jams on a roll of this or higher.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jams_on: Option<u32>,
    /// False when the action's modifier replaces every bonus (Suppressive Fire): only penalties
    /// may be added to this test.
    pub other_bonuses_allowed: bool,
}

impl TestSpec {
    /// A test of this characteristic with these modifiers: no hits, no evasion, no jam.
    pub fn new(
        label: impl Into<String>,
        characteristic: CharacteristicName,
        modifiers: Vec<Modifier>,
    ) -> Self {
        Self {
            label: label.into(),
            characteristic,
            skill: None,
            modifiers,
            hits: HitRule::NoHits,
            opposed_by: None,
            evasions: Vec::new(),
            jams_on: None,
            other_bonuses_allowed: true,
        }
    }

    /// An attack test: scores hits by `hits`, evadable in the usual ways.
    pub fn attack(
        label: impl Into<String>,
        characteristic: CharacteristicName,
        modifiers: Vec<Modifier>,
        hits: HitRule,
    ) -> Self {
        Self { hits, evasions: USUAL_EVASIONS.to_vec(), ..Self::new(label, characteristic, modifiers) }
    }

    /// An opposed test against the opponent's `against`.
    pub fn opposed(
        label: impl Into<String>,
        characteristic: CharacteristicName,
        against: CharacteristicName,
        modifiers: Vec<Modifier>,
    ) -> Self {
        Self {
            opposed_by: Some(Opposition { characteristic: against }),
            ..Self::new(label, characteristic, modifiers)
        }
    }

    /// The sum of the action's own modifiers (before any cap).
    pub fn modifier_sum(&self) -> i32 {
        self.modifiers.iter().map(|modifier| modifier.value).sum()
    }
}

/// When a lingering effect ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Until))]
#[serde(rename_all = "snake_case")]
pub enum Until {
    /// The start of the acting character's next turn.
    StartOfOwnNextTurn,
    /// The acting character's next action.
    NextAction,
    /// One round ("stunned for one round").
    OneRound,
}

/// What an action leaves behind once it is done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100LingeringEffect))]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum LingeringEffect {
    /// The actor's own Evasion tests take this modifier (Heavy Attack).
    OwnEvasion { modifier: Modifier, until: Until },
    /// Attacks against the actor take this modifier; so do Critical Hit confirmation tests
    /// against it when `critical_confirmation` is set (Guard Mode).
    AttacksAgainst { modifier: Modifier, critical_confirmation: bool, until: Until },
    /// The actor's next attack test gets this bonus, lost if anything but an attack action comes
    /// first or the actor reacts before attacking (Aim).
    NextAttack { modifier: Modifier },
    /// The actor's next melee Standard Attack or Called Shot against the feinted target may not be
    /// parried or dodged, if it is the actor's next action (Feint).
    NoParryOrDodge { until: Until },
    /// The Overwatch is set; it fires when a trigger is met and ends if the actor takes any
    /// action but a free one first.
    OverwatchSet { kill_zone_radius_squares: u32, triggers: Vec<overwatch::OverwatchTrigger> },
    /// No further Counter-Attack until the start of the actor's next turn.
    NoCounterAttack { until: Until },
    /// The actor controls a grapple and must take the 'Grapple' Full Action on its turn or the
    /// grapple ends.
    ControlsGrapple,
}

/// Everything one declared action costs and calls for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ActionSpec))]
pub struct ActionSpec {
    pub action: ActionKind,
    pub action_type: ActionType,
    pub subtypes: Vec<ActionSubtype>,
    /// The tests, in the order they are made (Multiple Attack has one per weapon).
    pub tests: Vec<TestSpec>,
    pub lingering: Vec<LingeringEffect>,
    /// Rules the engine does not settle itself, stated for the table.
    pub notes: Vec<String>,
}

impl ActionSpec {
    /// An action with no tests, effects or notes, e.g. a dodge spent from the budget.
    pub fn new(action: ActionKind, action_type: ActionType, subtypes: Vec<ActionSubtype>) -> Self {
        Self { action, action_type, subtypes, tests: Vec::new(), lingering: Vec::new(), notes: Vec::new() }
    }

    pub fn has_subtype(&self, subtype: ActionSubtype) -> bool {
        self.subtypes.contains(&subtype)
    }

    /// A name for messages.
    pub fn name(&self) -> String {
        self.action.label()
    }

    pub(crate) fn with_test(mut self, test: TestSpec) -> Self {
        self.tests.push(test);
        self
    }

    pub(crate) fn with_effect(mut self, effect: LingeringEffect) -> Self {
        self.lingering.push(effect);
        self
    }

    pub(crate) fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
}
