//! Builders for the operations tests.

use super::super::skills::{SkillLevel, Skills};
pub use super::super::economy;
use super::super::{Characteristic, CombatState, Stats};
use crate::dice::Dice;
use crate::encounter::test_support::{add, encounter, fix, id};
use crate::encounter::{Advance, Encounter, EncounterError, advance};
use crate::rulesets::{RulesetId, RulesetState, StatBlock};
use crate::score::Score;
use std::collections::BTreeMap;

pub fn stats(str: i64, dex: i64, end: i64, skills: &[(&str, i64)]) -> Stats {
    let c = |v| Characteristic::new(v).unwrap();
    let mut stats = Stats::with_characteristics(c(str), c(dex), c(end), c(7), c(7), c(7));
    let levels: BTreeMap<String, SkillLevel> =
        skills.iter().map(|(name, level)| ((*name).to_string(), Score::new(*level).unwrap())).collect();
    stats.skills = Skills::try_from(levels).unwrap();
    stats
}

/// Ana STR 7 DEX 9 END 7 (initiative 10), Bo 7/7/7 (8), Cy 7/4/7 (6); round 1, Ana's turn.
pub fn fight() -> Encounter {
    let mut enc = encounter(RulesetId::CepheusEngine);
    let ana = stats(
        7,
        9,
        7,
        &[("gun_combat", 2), ("melee_combat", 1), ("natural_weapons", 1), ("leadership", 1), ("tactics", 1)],
    );
    add(&mut enc, "Ana", StatBlock::CepheusEngine(ana));
    add(&mut enc, "Bo", StatBlock::CepheusEngine(stats(7, 7, 7, &[("mechanic", 1)])));
    add(&mut enc, "Cy", StatBlock::CepheusEngine(stats(7, 4, 7, &[])));
    fix(&mut enc, &[("Ana", 10), ("Bo", 8), ("Cy", 6)]);
    advance(&mut enc, Advance::NextTurn).unwrap();
    enc
}

pub fn next_turn(enc: &mut Encounter) {
    advance(enc, Advance::NextTurn).unwrap();
}

pub fn dice(script: &[u32]) -> Dice {
    Dice::scripted(script.to_vec(), 0).unwrap()
}

pub fn json<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> T {
    serde_json::from_value(value).unwrap()
}

pub fn state(enc: &Encounter, name: &str) -> CombatState {
    match &enc.combatant(&id(name)).unwrap().state {
        RulesetState::CepheusEngine(state) => state.clone(),
        _ => panic!("not cepheus"),
    }
}

pub fn state_of<'a>(enc: &'a mut Encounter, name: &str) -> &'a mut CombatState {
    match &mut enc.combatant_mut(&id(name)).unwrap().state {
        RulesetState::CepheusEngine(state) => state,
        _ => panic!("not cepheus"),
    }
}

pub fn stats_of(enc: &Encounter, name: &str) -> Stats {
    match &enc.combatant(&id(name)).unwrap().stats {
        StatBlock::CepheusEngine(stats) => stats.clone(),
        _ => panic!("not cepheus"),
    }
}

pub fn stats_mut<'a>(enc: &'a mut Encounter, name: &str) -> &'a mut Stats {
    match &mut enc.combatant_mut(&id(name)).unwrap().stats {
        StatBlock::CepheusEngine(stats) => stats,
        _ => panic!("not cepheus"),
    }
}

pub fn score(enc: &Encounter, name: &str) -> i32 {
    enc.combatant(&id(name)).unwrap().initiative.as_ref().unwrap().score
}

/// Runs a command that must be refused, checks the encounter is unchanged, returns the field.
pub fn refused<T: std::fmt::Debug>(
    enc: &mut Encounter,
    command: impl FnOnce(&mut Encounter) -> Result<T, EncounterError>,
) -> String {
    let before = enc.clone();
    let error = command(enc).unwrap_err();
    assert_eq!(*enc, before, "a refused command changed the encounter");
    match error {
        EncounterError::Invalid { field, .. } => field,
        other => format!("<{other}>"),
    }
}
