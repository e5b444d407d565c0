//! Step 6: fluid initiative (spycraft2.txt, "Step 6: Fluid Initiative Modifiers" and its table).
//!
//! During a round each event of the table is recorded on the character as a [`FluidEntry`];
//! at the end of the round [`settle`] turns them into the new Initiative Count: the table's
//! entries together move the Count by at most +10 / −10, Press moves it freely, and then a
//! Count of 50+ demands a Press next round while a Count of 0 or less sends the character
//! reeling, makes it flat-footed and raises the Count by 20 or to 1, whichever is higher.

use serde::{Deserialize, Serialize};

/// The most a round's table modifiers may raise or lower a Count (Press excepted).
pub const ROUND_CAP: i32 = 10;
/// A Count at or above this forces a Press as the next round's first action.
pub const PRESS_THRESHOLD: i32 = 50;
/// Most entries one character may collect in a round (a bound on stored state).
pub const MAX_ENTRIES_PER_ROUND: usize = 200;

/// A row of Table: Fluid Initiative Modifiers (plus Press and other abilities).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2FluidCode))]
#[serde(rename_all = "snake_case")]
pub enum FluidCode {
    /// Actions: Aim, +1.
    Aim,
    /// Actions: Brace, +1.
    Brace,
    /// Actions: Regroup, +5 plus the Intelligence modifier.
    Regroup,
    /// Attacks and Movement: Speed reduced by terrain while moving, −2.
    Terrain,
    /// Attacks and Movement: fires a tactical weapon, −2.
    TacticalWeapon,
    /// Attacks and Movement: uses a weapon without its proficiency, −4 once per weapon per round.
    NonProficientWeapon,
    /// Attacks and Movement: takes a final attack, −2 per attack.
    FinalAttack,
    /// Attacks and Movement: critical miss or failure, −2 per Action Die spent.
    CriticalMiss,
    /// Attacks and Movement: scores a Triumph, +10.
    Triumph,
    /// Conditions: bleeding, −1 (once per round).
    Bleeding,
    /// Conditions: fatigued during the round, −3 (once per round).
    Fatigued,
    /// Conditions: exhausted during the round, −10 (once per round).
    Exhausted,
    /// Conditions: suffers a critical injury, −10 (once per round).
    CriticalInjury,
    /// Injuries: loses 1 or more wounds, −2 (not with a critical hit on the same injury).
    WoundsLost,
    /// Injuries: suffers a critical hit and loses 1 or more wounds, −5.
    CriticalHit,
    /// Injuries: suffers electrical damage; the amount is the caller's (the text defers it).
    Electrical,
    /// Saving Throws: fails any saving throw, −2.
    FailedSave,
    /// Saving Throws: fails a save against a stress condition, −5.
    FailedStressSave,
    /// Saving Throws: fails a save to reduce blast damage, −5.
    FailedBlastSave,
    /// Another ability, feat or effect that moves the Count (caller's amount, within the cap).
    Ability,
    /// The Press action: the one modifier outside the ±10 cap (caller's amount).
    Press,
}

impl FluidCode {
    /// Condition rows apply at most once per round, even if the condition ended during it
    /// (the table's † note).
    pub fn once_per_round(self) -> bool {
        matches!(self, Self::Bleeding | Self::Fatigued | Self::Exhausted | Self::CriticalInjury)
    }
}

/// One recorded event of the table: the row, its Count modifier and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2FluidEntry))]
pub struct FluidEntry {
    pub code: FluidCode,
    pub value: i32,
    pub reason: String,
}

impl FluidEntry {
    pub fn new(code: FluidCode, value: i32, reason: impl Into<String>) -> Self {
        Self { code, value, reason: reason.into() }
    }

    pub fn aim() -> Self {
        Self::new(FluidCode::Aim, 1, "aimed")
    }
    pub fn brace() -> Self {
        Self::new(FluidCode::Brace, 1, "braced")
    }
    /// Regroup: +5 plus the Intelligence modifier.
    pub fn regroup(int_modifier: i32) -> Self {
        Self::new(
            FluidCode::Regroup,
            5 + int_modifier,
            format!("regrouped (+5, Int modifier {int_modifier:+})"),
        )
    }
    pub fn terrain() -> Self {
        Self::new(FluidCode::Terrain, -2, "moved with Speed reduced by terrain")
    }
    pub fn tactical(weapon: &str) -> Self {
        Self::new(FluidCode::TacticalWeapon, -2, format!("fired a tactical weapon ({weapon})"))
    }
    pub fn non_proficient(weapon: &str) -> Self {
        Self::new(FluidCode::NonProficientWeapon, -4, format!("used {weapon} without its proficiency"))
    }
    pub fn final_attack() -> Self {
        Self::new(FluidCode::FinalAttack, -2, "took a final attack")
    }
    /// −2 per Action Die spent on the critical miss or failure.
    pub fn critical_miss(action_dice: i32) -> Self {
        let value = action_dice.saturating_mul(-2);
        Self::new(FluidCode::CriticalMiss, value, format!("critical miss ({action_dice} Action Dice spent)"))
    }
    pub fn triumph() -> Self {
        Self::new(FluidCode::Triumph, 10, "scored a Triumph")
    }
    pub fn wounds_lost(wounds: i32) -> Self {
        Self::new(FluidCode::WoundsLost, -2, format!("lost {wounds} wounds"))
    }
    pub fn critical_hit(wounds: i32) -> Self {
        Self::new(FluidCode::CriticalHit, -5, format!("suffered a critical hit and lost {wounds} wounds"))
    }
    pub fn electrical(value: i32, points: i32) -> Self {
        Self::new(FluidCode::Electrical, value, format!("suffered {points} points of electrical damage"))
    }
}

/// A condition whose table row applies once per round while (or after) the character has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Condition))]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    Bleeding,
    Fatigued,
    Exhausted,
}

impl Condition {
    pub fn entry(self) -> FluidEntry {
        match self {
            Self::Bleeding => FluidEntry::new(FluidCode::Bleeding, -1, "bleeding this round"),
            Self::Fatigued => FluidEntry::new(FluidCode::Fatigued, -3, "fatigued during the round"),
            Self::Exhausted => FluidEntry::new(FluidCode::Exhausted, -10, "exhausted during the round"),
        }
    }
}

/// What the end of the round did besides moving the Count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2CountConsequence))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CountConsequence {
    /// Nothing beyond the new Count.
    None,
    /// The Count is 50 or more: the first action next round must be a Press.
    PressRequired,
    /// The Count fell to 0 or less: reeling, then flat-footed, then the Count rises by 20 or to
    /// 1, whichever is higher (`from` is the Count before that rise).
    Reeling { from: i32, raised_to: i32 },
}

/// How one character's Count changed at the end of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2CountChange))]
pub struct CountChange {
    pub combatant_id: String,
    pub name: String,
    pub from: i32,
    /// Every recorded row, in the order it happened.
    pub entries: Vec<FluidEntry>,
    /// The table rows' sum, before the cap.
    pub table_total: i32,
    /// That sum held to −10..=+10.
    pub capped_total: i32,
    /// Press actions' changes, outside the cap.
    pub press_total: i32,
    pub consequence: CountConsequence,
    pub to: i32,
}

/// The new Count from the old one and the round's entries (pure; see the module comment).
pub fn settle(from: i32, entries: &[FluidEntry]) -> (i32, i32, i32, CountConsequence, i32) {
    let (press, table): (Vec<&FluidEntry>, Vec<&FluidEntry>) =
        entries.iter().partition(|entry| entry.code == FluidCode::Press);
    let table_total: i32 = table.iter().map(|entry| entry.value).sum();
    let press_total: i32 = press.iter().map(|entry| entry.value).sum();
    let capped_total = table_total.clamp(-ROUND_CAP, ROUND_CAP);
    let moved = from.saturating_add(capped_total).saturating_add(press_total);
    let (consequence, to) = if moved >= PRESS_THRESHOLD {
        (CountConsequence::PressRequired, moved)
    } else if moved <= 0 {
        let raised = moved.saturating_add(20).max(1);
        (CountConsequence::Reeling { from: moved, raised_to: raised }, raised)
    } else {
        (CountConsequence::None, moved)
    };
    (table_total, capped_total, press_total, consequence, to)
}

#[cfg(test)]
#[path = "fluid_tests.rs"]
mod tests;
