//! End-to-end tests: the real app on 127.0.0.1 with its own SQLite file, driven over HTTP. The
//! same modules run on PostgreSQL in `tests/api_postgres`.

/// This binary runs the suite on SQLite.
const ON_POSTGRES: bool = false;

mod adeva;
mod adeva_fight;
mod advance;
mod arrgs_actions;
mod arrgs_attack_manoeuvres;
mod arrgs_fight;
mod arrgs_spells_and_items;
mod arrgs_support;
mod binary;
mod cepheus_actions;
mod cepheus_errors;
mod cepheus_fight;
mod cepheus_stateless;
mod combatants;
mod concurrency;
mod concurrent_writers;
mod copy_data;
mod current_reads;
mod delay;
mod dice;
mod effects;
mod encounters;
mod errors;
mod events;
mod full_encounter;
mod group_commit;
mod hardening;
mod hardening_acting;
mod hardening_connections;
mod hardening_rulesets;
mod hardening_viewers;
mod health_and_docs;
mod helpers;
mod idempotency;
mod initiative;
mod limits;
mod lur_asko_fight;
mod metrics;
mod migrate;
mod operations;
mod persistence;
mod rate_limits;
mod replicas;
mod round_start;
mod rulesets;
mod slow_clients;
mod spycraft2_fight;
mod streams;
mod tenants;
mod undo;
mod viewers;
mod webhook_receiver;
mod webhooks;
