//! `skirmish`: the combat service. `skirmish serve` (default), `skirmish openapi`,
//! `skirmish keys create|list|revoke`, `skirmish healthcheck`. Settings may be given before or
//! after the subcommand.

use clap::{Parser, Subcommand};
use skirmish_api::keys::{KeysCommand, run as run_keys};
use skirmish_api::{Application, Settings, openapi::openapi_json};
use skirmish_db::Store;

/// mimalloc rather than glibc's malloc: a request allocates and frees ~100 small blocks, and
/// mimalloc's per-thread free lists take about half the instructions glibc's take for them.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(version, about = "Skirmish: a tabletop-RPG combat engine over HTTP")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    settings: Settings,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API (the default).
    Serve,
    /// Print the OpenAPI document.
    Openapi,
    /// Manage API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Exit 0 if the server at --bind answers /healthz with 200 (for container health checks).
    Healthcheck,
}

#[actix_web::main]
async fn main() -> std::process::ExitCode {
    skirmish_api::logging::init();
    let cli = Cli::parse();
    let outcome = match cli.command.unwrap_or(Command::Serve) {
        Command::Openapi => openapi_json().map(|json| print!("{json}")).map_err(|e| e.to_string()),
        Command::Keys(command) => Store::open(&cli.settings.database_url)
            .map_err(|e| e.to_string())
            .and_then(|store| run_keys(&store, command))
            .map(|text| println!("{text}")),
        Command::Serve => serve(&cli.settings).await,
        Command::Healthcheck => skirmish_api::healthcheck::check(&cli.settings.bind),
    };
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("skirmish: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn serve(settings: &Settings) -> Result<(), String> {
    let app = Application::build(settings).map_err(|e| e.to_string())?;
    log::info!(
        "Skirmish listening on http://{} (docs at /docs/), database {}",
        app.address(),
        settings.database_url
    );
    app.run_until_stopped().await.map_err(|e| e.to_string())
}
