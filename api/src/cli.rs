//! The `skirmish` command line: `skirmish [serve] [SETTINGS]`, `skirmish openapi`,
//! `skirmish keys create|list|revoke`, `skirmish migrate`, `skirmish copy-data`,
//! `skirmish healthcheck`. Each subcommand takes, and its
//! `--help` shows, only its own options. The settings may also come before the subcommand
//! (`skirmish --bind 127.0.0.1:9000 serve`, `skirmish --database-url x.db keys list`); one given
//! on both sides takes the later value, then come the environment (`SKIRMISH_…`) and defaults.

use crate::config::{DEFAULT_BIND, DEFAULT_DATABASE_URL, Settings};
use crate::keys::{KeysCommand, run as run_keys};
use crate::openapi::openapi_json;
use crate::startup::Application;
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use skirmish_db::{Store, copy_sqlite_to_postgres};
use std::ffi::OsString;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "skirmish", version, about = "Skirmish: a tabletop-RPG combat engine over HTTP")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The settings of `serve` (the default), also taken before any subcommand.
    #[command(flatten)]
    settings: Settings,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API (the default).
    Serve(Box<Settings>),
    /// Print the OpenAPI document.
    Openapi,
    /// Manage API keys.
    Keys(KeysArgs),
    /// Apply the database's pending migrations and exit (a server applies them at start too).
    Migrate(MigrateArgs),
    /// Copy everything a SQLite database holds into a PostgreSQL database (see docs/replicas.md).
    CopyData(CopyDataArgs),
    /// Exit 0 if the server at --bind answers /healthz with 200 (for container health checks).
    Healthcheck(HealthcheckArgs),
}

#[derive(Args)]
struct KeysArgs {
    /// Database: a SQLite file path, `sqlite://path` or `sqlite:path` (created if missing), or
    /// `postgres://…` / `postgresql://…`.
    #[arg(long, global = true, env = "SKIRMISH_DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    database_url: String,
    #[command(subcommand)]
    command: KeysCommand,
}

#[derive(Args)]
struct MigrateArgs {
    /// Database: a SQLite file path, `sqlite://path` or `sqlite:path` (created if missing), or
    /// `postgres://…` / `postgresql://…`.
    #[arg(long, env = "SKIRMISH_DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    database_url: String,
}

#[derive(Args)]
struct CopyDataArgs {
    /// The SQLite database to copy: a file path, `sqlite://path` or `sqlite:path` (it must exist;
    /// no server may be running on it).
    #[arg(long)]
    from: String,
    /// The PostgreSQL database to copy into: `postgres://…` or `postgresql://…` (migrated first).
    #[arg(long)]
    to: String,
    /// Copy even if the target already holds rows (any clashing key fails the whole copy).
    #[arg(long)]
    into_non_empty: bool,
}

#[derive(Args)]
struct HealthcheckArgs {
    /// The address the server listens on (a wildcard address is asked on loopback).
    #[arg(long, env = "SKIRMISH_BIND", default_value = DEFAULT_BIND)]
    bind: String,
}

/// Runs the command line; prints what went wrong and exits 1 on failure.
pub async fn run() -> ExitCode {
    let outcome = match parse() {
        Ok(Parsed::Serve(settings)) => serve(&settings).await,
        Ok(Parsed::Openapi) => openapi_json().map(|json| print!("{json}")).map_err(|e| e.to_string()),
        Ok(Parsed::Keys { database_url, command }) => Store::open(&database_url)
            .map_err(|e| e.to_string())
            .and_then(|store| run_keys(&store, command))
            .map(|text| println!("{text}")),
        Ok(Parsed::Migrate { database_url }) => migrate(&database_url),
        Ok(Parsed::CopyData(args)) => copy_data(&args),
        Ok(Parsed::Healthcheck { bind }) => crate::healthcheck::check(&bind),
        Err(error) => error.exit(),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("skirmish: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Applies the pending migrations and says which (or that there were none).
fn migrate(database_url: &str) -> Result<(), String> {
    let applied = Store::migrate(database_url).map_err(|e| e.to_string())?;
    let database = without_password(database_url);
    if applied.is_empty() {
        println!("{database}: no pending migrations");
    } else {
        println!("{database}: applied {}", applied.join(", "));
    }
    Ok(())
}

/// Copies the SQLite database into PostgreSQL, printing each table's rows as they are inserted
/// and a summary once the copy is committed.
fn copy_data(args: &CopyDataArgs) -> Result<(), String> {
    let target = without_password(&args.to);
    println!("copying {} into {target}", args.from);
    let mut progress = |table: &str, rows: usize| println!("  {table}: {rows} rows");
    let counts = copy_sqlite_to_postgres(&args.from, &args.to, args.into_non_empty, &mut progress)
        .map_err(|e| format!("copy-data: {e}"))?;
    let total: usize = counts.iter().map(|(_, rows)| rows).sum();
    println!("copied {total} rows in {} tables into {target} (committed)", counts.len());
    Ok(())
}

/// A database URL as it may be logged: a password in it (`postgres://user:secret@host/db`) is
/// replaced by `***`.
pub fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let Some((credentials, host)) = rest.split_once('@') else { return url.to_owned() };
    match credentials.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_owned(),
    }
}

async fn serve(settings: &Settings) -> Result<(), String> {
    let app = Application::build(settings).map_err(|e| e.to_string())?;
    log::info!(
        "Skirmish listening on http://{} (docs at /docs/), database {}",
        app.address(),
        without_password(&settings.database_url)
    );
    app.run_until_stopped().await.map_err(|e| e.to_string())
}

/// What to run, with its settings merged from both sides of the subcommand.
enum Parsed {
    Serve(Box<Settings>),
    Openapi,
    Keys { database_url: String, command: KeysCommand },
    Migrate { database_url: String },
    CopyData(CopyDataArgs),
    Healthcheck { bind: String },
}

fn parse() -> Result<Parsed, clap::Error> {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches)?;
    let (Some(command), Some((_, after))) = (cli.command, matches.subcommand()) else {
        return Ok(Parsed::Serve(Box::new(cli.settings)));
    };
    Ok(match command {
        Command::Serve(_) => Parsed::Serve(Box::new(merged_settings(&matches, after)?)),
        Command::Openapi => Parsed::Openapi,
        Command::Keys(keys) => Parsed::Keys {
            database_url: later(cli.settings.database_url, keys.database_url, after, "database_url"),
            command: keys.command,
        },
        Command::Migrate(migrate) => Parsed::Migrate {
            database_url: later(cli.settings.database_url, migrate.database_url, after, "database_url"),
        },
        Command::CopyData(args) => Parsed::CopyData(args),
        Command::Healthcheck(check) => {
            Parsed::Healthcheck { bind: later(cli.settings.bind, check.bind, after, "bind") }
        }
    })
}

/// `after` when the command line gave it after the subcommand, else `before` (given before the
/// subcommand, or from the environment, or the default).
fn later<T>(before: T, after: T, after_matches: &ArgMatches, id: &str) -> T {
    if after_matches.value_source(id) == Some(ValueSource::CommandLine) { after } else { before }
}

/// The serve settings given before `serve` and after it, the later winning: read again from a
/// command line holding both, in that order (the environment and defaults fill the rest).
fn merged_settings(before: &ArgMatches, after: &ArgMatches) -> Result<Settings, clap::Error> {
    let command = Settings::augment_args(clap::Command::new("skirmish")).args_override_self(true);
    let mut argv = vec![OsString::from("skirmish")];
    for arg in command.get_arguments() {
        let (id, Some(long)) = (arg.get_id().as_str(), arg.get_long()) else { continue };
        for given in [before, after] {
            if given.value_source(id) == Some(ValueSource::CommandLine) {
                for value in given.get_raw(id).into_iter().flatten() {
                    argv.push(format!("--{long}").into());
                    argv.push(value.to_owned());
                }
            }
        }
    }
    Settings::from_arg_matches(&command.try_get_matches_from(argv)?)
}

#[cfg(test)]
mod tests {
    use super::without_password;

    #[test]
    fn a_logged_database_url_hides_its_password() {
        assert_eq!(
            without_password("postgres://app:s3cret@db:5432/skirmish"),
            "postgres://app:***@db:5432/skirmish"
        );
        assert_eq!(without_password("postgres://app@db/skirmish"), "postgres://app@db/skirmish");
        assert_eq!(without_password("skirmish.db"), "skirmish.db");
    }
}
