//! End-to-end tests: the real app on 127.0.0.1 with its own SQLite file, driven over HTTP.

mod adeva;
mod advance;
mod cepheus_actions;
mod cepheus_errors;
mod cepheus_fight;
mod cepheus_stateless;
mod combatants;
mod concurrency;
mod concurrent_writers;
mod delay;
mod dice;
mod effects;
mod encounters;
mod errors;
mod events;
mod full_encounter;
mod health_and_docs;
mod helpers;
mod idempotency;
mod initiative;
mod limits;
mod operations;
mod persistence;
mod rate_limits;
mod rulesets;
mod tenants;
