//! What a check adds up besides the die: the four abilities and their modifiers, the modifier
//! families (arrgs.txt, "Skill Checks"), the kinds of check ARRGS combat uses ("Attack",
//! "Defence", "Movement") and a stat block's standing modifiers for each kind.

use crate::score::Score;
use serde::{Deserialize, Serialize};

/// A modifier of one family to a check.
pub type Bonus = Score<-50, 50>;
/// An ability modifier.
pub type AbilityModifier = Score<-20, 20>;

/// The four abilities whose modifiers feed checks (arrgs.txt, "Attack", "Defence").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAbility))]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    Body,
    Agility,
    Intellect,
    Personality,
}

/// The ability modifiers (not the scores).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAbilities))]
#[serde(deny_unknown_fields)]
pub struct Abilities {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<AbilityModifier>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agility: Option<AbilityModifier>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intellect: Option<AbilityModifier>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub personality: Option<AbilityModifier>,
}

impl Abilities {
    pub fn of(&self, ability: Ability) -> i32 {
        let value = match ability {
            Ability::Body => self.body,
            Ability::Agility => self.agility,
            Ability::Intellect => self.intellect,
            Ability::Personality => self.personality,
        };
        value.map_or(0, Score::get)
    }
}

/// The modifier families of a check besides the ability (arrgs.txt, "Skill Checks": Skill,
/// Inherent, Augmented, Assisted, Magic, Tech, Circumstance). Each defaults to 0.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsBonuses))]
#[serde(deny_unknown_fields)]
pub struct Bonuses {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<Bonus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inherent: Option<Bonus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub augmented: Option<Bonus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assisted: Option<Bonus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub magic: Option<Bonus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tech: Option<Bonus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub circumstance: Option<Bonus>,
}

/// The kinds of check ARRGS combat uses (arrgs.txt, "Attack", "Defence", "Movement").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsCheckKind))]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    /// Melee Attack: Body and Melee Weaponry.
    Melee,
    /// Ranged Attack (and Missile Weaponry checks): Agility and Missile Weapon.
    Ranged,
    /// Spell Attack: Intellect (or Personality) and Arcane, Nature or Religion.
    Spell,
    /// Fortitude Defence: Body and Athletics.
    Fortitude,
    /// Reflex Defence: Agility and Athletics.
    Reflex,
    /// Willpower Defence: Personality and Discipline.
    Willpower,
    /// Movement (Athletics); Body is used as its ability.
    Athletics,
    /// Any other skill (Ride, a skill being aided, a GM's check): the request gives the numbers.
    Other,
}

impl CheckKind {
    /// The ability a check of this kind usually uses (arrgs.txt, "Attack", "Defence").
    pub fn usual_ability(self) -> Option<Ability> {
        match self {
            Self::Melee | Self::Fortitude | Self::Athletics => Some(Ability::Body),
            Self::Ranged | Self::Reflex => Some(Ability::Agility),
            Self::Spell => Some(Ability::Intellect),
            Self::Willpower => Some(Ability::Personality),
            Self::Other => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Melee => "melee attack",
            Self::Ranged => "ranged attack",
            Self::Spell => "spell attack",
            Self::Fortitude => "Fortitude",
            Self::Reflex => "Reflex",
            Self::Willpower => "Willpower",
            Self::Athletics => "Athletics",
            Self::Other => "skill",
        }
    }
}

/// The character's standing modifiers for each kind of check.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsChecks))]
#[serde(deny_unknown_fields)]
pub struct Checks {
    #[serde(default, skip_serializing_if = "is_empty")]
    pub melee: Bonuses,
    #[serde(default, skip_serializing_if = "is_empty")]
    pub ranged: Bonuses,
    #[serde(default, skip_serializing_if = "is_empty")]
    pub spell: Bonuses,
    #[serde(default, skip_serializing_if = "is_empty")]
    pub fortitude: Bonuses,
    #[serde(default, skip_serializing_if = "is_empty")]
    pub reflex: Bonuses,
    #[serde(default, skip_serializing_if = "is_empty")]
    pub willpower: Bonuses,
    #[serde(default, skip_serializing_if = "is_empty")]
    pub athletics: Bonuses,
}

fn is_empty(bonuses: &Bonuses) -> bool {
    *bonuses == Bonuses::default()
}

impl Checks {
    pub fn of(&self, kind: CheckKind) -> Option<&Bonuses> {
        match kind {
            CheckKind::Melee => Some(&self.melee),
            CheckKind::Ranged => Some(&self.ranged),
            CheckKind::Spell => Some(&self.spell),
            CheckKind::Fortitude => Some(&self.fortitude),
            CheckKind::Reflex => Some(&self.reflex),
            CheckKind::Willpower => Some(&self.willpower),
            CheckKind::Athletics => Some(&self.athletics),
            CheckKind::Other => None,
        }
    }
}
