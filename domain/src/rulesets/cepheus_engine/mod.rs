//! Cepheus Engine, Personal Combat (shared/rules/cepheus-engine.txt).

pub mod allocation;
pub mod attack;
pub mod attack_damage;
pub mod attack_difficulty;
pub mod attack_miss;
pub mod attack_modifiers;
pub mod attack_request;
pub mod attack_roll;
pub mod blind_fire;
pub mod burst;
pub mod character;
pub mod circumstances;
pub mod collision;
pub mod conditions;
pub mod cover;
pub mod damage;
pub mod difficulty;
pub mod economy;
pub mod dynamic;
pub mod explosion;
pub mod fatigue;
pub mod grapple;
pub mod modifier;
pub mod commands;
pub mod opposed;
pub mod outcome;
pub mod range;
pub mod reactions;
pub mod skill;
pub mod skills;
pub mod stance;
pub mod stats_input;

pub mod status_effects;
pub mod suppression;
pub mod vehicle;
pub mod vehicle_damage;
pub mod vehicle_location;
pub mod weapon;
mod plugin;

pub use dynamic::CombatState;
pub use plugin::{CepheusEngine, Report};

use super::{InitiativeContext, InitiativeRoll, RuleError, TiePolicy};
use crate::dice::Dice;
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
}

/// Tied combatants act together (cepheus-engine.txt, "The Combat Round": still tied after
/// Dexterity → act simultaneously).
pub const TIE_POLICY: TiePolicy = TiePolicy::Simultaneous;

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

/// Initiative (cepheus-engine.txt, "Initiative" and "Personal Combat Checklist" step 1): 2D6 + DEX DM;
/// in an ambush (some but not all aware) the aware take an automatic 12 + DEX DM.
pub fn roll_initiative(
    stats: &Stats,
    context: InitiativeContext,
    dice: &mut Dice,
    purpose: &str,
) -> Result<InitiativeRoll, RuleError> {
    let dm = characteristic_dm(stats.dex);
    if context.ambush && !context.surprised {
        let score = 12 + dm;
        return Ok(InitiativeRoll {
            score,
            explanation: format!("ambush: automatic 12 + DEX DM {dm:+} = {score}"),
        });
    }
    let first = dice.roll(6, purpose)?;
    let second = dice.roll(6, purpose)?;
    let score = first as i32 + second as i32 + dm;
    Ok(InitiativeRoll { score, explanation: format!("2D6 ({first}+{second}) + DEX DM {dm:+} = {score}") })
}

/// Ties go to the higher Dexterity (cepheus-engine.txt, "The Combat Round").
pub fn tie_keys(stats: &Stats) -> Vec<i32> {
    vec![stats.dex.get()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(dex: i64) -> Stats {
        let c = |v| Characteristic::new(v).unwrap();
        Stats::with_characteristics(c(7), c(dex), c(7), c(7), c(7), c(7))
    }

    #[test]
    fn dm_table_matches_the_srd_at_every_boundary() {
        let table = [
            (0, -3),
            (1, -2),
            (2, -2),
            (3, -1),
            (5, -1),
            (6, 0),
            (8, 0),
            (9, 1),
            (11, 1),
            (12, 2),
            (14, 2),
            (15, 3),
            (30, 3),
        ];
        for (value, dm) in table {
            let value: i64 = value;
            assert_eq!(characteristic_dm(Characteristic::new(value).unwrap()), dm, "DEX {value}");
        }
    }

    #[test]
    fn initiative_is_2d6_plus_dex_dm() {
        // DEX 9 → DM +1; dice 4 and 3 → 4 + 3 + 1 = 8.
        let mut dice = Dice::scripted(vec![4, 3], 0).unwrap();
        let roll = roll_initiative(&stats(9), InitiativeContext::default(), &mut dice, "initiative").unwrap();
        assert_eq!(roll.score, 8);
        assert_eq!(dice.rolls().len(), 2);
    }

    #[test]
    fn aware_side_of_an_ambush_takes_automatic_12() {
        // DEX 4 → DM −1: 12 − 1 = 11, no dice rolled.
        let mut dice = Dice::scripted(vec![], 0).unwrap();
        let context = InitiativeContext { ambush: true, surprised: false };
        let roll = roll_initiative(&stats(4), context, &mut dice, "initiative").unwrap();
        assert_eq!(roll.score, 11);
        assert!(dice.rolls().is_empty());
    }

    #[test]
    fn surprised_side_of_an_ambush_rolls_normally() {
        // DEX 12 → DM +2; dice 1 and 1 → 4.
        let mut dice = Dice::scripted(vec![1, 1], 0).unwrap();
        let context = InitiativeContext { ambush: true, surprised: true };
        assert_eq!(roll_initiative(&stats(12), context, &mut dice, "i").unwrap().score, 4);
    }
}

#[cfg(test)]
mod dynamic_tests;
