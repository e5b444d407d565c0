#![expect(clippy::unwrap_used, reason = "a failed step should fail the test loudly")]
//! Undo through the kept reverse diffs: after changes of every kind (combatants added, edited and
//! removed, initiative, effects added and expired, turns, a delay, rounds, the end) and undos
//! among them, an undo to any earlier version gives exactly the encounter stored at that version.

mod common;
use common::{add_goblin, created_for, version_body};
use skirmish_db::{Store, UndoRefused};
use skirmish_domain::dice::Dice;
use skirmish_domain::encounter::{
    Advance, CombatantId, CombatantPatch, EffectId, Encounter, EncounterError, EncounterId, Event, Expiry,
    InitiativeRequest, NewEffect, add_effect, advance, remove_combatant, roll_initiative, update_combatant,
};
use skirmish_domain::rulesets::{StatBlock, lur_asko};

const TENANT: &str = "guild";

type Change = fn(&mut Encounter) -> Result<Vec<Event>, EncounterError>;

fn goblin(n: &str) -> CombatantId {
    CombatantId(format!("gob{n}"))
}

/// Every kind of change the store writes differently: inserted, replaced, moved and deleted
/// combatant and effect rows, and the encounter's own fields.
fn changes() -> Vec<Change> {
    vec![
        |e| add_goblin(e).map(|(events, ())| events),
        |e| add_goblin(e).map(|(events, ())| events),
        |e| add_goblin(e).map(|(events, ())| events),
        |e| {
            let fixed = vec![(goblin("0"), 15), (goblin("1"), 12), (goblin("2"), 9)];
            let request = InitiativeRequest { combatants: Some(Vec::new()), fixed, ..Default::default() };
            roll_initiative(e, &request, &mut Dice::seeded(0))
        },
        |e| {
            let bless = NewEffect {
                id: EffectId("bless".into()),
                name: "Bless".into(),
                target: Some(goblin("2")),
                source: None,
                note: None,
                fires_at: None,
                expiry: Expiry::EndOfRound { remaining: 1 },
            };
            add_effect(e, bless)
        },
        |e| {
            let stats = lur_asko::Stats { organic: false, ..Default::default() };
            let patch = CombatantPatch {
                name: Some("Boss".into()),
                side: Some("bosses".into()),
                stats: Some(StatBlock::LurAsko(stats)),
                hidden: Some(true),
                public: Some(true),
                ..Default::default()
            };
            update_combatant(e, &goblin("0"), patch)
        },
        |e| advance(e, Advance::NextTurn),
        |e| advance(e, Advance::Delay),
        |e| advance(e, Advance::NextTurn),
        |e| remove_combatant(e, &goblin("1")),
        |e| advance(e, Advance::NextRound),
        |e| advance(e, Advance::EndEncounter),
    ]
}

fn stored(store: &Store, id: &EncounterId) -> Encounter {
    store.get(TENANT, id).unwrap().unwrap().encounter
}

fn undo_to(store: &Store, id: &EncounterId, version: i64) {
    store.undo::<UndoRefused>(TENANT, id, Some(version), None, None, version_body).unwrap();
}

#[test]
fn an_undo_to_each_earlier_version_gives_exactly_the_state_stored_then() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("diffs.db").display().to_string()).unwrap();
    let id = created_for(&store, TENANT, "e1");
    let mut states = vec![stored(&store, &id)];
    for change in changes() {
        let command = |e: &mut Encounter| change(e).map(|events| (events, ()));
        store.mutate(TENANT, &id, None, None, command, version_body).unwrap();
        states.push(stored(&store, &id));
    }

    // Newest first, each undo walking back through the undos before it as well.
    for expected in states.iter().rev().skip(1) {
        let before = stored(&store, &id).version;
        undo_to(&store, &id, expected.version);
        let restored = stored(&store, &id);
        assert_eq!(restored.version, before + 1, "an undo is a new version");
        assert_eq!(Encounter { version: expected.version, ..restored }, *expected);
    }
    // Forward again over all those undos: to the version the first undo made, which had the
    // state of the version before the last change.
    let first_undo = states.last().unwrap().version + 1;
    undo_to(&store, &id, first_undo);
    let expected = &states[states.len() - 2];
    assert_eq!(Encounter { version: expected.version, ..stored(&store, &id) }, *expected);
}
