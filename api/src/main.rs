//! `skirmish`: the combat service. `skirmish serve` (default), `skirmish openapi`.

use clap::{Parser, Subcommand};
use skirmish_api::{Application, Settings, openapi::openapi_json};

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
}

#[actix_web::main]
async fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let cli = Cli::parse();
    let outcome = match cli.command.unwrap_or(Command::Serve) {
        Command::Openapi => openapi_json().map(|json| print!("{json}")).map_err(|e| e.to_string()),
        Command::Serve => serve(&cli.settings).await,
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
        "Skirmish listening on http://{} (docs at /docs), database {}",
        settings.bind,
        settings.database_url
    );
    app.run_until_stopped().await.map_err(|e| e.to_string())
}
