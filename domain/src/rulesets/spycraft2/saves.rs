//! Saving throws as checks against a DC, feeding the table's Saving Throws rows (spycraft2.txt,
//! "Table: Fluid Initiative Modifiers", "Saving Throws").

use super::fluid::{FluidCode, FluidEntry};
use super::modifier::{Modifier, ModifierCode, total};
use super::state::CombatState;
use super::stats::Stats;
use crate::dice::Dice;
use crate::encounter::EncounterError;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Save))]
#[serde(rename_all = "snake_case")]
pub enum Save {
    Fortitude,
    Reflex,
    Will,
}

/// What the save is against, for the table's rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2SaveAgainst))]
#[serde(rename_all = "snake_case")]
pub enum SaveAgainst {
    /// Any other save: failure costs 2.
    #[default]
    Other,
    /// To avoid gaining a stress condition: failure costs 2 (any save) and 5.
    Stress,
    /// To reduce blast damage: failure costs 2 (any save) and 5.
    Blast,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2SaveReport))]
pub struct SaveReport {
    pub combatant: String,
    pub save: Save,
    pub against: SaveAgainst,
    pub die: u32,
    pub modifiers: Vec<Modifier>,
    pub total: i32,
    pub dc: i32,
    pub success: bool,
    /// The rows a failure recorded on the character's Count.
    pub fluid: Vec<FluidEntry>,
}

/// One saving throw to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveCheck {
    pub save: Save,
    pub against: SaveAgainst,
    pub dc: i32,
    /// The caller's modifiers.
    pub modifiers: Vec<Modifier>,
}

/// Rolls 1d20 + the save bonus + modifiers against `dc`; a failure records "fails any saving
/// throw" (−2) and, for a stress or blast save, its own row (−5) as well: only the Injuries rows
/// carry the note that they do not stack.
pub fn roll(
    name: &str,
    stats: &Stats,
    state: &mut CombatState,
    check: SaveCheck,
    dice: &mut Dice,
) -> Result<SaveReport, EncounterError> {
    let SaveCheck { save, against, dc, modifiers: extra } = check;
    let die = dice.roll(20, format!("{} save: {name}", label(save)))?;
    let bonus = match save {
        Save::Fortitude => stats.fortitude,
        Save::Reflex => stats.reflex,
        Save::Will => stats.will,
    };
    let mut modifiers =
        vec![Modifier::new(ModifierCode::SaveBonus, bonus.get(), format!("{} bonus", label(save)))];
    modifiers.extend(extra);
    let total = die as i32 + total(&modifiers);
    let success = total >= dc;
    let mut fluid = Vec::new();
    if !success {
        let mut rows =
            vec![FluidEntry::new(FluidCode::FailedSave, -2, format!("failed a {} save", label(save)))];
        match against {
            SaveAgainst::Stress => rows.push(FluidEntry::new(
                FluidCode::FailedStressSave,
                -5,
                "failed a save to avoid a stress condition",
            )),
            SaveAgainst::Blast => rows.push(FluidEntry::new(
                FluidCode::FailedBlastSave,
                -5,
                "failed a save to reduce blast damage",
            )),
            SaveAgainst::Other => {}
        }
        for entry in rows {
            if state.record(entry.clone(), None)? {
                fluid.push(entry);
            }
        }
    }
    Ok(SaveReport { combatant: name.to_owned(), save, against, die, modifiers, total, dc, success, fluid })
}

fn label(save: Save) -> &'static str {
    match save {
        Save::Fortitude => "Fortitude",
        Save::Reflex => "Reflex",
        Save::Will => "Will",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Score;

    fn check(save: Save, against: SaveAgainst, dc: i32) -> SaveCheck {
        SaveCheck { save, against, dc, modifiers: Vec::new() }
    }

    #[test]
    fn a_failed_stress_save_costs_two_and_five() {
        // Will +3, die 8 → 11 against DC 15: failed → −2 (any save) and −5 (stress).
        let mut stats = Stats::with_initiative_bonus(Score::new(0).unwrap());
        stats.will = Score::new(3).unwrap();
        let mut state = CombatState::default();
        let mut dice = Dice::scripted(vec![8], 0).unwrap();
        let report =
            roll("Ana", &stats, &mut state, check(Save::Will, SaveAgainst::Stress, 15), &mut dice).unwrap();
        assert_eq!((report.total, report.success), (11, false));
        assert_eq!(state.fluid.iter().map(|e| e.value).collect::<Vec<_>>(), vec![-2, -5]);
    }

    #[test]
    fn meeting_the_dc_saves_and_an_ordinary_failure_costs_two() {
        // Reflex +2, die 13 → 15 against DC 15: saved, nothing recorded. Die 12 → 14: −2 only.
        let mut stats = Stats::with_initiative_bonus(Score::new(0).unwrap());
        stats.reflex = Score::new(2).unwrap();
        let mut state = CombatState::default();
        let mut dice = Dice::scripted(vec![13, 12], 0).unwrap();
        let saved =
            roll("Bo", &stats, &mut state, check(Save::Reflex, SaveAgainst::Other, 15), &mut dice).unwrap();
        assert!(saved.success && saved.fluid.is_empty());
        let failed =
            roll("Bo", &stats, &mut state, check(Save::Reflex, SaveAgainst::Blast, 15), &mut dice).unwrap();
        assert_eq!(failed.fluid.iter().map(|e| e.value).collect::<Vec<_>>(), vec![-2, -5]);
        let mut other = CombatState::default();
        let mut dice = Dice::scripted(vec![1], 0).unwrap();
        let plain = roll("Bo", &stats, &mut other, check(Save::Fortitude, SaveAgainst::Other, 10), &mut dice)
            .unwrap();
        assert_eq!(plain.fluid.iter().map(|e| e.value).collect::<Vec<_>>(), vec![-2]);
    }
}
