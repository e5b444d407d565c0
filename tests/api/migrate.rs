//! `skirmish migrate` on an empty database of either backend: applies every migration once, and
//! a second run has nothing left to do.

use crate::helpers::{skirmish_binary, temp_db};
use std::process::Command;

fn migrate(url: &str) -> String {
    let output = Command::new(skirmish_binary())
        .args(["migrate", "--database-url", url])
        .env_remove("SKIRMISH_DATABASE_URL")
        .output()
        .unwrap_or_else(|e| panic!("cannot run skirmish migrate: {e}"));
    assert!(output.status.success(), "skirmish migrate failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn migrate_creates_a_sqlite_file_and_then_has_nothing_to_do() {
    let (_dir, path) = temp_db();
    let url = path.display().to_string();

    let first = migrate(&url);
    let second = migrate(&url);

    assert!(first.contains("applied 20261121000001, 20261121000002"), "{first}");
    assert!(first.trim_end().ends_with("20261207000012, 20261208000013"), "{first}");
    assert_eq!(second.trim_end(), format!("{url}: no pending migrations"));
}

#[test]
fn migrate_builds_the_schema_in_an_empty_postgresql_database() {
    let Some(server) = skirmish_db::test_server() else { return };
    let empty = skirmish_db::ScratchDatabase::create_empty(&server)
        .unwrap_or_else(|e| panic!("cannot create an empty database: {e}"));

    let first = migrate(&empty.url);
    let second = migrate(&empty.url);

    assert_eq!(
        first.trim_end(),
        format!(
            "{}: applied 20261128000001, 20261207000002, 20261207000003, 20261207000004, 20261208000005",
            empty.url
        )
    );
    assert_eq!(second.trim_end(), format!("{}: no pending migrations", empty.url));
}
