//! A character's current physical state: armour, damage taken, skills and fatigue
//! (cepheus-engine.txt, "Damage", "Table: Damage Results", "Armor", "Fatigue", "Unconsciousness"
//! and "Injury and Recovery").
//!
//! Decisions:
//! - The stat block stores the damage each physical characteristic has taken, not its current
//!   value, so the six characteristics stay the character's maximums. Current value =
//!   characteristic − damage. Damage may not exceed the characteristic; a stat block that breaks
//!   this is refused when read (`stats_input.rs`).
//! - Every field added to the six characteristics is optional in JSON: `skills` defaults to none,
//!   `armour` to 0, `damage` to 0 in each of `str`, `dex`, `end`, and `fatigued` and `knocked_out`
//!   to false. Fields at their default are left out when the stat block is written back, so a
//!   block of only the six characteristics reads and writes unchanged.
//! - `knocked_out` means unconscious for a reason other than damage. Today only fatigue sets it
//!   (`fatigue.rs`). It makes the status Unconscious unless the damage makes it Dead.
//! - "Has been damaged" means some damage is recorded now. A character healed back to full counts
//!   as undamaged again, so the first-damage rule applies to their next hit.
//! - The Damage Results table decides the status, as in `damage.rs`. A characteristic whose
//!   maximum is 0 (the stat block allows 0) counts as at zero but never as damaged; `damage.rs`
//!   refuses such maximums, so that case is counted here by the same table.
//! - DMs from a damaged characteristic use its current value: a wounded character's Dexterity DM
//!   drops as Dexterity does ("Natural Healing" expects injury to lower the Endurance DM).
//!   `roll_initiative` and `tie_keys` in `mod.rs` still read the undamaged Dexterity.
//! - Armour is a single rating from 0 to 50 that is subtracted from each hit (`damage::apply_armour`).

use super::damage::{Status, damage_status};
use super::skill::UNSKILLED_DM;
use super::skills::Skills;
use super::{Characteristic, Stats, characteristic_dm};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// A physical characteristic: the three that take damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEnginePhysical))]
#[serde(rename_all = "lowercase")]
pub enum Physical {
    Str,
    Dex,
    End,
}

impl Physical {
    /// In the order `damage.rs` uses: `[str, dex, end]`.
    pub const ALL: [Physical; 3] = [Physical::Str, Physical::Dex, Physical::End];

    /// The JSON field name: "str", "dex" or "end".
    pub fn field(self) -> &'static str {
        match self {
            Physical::Str => "str",
            Physical::Dex => "dex",
            Physical::End => "end",
        }
    }

    /// The full name for messages: "Strength", "Dexterity" or "Endurance".
    pub fn name(self) -> &'static str {
        match self {
            Physical::Str => "Strength",
            Physical::Dex => "Dexterity",
            Physical::End => "Endurance",
        }
    }
}

/// An armour rating (0–50).
pub type Armour = Score<0, 50>;

/// Points of damage taken by one characteristic (0–30, never more than the characteristic).
pub type DamagePoints = Score<0, 30>;

/// Damage taken so far by each physical characteristic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDamage))]
#[serde(deny_unknown_fields)]
pub struct Damage {
    #[serde(default = "zero")]
    pub str: DamagePoints,
    #[serde(default = "zero")]
    pub dex: DamagePoints,
    #[serde(default = "zero")]
    pub end: DamagePoints,
}

impl Default for Damage {
    fn default() -> Self {
        Self { str: zero(), dex: zero(), end: zero() }
    }
}

impl Damage {
    /// The points one characteristic has taken.
    pub fn of(&self, physical: Physical) -> i32 {
        match physical {
            Physical::Str => self.str.get(),
            Physical::Dex => self.dex.get(),
            Physical::End => self.end.get(),
        }
    }

    /// No damage recorded at all.
    pub fn is_none(&self) -> bool {
        Physical::ALL.iter().all(|physical| self.of(*physical) == 0)
    }

    pub(super) fn slot(&mut self, physical: Physical) -> &mut DamagePoints {
        match physical {
            Physical::Str => &mut self.str,
            Physical::Dex => &mut self.dex,
            Physical::End => &mut self.end,
        }
    }
}

/// Zero for any score whose range starts at 0.
pub(super) fn zero<const MAX: i32>() -> Score<0, MAX> {
    Score::new(0).unwrap_or_else(|_| unreachable!("0 lies in 0..={MAX}"))
}

pub(super) fn is_no_armour(armour: &Armour) -> bool {
    armour.get() == 0
}

pub(super) fn is_false(flag: &bool) -> bool {
    !*flag
}

impl Stats {
    /// A stat block with these six characteristics, no skills, no armour, no damage and no
    /// fatigue.
    pub fn with_characteristics(
        str: Characteristic,
        dex: Characteristic,
        end: Characteristic,
        int: Characteristic,
        edu: Characteristic,
        soc: Characteristic,
    ) -> Self {
        Self {
            str,
            dex,
            end,
            int,
            edu,
            soc,
            skills: Skills::default(),
            armour: zero(),
            damage: Damage::default(),
            fatigued: false,
            knocked_out: false,
            vehicle: None,
        }
    }

    /// The undamaged value of a physical characteristic.
    pub fn maximum(&self, physical: Physical) -> i32 {
        match physical {
            Physical::Str => self.str.get(),
            Physical::Dex => self.dex.get(),
            Physical::End => self.end.get(),
        }
    }

    /// The characteristic less the damage it has taken, never below 0 (cepheus-engine.txt,
    /// "Damage": damage comes off the characteristics themselves).
    pub fn current(&self, physical: Physical) -> i32 {
        (self.maximum(physical) - self.damage.of(physical)).max(0)
    }

    /// The characteristic DM of the current, damaged value (cepheus-engine.txt, "Natural
    /// Healing" treats a low Endurance DM as a likely result of injury).
    pub fn current_dm(&self, physical: Physical) -> i32 {
        Characteristic::new(i64::from(self.current(physical))).map_or(-3, characteristic_dm)
    }

    /// The level of a skill by any spelling of its name; `None` when unskilled.
    pub fn skill_level(&self, name: &str) -> Option<i32> {
        self.skills.level(name)
    }

    /// The DM a skill adds to a check: its level, or −3 when the character has no level in it
    /// (the SRD's unskilled DM, as cepheus-engine.txt "Fighting in Zero Gravity" relies on).
    pub fn skill_dm(&self, name: &str) -> i32 {
        self.skill_level(name).unwrap_or(UNSKILLED_DM)
    }

    /// Whether any damage is recorded (cepheus-engine.txt, "Damage": after that, hits are split
    /// freely).
    pub fn has_been_damaged(&self) -> bool {
        !self.damage.is_none()
    }

    /// Uninjured to dead from the damage taken, per the Damage Results table; a knocked-out
    /// character who is not dead is unconscious (cepheus-engine.txt, "Damage", "Fatigue").
    pub fn status(&self) -> Status {
        let from_damage = wound_status(self.physical(Stats::maximum), self.physical(Stats::current));
        if self.knocked_out && from_damage != Status::Dead { Status::Unconscious } else { from_damage }
    }

    fn physical(&self, value: fn(&Stats, Physical) -> i32) -> [i32; 3] {
        Physical::ALL.map(|physical| value(self, physical))
    }
}

fn wound_status(max: [i32; 3], current: [i32; 3]) -> Status {
    damage_status(max, current).unwrap_or_else(|_| zero_maximum_status(max, current))
}

/// The Damage Results table when a maximum is 0: that characteristic is at zero, not damaged.
fn zero_maximum_status(max: [i32; 3], current: [i32; 3]) -> Status {
    let at_zero = current.iter().filter(|value| **value <= 0).count();
    let damaged = current.iter().zip(max).filter(|(now, full)| **now < *full).count();
    match (at_zero, damaged) {
        (3.., _) => Status::Dead,
        (2, _) => Status::Unconscious,
        (_, 3) => Status::SeriouslyWounded,
        (_, 0) => Status::Uninjured,
        _ => Status::Wounded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::cepheus_engine::skills::SkillLevel;
    use std::collections::BTreeMap;

    fn c(value: i64) -> Characteristic {
        Characteristic::new(value).unwrap()
    }

    /// STR 7, DEX 8, END 9, the rest 7, with this much damage.
    fn hurt(str: i64, dex: i64, end: i64) -> Stats {
        let mut stats = Stats::with_characteristics(c(7), c(8), c(9), c(7), c(7), c(7));
        stats.damage = Damage {
            str: Score::new(str).unwrap(),
            dex: Score::new(dex).unwrap(),
            end: Score::new(end).unwrap(),
        };
        stats
    }

    #[test]
    fn current_is_characteristic_less_damage() {
        let stats = hurt(2, 0, 9);
        // 7 − 2 = 5; 8 − 0 = 8; 9 − 9 = 0.
        assert_eq!(stats.current(Physical::Str), 5);
        assert_eq!(stats.current(Physical::Dex), 8);
        assert_eq!(stats.current(Physical::End), 0);
        assert_eq!(stats.maximum(Physical::End), 9);
    }

    #[test]
    fn current_dm_follows_the_damaged_value() {
        // DEX 8 → DM 0; after 4 damage DEX 4 → DM −1; END 9 − 9 = 0 → DM −3.
        let stats = hurt(0, 4, 9);
        assert_eq!(characteristic_dm(c(8)), 0);
        assert_eq!(stats.current_dm(Physical::Dex), -1);
        assert_eq!(stats.current_dm(Physical::End), -3);
    }

    #[test]
    fn skill_dm_is_the_level_or_minus_three() {
        let mut stats = hurt(0, 0, 0);
        let levels: BTreeMap<String, SkillLevel> = [
            ("Gun Combat".to_owned(), Score::new(2).unwrap()),
            ("Zero-G".to_owned(), Score::new(0).unwrap()),
        ]
        .into();
        stats.skills = Skills::try_from(levels).unwrap();
        assert_eq!(stats.skill_level("gun_combat"), Some(2));
        assert_eq!(stats.skill_dm("GUN COMBAT"), 2);
        // Level 0 is trained: DM +0, not −3.
        assert_eq!(stats.skill_dm("zero-g"), 0);
        assert_eq!(stats.skill_level("Melee Combat"), None);
        assert_eq!(stats.skill_dm("Melee Combat"), -3);
    }

    #[test]
    fn status_follows_the_damage_results_table() {
        assert_eq!(hurt(0, 0, 0).status(), Status::Uninjured);
        assert!(!hurt(0, 0, 0).has_been_damaged());
        assert_eq!(hurt(0, 0, 3).status(), Status::Wounded);
        assert!(hurt(0, 0, 3).has_been_damaged());
        // One point off each of the three → seriously wounded.
        assert_eq!(hurt(1, 1, 1).status(), Status::SeriouslyWounded);
        // END 9 − 9 = 0 and STR 7 − 7 = 0: two at zero → unconscious.
        assert_eq!(hurt(7, 0, 9).status(), Status::Unconscious);
        assert_eq!(hurt(7, 8, 9).status(), Status::Dead);
    }

    #[test]
    fn knocked_out_is_unconscious_unless_dead() {
        let mut stats = hurt(0, 0, 0);
        stats.knocked_out = true;
        assert_eq!(stats.status(), Status::Unconscious);
        let mut dead = hurt(7, 8, 9);
        dead.knocked_out = true;
        assert_eq!(dead.status(), Status::Dead);
    }

    #[test]
    fn a_zero_maximum_counts_as_at_zero_but_not_damaged() {
        let mut stats = Stats::with_characteristics(c(7), c(0), c(9), c(7), c(7), c(7));
        // DEX 0 from the start, nothing taken: one at zero, none damaged → uninjured.
        assert_eq!(stats.status(), Status::Uninjured);
        stats.damage.end = Score::new(3).unwrap();
        assert_eq!(stats.status(), Status::Wounded);
        // END 9 − 9 = 0 plus DEX 0 → two at zero → unconscious.
        stats.damage.end = Score::new(9).unwrap();
        assert_eq!(stats.status(), Status::Unconscious);
        stats.damage.str = Score::new(7).unwrap();
        assert_eq!(stats.status(), Status::Dead);
    }
}
