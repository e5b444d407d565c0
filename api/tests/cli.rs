//! The `skirmish` binary as an operator runs it: settings after the subcommand as well as before,
//! a first start with a key from a secrets file (stored as a digest), and `skirmish healthcheck`
//! (what the Dockerfile's HEALTHCHECK runs). Loopback only.

#![expect(clippy::unwrap_used, clippy::expect_used, reason = "test helpers fail loudly on broken setup")]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::thread::sleep;
use std::time::Duration;

fn skirmish(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skirmish"));
    command
        .args(args)
        .env_remove("SKIRMISH_BIND")
        .env_remove("SKIRMISH_DATABASE_URL")
        .env("RUST_LOG", "warn");
    command
}

fn run(args: &[&str]) -> Output {
    skirmish(args).stdin(Stdio::null()).output().expect("the skirmish binary runs")
}

fn free_loopback_port() -> SocketAddr {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap()
}

/// The server process; dropping it kills it.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn healthcheck(address: SocketAddr) -> bool {
    run(&["healthcheck", "--bind", &address.to_string()]).status.success()
}

/// `skirmish healthcheck` until it succeeds, 100 × 50 ms at most.
fn wait_until_healthy(address: SocketAddr) -> bool {
    for _ in 0..100 {
        if healthcheck(address) {
            return true;
        }
        sleep(Duration::from_millis(50));
    }
    false
}

/// Whether any file in `dir` (the database, its WAL, …) other than `except` holds `secret`.
fn stored_in_plain(dir: &Path, except: &Path, secret: &str) -> bool {
    std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().path()).filter(|path| path != except).any(
        |path| std::fs::read(path).unwrap().windows(secret.len()).any(|window| window == secret.as_bytes()),
    )
}

/// The status code of `GET path`, with this bearer key if any.
fn status_of(address: SocketAddr, path: &str, key: Option<&str>) -> String {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let auth = key.map(|k| format!("Authorization: Bearer {k}\r\n")).unwrap_or_default();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: s\r\n{auth}Connection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response.split(' ').nth(1).unwrap_or_default().to_owned()
}

fn path_text(path: &Path) -> String {
    path.to_str().expect("a UTF-8 temp path").to_owned()
}

#[test]
fn settings_work_after_the_subcommand_as_well_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let (after, before) = (path_text(&dir.path().join("after.db")), path_text(&dir.path().join("before.db")));

    let listed_after = run(&["keys", "list", "--database-url", &after]);
    let listed_before = run(&["--database-url", &before, "keys", "list"]);
    let address = free_loopback_port();
    let served = path_text(&dir.path().join("served.db"));
    let _server = Server(
        skirmish(&["serve", "--bind", &address.to_string(), "--database-url", &served])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );

    assert!(listed_after.status.success(), "{}", String::from_utf8_lossy(&listed_after.stderr));
    assert!(listed_before.status.success(), "{}", String::from_utf8_lossy(&listed_before.stderr));
    assert!(Path::new(&after).exists() && Path::new(&before).exists());
    assert!(wait_until_healthy(address), "`skirmish serve --bind {address}` serves there");
    assert!(Path::new(&served).exists());
}

#[test]
fn a_key_from_a_secrets_file_works_at_first_start_and_healthcheck_follows_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let (key_file, db) = (dir.path().join("api_key"), path_text(&dir.path().join("first-run.db")));
    let secret = "5f0c3d1e9a7b42c8a1d6e0f4b3c2a19887d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2";
    std::fs::write(&key_file, format!("{secret}\n")).unwrap();
    let address = free_loopback_port();
    assert!(!healthcheck(address), "nothing listens yet");

    let server = Server(
        skirmish(&["serve", "--bind", &address.to_string(), "--database-url", &db])
            .env("SKIRMISH_API_KEY_FILE", &key_file)
            .env("SKIRMISH_API_KEY_TENANT", "guild")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let healthy = wait_until_healthy(address);
    let (without, with) =
        (status_of(address, "/v1/encounters", None), status_of(address, "/v1/encounters", Some(secret)));
    drop(server);

    assert!(healthy, "the server started with the supplied key");
    assert_eq!((without.as_str(), with.as_str()), ("401", "200"), "the key is required and accepted");
    assert!(!healthcheck(address), "healthcheck fails once the server is gone");
    let listed = String::from_utf8(run(&["keys", "list", "--database-url", &db]).stdout).unwrap();
    assert!(listed.contains("key_env_") && listed.contains("guild"), "{listed}");
    assert!(!stored_in_plain(dir.path(), &key_file, secret), "only the key's digest is stored");
}

#[test]
fn malformed_requests_are_logged_as_warnings_never_as_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (db, log) = (path_text(&dir.path().join("log.db")), dir.path().join("server.log"));
    let address = free_loopback_port();
    let server = Server(
        skirmish(&["serve", "--bind", &address.to_string(), "--database-url", &db])
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap(),
    );
    assert!(wait_until_healthy(address));
    let bad_json = "POST /v1/encounters HTTP/1.1\r\nHost: s\r\nContent-Type: application/json\r\n\
                    Content-Length: 5\r\nConnection: close\r\n\r\n{bad}";

    for request in ["GET / HTTP/1.1\r\nHost: s\r\nBad Header\r\n\r\n", "NONSENSE\r\n\r\n", bad_json] {
        let mut stream = TcpStream::connect(address).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        let _ = stream.read_to_string(&mut response);
        assert!(response.starts_with("HTTP/1.1 400"), "{request:?}: {response}");
    }
    sleep(Duration::from_millis(200));
    drop(server);

    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("WARN  actix_http::h1::dispatcher"), "{text}");
    assert!(text.contains("POST /v1/encounters HTTP/1.1 400"), "{text}");
    assert!(!text.contains(" ERROR "), "{text}");
}

/// What `skirmish ARGS --help` prints.
fn help(args: &[&str]) -> String {
    let mut args = args.to_vec();
    args.push("--help");
    let output = run(&args);
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_version_names_skirmish() {
    let output = run(&["--version"]);

    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success());
    assert_eq!(text.trim(), format!("skirmish {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn each_subcommand_shows_only_its_own_options() {
    let serve_only =
        ["--workers", "--rate-limit-per-minute", "--sse-buffer", "--metrics-bind", "--webhooks-timeout-ms"];
    let cases: [(&[&str], &[&str], &[&str]); 5] = [
        (&["serve"], &["--bind", "--database-url", "--workers", "--api-key-file"], &[]),
        (&["healthcheck"], &["--bind"], &["--database-url"]),
        (&["keys"], &["--database-url"], &["--bind"]),
        (&["keys", "list"], &["--database-url"], &["--bind"]),
        (&["openapi"], &[], &["--bind", "--database-url"]),
    ];
    for (args, shown, not_shown) in cases {
        let text = help(args);
        for option in shown {
            assert!(text.contains(option), "`skirmish {args:?} --help` lacks {option}:\n{text}");
        }
        for option in not_shown.iter().chain(if args == ["serve"] { &[][..] } else { &serve_only[..] }) {
            assert!(!text.contains(option), "`skirmish {args:?} --help` shows {option}:\n{text}");
        }
    }
}

#[test]
fn a_setting_after_the_subcommand_wins_over_the_same_one_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = (path_text(&dir.path().join("before.db")), path_text(&dir.path().join("after.db")));

    let listed = run(&["--database-url", &before, "keys", "list", "--database-url", &after]);

    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    assert!(Path::new(&after).exists() && !Path::new(&before).exists());
}

#[test]
fn serve_takes_settings_from_both_sides_of_the_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let db = path_text(&dir.path().join("both.db"));
    let address = free_loopback_port();

    let _server = Server(
        skirmish(&["--bind", &address.to_string(), "serve", "--database-url", &db])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );

    assert!(wait_until_healthy(address), "`skirmish --bind {address} serve` serves there");
    assert!(Path::new(&db).exists());
}

#[test]
fn a_webhook_lease_outside_its_bounds_is_refused_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let db = path_text(&dir.path().join("lease.db"));
    let address = free_loopback_port().to_string();

    for lease in ["0", "999", "3600001"] {
        let refused =
            run(&["serve", "--bind", &address, "--database-url", &db, "--webhooks-lease-ms", lease]);
        let said = String::from_utf8_lossy(&refused.stderr);

        assert_eq!(refused.status.code(), Some(2), "lease {lease}: {said}");
        assert!(
            said.contains("--webhooks-lease-ms") && said.contains("1000..=3600000"),
            "lease {lease}: {said}"
        );
    }
    assert!(!Path::new(&db).exists(), "nothing was created");
}
