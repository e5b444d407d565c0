//! The Action List (adeva-d100.txt, "Actions", "Action List"): every action as data. For a
//! declared action, a function returns its [`ActionSpec`]: what it costs, its subtypes, the tests
//! it calls for with every modifier and its reason, how many hits a pass can score, and what it
//! leaves behind after it is done. Actions that roll dice of their own (a suppressive burst's jam
//! and random victims, Pinning tests, the opposed Agility test of an Overwatch) have resolution
//! functions in their modules.
//!
//! Decisions (general; each module lists its own):
//! - Only the modifiers an action itself brings are listed (e.g. Standard Attack +10). Situational
//!   ones (a surprised target's +30, altitude) are added where the attack is resolved
//!   (`attack_sequence.rs`); an aim bonus comes from [`TurnBudget::pending_aim`].
//! - A thrown melee weapon is tested with WS, as "Attacking" Step Three says, and its attack counts
//!   as ranged; it cannot fire a Burst or a Flurry, which need a ranged or a melee weapon.
//! - An action with no type in the table (the grapple Controller actions marked "-") is part of the
//!   action that leads to it and costs nothing more (see `grapple.rs`).

pub mod aim;
pub mod attack_actions;
pub mod declared;
pub mod economy;
pub mod grapple;
pub mod manoeuvres;
pub mod overwatch;
pub mod pinning;
pub mod starship;
pub mod suppressive;
#[cfg(test)]
pub(crate) mod test_support;

pub use declared::{DeclaredAction, action_spec};
pub use economy::{ExtendedAction, TurnBudget};
/// The one characteristic-name enum, declared beside the decays that lower a characteristic.
pub use super::decay::CharacteristicName;

use super::evasion::EvasionKind;
use super::test_modifiers::Modifier;
use crate::rulesets::RuleError;
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

/// How a weapon attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100WeaponClass))]
#[serde(rename_all = "snake_case")]
pub enum WeaponClass {
    Melee,
    /// A melee weapon thrown at range: tested with WS (adeva-d100.txt, "Attacking", Step Three).
    Thrown,
    Ranged,
}

/// What an action needs to know about a weapon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Weapon))]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub name: String,
    pub class: WeaponClass,
    /// Most hits one Burst or Flurry can designate; 1 for a weapon that cannot burst or flurry.
    #[serde(default = "one")]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::rating")]
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 100))]
    pub hit_rating: u32,
    /// Semi-auto capacity, if the weapon has one.
    #[serde(default)]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::rating_opt")]
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 100))]
    pub semi_auto: Option<u32>,
    /// Full-auto capacity, if the weapon has one.
    #[serde(default)]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::rating_opt")]
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 100))]
    pub full_auto: Option<u32>,
}

fn one() -> u32 {
    1
}

/// Largest Hit rating or auto capacity accepted; keeps penalties and hit counts small.
pub const MAX_WEAPON_RATING: u32 = 100;

impl Weapon {
    pub fn new(name: impl Into<String>, class: WeaponClass, hit_rating: u32) -> Self {
        Self { name: name.into(), class, hit_rating, semi_auto: None, full_auto: None }
    }

    /// WS for melee and thrown melee weapons, BS for ranged ones (adeva-d100.txt, "Attacking",
    /// Step Three).
    pub fn characteristic(&self) -> CharacteristicName {
        match self.class {
            WeaponClass::Melee | WeaponClass::Thrown => CharacteristicName::Ws,
            WeaponClass::Ranged => CharacteristicName::Bs,
        }
    }

    /// The Melee or Ranged subtype an attack with this weapon has.
    pub fn subtype(&self) -> ActionSubtype {
        match self.class {
            WeaponClass::Melee => ActionSubtype::Melee,
            WeaponClass::Thrown | WeaponClass::Ranged => ActionSubtype::Ranged,
        }
    }

    /// Refuses a blank name and ratings of 0 or above [`MAX_WEAPON_RATING`]; `field` is the JSON
    /// path of the weapon, e.g. `"weapon"`.
    pub fn validate(&self, field: &str) -> Result<(), RuleError> {
        if self.name.trim().is_empty() {
            return Err(RuleError::invalid(format!("{field}.name"), "the weapon needs a name"));
        }
        check_rating(&format!("{field}.hit_rating"), self.hit_rating)?;
        if let Some(capacity) = self.semi_auto {
            check_rating(&format!("{field}.semi_auto"), capacity)?;
        }
        if let Some(capacity) = self.full_auto {
            check_rating(&format!("{field}.full_auto"), capacity)?;
        }
        Ok(())
    }

    /// Refuses anything but a melee weapon (`action` names the action in the message).
    pub fn require_melee(&self, field: &str, action: &str) -> Result<(), RuleError> {
        if self.class != WeaponClass::Melee {
            return Err(RuleError::invalid(
                format!("{field}.class"),
                format!("{action} needs a melee weapon"),
            ));
        }
        Ok(())
    }

    /// Refuses anything but a ranged weapon (`action` names the action in the message).
    pub fn require_ranged(&self, field: &str, action: &str) -> Result<(), RuleError> {
        if self.class != WeaponClass::Ranged {
            return Err(RuleError::invalid(
                format!("{field}.class"),
                format!("{action} needs a ranged weapon"),
            ));
        }
        Ok(())
    }
}

fn check_rating(field: &str, value: u32) -> Result<(), RuleError> {
    if value == 0 || value > MAX_WEAPON_RATING {
        return Err(RuleError::invalid(field, format!("must lie between 1 and {MAX_WEAPON_RATING}")));
    }
    Ok(())
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hit_rules_count_hits_from_degrees() {
        // Per degree, max 3: 2 DoS → 2; 5 DoS → 3; a pass always scores one.
        assert_eq!(HitRule::PerDegree { max: 3 }.hits(true, 2), 2);
        assert_eq!(HitRule::PerDegree { max: 3 }.hits(true, 5), 3);
        assert_eq!(HitRule::PerDegree { max: 3 }.hits(true, 0), 1);
        // One plus one per two DoS, max 4: 5 DoS → 1 + 2 = 3; 9 DoS → 1 + 4 = 5 → 4.
        assert_eq!(HitRule::OnePlusPerTwoDegrees { max: 4 }.hits(true, 5), 3);
        assert_eq!(HitRule::OnePlusPerTwoDegrees { max: 4 }.hits(true, 9), 4);
        assert_eq!(HitRule::Single.hits(true, 6), 1);
        assert_eq!(HitRule::Single.hits(false, 0), 0);
        assert_eq!(HitRule::NoHits.hits(true, 3), 0);
    }

    #[test]
    fn weapons_pick_ws_or_bs_and_a_subtype() {
        let sword = Weapon::new("sword", WeaponClass::Melee, 1);
        let knife = Weapon::new("throwing knife", WeaponClass::Thrown, 1);
        let rifle = Weapon::new("rifle", WeaponClass::Ranged, 3);
        assert_eq!((sword.characteristic(), sword.subtype()), (CharacteristicName::Ws, ActionSubtype::Melee));
        assert_eq!(
            (knife.characteristic(), knife.subtype()),
            (CharacteristicName::Ws, ActionSubtype::Ranged)
        );
        assert_eq!(
            (rifle.characteristic(), rifle.subtype()),
            (CharacteristicName::Bs, ActionSubtype::Ranged)
        );
    }

    #[test]
    fn bad_weapons_are_refused_by_path() {
        let mut weapon = Weapon::new("rifle", WeaponClass::Ranged, 0);
        let err = weapon.validate("weapon").unwrap_err();
        assert_eq!(err, RuleError::invalid("weapon.hit_rating", "must lie between 1 and 100"));
        weapon.hit_rating = 2;
        weapon.full_auto = Some(101);
        let err = weapon.validate("attacks[1].weapon").unwrap_err();
        assert!(matches!(err, RuleError::Invalid { field, .. } if field == "attacks[1].weapon.full_auto"));
        weapon.full_auto = None;
        weapon.name = " ".into();
        assert!(
            matches!(weapon.validate("weapon"), Err(RuleError::Invalid { field, .. }) if field == "weapon.name")
        );
    }

    #[test]
    fn action_names_read_as_words() {
        let spec = ActionSpec::new(ActionKind::AttackOfOpportunity, ActionType::Free, vec![]);
        assert_eq!(spec.name(), "attack of opportunity");
        let dodge = ActionSpec::new(ActionKind::Other("dodge".into()), ActionType::Reaction, vec![]);
        assert_eq!(dodge.name(), "dodge");
    }

    #[test]
    fn characteristics_are_read_by_name() {
        let stats = test_support::stats(&[("ag", 47), ("wp", 38)]);
        assert_eq!(CharacteristicName::Ag.score(&stats), 47);
        assert_eq!(CharacteristicName::Wp.score(&stats), 38);
        assert_eq!(CharacteristicName::Bs.score(&stats), 30);
    }
}
