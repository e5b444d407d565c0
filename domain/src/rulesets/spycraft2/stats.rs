//! The Spycraft 2.0 stat block: what a client sends for each combatant.
//!
//! Only `initiative_bonus` is required (spycraft2.txt, "Step 3: Initiative Checks"); the rest
//! feed the attack, damage and saving-throw model the chapter's fluid-initiative rows react to
//! (see `docs/rulesets/spycraft2.md`, "Decisions") and default to an unarmoured, unhurt nobody.

use crate::score::Score;
use serde::{Deserialize, Serialize};

/// A bonus or modifier on a d20 check.
pub type Bonus = Score<-50, 50>;
/// A range in feet (visual or hearing range, line of sight).
pub type Feet = Score<0, 100_000>;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Stats))]
#[serde(deny_unknown_fields)]
pub struct Stats {
    /// The character's Initiative bonus (Initiative Count = 1d20 + this).
    pub initiative_bonus: Bonus,
    /// Total attack bonus with the weapon used (added to each attack check); 0 by default.
    #[serde(default = "zero")]
    pub attack_bonus: Bonus,
    /// Defense, as on the character sheet; 10 by default.
    #[serde(default = "ten_defense")]
    pub defense: Score<0, 100>,
    /// The part of Defense a vulnerable (e.g. flat-footed) character loses: a positive Dexterity
    /// bonus plus dodge bonuses; 0 by default. At most `defense`.
    #[serde(default = "zero_defense")]
    pub vulnerable_defense: Score<0, 100>,
    /// Maximum vitality points; 0 by default (damage goes straight to wounds).
    #[serde(default = "zero_points")]
    pub vitality: Score<0, 1000>,
    /// Maximum wound points; 10 by default.
    #[serde(default = "ten_wounds")]
    pub wounds: Score<1, 100>,
    /// Armour damage reduction, subtracted from each damage result; 0 by default.
    #[serde(default = "zero_dr")]
    pub damage_reduction: Score<0, 50>,
    /// Saving throw bonuses; 0 by default.
    #[serde(default = "zero")]
    pub fortitude: Bonus,
    #[serde(default = "zero")]
    pub reflex: Bonus,
    #[serde(default = "zero")]
    pub will: Bonus,
    /// Intelligence modifier, added to the Regroup row of the fluid-initiative table; 0 by default.
    #[serde(default = "zero_int")]
    pub int_modifier: Score<-5, 20>,
    /// Visual range in feet, for the cap on the base encounter distance; unknown by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visual_range_ft: Option<Feet>,
    /// Hearing range in feet, for the same cap; unknown by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hearing_range_ft: Option<Feet>,
    /// Action Dice the character holds when the fight begins (0 to 50); absent: not tracked, and
    /// none may be spent on the Initiative check through the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_dice: Option<Score<0, 50>>,
    /// The character's Action Die; `d4` by default.
    #[serde(default)]
    pub action_die: ActionDie,
}

/// The size of a character's Action Die.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2ActionDie))]
#[serde(rename_all = "snake_case")]
pub enum ActionDie {
    #[default]
    D4,
    D6,
    D8,
    D10,
    D12,
}

impl ActionDie {
    pub fn sides(self) -> u32 {
        match self {
            Self::D4 => 4,
            Self::D6 => 6,
            Self::D8 => 8,
            Self::D10 => 10,
            Self::D12 => 12,
        }
    }
}

fn zero() -> Bonus {
    Score::new(0).unwrap_or_else(|_| unreachable!("0 is in range"))
}
fn zero_defense() -> Score<0, 100> {
    Score::new(0).unwrap_or_else(|_| unreachable!("0 is in range"))
}
fn ten_defense() -> Score<0, 100> {
    Score::new(10).unwrap_or_else(|_| unreachable!("10 is in range"))
}
fn zero_points() -> Score<0, 1000> {
    Score::new(0).unwrap_or_else(|_| unreachable!("0 is in range"))
}
fn ten_wounds() -> Score<1, 100> {
    Score::new(10).unwrap_or_else(|_| unreachable!("10 is in range"))
}
fn zero_dr() -> Score<0, 50> {
    Score::new(0).unwrap_or_else(|_| unreachable!("0 is in range"))
}
fn zero_int() -> Score<-5, 20> {
    Score::new(0).unwrap_or_else(|_| unreachable!("0 is in range"))
}

impl Stats {
    /// A stat block with this Initiative bonus and every other field at its default.
    pub fn with_initiative_bonus(initiative_bonus: Bonus) -> Self {
        Self {
            initiative_bonus,
            attack_bonus: zero(),
            defense: ten_defense(),
            vulnerable_defense: zero_defense(),
            vitality: zero_points(),
            wounds: ten_wounds(),
            damage_reduction: zero_dr(),
            fortitude: zero(),
            reflex: zero(),
            will: zero(),
            int_modifier: zero_int(),
            visual_range_ft: None,
            hearing_range_ft: None,
            action_dice: None,
            action_die: ActionDie::D4,
        }
    }

    /// The highest of this character's visual and hearing ranges, if either is known.
    pub fn farthest_sense_ft(&self) -> Option<i32> {
        [self.visual_range_ft, self.hearing_range_ft].into_iter().flatten().map(Score::get).max()
    }
}
