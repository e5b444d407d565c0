//! Crash safety and graceful shutdown of the real `skirmish` binary on a SQLite file: a SIGKILL in
//! the middle of a stream of changes loses none that were acknowledged and leaves none half
//! applied; a SIGTERM lets the requests in flight finish and the process exit cleanly.
//!
//! The client is plain HTTP/1.1 over `TcpStream`, one request per connection, so the test sees
//! exactly what the server sent: a whole response, nothing at all, or part of one.

#![expect(clippy::unwrap_used, clippy::expect_used, reason = "test helpers fail loudly on broken setup")]

use serde_json::{Value, json};
use skirmish_db::Store;
use std::collections::HashSet;
use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Client threads sending changes at once.
const THREADS: usize = 3;
/// Encounters the changes are spread over (an encounter holds at most 200 combatants).
const ENCOUNTERS: usize = 8;
/// Requests per stream, all threads together: at most 190 or so per encounter.
const MAX_REQUESTS: usize = 1500;
/// How long a stream may run at most.
const MAX_STREAM: Duration = Duration::from_secs(10);
/// Connect, read and write timeout of every request.
const IO_TIMEOUT: Duration = Duration::from_secs(10);

// ---------------------------------------------------------------------------------------------
// The server process

/// The binary serving a database file on a free loopback port. Dropping it kills the process,
/// so a failed assertion leaks nothing.
struct Server {
    child: Child,
    address: SocketAddr,
    log: PathBuf,
}

static LOGS: AtomicUsize = AtomicUsize::new(0);

impl Server {
    /// Starts the binary on `db` and waits until /healthz answers. Tries another port if the
    /// process gives up (something else may take the port between our probe and its bind).
    fn start(db: &Path) -> Self {
        let mut failures = Vec::new();
        for _ in 0..3 {
            let address = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
            let log = db.with_extension(format!("{}.log", LOGS.fetch_add(1, SeqCst)));
            let child = Command::new(env!("CARGO_BIN_EXE_skirmish"))
                .env("SKIRMISH_BIND", address.to_string())
                .env("SKIRMISH_DATABASE_URL", db)
                .env("RUST_LOG", "warn")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(File::create(&log).expect("a log file next to the database"))
                .spawn()
                .expect("the skirmish binary starts");
            let mut server = Self { child, address, log };
            match server.wait_until_healthy() {
                Ok(()) => return server,
                Err(failure) => failures.push(failure),
            }
        }
        panic!("the server never became healthy: {failures:#?}");
    }

    /// Polls /healthz, 100 × 50 ms at most.
    fn wait_until_healthy(&mut self) -> Result<(), String> {
        for _ in 0..100 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Err(format!("exited with {status}: {}", self.log()));
            }
            if let Outcome::Answered { status: 200, .. } = request(self.address, "GET", "/healthz", None) {
                return Ok(());
            }
            thread::sleep(Duration::from_millis(50));
        }
        Err(format!("no healthy answer from {} in 5 s: {}", self.address, self.log()))
    }

    /// SIGKILL: no chance to finish anything.
    fn sigkill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM: actix stops accepting and finishes what it has in hand.
    fn sigterm(&self) {
        let status = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap();
        assert!(status.success(), "kill -TERM failed: {status}");
    }

    fn wait_for_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            thread::sleep(Duration::from_millis(50));
        }
        None
    }

    /// What the server wrote to stderr (warnings and errors).
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------------
// A tiny HTTP/1.1 client

/// How one request ended, as the client saw it.
#[derive(Debug)]
#[expect(dead_code, reason = "the reasons are read through Debug, in failure messages")]
enum Outcome {
    /// A whole response: status line, headers and every body byte `Content-Length` announced.
    Answered { status: u16, body: Value },
    /// Refused, or closed before a single byte of response: never acknowledged.
    Unanswered(String),
    /// Part of a response and then nothing more.
    Truncated(String),
}

/// `method path` with `body` as JSON, asking the server to close the connection afterwards.
fn encode(method: &str, path: &str, body: Option<&Value>) -> Vec<u8> {
    let body = body.map(Value::to_string);
    let content_type = if body.is_some() { "Content-Type: application/json\r\n" } else { "" };
    let body = body.unwrap_or_default();
    format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{content_type}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn connect(address: SocketAddr) -> std::io::Result<TcpStream> {
    let stream = TcpStream::connect_timeout(&address, IO_TIMEOUT)?;
    stream.set_read_timeout(Some(IO_TIMEOUT))?;
    stream.set_write_timeout(Some(IO_TIMEOUT))?;
    Ok(stream)
}

fn request(address: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> Outcome {
    let bytes = encode(method, path, body);
    match connect(address).and_then(|mut stream| stream.write_all(&bytes).map(|()| stream)) {
        Ok(stream) => read_response(stream),
        Err(error) => Outcome::Unanswered(format!("send: {error}")),
    }
}

/// Reads one response, stopping as soon as it is whole.
fn read_response(mut stream: TcpStream) -> Outcome {
    let mut received = Vec::new();
    let mut chunk = [0; 8192];
    let ended = loop {
        if let Some(outcome) = whole_response(&received) {
            return outcome;
        }
        match stream.read(&mut chunk) {
            Ok(0) => break "closed".to_owned(),
            Ok(n) => received.extend_from_slice(&chunk[..n]),
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            Err(error) => break error.to_string(),
        }
    };
    if received.is_empty() {
        Outcome::Unanswered(format!("no response: {ended}"))
    } else {
        let text = String::from_utf8_lossy(&received);
        Outcome::Truncated(format!("{ended} after {} bytes: {text:?}", received.len()))
    }
}

/// The response in `bytes` if it is whole: a head, then as many body bytes as the head announces.
fn whole_response(bytes: &[u8]) -> Option<Outcome> {
    let head_end = bytes.windows(4).position(|window| window == b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(&bytes[..head_end]).ok()?;
    let status = head.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()?;
    let length: usize = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("content-length").then(|| value.trim().parse().ok())?
    })?;
    let body = bytes.get(head_end..head_end + length)?;
    let body = serde_json::from_slice(body).unwrap_or_else(|_| String::from_utf8_lossy(body).into());
    Some(Outcome::Answered { status, body })
}

fn get_json(address: SocketAddr, path: &str) -> Value {
    match request(address, "GET", path, None) {
        Outcome::Answered { status: 200, body } => body,
        other => panic!("GET {path}: {other:?}"),
    }
}

fn create_encounter(address: SocketAddr) -> String {
    let body = json!({"ruleset": "lur-asko", "name": "crash"});
    match request(address, "POST", "/v1/encounters", Some(&body)) {
        Outcome::Answered { status: 201, body } => body["id"].as_str().unwrap().to_owned(),
        other => panic!("creating an encounter: {other:?}"),
    }
}

fn combatants_path(encounter: &str) -> String {
    format!("/v1/encounters/{encounter}/combatants")
}

fn new_combatant(name: &str) -> Value {
    json!({"name": name, "side": "a", "stats": {}})
}

// ---------------------------------------------------------------------------------------------
// Streams of changes

/// One combatant a client asked for, and what came back.
#[derive(Debug)]
struct Attempt {
    thread: usize,
    encounter: String,
    name: String,
    outcome: Outcome,
    /// Whether the server had already been signalled when the client saw the outcome.
    after_signal: bool,
}

impl Attempt {
    /// The version and combatant id of a 201 response.
    fn ack(&self) -> Option<(i64, &str)> {
        match &self.outcome {
            Outcome::Answered { status: 201, body } => {
                Some((body["version"].as_i64().unwrap(), body["combatant"]["id"].as_str().unwrap()))
            }
            _ => None,
        }
    }
}

/// What the client threads share: where to send, how much, and what the server was told.
struct Stream {
    address: SocketAddr,
    encounters: Vec<String>,
    deadline: Instant,
    sent: AtomicUsize,
    acks: AtomicUsize,
    signalled: AtomicBool,
}

impl Stream {
    fn new(address: SocketAddr, encounters: Vec<String>) -> Self {
        let deadline = Instant::now() + MAX_STREAM;
        let (sent, acks, signalled) = (AtomicUsize::new(0), AtomicUsize::new(0), AtomicBool::new(false));
        Self { address, encounters, deadline, sent, acks, signalled }
    }

    /// Adds combatants `t{thread}-{n}`, round-robin over the encounters, one request at a time,
    /// until the request budget or the time runs out or a request is not answered 201.
    fn add_combatants(&self, thread: usize) -> Vec<Attempt> {
        let mut attempts = Vec::new();
        for n in 0.. {
            if Instant::now() >= self.deadline || self.sent.fetch_add(1, SeqCst) >= MAX_REQUESTS {
                break;
            }
            let encounter = self.encounters[(thread + n) % self.encounters.len()].clone();
            let name = format!("t{thread}-{n}");
            let outcome =
                request(self.address, "POST", &combatants_path(&encounter), Some(&new_combatant(&name)));
            let after_signal = self.signalled.load(SeqCst);
            let attempt = Attempt { thread, encounter, name, outcome, after_signal };
            let acked = attempt.ack().is_some();
            attempts.push(attempt);
            if !acked {
                break;
            }
            self.acks.fetch_add(1, SeqCst);
        }
        attempts
    }

    /// Runs the client threads, calls `signal` on this thread while they send, and returns every
    /// attempt once they have all stopped.
    fn run(&self, signal: impl FnOnce(&Self)) -> Vec<Attempt> {
        thread::scope(|scope| {
            let clients: Vec<_> =
                (0..THREADS).map(|thread| scope.spawn(move || self.add_combatants(thread))).collect();
            signal(self);
            clients.into_iter().flat_map(|client| client.join().unwrap()).collect()
        })
    }

    fn acks(&self) -> usize {
        self.acks.load(SeqCst)
    }
}

/// Between 300 and 800 ms, different from run to run.
fn random_ish_delay() -> Duration {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.subsec_nanos());
    Duration::from_millis(300 + u64::from(nanos % 500))
}

/// Waits for `until` to hold, or for `limit` to pass.
fn wait_for(limit: Duration, until: impl Fn() -> bool) {
    let start = Instant::now();
    while !until() && start.elapsed() < limit {
        thread::sleep(Duration::from_millis(1));
    }
}

// ---------------------------------------------------------------------------------------------
// What must hold after a restart

/// Checks that the encounter's state and its log tell one story (seqs 1..n without gaps, the
/// version one per change, the combatants stored exactly those the log added, in order) and that
/// every acknowledged addition sits in the log at the place its version says. Returns the names
/// of the combatants stored.
fn assert_state_matches_log(address: SocketAddr, encounter: &str, attempts: &[Attempt]) -> Vec<String> {
    let state = get_json(address, &format!("/v1/encounters/{encounter}"));
    let log = get_json(address, &format!("/v1/encounters/{encounter}/events?limit=1000"));
    let log = log["events"].as_array().unwrap();

    let seqs: Vec<i64> = log.iter().map(|event| event["seq"].as_i64().unwrap()).collect();
    assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>(), "the log of {encounter} has gaps");
    let kinds: Vec<&str> = log.iter().map(|event| event["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds.first(), Some(&"encounter_created"));
    assert!(kinds[1..].iter().all(|kind| *kind == "combatant_added"), "{encounter}: {kinds:?}");
    assert_eq!(
        state["version"],
        json!(log.len()),
        "{encounter}: the version is 1 at creation plus 1 per change, and each change logged one event"
    );
    let pair =
        |id: &Value, name: &Value| (id.as_str().unwrap().to_owned(), name.as_str().unwrap().to_owned());
    let logged: Vec<_> =
        log[1..].iter().map(|event| pair(&event["data"]["combatant_id"], &event["data"]["name"])).collect();
    let stored: Vec<_> =
        state["combatants"].as_array().unwrap().iter().map(|c| pair(&c["id"], &c["name"])).collect();
    assert_eq!(stored, logged, "{encounter}: the combatants stored are not the ones the log added");

    for attempt in attempts.iter().filter(|attempt| attempt.encounter == encounter) {
        let Some((version, id)) = attempt.ack() else { continue };
        let expected = (id.to_owned(), attempt.name.clone());
        // Version v is seq v; `logged` starts at seq 2.
        let logged_there = usize::try_from(version - 2).ok().and_then(|index| logged.get(index));
        assert_eq!(
            logged_there,
            Some(&expected),
            "{encounter}: acknowledged {attempt:?} is not at seq {version}"
        );
    }
    stored.into_iter().map(|(_, name)| name).collect()
}

/// The attempts for which `bad` holds, for an assertion's message.
fn those(attempts: &[Attempt], bad: impl Fn(&Attempt) -> bool) -> Vec<&Attempt> {
    attempts.iter().filter(|attempt| bad(attempt)).collect()
}

/// Answered, but not with 201: the server turned down a valid change.
fn refused(attempt: &Attempt) -> bool {
    matches!(attempt.outcome, Outcome::Answered { status, .. } if status != 201)
}

/// Not acknowledged although the server had not been signalled yet.
fn failed_before_signal(attempt: &Attempt) -> bool {
    attempt.ack().is_none() && !attempt.after_signal
}

/// How many requests ended each way, for the log of a run.
fn tally(attempts: &[Attempt]) -> String {
    let count = |kind: fn(&Outcome) -> bool| attempts.iter().filter(|attempt| kind(&attempt.outcome)).count();
    format!(
        "{} requests: {} answered 201, {} unanswered, {} truncated",
        attempts.len(),
        attempts.iter().filter(|attempt| attempt.ack().is_some()).count(),
        count(|outcome| matches!(outcome, Outcome::Unanswered(_))),
        count(|outcome| matches!(outcome, Outcome::Truncated(_))),
    )
}

/// The names the server acknowledged.
fn acknowledged(attempts: &[Attempt]) -> HashSet<&str> {
    attempts.iter().filter(|attempt| attempt.ack().is_some()).map(|attempt| attempt.name.as_str()).collect()
}

// ---------------------------------------------------------------------------------------------
// The tests

#[test]
fn acknowledged_mutations_survive_sigkill_and_nothing_is_half_applied() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db");
    let mut server = Server::start(&db);
    let encounters: Vec<String> = (0..ENCOUNTERS).map(|_| create_encounter(server.address)).collect();
    let stream = Stream::new(server.address, encounters.clone());

    let delay = random_ish_delay();
    let started = Instant::now();
    let attempts = stream.run(|stream| {
        // A random-ish moment once a few dozen changes are through, sooner on a fast machine.
        let ready = || stream.acks() >= 1000 || (started.elapsed() >= delay && stream.acks() >= 50);
        wait_for(MAX_STREAM / 2, ready);
        stream.signalled.store(true, SeqCst);
        server.sigkill();
    });
    eprintln!("SIGKILL after {:?} (planned {delay:?}); {}", started.elapsed(), tally(&attempts));

    let acked = acknowledged(&attempts);
    assert!(acked.len() >= 50, "too few changes before the kill to prove anything: {}", acked.len());
    let early = those(&attempts, failed_before_signal);
    assert!(early.is_empty(), "requests failed before the kill: {early:#?}");
    let turned_down = those(&attempts, refused);
    assert!(turned_down.is_empty(), "valid changes refused: {turned_down:#?}");

    // (c) first, on the file exactly as the crash left it.
    let store = Store::open(&db.display().to_string()).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok", "the database file is damaged after SIGKILL");
    drop(store);

    let server = Server::start(&db);
    let stored: Vec<String> = encounters
        .iter()
        .flat_map(|encounter| assert_state_matches_log(server.address, encounter, &attempts))
        .collect();
    let stored: HashSet<&str> = stored.iter().map(String::as_str).collect();
    let lost: Vec<_> = acked.difference(&stored).collect();
    assert!(lost.is_empty(), "acknowledged and lost after SIGKILL: {lost:?}");
    let attempted: HashSet<&str> = attempts.iter().map(|attempt| attempt.name.as_str()).collect();
    let phantoms: Vec<_> = stored.difference(&attempted).collect();
    assert!(phantoms.is_empty(), "stored but never sent: {phantoms:?}");
    let applied_unacked = stored.len() - acked.len();
    eprintln!("{} stored after the restart, {applied_unacked} of them in flight at the kill", stored.len());
}

#[test]
fn sigterm_lets_in_flight_requests_finish_and_exits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db");
    let mut server = Server::start(&db);
    let encounters: Vec<String> = (0..ENCOUNTERS).map(|_| create_encounter(server.address)).collect();
    let stream = Stream::new(server.address, encounters.clone());

    // Requests the server holds when the signal comes: the head and most of the body sent, the
    // last bytes held back until after SIGTERM.
    let half_sent: Vec<_> = (0..3)
        .map(|n| {
            let (encounter, name) = (encounters[n].clone(), format!("slow-{n}"));
            let bytes = encode("POST", &combatants_path(&encounter), Some(&new_combatant(&name)));
            let (head, rest) = bytes.split_at(bytes.len() - 5);
            let mut connection = connect(server.address).unwrap();
            connection.write_all(head).unwrap();
            (encounter, name, connection, rest.to_vec())
        })
        .collect();
    thread::sleep(Duration::from_millis(200));

    let mut attempts = stream.run(|stream| {
        wait_for(Duration::from_secs(5), || stream.acks() >= 50);
        stream.signalled.store(true, SeqCst);
        server.sigterm();
    });
    let signalled = Instant::now();
    eprintln!("SIGTERM; the burst: {}", tally(&attempts));
    thread::sleep(Duration::from_millis(300));
    for (n, (encounter, name, mut connection, rest)) in half_sent.into_iter().enumerate() {
        let outcome = match connection.write_all(&rest) {
            Ok(()) => read_response(connection),
            Err(error) => Outcome::Unanswered(format!("send: {error}")),
        };
        attempts.push(Attempt { thread: THREADS + n, encounter, name, outcome, after_signal: true });
    }

    let status = server.wait_for_exit(Duration::from_secs(35));
    let status = status.unwrap_or_else(|| panic!("still running 35 s after SIGTERM: {}", server.log()));
    assert!(status.success(), "exited with {status} after SIGTERM: {}", server.log());
    eprintln!("exited ({status}) {:?} after SIGTERM", signalled.elapsed());
    let truncated = those(&attempts, |attempt| matches!(attempt.outcome, Outcome::Truncated(_)));
    assert!(truncated.is_empty(), "responses cut off by the shutdown: {truncated:#?}");
    let turned_down = those(&attempts, refused);
    assert!(turned_down.is_empty(), "valid changes refused: {turned_down:#?}");
    let early = those(&attempts, failed_before_signal);
    assert!(early.is_empty(), "requests failed before SIGTERM: {early:#?}");
    let dropped = those(&attempts, |attempt| attempt.thread >= THREADS && attempt.ack().is_none());
    assert!(dropped.is_empty(), "requests in hand at SIGTERM were not finished: {dropped:#?}");

    let server = Server::start(&db);
    let stored: Vec<String> = encounters
        .iter()
        .flat_map(|encounter| assert_state_matches_log(server.address, encounter, &attempts))
        .collect();
    let stored: HashSet<&str> = stored.iter().map(String::as_str).collect();
    let acked = acknowledged(&attempts);
    let lost: Vec<_> = acked.difference(&stored).collect();
    assert!(lost.is_empty(), "acknowledged and lost after SIGTERM: {lost:?}");
    let unanswered: Vec<_> = stored.difference(&acked).collect();
    assert!(unanswered.is_empty(), "applied but never answered: {unanswered:?}");
    assert_eq!(Store::open(&db.display().to_string()).unwrap().integrity_check().unwrap(), "ok");
}
