//! What Lur-Asko operations report: every damage portion step by step (drive, armour, shielding,
//! resistances), every use of a shield's points, the defense roll, the critical hit, the degrees
//! of injury and the energy effects.

use super::state::Precision;
use super::stats::EnergyType;
use super::commands::{ActionReport, AttackReport};
use crate::rulesets::Summary;
use serde::{Deserialize, Serialize};


/// Every Lur-Asko report, as the attack, damage and action events carry it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoReport))]
pub enum Report {
    Attack(Box<AttackReport>),
    Action(Box<ActionReport>),
}

impl Summary for Report {
    fn summary(&self) -> String {
        match self {
            Self::Attack(report) => report.summary(),
            Self::Action(report) => report.summary(),
        }
    }
}

/// The part of a weapon's damage a portion carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoElement))]
#[serde(rename_all = "snake_case")]
pub enum Element {
    /// Base and STR damage.
    Normal,
    /// An explosive's fragments (normal damage with their own drive).
    Frag,
    Particle,
    Electric,
    Heat,
    Frost,
    Blast,
}

impl Element {
    pub fn energy(self) -> Option<EnergyType> {
        match self {
            Self::Normal | Self::Frag => None,
            Self::Particle => Some(EnergyType::Particle),
            Self::Electric => Some(EnergyType::Electric),
            Self::Heat => Some(EnergyType::Heat),
            Self::Frost => Some(EnergyType::Frost),
            Self::Blast => Some(EnergyType::Blast),
        }
    }

    pub fn of_energy(energy: EnergyType) -> Self {
        match energy {
            EnergyType::Particle => Self::Particle,
            EnergyType::Electric => Self::Electric,
            EnergyType::Heat => Self::Heat,
            EnergyType::Frost => Self::Frost,
            EnergyType::Blast => Self::Blast,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::Frag => "frag",
            Self::Particle => "particle",
            Self::Electric => "electric",
            Self::Heat => "heat",
            Self::Frost => "frost",
            Self::Blast => "blast",
        }
    }
}

/// Machine code of one damage step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoStepCode))]
#[serde(rename_all = "snake_case")]
pub enum StepCode {
    Base,
    Strength,
    StrengthWithheld,
    VoluntaryReduction,
    KineticShield,
    LowShielding,
    MediumShielding,
    DriveBonus,
    CriticalDrive,
    CombinedDrive,
    Armour,
    HighShielding,
    Resistance,
    Weakness,
}

/// One step of a portion's damage: its damage and drive after the step, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoStep))]
pub struct Step {
    pub code: StepCode,
    pub damage: u32,
    pub drive: u32,
    pub reason: String,
}

/// One portion of one weapon's damage, from the weapon's numbers to the damage taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoPortion))]
pub struct Portion {
    pub weapon: String,
    pub element: Element,
    pub steps: Vec<Step>,
    /// Damage after the last step.
    pub damage: u32,
    /// Drive after the last step.
    pub drive: u32,
}

impl Portion {
    pub fn new(weapon: &str, element: Element, damage: u32, drive: u32, reason: String) -> Self {
        let step = Step { code: StepCode::Base, damage, drive, reason };
        Self { weapon: weapon.to_owned(), element, steps: vec![step], damage, drive }
    }

    /// Records a step that leaves the portion at `damage` and `drive`.
    pub fn step(&mut self, code: StepCode, damage: u32, drive: u32, reason: String) {
        self.damage = damage;
        self.drive = drive;
        self.steps.push(Step { code, damage, drive, reason });
    }
}

/// What a shield did with one portion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoShieldResult))]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum ShieldResult {
    /// Points were spent: all the damage, or all the points when they ran short.
    Applied {
        points_before: u32,
        points_used: u32,
        points_after: u32,
        damage_before: u32,
        damage_after: u32,
        /// A techshield against blast: each point negated 2 damage.
        blast_doubled: bool,
    },
    /// The shield could not oppose this portion.
    NotApplicable { reason: String },
}

/// One shield against one portion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoShieldUse))]
pub struct ShieldUse {
    pub precision: Precision,
    pub shield: String,
    /// Who provides the shield.
    pub owner: String,
    pub weapon: String,
    pub element: Element,
    #[serde(flatten)]
    pub result: ShieldResult,
}

/// Machine code of a modifier to the defense roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoModifierCode))]
#[serde(rename_all = "snake_case")]
pub enum ModifierCode {
    /// Hindrance from voluntarily reducing damage, as the encounter option turns it into TN.
    VoluntaryReductionHindrance,
}

/// A change to the defense TN and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoModifier))]
pub struct Modifier {
    pub code: ModifierCode,
    pub value: i32,
    pub reason: String,
}

/// How the defense went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoDefense))]
#[serde(tag = "defense", rename_all = "snake_case")]
pub enum Defense {
    /// The defender rolled: at most the TN defends; failing by 20 or more is a critical hit.
    Rolled {
        dice: String,
        rendered: String,
        roll: i64,
        /// The TN as sent.
        base_tn: i32,
        modifiers: Vec<Modifier>,
        tn: i32,
        /// Roll minus TN: by how much the roll failed (negative or 0 when it defended).
        failed_by: i64,
        defended: bool,
        critical: bool,
        /// False when the caller said a critical hit is out of reach (e.g. Marksmanship range).
        critical_possible: bool,
    },
    /// No defense at all: the hit exploits it as a critical hit when one is possible.
    Undefended { critical: bool },
    /// A hit the caller reports as landed (the `damage` operation, damage auras, and an attack
    /// sent with `"defense": "hit"`): named `hit`, as the request names it (was `called_hit`,
    /// still read from older stored reports).
    #[serde(rename = "hit", alias = "called_hit")]
    CalledHit { critical: bool },
    /// Shielding stopped the attack before any roll.
    NotRolled { reason: String },
}

/// The critical-hit effect the attacker chose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoCriticalEffect))]
#[serde(tag = "choice", rename_all = "snake_case")]
pub enum CriticalEffect {
    /// +10 drive to every weapon (+20 to a Precise melee weapon), normal and energy drive.
    Drive { bonuses: Vec<DriveBonusReport> },
    /// The attacker names the injury type instead of the table.
    InjuryType { injury_type: String },
}

/// The critical drive bonus of one weapon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoDriveBonus))]
pub struct DriveBonusReport {
    pub weapon: String,
    pub bonus: u32,
}

/// Degrees of injury from one energy type (the energy damage divided by the injury factor).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoEnergyDegrees))]
pub struct EnergyDegrees {
    pub energy: EnergyType,
    pub damage: u32,
    pub degrees: u32,
}

/// The damage taken in one hit and the degrees of injury it crossed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoInjury))]
pub struct Injury {
    pub injury_factor: u32,
    pub damage_before: u32,
    pub damage: u32,
    pub damage_after: u32,
    /// Multiples of the injury factor crossed from `damage_before` to `damage_after`.
    pub degrees: u32,
    pub injury_type: String,
    pub energy: Vec<EnergyDegrees>,
}

/// A consequence of energy damage (Energy Damage), or why it did not happen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoEnergyEffect))]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum EnergyEffect {
    /// Particle: a roll against war fever is owed at the end of the combat.
    WarFeverRoll { degrees: u32, hindrance: u32 },
    /// Electric or blast, 2+ degrees: stunned until the end of `attacker`'s next turn.
    Stunned { energy: EnergyType, degrees: u32, attacker: String },
    /// Heat, 1+ degree.
    Ignited { degrees: u32 },
    /// Frost: 25 fatigue per degree.
    Fatigue { degrees: u32, fatigue: u32 },
    /// Blast hit: deafened for 30 seconds (6 turns).
    Deafened { turns: u32 },
    /// Blast, 1+ degree.
    KnockedDown { degrees: u32 },
    /// An effect the victim is immune to, and why.
    Prevented { prevented: String, reason: String },
}

/// One hit's damage: every portion, every shield, the injury and its effects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoHit))]
pub struct Hit {
    pub injury: Injury,
    pub effects: Vec<EnergyEffect>,
}

/// How an attack ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoOutcome))]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// Low- or medium-precision shielding negated all of it before the defense roll.
    StoppedByShielding,
    /// The defense roll succeeded.
    Defended,
    /// The attack hit.
    Hit {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        critical: Option<CriticalEffect>,
        #[serde(flatten)]
        hit: Hit,
    },
}

/// A damage aura striking back at the character who provoked it (Damage Auras).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoAuraStrike))]
pub struct AuraStrike {
    pub owner: String,
    pub aura: String,
    /// Who provoked it and takes the damage.
    pub struck: String,
    pub amount: u32,
    pub stored_before: u32,
    pub stored_after: u32,
    pub portions: Vec<Portion>,
    /// High-precision shielding only: the aura cannot be dodged.
    pub shielding: Vec<ShieldUse>,
    #[serde(flatten)]
    pub hit: Hit,
}

/// What became of a requested aura response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LurAskoAuraOutcome))]
#[serde(tag = "aura_result", rename_all = "snake_case")]
pub enum AuraOutcome {
    /// The aura struck back.
    Struck(Box<AuraStrike>),
    /// The attack did not provoke the aura, and why (e.g. a critical melee hit).
    NotProvoked { reason: String },
}
