//! The Dockerfile cannot be built here (no container engine), so each of its pieces is proved
//! on its own: the dependency layer (manifests, Cargo.lock and stub sources) is a workspace cargo
//! accepts with `--locked`; every build is `--locked`; the data directory is a declared volume;
//! the health check runs `skirmish healthcheck` (tested in `cli.rs`); the first-run key path is
//! tested in `cli.rs` and `startup.rs`.

#![expect(clippy::expect_used, reason = "test helpers fail loudly on broken setup")]

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root").to_path_buf()
}

fn dockerfile() -> String {
    std::fs::read_to_string(root().join("Dockerfile")).expect("the Dockerfile")
}

/// Instructions, with `\` continuations joined and runs of spaces made one.
fn instructions(text: &str) -> Vec<String> {
    let joined = text.replace("\\\n", " ");
    let words = |line: &str| line.split_whitespace().collect::<Vec<_>>().join(" ");
    joined.lines().map(words).filter(|line| !line.is_empty() && !line.starts_with('#')).collect()
}

#[test]
fn the_dependency_layer_is_a_workspace_cargo_accepts_locked_from_manifests_and_stubs() {
    let all = instructions(&dockerfile());
    let before_sources = all.iter().take_while(|line| line.as_str() != "COPY . .");
    let copied: Vec<&str> = before_sources
        .filter_map(|line| line.strip_prefix("COPY "))
        .flat_map(|args| {
            let mut parts: Vec<&str> = args.split_whitespace().collect();
            parts.pop();
            parts
        })
        .collect();
    let dir = tempfile::tempdir().expect("a temp dir");
    for file in &copied {
        let target = dir.path().join(file);
        std::fs::create_dir_all(target.parent().expect("a parent")).expect("a directory");
        std::fs::copy(root().join(file), &target).unwrap_or_else(|e| panic!("COPY {file}: {e}"));
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let tree = || {
        Command::new(&cargo)
            .args(["tree", "--locked", "--offline", "-p", "skirmish-api", "-e", "normal,build"])
            .current_dir(dir.path())
            .output()
            .expect("cargo runs")
    };

    let without_stubs = tree();
    let stubbed =
        Command::new("sh").arg("scripts/stub-sources.sh").current_dir(dir.path()).status().expect("sh runs");
    let with_stubs = tree();

    assert!(copied.contains(&"Cargo.lock") && copied.contains(&"scripts/stub-sources.sh"), "{copied:?}");
    assert!(!without_stubs.status.success(), "manifests alone are no workspace");
    assert!(stubbed.success());
    assert!(with_stubs.status.success(), "{}", String::from_utf8_lossy(&with_stubs.stderr));
}

#[test]
fn every_build_is_locked_the_data_is_a_volume_and_the_health_check_is_the_binary() {
    let all = instructions(&dockerfile());
    let builds: Vec<&String> = all.iter().filter(|line| line.contains("cargo build")).collect();

    assert_eq!(builds.len(), 2, "the dependency layer and the project: {builds:?}");
    assert!(builds.iter().all(|line| line.contains("--release --locked")), "{builds:?}");
    assert!(all.contains(&r#"VOLUME ["/data"]"#.to_owned()), "{all:?}");
    assert!(
        all.contains(&"ENV SKIRMISH_BIND=0.0.0.0:8080 SKIRMISH_DATABASE_URL=/data/skirmish.db".to_owned())
    );
    let health = all.iter().find(|line| line.starts_with("HEALTHCHECK")).expect("a HEALTHCHECK");
    assert!(health.ends_with(r#"CMD ["skirmish", "healthcheck"]"#), "{health}");
}

#[test]
fn the_runtime_stage_installs_the_system_ca_store() {
    let text = dockerfile();
    let runtime = text.rsplit_once("\nFROM ").map(|(_, stage)| stage).expect("a runtime stage");
    let all = instructions(runtime);

    let installs = all.iter().any(|line| {
        line.starts_with("RUN ") && line.contains("apt-get install") && line.contains("ca-certificates")
    });
    assert!(installs, "the slim image has no CA store of its own: {all:?}");
}
