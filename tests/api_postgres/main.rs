//! The HTTP suite of `tests/api` again, each test on its own PostgreSQL database (copied from a
//! migrated template, dropped at the end): `SKIRMISH_TEST_DATABASE_URL` names the server
//! (default `postgres://postgres@127.0.0.1:5432/postgres`). Without a server it stops at its
//! first test, saying loudly on stderr that it was skipped and how to run it; with `CI=true` an
//! unreachable server fails it instead.

/// This binary runs the suite on PostgreSQL.
const ON_POSTGRES: bool = true;

#[path = "../api/adeva.rs"]
mod adeva;
#[path = "../api/adeva_derived.rs"]
mod adeva_derived;
#[path = "../api/adeva_fight.rs"]
mod adeva_fight;
#[path = "../api/advance.rs"]
mod advance;
#[path = "../api/arrgs_actions.rs"]
mod arrgs_actions;
#[path = "../api/arrgs_attack_manoeuvres.rs"]
mod arrgs_attack_manoeuvres;
#[path = "../api/arrgs_fight.rs"]
mod arrgs_fight;
#[path = "../api/arrgs_spells_and_items.rs"]
mod arrgs_spells_and_items;
#[path = "../api/arrgs_support.rs"]
mod arrgs_support;
#[path = "../api/binary.rs"]
mod binary;
#[path = "../api/cepheus_actions.rs"]
mod cepheus_actions;
#[path = "../api/cepheus_errors.rs"]
mod cepheus_errors;
#[path = "../api/cepheus_fight.rs"]
mod cepheus_fight;
#[path = "../api/cepheus_interrupt.rs"]
mod cepheus_interrupt;
#[path = "../api/cepheus_stateless.rs"]
mod cepheus_stateless;
#[path = "../api/cepheus_vehicles.rs"]
mod cepheus_vehicles;
#[path = "../api/combatants.rs"]
mod combatants;
#[path = "../api/concurrency.rs"]
mod concurrency;
#[path = "../api/concurrent_writers.rs"]
mod concurrent_writers;
#[path = "../api/creatures.rs"]
mod creatures;
#[path = "../api/current_reads.rs"]
mod current_reads;
#[path = "../api/delay.rs"]
mod delay;
#[path = "../api/dice.rs"]
mod dice;
#[path = "../api/dice_everywhere.rs"]
mod dice_everywhere;
#[path = "../api/effects.rs"]
mod effects;
#[path = "../api/encounter_library.rs"]
mod encounter_library;
#[path = "../api/encounters.rs"]
mod encounters;
#[path = "../api/errors.rs"]
mod errors;
#[path = "../api/events.rs"]
mod events;
#[path = "../api/export.rs"]
mod export;
#[path = "../api/full_encounter.rs"]
mod full_encounter;
#[path = "../api/group_commit.rs"]
mod group_commit;
#[path = "../api/groups.rs"]
mod groups;
#[path = "../api/hardening.rs"]
mod hardening;
#[path = "../api/hardening_acting.rs"]
mod hardening_acting;
#[path = "../api/hardening_connections.rs"]
mod hardening_connections;
#[path = "../api/hardening_rulesets.rs"]
mod hardening_rulesets;
#[path = "../api/hardening_viewers.rs"]
mod hardening_viewers;
#[path = "../api/health_and_docs.rs"]
mod health_and_docs;
#[path = "../api/helpers.rs"]
mod helpers;
#[path = "../api/idempotency.rs"]
mod idempotency;
#[path = "../api/initiative.rs"]
mod initiative;
#[path = "../api/limits.rs"]
mod limits;
#[path = "../api/lur_asko_energy.rs"]
mod lur_asko_energy;
#[path = "../api/lur_asko_fight.rs"]
mod lur_asko_fight;
#[path = "../api/metrics.rs"]
mod metrics;
#[path = "../api/migrate.rs"]
mod migrate;
#[path = "../api/operations.rs"]
mod operations;
#[path = "../api/persistence.rs"]
mod persistence;
#[path = "../api/rate_limits.rs"]
mod rate_limits;
#[path = "../api/replicas.rs"]
mod replicas;
#[path = "../api/round_start.rs"]
mod round_start;
#[path = "../api/rulesets.rs"]
mod rulesets;
#[path = "../api/slow_clients.rs"]
mod slow_clients;
#[path = "../api/spycraft2_fight.rs"]
mod spycraft2_fight;
#[path = "../api/status.rs"]
mod status;
#[path = "../api/streams.rs"]
mod streams;
#[path = "../api/templates.rs"]
mod templates;
#[path = "../api/tenants.rs"]
mod tenants;
#[path = "../api/undo.rs"]
mod undo;
#[path = "../api/viewers.rs"]
mod viewers;
#[path = "../api/webhook_receiver.rs"]
mod webhook_receiver;
#[path = "../api/webhooks.rs"]
mod webhooks;

/// Modules of `tests/api` that are not run here, each for a reason: `copy_data` copies a SQLite
/// file into PostgreSQL itself (it needs both backends whichever one the suite runs on), so it
/// runs once, in `tests/api`.
const NOT_RUN_HERE: &[&str] = &["copy_data;"];

/// Every module of `tests/api/main.rs` is declared here too, but for [`NOT_RUN_HERE`].
#[test]
fn every_module_of_the_sqlite_suite_runs_here() {
    let modules = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|line| line.strip_prefix("mod "))
            .filter(|module| !NOT_RUN_HERE.contains(module))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(modules(include_str!("main.rs")), modules(include_str!("../api/main.rs")));
}
