//! How many statements (each one round trip to the server) a stored change costs on PostgreSQL,
//! counted with diesel's connection instrumentation on the writer's one connection: a guard
//! against a change quietly growing more round trips, not a timing test.

use super::{Mutation, Store, StoredResponse};
use crate::error::MutateError;
use diesel::connection::{Connection, InstrumentationEvent};
use skirmish_domain::encounter::{
    Advance, CombatantId, Encounter, EncounterError, EncounterId, Flags, Initiative, NewCombatant,
    add_combatant, advance,
};
use skirmish_domain::rulesets::{RulesetId, StatBlock, lur_asko};
use std::sync::{Arc, Mutex};

const TENANT: &str = "guild";

fn version_body<T>(mutation: Mutation<T>) -> Result<StoredResponse, EncounterError> {
    let body = mutation.encounter.encounter.version.to_string();
    Ok(StoredResponse { status: 200, body, headers: vec![] })
}

/// An encounter of six combatants with initiative 16 down to 11 (no ties), in setup.
fn six_combatants() -> Encounter {
    let mut encounter = Encounter::new(EncounterId("enc_rt".into()), RulesetId::LurAsko, "Ford".into());
    for n in 0..6 {
        let new = NewCombatant {
            id: CombatantId(format!("c{n}")),
            name: format!("Fighter {n}"),
            side: if n % 2 == 0 { "heroes" } else { "monsters" }.into(),
            stats: StatBlock::LurAsko(lur_asko::Stats::default()),
            flags: Flags::default(),
        };
        add_combatant(&mut encounter, new).unwrap();
        let score = 16 - n;
        encounter.combatants[n as usize].initiative =
            Some(Initiative { score, roll_off: vec![], explanation: "fixed by caller".into() });
    }
    encounter
}

/// The first words of every statement the store's writer connection runs from now on.
fn count_statements(store: &Store) -> Arc<Mutex<Vec<String>>> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let recorder = seen.clone();
    store
        .write(|conn| {
            conn.set_instrumentation(move |event: InstrumentationEvent<'_>| {
                if let InstrumentationEvent::StartQuery { query, .. } = event {
                    let text = query.to_string();
                    let head: Vec<&str> = text.split_whitespace().take(3).collect();
                    super::writer::lock(&recorder).push(head.join(" "));
                }
            });
            Ok::<_, crate::error::DbError>(())
        })
        .unwrap();
    super::writer::lock(&seen).clear();
    seen
}

/// Advances the stored encounter to its next turn, and returns the statements it ran.
fn statements_of_advance(store: &Store, id: &EncounterId, seen: &Mutex<Vec<String>>) -> Vec<String> {
    super::writer::lock(seen).clear();
    let command =
        |encounter: &mut Encounter| advance(encounter, Advance::NextTurn).map(|events| (events, ()));
    store.mutate(TENANT, id, None, None, command, version_body).unwrap();
    std::mem::take(&mut *super::writer::lock(seen))
}

#[test]
fn a_stored_advance_on_postgres_costs_a_fixed_number_of_statements() {
    let Some(server) = crate::test_server() else { return };
    let db = crate::ScratchDatabase::create(&server).unwrap();
    // One writer connection, so every change runs on the one being counted.
    let store = Store::open_holding(&db.url, None, 1).unwrap();
    let encounter = six_combatants();
    store.create(TENANT, &encounter, &[], None, version_body).unwrap();
    let seen = count_statements(&store);

    // The first advance starts the encounter; the writer's hot copy is then current.
    let started = statements_of_advance(&store, &encounter.id, &seen);
    let warm = statements_of_advance(&store, &encounter.id, &seen);
    // Another replica (a second store on the same database) advances it: the first store's hot
    // copy is now stale, so its next change reads the encounter from the database.
    let replica = Store::open_holding(&db.url, None, 1).unwrap();
    let command =
        |encounter: &mut Encounter| advance(encounter, Advance::NextTurn).map(|events| (events, ()));
    replica.mutate(TENANT, &encounter.id, None, None, command, version_body).unwrap();
    let cold = statements_of_advance(&store, &encounter.id, &seen);
    // A change refused for its stale `If-Match` rolls its transaction back (there is no
    // savepoint on PostgreSQL), and the next change finds everything as it was.
    let command =
        |encounter: &mut Encounter| advance(encounter, Advance::NextTurn).map(|events| (events, ()));
    let refused = store.mutate(TENANT, &encounter.id, Some(1), None, command, version_body);
    let refused_statements = std::mem::take(&mut *super::writer::lock(&seen));
    let after_refusal = statements_of_advance(&store, &encounter.id, &seen);

    let stored = store.get(TENANT, &encounter.id).unwrap().unwrap().encounter;
    assert!(matches!(refused, Err(MutateError::VersionMismatch { expected: 1, current: 5 })), "{refused:?}");
    assert_eq!(stored.version, 6, "created at 1, then five advances (the refused one left nothing)");
    assert_eq!(stored.current, Some(CombatantId("c4".into())), "16, 15, 14, 13 had their turns");
    let events = store.events(TENANT, &encounter.id, 0, 100).unwrap().unwrap();
    let seqs: Vec<i64> = events.iter().map(|event| event.seq).collect();
    assert_eq!(seqs, (1..=i64::try_from(seqs.len()).unwrap()).collect::<Vec<_>>(), "contiguous");
    let counts = (started.len(), warm.len(), cold.len());
    assert_eq!(counts, (STARTED, WARM, COLD), "started {started:#?}, warm {warm:#?}, cold {cold:#?}");
    assert_eq!(
        refused_statements,
        ["BEGIN -- binds:", "SELECT \"encounters\".\"id\", \"encounters\".\"ruleset\",", "ROLLBACK"],
        "the lock, then the rollback"
    );
    assert_eq!(after_refusal.len(), COLD, "the refused change took the hot copy: {after_refusal:#?}");
}

/// Statements of the advance that starts the encounter, whose hot copy the create left unset:
/// `BEGIN`, the row lock reading the encounter row, its combatants, its effects, its last
/// `seq`, the one write (see `change_rows.rs`), `COMMIT`. Before: 16.
const STARTED: usize = 7;
/// Statements of a next turn with the hot copy current: `BEGIN`, the row lock, the one write,
/// `COMMIT`. Before: 12 (a savepoint and its release, the encounter, one combatant's turn
/// columns, the undo entry, two events, the notice and the webhook read each a statement).
const WARM: usize = 4;
/// Statements of a next turn after another replica changed the encounter: as [`STARTED`].
/// Before: 16.
const COLD: usize = 7;
