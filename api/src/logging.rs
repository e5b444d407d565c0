//! The log: env_logger (`RUST_LOG`, default `info`), with one correction. actix-web's HTTP/1
//! dispatcher logs a malformed request from a client (a bad header line, a broken chunk) at
//! ERROR; those are the client's fault, so they are logged at WARN. ERROR stays for trouble on
//! the server's side, such as an internal error behind a 500.

use log::{Level, Log, Metadata, Record};

/// Log targets whose ERROR records describe what a client sent.
const CLIENT_FAULT_TARGETS: &[&str] = &["actix_http::h1"];

/// Installs the logger. A second call changes nothing.
pub fn init() {
    let inner = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).build();
    let max_level = inner.filter();
    if log::set_boxed_logger(Box::new(ClientFaultsAsWarnings(inner))).is_ok() {
        log::set_max_level(max_level);
    }
}

/// The level a record is logged at.
pub fn level_for(target: &str, level: Level) -> Level {
    let client_fault = CLIENT_FAULT_TARGETS.iter().any(|prefix| target.starts_with(prefix));
    if level == Level::Error && client_fault { Level::Warn } else { level }
}

struct ClientFaultsAsWarnings(env_logger::Logger);

impl Log for ClientFaultsAsWarnings {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        let level = level_for(metadata.target(), metadata.level());
        self.0.enabled(&Metadata::builder().level(level).target(metadata.target()).build())
    }

    fn log(&self, record: &Record<'_>) {
        let level = level_for(record.target(), record.level());
        if level == record.level() {
            return self.0.log(record);
        }
        self.0.log(
            &Record::builder()
                .args(*record.args())
                .level(level)
                .target(record.target())
                .module_path(record.module_path())
                .file(record.file())
                .line(record.line())
                .build(),
        );
    }

    fn flush(&self) {
        self.0.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_request_logged_by_actix_is_a_warning_and_server_errors_stay_errors() {
        assert_eq!(level_for("actix_http::h1::dispatcher", Level::Error), Level::Warn);
        assert_eq!(level_for("actix_http::h1::decoder", Level::Error), Level::Warn);
        assert_eq!(level_for("skirmish_api::error", Level::Error), Level::Error);
        assert_eq!(level_for("actix_http::h1::dispatcher", Level::Info), Level::Info);
    }
}
