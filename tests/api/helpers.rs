//! The real application on 127.0.0.1 with a fresh database per test (a SQLite file, or in the
//! `api_postgres` target a PostgreSQL database copied from a migrated template), and a small
//! typed client for it. Helpers panic with a message saying what went wrong.

use reqwest::header::{CONTENT_TYPE, HeaderMap};
use reqwest::{Client, Method, RequestBuilder};
use serde_json::{Value, json};
use skirmish_api::{Application, Settings};
use skirmish_db::{ScratchDatabase, Store};
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::time::Duration;
use tempfile::TempDir;

pub use crate::binary::skirmish_binary;

type StopServer = Box<dyn FnOnce() -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

/// A running app, its database and a client bound to it.
pub struct TestApp {
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    pub client: Client,
    /// The SQLite file (on PostgreSQL a path where nothing is).
    pub db_path: PathBuf,
    /// What the app was started with (kept for restarts).
    pub settings: Settings,
    stop: StopServer,
    /// Keeps the database alive for as long as the app.
    db: TestDb,
}

/// A test's own database: a SQLite file in a temporary directory, or (in the `api_postgres`
/// target) a PostgreSQL database dropped with this.
pub struct TestDb {
    pub url: String,
    pub path: PathBuf,
    _dir: TempDir,
    _scratch: Option<ScratchDatabase>,
}

/// Whether this test binary runs the suite on PostgreSQL (`tests/api_postgres`).
pub fn on_postgres() -> bool {
    crate::ON_POSTGRES
}

/// A fresh database for one test, of the backend this test binary runs on. On PostgreSQL with
/// no server to reach (and CI not set) the whole binary stops here, successfully, after
/// `skirmish_db::test_server` said loudly on stderr that the leg is skipped.
pub fn fresh_db() -> TestDb {
    let (dir, path) = temp_db();
    if !on_postgres() {
        return TestDb { url: path.display().to_string(), path, _dir: dir, _scratch: None };
    }
    let Some(server) = skirmish_db::test_server() else { std::process::exit(0) };
    let scratch =
        ScratchDatabase::create(&server).unwrap_or_else(|e| panic!("cannot create a test database: {e}"));
    TestDb { url: scratch.url.clone(), path, _dir: dir, _scratch: Some(scratch) }
}

/// A response, read in full: status, headers and the body as JSON (or as a JSON string when the
/// body is not JSON, `null` when empty).
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Value,
}

/// What a rejected request must leave untouched: the encounter as read and its log length.
#[derive(Debug, PartialEq)]
pub struct Snapshot {
    pub encounter: Value,
    pub event_count: usize,
}

/// An API key made for a test: its id (to revoke it), its tenant and its secret.
#[derive(Debug, Clone)]
pub struct ApiKey {
    pub id: String,
    pub tenant: String,
    pub secret: String,
}

impl ApiKey {
    /// The `Authorization` header value that presents this key.
    pub fn bearer(&self) -> String {
        format!("Bearer {}", self.secret)
    }
}

/// Starts the app on a fresh database.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(&[], |_| {}).await.0
}

/// Starts the app with one API key per listed tenant (a tenant listed twice gets two keys).
pub async fn spawn_app_with_keys(tenants: &[&str]) -> (TestApp, Vec<ApiKey>) {
    spawn_app_with(tenants, |_| {}).await
}

/// Starts the app with one API key per listed tenant, made in the database before the server
/// starts (as `skirmish keys create` does), and the default settings changed by `configure`.
pub async fn spawn_app_with(
    tenants: &[&str],
    configure: impl FnOnce(&mut Settings),
) -> (TestApp, Vec<ApiKey>) {
    let db = fresh_db();
    let keys: Vec<ApiKey> = tenants
        .iter()
        .enumerate()
        .map(|(n, tenant)| ApiKey {
            id: format!("key_{n}_{tenant}"),
            tenant: (*tenant).to_owned(),
            secret: format!("sk_test_{n}_{tenant}_0123456789abcdef"),
        })
        .collect();
    if !keys.is_empty() {
        let store = Store::open(&db.url).unwrap_or_else(|e| panic!("cannot open the store: {e}"));
        for key in &keys {
            store
                .create_key(&key.id, &key.tenant, &key.secret)
                .unwrap_or_else(|e| panic!("cannot create a key for {}: {e}", key.tenant));
        }
    }
    let mut settings = Settings::new("127.0.0.1:0", db.url.clone());
    configure(&mut settings);
    (start(db, settings).await, keys)
}

/// Starts the app on the database at `url` (e.g. a copy made by `skirmish copy-data`); the
/// caller keeps that database alive.
#[allow(dead_code, reason = "only the SQLite target (tests/api) copies from SQLite")]
pub async fn spawn_app_on(url: &str) -> TestApp {
    let (dir, path) = temp_db();
    let db = TestDb { url: url.to_owned(), path, _dir: dir, _scratch: None };
    start(db, Settings::new("127.0.0.1:0", url.to_owned())).await
}

/// A fresh directory and the path of a database file in it (not created yet).
pub fn temp_db() -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("cannot create a temp dir: {e}"));
    let db_path = dir.path().join("skirmish.db");
    (dir, db_path)
}

/// Loopback on any free port, one worker, the defaults for everything else.
pub fn loopback_settings(db_path: &std::path::Path) -> Settings {
    Settings::new("127.0.0.1:0", db_path.display().to_string())
}

async fn start(db: TestDb, settings: Settings) -> TestApp {
    let app = Application::build(&settings).unwrap_or_else(|e| panic!("cannot build the app: {e}"));
    let address = format!("http://127.0.0.1:{}", app.port());
    let server = app.into_server();
    let handle = server.handle();
    tokio::spawn(server);
    let stop: StopServer = Box::new(move || Box::pin(async move { handle.stop(true).await }));
    let client = Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap_or_else(|e| panic!("cannot build the HTTP client: {e}"));
    let app = TestApp { address, client, db_path: db.path.clone(), settings, stop, db };
    app.wait_until_healthy().await;
    app
}

impl TestApp {
    /// Stops the server (dropping the client's pooled connections first so the graceful stop
    /// has nothing to wait for) and starts a new one on the same database file.
    pub async fn restart(self) -> TestApp {
        let TestApp { client, settings, stop, db, .. } = self;
        drop(client);
        stop().await;
        start(db, settings).await
    }

    /// Stops the server and hands back its database (kept until the answer is dropped).
    #[allow(dead_code, reason = "only the SQLite target (tests/api) copies from SQLite")]
    pub async fn stop(self) -> TestDb {
        let TestApp { client, stop, db, .. } = self;
        drop(client);
        stop().await;
        db
    }

    /// Another server on the same database, as a second replica (PostgreSQL): it shares no
    /// memory with this one; the database is dropped with this app, not with the replica.
    pub async fn replica(&self) -> TestApp {
        let (dir, path) = temp_db();
        let db = TestDb { url: self.db.url.clone(), path, _dir: dir, _scratch: None };
        start(db, self.settings.clone()).await
    }

    /// A second handle on the running app's database, e.g. to create or revoke keys.
    pub fn store(&self) -> Store {
        Store::open(&self.db.url).unwrap_or_else(|e| panic!("cannot open the store: {e}"))
    }

    /// The app as seen by one API key.
    pub fn with_key<'a>(&'a self, key: &'a ApiKey) -> AsKey<'a> {
        AsKey { app: self, key }
    }

    /// A request to `path` on this app, to send as it is or [`concurrently`].
    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.client.request(method, format!("{}{path}", self.address))
    }

    /// Binding happens before the server is spawned, so the first try normally succeeds.
    async fn wait_until_healthy(&self) {
        for _ in 0..50 {
            if let Ok(response) = self.client.get(format!("{}/healthz", self.address)).send().await
                && response.status().is_success()
            {
                return;
            }
            tokio::task::yield_now().await;
        }
        panic!("the app at {} never answered /healthz", self.address);
    }

    /// Sends a request; `body` is sent as JSON when given.
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        headers: &[(&str, &str)],
    ) -> Reply {
        let mut request = self.client.request(method.clone(), format!("{}{path}", self.address));
        if let Some(body) = body {
            request = request.json(body);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response =
            request.send().await.unwrap_or_else(|e| panic!("{method} {path} was not answered: {e}"));
        Reply::read(response).await
    }

    /// Sends raw bytes with the given content type (or none).
    pub async fn send_raw(
        &self,
        method: Method,
        path: &str,
        content_type: Option<&str>,
        body: Vec<u8>,
    ) -> Reply {
        let mut request = self.client.request(method.clone(), format!("{}{path}", self.address)).body(body);
        if let Some(content_type) = content_type {
            request = request.header(CONTENT_TYPE, content_type);
        }
        let response =
            request.send().await.unwrap_or_else(|e| panic!("{method} {path} was not answered: {e}"));
        Reply::read(response).await
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send(Method::GET, path, None, &[]).await
    }

    pub async fn delete(&self, path: &str) -> Reply {
        self.send(Method::DELETE, path, None, &[]).await
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> Reply {
        self.send(Method::POST, path, Some(body), &[]).await
    }

    pub async fn patch_json(&self, path: &str, body: &Value) -> Reply {
        self.send(Method::PATCH, path, Some(body), &[]).await
    }

    /// Creates an encounter; returns its JSON.
    pub async fn create_encounter(&self, ruleset: &str, name: &str) -> Value {
        let reply = self.post_json("/v1/encounters", &json!({"ruleset": ruleset, "name": name})).await;
        reply.expect_status(201, "create encounter").body
    }

    /// Creates an encounter; returns its id.
    pub async fn create_encounter_id(&self, ruleset: &str, name: &str) -> String {
        text(&self.create_encounter(ruleset, name).await["id"])
    }

    /// Adds a combatant; returns its id.
    pub async fn add_combatant(&self, encounter: &str, name: &str, side: &str, stats: Value) -> String {
        self.add_combatant_surprised(encounter, name, side, stats, false).await
    }

    /// Adds a combatant, Surprised or not; returns its id.
    pub async fn add_combatant_surprised(
        &self,
        encounter: &str,
        name: &str,
        side: &str,
        stats: Value,
        surprised: bool,
    ) -> String {
        let body = json!({"name": name, "side": side, "stats": stats, "surprised": surprised});
        let reply = self.post_json(&format!("/v1/encounters/{encounter}/combatants"), &body).await;
        text(&reply.expect_status(201, &format!("add {name}")).body["combatant"]["id"])
    }

    /// Rolls initiative; returns the response body.
    pub async fn roll_initiative(&self, encounter: &str, body: Value) -> Value {
        let reply = self.post_json(&format!("/v1/encounters/{encounter}/initiative"), &body).await;
        reply.expect_status(200, "roll initiative").body
    }

    /// Advances (`next_turn`, `next_round` or `end_encounter`); returns the response body.
    pub async fn advance(&self, encounter: &str, to: &str) -> Value {
        let reply = self.post_json(&format!("/v1/encounters/{encounter}/advance"), &json!({"to": to})).await;
        reply.expect_status(200, &format!("advance to {to}")).body
    }

    /// Adds an effect; returns its id.
    pub async fn add_effect(&self, encounter: &str, body: Value) -> String {
        let reply = self.post_json(&format!("/v1/encounters/{encounter}/effects"), &body).await;
        text(&reply.expect_status(201, "add effect").body["effect"]["id"])
    }

    /// GET /v1/encounters/{id}, which must succeed.
    pub async fn encounter(&self, encounter: &str) -> Value {
        self.get(&format!("/v1/encounters/{encounter}")).await.expect_status(200, "get encounter").body
    }

    /// The whole event log, read in pages of 1000.
    pub async fn events(&self, encounter: &str) -> Vec<Value> {
        let mut all = Vec::new();
        let mut after = 0;
        loop {
            let path = format!("/v1/encounters/{encounter}/events?after={after}&limit=1000");
            let page = self.get(&path).await.expect_status(200, "list events").body;
            let events = page["events"].as_array().cloned().unwrap_or_default();
            if events.is_empty() {
                return all;
            }
            after = page["next_after"].as_i64().unwrap_or_else(|| panic!("no next_after in {page}"));
            all.extend(events);
        }
    }

    /// The log entries, `data` included, of the events a change's response lists (a response
    /// names each event by `seq`, `kind` and `summary`; its data is read from the log).
    pub async fn logged(&self, encounter: &str, reply: &Value) -> Value {
        let listed = reply["events"].as_array().unwrap_or_else(|| panic!("no events in {reply}"));
        let first = listed.first().and_then(|e| e["seq"].as_i64()).unwrap_or(1);
        let path =
            format!("/v1/encounters/{encounter}/events?after={}&limit={}", first - 1, listed.len().max(1));
        let page = self.get(&path).await.expect_status(200, "list events").body;
        let entries = page["events"].as_array().cloned().unwrap_or_default();
        for (notice, entry) in listed.iter().zip(&entries) {
            for field in ["seq", "at", "kind", "summary"] {
                assert_eq!(notice[field], entry[field], "the response and the log agree on {field}");
            }
        }
        assert_eq!(entries.len(), listed.len(), "every listed event is in the log");
        Value::Array(entries)
    }

    /// The kinds of the whole event log, in order.
    pub async fn event_kinds(&self, encounter: &str) -> Vec<String> {
        self.events(encounter).await.iter().map(|e| text(&e["kind"])).collect()
    }

    pub async fn snapshot(&self, encounter: &str) -> Snapshot {
        Snapshot {
            encounter: self.encounter(encounter).await,
            event_count: self.events(encounter).await.len(),
        }
    }
}

/// The app as seen by one API key: every request carries `Authorization: Bearer <key>`.
pub struct AsKey<'a> {
    pub app: &'a TestApp,
    pub key: &'a ApiKey,
}

impl AsKey<'_> {
    /// Sends a request with this key (and any other headers); `body` is sent as JSON when given.
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        headers: &[(&str, &str)],
    ) -> Reply {
        let bearer = self.key.bearer();
        let mut all = vec![("Authorization", bearer.as_str())];
        all.extend_from_slice(headers);
        self.app.send(method, path, body, &all).await
    }

    /// A request to `path` carrying this key, to send as it is or [`concurrently`].
    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.app.request(method, path).header("Authorization", self.key.bearer())
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send(Method::GET, path, None, &[]).await
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> Reply {
        self.send(Method::POST, path, Some(body), &[]).await
    }

    /// Creates an encounter; returns its id.
    pub async fn create_encounter_id(&self, ruleset: &str, name: &str) -> String {
        let reply = self.post_json("/v1/encounters", &json!({"ruleset": ruleset, "name": name})).await;
        text(&reply.expect_status(201, &format!("create encounter as {}", self.key.tenant)).body["id"])
    }

    /// Adds a combatant; returns its id.
    pub async fn add_combatant(&self, encounter: &str, name: &str, side: &str, stats: Value) -> String {
        let body = json!({"name": name, "side": side, "stats": stats});
        let reply = self.post_json(&format!("/v1/encounters/{encounter}/combatants"), &body).await;
        text(
            &reply.expect_status(201, &format!("add combatant as {}", self.key.tenant)).body["combatant"]["id"],
        )
    }

    /// GET /v1/encounters/{id}, which must succeed.
    pub async fn encounter(&self, encounter: &str) -> Value {
        let reply = self.get(&format!("/v1/encounters/{encounter}")).await;
        reply.expect_status(200, &format!("get encounter as {}", self.key.tenant)).body
    }

    /// The whole event log (at most 1000 events, plenty for these tests).
    pub async fn events(&self, encounter: &str) -> Vec<Value> {
        let reply = self.get(&format!("/v1/encounters/{encounter}/events?limit=1000")).await;
        let page = reply.expect_status(200, &format!("list events as {}", self.key.tenant)).body;
        page["events"].as_array().cloned().unwrap_or_default()
    }

    pub async fn snapshot(&self, encounter: &str) -> Snapshot {
        Snapshot {
            encounter: self.encounter(encounter).await,
            event_count: self.events(encounter).await.len(),
        }
    }
}

/// Sends every request at once (each on its own task) and returns the replies in the order
/// given.
pub async fn concurrently(requests: Vec<RequestBuilder>) -> Vec<Reply> {
    let tasks: Vec<_> = requests
        .into_iter()
        .map(|request| {
            tokio::spawn(async move {
                let response = request.send().await.unwrap_or_else(|e| panic!("not answered: {e}"));
                Reply::read(response).await
            })
        })
        .collect();
    let mut replies = Vec::with_capacity(tasks.len());
    for task in tasks {
        replies.push(task.await.unwrap_or_else(|e| panic!("a request task failed: {e}")));
    }
    replies
}

impl Reply {
    /// Reads a whole response.
    pub async fn read(response: reqwest::Response) -> Self {
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = response.bytes().await.unwrap_or_else(|e| panic!("cannot read the body: {e}"));
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()))
        };
        Self { status, headers, body }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    pub fn etag(&self) -> Option<&str> {
        self.header("etag")
    }

    /// Panics unless the status is `status`; returns the reply for chaining.
    #[track_caller]
    pub fn expect_status(self, status: u16, what: &str) -> Self {
        assert_eq!(self.status, status, "{what}: unexpected status; body: {}", self.body);
        self
    }

    /// Asserts an RFC 9457 problem with this status naming this field (or none).
    #[track_caller]
    pub fn assert_problem(&self, status: u16, field: Option<&str>, case: &str) {
        assert_eq!(self.status, status, "{case}: status; body: {}", self.body);
        assert_eq!(self.header("content-type"), Some("application/problem+json"), "{case}: content type");
        assert_eq!(self.body["status"], json!(status), "{case}: problem status");
        let kind = self.body["type"].as_str().unwrap_or_default();
        assert!(kind.starts_with("urn:skirmish:problem:"), "{case}: problem type {kind:?}");
        assert!(self.body["title"].is_string(), "{case}: problem title");
        assert!(self.body["detail"].is_string(), "{case}: problem detail");
        assert_eq!(self.body["field"].as_str(), field, "{case}: field; body: {}", self.body);
    }
}

/// A JSON string's text; panics if the value is not a string.
#[track_caller]
pub fn text(value: &Value) -> String {
    value.as_str().unwrap_or_else(|| panic!("expected a JSON string, got {value}")).to_owned()
}

/// The values of one field across a JSON array (e.g. every die's `value`).
pub fn pluck(array: &Value, field: &str) -> Vec<Value> {
    array.as_array().map(|items| items.iter().map(|item| item[field].clone()).collect()).unwrap_or_default()
}

/// A Cepheus Engine stat block with the given DEX (the rest average).
pub fn cepheus(dex: i64) -> Value {
    json!({"str": 7, "dex": dex, "end": 7, "int": 7, "edu": 7, "soc": 7})
}

/// An Adeva d100 stat block with the given Agility (the rest 30).
pub fn adeva(ag: i64) -> Value {
    json!({"ws": 30, "bs": 30, "s": 30, "t": 30, "ag": ag, "int": 30, "per": 30, "wp": 30, "fel": 30})
}
