//! `skirmish`: the combat service. `skirmish serve` (default), `skirmish openapi`,
//! `skirmish keys create|list|revoke`, `skirmish healthcheck` (see `cli.rs`).

/// mimalloc rather than glibc's malloc: a request allocates and frees ~100 small blocks, and
/// mimalloc's per-thread free lists take about half the instructions glibc's take for them.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[actix_web::main]
async fn main() -> std::process::ExitCode {
    skirmish_api::logging::init();
    skirmish_api::cli::run().await
}
