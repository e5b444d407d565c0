//! Fixtures shared by the store's integration tests: a lur-asko encounter, a change that adds a
//! goblin, and a response whose body is the encounter's version.
#![allow(dead_code, reason = "each test file uses the fixtures it needs")]
#![expect(clippy::expect_used, reason = "a fixture that cannot be set up should fail the test loudly")]

use skirmish_db::{Mutation, Store, StoredResponse};
use skirmish_domain::encounter::{
    CombatantId, Encounter, EncounterError, EncounterId, Event, Flags, NewCombatant, add_combatant,
};
use skirmish_domain::rulesets::{RulesetId, StatBlock, lur_asko};
use std::convert::Infallible;

/// A response whose body is the encounter's version after the change.
pub fn version_body<T, E>(mutation: Mutation<T>) -> Result<StoredResponse, E> {
    Ok(StoredResponse {
        status: 200,
        body: mutation.encounter.encounter.version.to_string(),
        headers: vec![],
    })
}

/// Stores a new lur-asko encounter `id` ("Bridge") for `tenant`.
pub fn created_for(store: &Store, tenant: &str, id: &str) -> EncounterId {
    let encounter = Encounter::new(EncounterId(id.into()), RulesetId::LurAsko, "Bridge".into());
    let event = Event::EncounterCreated { name: "Bridge".into(), ruleset: "lur-asko".into() };
    store.create::<Infallible>(tenant, &encounter, &[event], None, version_body).expect("created");
    encounter.id
}

/// A change that adds one more goblin.
pub fn add_goblin(encounter: &mut Encounter) -> Result<(Vec<Event>, ()), EncounterError> {
    let new = NewCombatant {
        id: CombatantId(format!("gob{}", encounter.combatants.len())),
        name: "Goblin".into(),
        side: "monsters".into(),
        stats: StatBlock::LurAsko(lur_asko::Stats::default()),
        flags: Flags::default(),
    };
    Ok((add_combatant(encounter, new)?, ()))
}
