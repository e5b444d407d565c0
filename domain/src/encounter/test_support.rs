//! Builders for encounter tests.

use super::*;
use crate::dice::Dice;
use crate::rulesets::{RulesetId, StatBlock, adeva_d100, cepheus_engine, lur_asko, spycraft2};
use crate::score::Score;

pub fn encounter(ruleset: RulesetId) -> Encounter {
    Encounter::new(EncounterId("enc".into()), ruleset, "Test".into())
}

pub fn id(name: &str) -> CombatantId {
    CombatantId(name.into())
}

pub fn add(encounter: &mut Encounter, name: &str, stats: StatBlock) {
    let new =
        NewCombatant { id: id(name), name: name.into(), side: "a".into(), stats, flags: Flags::default() };
    add_combatant(encounter, new).unwrap();
}

pub fn cepheus(dex: i64) -> StatBlock {
    let c = |v| Score::new(v).unwrap();
    let stats = cepheus_engine::Stats::with_characteristics(c(7), c(dex), c(7), c(7), c(7), c(7));
    StatBlock::CepheusEngine(stats)
}

pub fn adeva(ag: i64) -> StatBlock {
    let c = |v| Score::new(v).unwrap();
    StatBlock::AdevaD100(adeva_d100::Stats {
        ws: c(30),
        bs: c(30),
        s: c(30),
        t: c(30),
        ag: c(ag),
        int: c(30),
        per: c(30),
        wp: c(30),
        fel: c(30),
        ..Default::default()
    })
}

pub fn spycraft(bonus: i64) -> StatBlock {
    StatBlock::Spycraft2(spycraft2::Stats::with_initiative_bonus(Score::new(bonus).unwrap()))
}

pub fn lur_asko() -> StatBlock {
    StatBlock::LurAsko(lur_asko::Stats::default())
}

/// Rolls initiative for everyone with the given scripted dice.
pub fn roll_all(encounter: &mut Encounter, script: Vec<u32>) -> Vec<Event> {
    let mut dice = Dice::scripted(script, 0).unwrap();
    roll_initiative(encounter, &InitiativeRequest::default(), &mut dice).unwrap()
}

/// Sets fixed initiative values.
pub fn fix(encounter: &mut Encounter, values: &[(&str, i32)]) {
    let fixed = values.iter().map(|(name, value)| (id(name), *value)).collect();
    let request = InitiativeRequest { combatants: Some(Vec::new()), fixed, action_dice: Vec::new() };
    roll_initiative(encounter, &request, &mut Dice::seeded(0)).unwrap();
}

pub fn order_names(encounter: &Encounter) -> Vec<String> {
    turn_order(encounter).into_iter().map(|slot| slot.name).collect()
}

pub fn current_name(encounter: &Encounter) -> Option<String> {
    encounter.current.as_ref().map(|c| encounter.name_of(c))
}

pub fn effect(name: &str, expiry: Expiry, fires_at: Option<Moment>) -> NewEffect {
    NewEffect {
        id: EffectId(name.into()),
        name: name.into(),
        target: None,
        source: None,
        note: None,
        fires_at,
        expiry,
    }
}

pub fn expired_names(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| if let Event::EffectExpired { name, .. } = e { Some(name.clone()) } else { None })
        .collect()
}

pub fn fired_names(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| if let Event::EffectFired { name, .. } = e { Some(name.clone()) } else { None })
        .collect()
}
