//! Replicas as real processes (issue 26, item 5): the `skirmish` binary started several times on
//! one PostgreSQL database (each test its own, copied from the migrated template), driven over
//! HTTP, some of them killed with SIGKILL and started again on the same port. Run with
//! `--nocapture` to read the figures each test prints.
//!
//! PostgreSQL is `SKIRMISH_TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`);
//! without a server each test returns at once after a loud note on stderr, and with `CI=true` an
//! unreachable server fails them (as `tests/api_postgres`). The binary is the one `cargo test
//! --workspace` builds beside this test (`cargo build --bin skirmish` first for a narrower run).

#[allow(dead_code, reason = "shared with tests/api, which uses the rest of it")]
#[path = "../api/binary.rs"]
mod binary;
mod cluster;
mod idempotency;
mod load;
mod load_tests;
mod streams;
mod verify;
#[allow(dead_code, reason = "shared with tests/api, which uses the rest of it")]
#[path = "../api/webhook_receiver.rs"]
mod webhook_receiver;
mod webhooks;
