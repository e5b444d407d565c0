//! The real `skirmish` binary as a child process: `skirmish serve` on 127.0.0.1 and a port of
//! the test's choosing, its stderr kept in a file, killed (SIGKILL) when dropped. Shared by the
//! tests that need the process itself (its log, its environment, its exit, a kill) and by
//! `tests/replicas_processes`, which starts several on one PostgreSQL database.

use reqwest::Method;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Longest a server may take to answer `/healthz` after it was started.
const START_WITHIN: Duration = Duration::from_secs(30);

/// The `skirmish` binary beside this test binary (`cargo test --workspace` builds it; with a
/// narrower run, `cargo build --bin skirmish` first).
pub fn skirmish_binary() -> PathBuf {
    let test_binary = std::env::current_exe().unwrap_or_else(|e| panic!("no test binary path: {e}"));
    let debug_dir =
        test_binary.parent().and_then(|deps| deps.parent()).unwrap_or_else(|| panic!("no target dir"));
    let binary = debug_dir.join("skirmish");
    assert!(binary.exists(), "{} is missing: run `cargo build --bin skirmish` first", binary.display());
    binary
}

/// Installs the TLS provider reqwest's clients need in this process (the workspace builds
/// reqwest without one); a second call is a no-op.
pub fn install_tls_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// A port free on 127.0.0.1 now, chosen below the kernel's ephemeral range (32768 and up), so
/// no outgoing connection of this test run (the PostgreSQL pools open many) can hold it by the time
/// the server binds it. Successive calls in one process walk a sequence seeded by the process id,
/// so parallel tests do not pick the same port.
pub fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static CALLS: AtomicU32 = AtomicU32::new(0);
    for _ in 0..2_000 {
        let step = CALLS.fetch_add(1, Ordering::Relaxed);
        let offset =
            (std::process::id().wrapping_mul(7_919).wrapping_add(step.wrapping_mul(104_729))) % 12_000;
        let port = 20_000 + offset as u16;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port in 20000-31999 after 2,000 tries")
}

/// One `skirmish serve` process; killed and reaped when dropped.
pub struct Binary {
    child: Child,
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Binary {
    /// Starts a server on a free port and waits until it answers `/healthz` (panics, showing its
    /// log, if it does not). Its database is a fresh SQLite file unless `env` names another
    /// (`SKIRMISH_DATABASE_URL`); `env` is applied last, so it may change any default.
    pub async fn start(env: &[(&str, String)]) -> Self {
        Self::start_on(free_port(), env).await
    }

    /// As [`Binary::start`], on `port` (e.g. the port of a replica that was killed).
    pub async fn start_on(port: u16, env: &[(&str, String)]) -> Self {
        let mut binary = Self::spawn(port, env);
        assert!(
            binary.answers().await,
            "the server on port {port} never answered /healthz:\n{}",
            binary.log()
        );
        binary
    }

    /// Starts a server on `port` without waiting for it.
    pub fn spawn(port: u16, env: &[(&str, String)]) -> Self {
        install_tls_provider();
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let log = dir.path().join("server.log");
        let log_file = std::fs::File::create(&log).unwrap_or_else(|e| panic!("{e}"));
        let mut command = Command::new(skirmish_binary());
        command
            .arg("serve")
            .env("SKIRMISH_BIND", format!("127.0.0.1:{port}"))
            .env("SKIRMISH_DATABASE_URL", dir.path().join("s.db").display().to_string())
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(log_file);
        for (name, value) in env {
            command.env(name, value);
        }
        let child = command.spawn().unwrap_or_else(|e| panic!("cannot start the server: {e}"));
        Binary { child, address: format!("http://127.0.0.1:{port}"), log, _dir: dir }
    }

    /// Whether the server answers `/healthz` with 200 within [`START_WITHIN`] (false at once
    /// if it exited).
    pub async fn answers(&mut self) -> bool {
        let client = reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_secs(5))
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        let started = Instant::now();
        for _ in 0..600 {
            if matches!(self.child.try_wait(), Ok(Some(_))) || started.elapsed() > START_WITHIN {
                return false;
            }
            let health = client.get(format!("{}/healthz", self.address)).send().await;
            if health.is_ok_and(|r| r.status().is_success()) {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        false
    }

    /// Waits (at most 20 s) for the server to exit; kills it and panics if it does not.
    pub async fn exit(&mut self, what: &str) -> ExitStatus {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(20) {
            if let Some(status) = self.child.try_wait().unwrap_or_else(|e| panic!("{what}: {e}")) {
                return status;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        panic!("{what} did not exit");
    }

    /// SIGKILL: the process ends at once, with no chance to finish anything; reaped here.
    pub fn kill(&mut self) {
        self.child.kill().unwrap_or_else(|e| panic!("cannot kill the server: {e}"));
        let _ = self.child.wait();
    }

    /// One request with a fresh client: status and JSON body (`null` if none).
    pub async fn send(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let client = reqwest::Client::builder().no_proxy().build().unwrap_or_else(|e| panic!("{e}"));
        let mut request = client.request(method, format!("{}{path}", self.address));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap_or_else(|e| panic!("{path}: {e}"));
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// What the server wrote to stderr so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_else(|e| panic!("{e}"))
    }
}
