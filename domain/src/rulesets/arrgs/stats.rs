//! The ARRGS stat block (arrgs.txt, "Vitality", "Skill Checks", "Actions and Action Points",
//! "Threat Range", "Movement", "Damage Resistance", "Damage Vulnerability", Appendix).
//!
//! Decisions:
//! - Every field but `agility` is optional so a stat block written for the turn order alone still
//!   reads; an operation that needs a missing value (Vitality above all) is refused naming it.
//! - Additional Action Points default to 2: the text gives no standard number, and the usual
//!   Immediate uses (an Attack as an Opportunity, the Defence manoeuvre) cost 2 points.
//! - Threat Range defaults to minimum 1, maximum 1 (the adjacent squares); the text ties it to
//!   size but gives no table. Base Movement Speed defaults to 5, the Movement manoeuvre's Success
//!   Value. Legs default to 2. Magnitude defaults to 1 (ordinary creatures).
//! - The Size modifier is given as a number beside the size category (the text has no table);
//!   it must be 0 for Medium creatures.

use super::bonuses::{Abilities, Checks};
use super::damage_types::{DamageType, Resistance};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// A distance in squares.
pub type Squares = Score<0, 10_000>;

/// Size categories, smallest first (arrgs.txt names Medium and Gargantuan; the rest follow the
/// usual d20 ladder).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsSize))]
#[serde(rename_all = "snake_case")]
pub enum Size {
    Fine,
    Diminutive,
    Tiny,
    Small,
    #[default]
    Medium,
    Large,
    Huge,
    Gargantuan,
    Colossal,
}

impl Size {
    /// Steps from Fine (0) to Colossal (8).
    pub fn step(self) -> i32 {
        self as i32
    }
}

/// Minimum and maximum Threat Range in squares (arrgs.txt, "Threat Range").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsThreatRange))]
#[serde(deny_unknown_fields)]
pub struct ThreatRange {
    pub min: Score<0, 100>,
    pub max: Score<0, 100>,
}

/// An ARRGS combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsStats))]
#[serde(deny_unknown_fields, try_from = "StatsWire")]
pub struct Stats {
    /// The Agility score, which orders characters on the same Initiative slot.
    pub agility: Score<-20, 100>,
    /// The character's Initiative score from the sheet. The text counts slots down from the
    /// highest score but gives no roll, so the score is read as is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiative: Option<Score<0, 1000>>,
    /// Total Vitality (arrgs.txt, "Vitality"). Needed by every operation that spends or loses
    /// Vitality.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vitality: Option<Score<1, 10_000>>,
    /// Current Vitality when the combatant joins (default: Total Vitality); at least −Total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_vitality: Option<Score<-10_000, 10_000>>,
    /// Action Points a turn (default 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_points: Option<Score<0, 10>>,
    /// Additional Action Points a round, for Swift and Immediate actions (default 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_action_points: Option<Score<0, 10>>,
    /// Ability modifiers (each default 0).
    #[serde(default, skip_serializing_if = "is_default_abilities")]
    pub abilities: Box<Abilities>,
    /// Standing modifiers per kind of check.
    #[serde(default, skip_serializing_if = "is_default_checks")]
    pub checks: Box<Checks>,
    /// Check Penalty (armour), taken from every check (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_penalty: Option<Score<0, 50>>,
    /// Size category (default Medium).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<Size>,
    /// The Size modifier of a creature larger or smaller than Medium (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_modifier: Option<Score<0, 20>>,
    /// Magnitude: 1 for ordinary creatures, 2 for a car or tank, 3 an aircraft carrier, 4 a star
    /// destroyer, 5 beyond (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub magnitude: Option<Score<1, 5>>,
    /// Damage Resistances, DR n/type (at most one per type).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resistances: Vec<Resistance>,
    /// Damage Vulnerabilities.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vulnerabilities: Vec<DamageType>,
    /// Base Movement Speed in squares (default 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<Score<0, 100>>,
    /// Threat Range (default minimum 1, maximum 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threat_range: Option<ThreatRange>,
    /// The Reach attribute: how far Change Reach may push the Threat Range out (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reach: Option<Score<0, 20>>,
    /// Number of legs, for Trip (default 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legs: Option<Score<0, 100>>,
    /// Items on joining: held in the hands unless `"held": false` (for Disarm, Sunder and
    /// Staggered); at most 20.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<super::items::ItemSpec>,
}

fn is_default_abilities(abilities: &Abilities) -> bool {
    *abilities == Abilities::default()
}

fn is_default_checks(checks: &Checks) -> bool {
    *checks == Checks::default()
}

/// [`Stats`] as read, before the checks across fields.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StatsWire {
    agility: Score<-20, 100>,
    #[serde(default)]
    initiative: Option<Score<0, 1000>>,
    #[serde(default)]
    vitality: Option<Score<1, 10_000>>,
    #[serde(default)]
    current_vitality: Option<Score<-10_000, 10_000>>,
    #[serde(default)]
    action_points: Option<Score<0, 10>>,
    #[serde(default)]
    additional_action_points: Option<Score<0, 10>>,
    #[serde(default)]
    abilities: Box<Abilities>,
    #[serde(default)]
    checks: Box<Checks>,
    #[serde(default)]
    check_penalty: Option<Score<0, 50>>,
    #[serde(default)]
    size: Option<Size>,
    #[serde(default)]
    size_modifier: Option<Score<0, 20>>,
    #[serde(default)]
    magnitude: Option<Score<1, 5>>,
    #[serde(default)]
    resistances: Vec<Resistance>,
    #[serde(default)]
    vulnerabilities: Vec<DamageType>,
    #[serde(default)]
    speed: Option<Score<0, 100>>,
    #[serde(default)]
    threat_range: Option<ThreatRange>,
    #[serde(default)]
    reach: Option<Score<0, 20>>,
    #[serde(default)]
    legs: Option<Score<0, 100>>,
    #[serde(default)]
    items: Vec<super::items::ItemSpec>,
}

impl TryFrom<StatsWire> for Stats {
    type Error = String;

    fn try_from(wire: StatsWire) -> Result<Self, Self::Error> {
        let stats = Stats {
            agility: wire.agility,
            initiative: wire.initiative,
            vitality: wire.vitality,
            current_vitality: wire.current_vitality,
            action_points: wire.action_points,
            additional_action_points: wire.additional_action_points,
            abilities: wire.abilities,
            checks: wire.checks,
            check_penalty: wire.check_penalty,
            size: wire.size,
            size_modifier: wire.size_modifier,
            magnitude: wire.magnitude,
            resistances: wire.resistances,
            vulnerabilities: wire.vulnerabilities,
            speed: wire.speed,
            threat_range: wire.threat_range,
            reach: wire.reach,
            legs: wire.legs,
            items: wire.items,
        };
        stats.check()?;
        Ok(stats)
    }
}

impl Stats {
    /// A stat block with only the turn-order fields.
    pub fn new(agility: Score<-20, 100>) -> Self {
        Self {
            agility,
            initiative: None,
            vitality: None,
            current_vitality: None,
            action_points: None,
            additional_action_points: None,
            abilities: Box::default(),
            checks: Box::default(),
            check_penalty: None,
            size: None,
            size_modifier: None,
            magnitude: None,
            resistances: Vec::new(),
            vulnerabilities: Vec::new(),
            speed: None,
            threat_range: None,
            reach: None,
            legs: None,
            items: Vec::new(),
        }
    }

    /// The checks across fields the types cannot make.
    pub fn check(&self) -> Result<(), String> {
        if let (Some(current), Some(total)) = (self.current_vitality, self.vitality)
            && (current.get() > total.get() || current.get() <= -total.get())
        {
            return Err(format!(
                "current_vitality: {} must lie above −{} (dead) and at most the Total Vitality {}",
                current.get(),
                total.get(),
                total.get()
            ));
        }
        if self.current_vitality.is_some() && self.vitality.is_none() {
            return Err("current_vitality: needs vitality (the Total Vitality)".into());
        }
        if let Some(range) = &self.threat_range
            && range.min.get() > range.max.get()
        {
            return Err("threat_range: min must not exceed max".into());
        }
        if self.size() == Size::Medium && self.size_modifier() != 0 {
            return Err("size_modifier: a Medium creature has no Size modifier".into());
        }
        super::items::check_specs(&self.items)?;
        super::damage_types::check_lists(&self.resistances, &self.vulnerabilities)
    }

    pub fn action_points(&self) -> i32 {
        self.action_points.map_or(3, Score::get)
    }

    pub fn additional_action_points(&self) -> i32 {
        self.additional_action_points.map_or(2, Score::get)
    }

    pub fn check_penalty(&self) -> i32 {
        self.check_penalty.map_or(0, Score::get)
    }

    pub fn size(&self) -> Size {
        self.size.unwrap_or_default()
    }

    pub fn size_modifier(&self) -> i32 {
        self.size_modifier.map_or(0, Score::get)
    }

    pub fn magnitude(&self) -> i32 {
        self.magnitude.map_or(1, Score::get)
    }

    pub fn speed(&self) -> i32 {
        self.speed.map_or(5, Score::get)
    }

    pub fn threat_range(&self) -> (i32, i32) {
        self.threat_range.as_ref().map_or((1, 1), |range| (range.min.get(), range.max.get()))
    }

    pub fn reach(&self) -> i32 {
        self.reach.map_or(0, Score::get)
    }

    pub fn legs(&self) -> i32 {
        self.legs.map_or(2, Score::get)
    }

    /// Vitality at the start (Total Vitality unless the sheet says otherwise).
    pub fn starting_vitality(&self) -> Option<i32> {
        let total = self.vitality?.get();
        Some(self.current_vitality.map_or(total, Score::get))
    }
}
