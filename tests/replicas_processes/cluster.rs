//! Several `skirmish serve` processes on one fresh PostgreSQL database, each on its own port of
//! 127.0.0.1, in open mode (no API keys) with rate limits off so the load measures the store.

use crate::binary::{Binary, free_port, install_tls_provider};
use reqwest::{Client, Method};
use serde_json::{Value, json};
use skirmish_db::ScratchDatabase;
use std::time::{Duration, Instant};

/// The replicas (field order: they stop before their database is dropped).
pub struct Cluster {
    replicas: Vec<Option<Binary>>,
    ports: Vec<u16>,
    env: Vec<(&'static str, String)>,
    /// Plain requests; 30 s at most each.
    pub client: Client,
    _db: ScratchDatabase,
}

/// An HTTP client for the tests: no proxy, no redirects, `timeout` per request if any.
pub fn http_client(timeout: Option<Duration>) -> Client {
    install_tls_provider();
    let builder = Client::builder().no_proxy().redirect(reqwest::redirect::Policy::none());
    let builder = match timeout {
        Some(timeout) => builder.timeout(timeout),
        None => builder,
    };
    builder.build().unwrap_or_else(|e| panic!("cannot build an HTTP client: {e}"))
}

impl Cluster {
    /// `count` replicas on a fresh database, `env` added to every one's environment; `None`
    /// (after a loud note on stderr) when no PostgreSQL server answers and CI is not set.
    pub async fn start(count: usize, env: &[(&'static str, String)]) -> Option<Self> {
        let server = skirmish_db::test_server()?;
        let db = ScratchDatabase::create(&server).unwrap_or_else(|e| panic!("cannot create a database: {e}"));
        let mut all = vec![
            ("SKIRMISH_DATABASE_URL", db.url.clone()),
            ("SKIRMISH_RATE_LIMIT_PER_MINUTE", "0".to_owned()),
            ("SKIRMISH_WORKERS", "2".to_owned()),
            ("RUST_LOG", "warn".to_owned()),
        ];
        all.extend(env.iter().cloned());
        let mut cluster = Self {
            replicas: Vec::new(),
            ports: Vec::new(),
            env: all,
            client: http_client(Some(Duration::from_secs(30))),
            _db: db,
        };
        for _ in 0..count {
            cluster.add().await;
        }
        Some(cluster)
    }

    /// Starts one more replica on a free port; its index.
    pub async fn add(&mut self) -> usize {
        let port = free_port();
        let replica = Binary::start_on(port, &self.env).await;
        self.ports.push(port);
        self.replicas.push(Some(replica));
        self.replicas.len() - 1
    }

    /// `http://127.0.0.1:<port>` of replica `index` (running or not).
    pub fn address(&self, index: usize) -> String {
        format!("http://127.0.0.1:{}", self.ports[index])
    }

    /// Every replica's address, in order.
    pub fn addresses(&self) -> Vec<String> {
        (0..self.ports.len()).map(|index| self.address(index)).collect()
    }

    /// SIGKILL to replica `index`: it ends at once, in the middle of whatever it was doing.
    pub fn kill(&mut self, index: usize) {
        let mut replica =
            self.replicas[index].take().unwrap_or_else(|| panic!("replica {index} is not running"));
        replica.kill();
    }

    /// Starts replica `index` again, on its port and the same database; how long it took to
    /// answer `/healthz`.
    pub async fn restart(&mut self, index: usize) -> Duration {
        assert!(self.replicas[index].is_none(), "replica {index} is running");
        let started = Instant::now();
        let replica = Binary::start_on(self.ports[index], &self.env).await;
        let took = started.elapsed();
        self.replicas[index] = Some(replica);
        took
    }

    /// What replica `index` wrote to stderr (empty once killed): for failure messages.
    pub fn log(&self, index: usize) -> String {
        self.replicas[index].as_ref().map(Binary::log).unwrap_or_default()
    }

    /// One request to replica `index`: status and JSON body (`null` if none); panics if it is
    /// not answered.
    pub async fn send(&self, index: usize, method: Method, path: &str, body: Option<&Value>) -> (u16, Value) {
        let mut request = self.client.request(method.clone(), format!("{}{path}", self.address(index)));
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request
            .send()
            .await
            .unwrap_or_else(|e| panic!("{method} {path} on replica {index}: {e}\n{}", self.log(index)));
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// Creates a Cepheus Engine encounter through replica `index`; its id.
    pub async fn create_encounter(&self, index: usize, name: &str) -> String {
        let body = json!({"ruleset": "cepheus-engine", "name": name});
        let (status, created) = self.send(index, Method::POST, "/v1/encounters", Some(&body)).await;
        assert_eq!(status, 201, "create {name}: {created}");
        created["id"].as_str().unwrap_or_else(|| panic!("no id in {created}")).to_owned()
    }
}

/// The body that adds combatant `name` (average Cepheus stats, side `s`).
pub fn combatant(name: &str) -> Value {
    json!({"name": name, "side": "s", "stats": {"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7}})
}
