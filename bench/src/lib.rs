//! Baselines for `scripts/bench.sh`, built in the workspace so they share its dependency versions
//! and release profile: `bare-actix` (what the web framework alone costs) and `raw-sqlite` (what
//! one durable commit alone costs, with the service's own pragmas).
