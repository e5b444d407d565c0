//! The Cepheus Engine stat block: the six characteristics of the Universal Personality Profile
//! and what a fight changes (cepheus-engine.txt, "Characteristics", "Damage").

use super::{character, skills, stats_input};
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// A characteristic value (0–30 covers humans, aliens and robots).
pub type Characteristic = Score<0, 30>;

/// The six characteristics of the Universal Personality Profile, plus the optional state a fight
/// changes (see `character.rs`): read through `stats_input::StatsInput`, which refuses unknown
/// fields and damage beyond a characteristic; fields at their default are not written out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineStats))]
#[serde(try_from = "stats_input::StatsInput")]
pub struct Stats {
    pub str: Characteristic,
    pub dex: Characteristic,
    pub end: Characteristic,
    pub int: Characteristic,
    pub edu: Characteristic,
    pub soc: Characteristic,
    /// Skill levels by normalised name; none by default.
    #[serde(skip_serializing_if = "skills::Skills::is_empty")]
    pub skills: skills::Skills,
    /// Armour rating; 0 by default.
    #[serde(skip_serializing_if = "character::is_no_armour")]
    pub armour: character::Armour,
    /// Damage taken by STR, DEX and END; none by default.
    #[serde(skip_serializing_if = "character::Damage::is_none")]
    pub damage: character::Damage,
    /// −2 to all checks until rested; false by default.
    #[serde(skip_serializing_if = "character::is_false")]
    pub fatigued: bool,
    /// Unconscious for a reason other than damage (fatigue on fatigue); false by default.
    #[serde(skip_serializing_if = "character::is_false")]
    pub knocked_out: bool,
    /// A vehicle, robot or drone target: its Hull, Structure, systems and occupants
    /// (`vehicle_block.rs`); absent for a character.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vehicle: Option<super::vehicle_block::Vehicle>,
}

/// The characteristic DM from the Cepheus Engine SRD table, which the combat text relies on
/// ("Dexterity DM") without reprinting: 0 → −3, 1–2 → −2, 3–5 → −1, 6–8 → 0, 9–11 → +1,
/// 12–14 → +2, 15+ → +3.
pub fn characteristic_dm(value: Characteristic) -> i32 {
    match value.get() {
        0 => -3,
        1..=2 => -2,
        3..=5 => -1,
        6..=8 => 0,
        9..=11 => 1,
        12..=14 => 2,
        _ => 3,
    }
}
