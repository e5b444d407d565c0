//! A tiny HTTP receiver on 127.0.0.1 for the webhook tests: one thread, one request per
//! connection (`Connection: close`), every request recorded with the time it arrived, each
//! answered by the test's own rule. Also an independent Standard Webhooks verifier.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use serde_json::Value;
use sha2::Sha256;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// One request as it arrived.
#[derive(Debug, Clone)]
pub struct Received {
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
    pub at: Instant,
    /// The status the receiver answered.
    pub answered: u16,
}

impl Received {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).map_or("", String::as_str)
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("a delivery body is not JSON: {e}"))
    }
}

/// An answer: status, extra headers, body.
pub type Answer = (u16, Vec<(String, String)>, String);

type Rule = Box<dyn Fn(usize, &Received) -> Answer + Send + Sync>;

/// The receiver; stops accepting when dropped.
pub struct Receiver {
    pub url: String,
    received: Arc<Mutex<Vec<Received>>>,
    rule: Arc<Mutex<Rule>>,
    stop: Arc<AtomicBool>,
    address: std::net::SocketAddr,
}

impl Receiver {
    /// Listens on a free port; `rule` answers request number n (from 0).
    pub fn start(rule: impl Fn(usize, &Received) -> Answer + Send + Sync + 'static) -> Self {
        let listener =
            TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("cannot bind a receiver: {e}"));
        let address = listener.local_addr().unwrap_or_else(|e| panic!("no receiver address: {e}"));
        let received = Arc::new(Mutex::new(Vec::new()));
        let rule: Arc<Mutex<Rule>> = Arc::new(Mutex::new(Box::new(rule)));
        let stop = Arc::new(AtomicBool::new(false));
        let (seen, answer, stopped) = (received.clone(), rule.clone(), stop.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = stream {
                    serve_one(stream, &seen, &answer);
                }
            }
        });
        Self { url: format!("http://{address}/hook"), received, rule, stop, address }
    }

    /// Answers from now on by `rule`.
    pub fn answer_with(&self, rule: impl Fn(usize, &Received) -> Answer + Send + Sync + 'static) {
        *self.rule.lock().unwrap_or_else(PoisonError::into_inner) = Box::new(rule);
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Waits (at most `within`) until `done` holds for what arrived; panics with what did.
    pub async fn wait_until(
        &self,
        within: Duration,
        what: &str,
        done: impl Fn(&[Received]) -> bool,
    ) -> Vec<Received> {
        let start = Instant::now();
        loop {
            let received = self.received();
            if done(&received) {
                return received;
            }
            if start.elapsed() > within {
                let bodies: Vec<String> = received
                    .iter()
                    .map(|r| format!("{} {}", r.answered, String::from_utf8_lossy(&r.body)))
                    .collect();
                panic!("{what}: not within {within:?}; received {} requests: {bodies:#?}", received.len());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.address);
    }
}

fn serve_one(stream: TcpStream, seen: &Mutex<Vec<Received>>, rule: &Mutex<Rule>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut reader = BufReader::new(&stream);
    let mut headers = HashMap::new();
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_owned());
        }
    }
    let length: usize = headers.get("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut body = vec![0; length.min(1 << 20)];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let mut received = Received { headers, body, at: Instant::now(), answered: 0 };
    let mut seen = seen.lock().unwrap_or_else(PoisonError::into_inner);
    let (status, extra, text) = (rule.lock().unwrap_or_else(PoisonError::into_inner))(seen.len(), &received);
    received.answered = status;
    seen.push(received);
    drop(seen);
    let mut response =
        format!("HTTP/1.1 {status} X\r\nConnection: close\r\nContent-Length: {}\r\n", text.len());
    for (name, value) in extra {
        response.push_str(&format!("{name}: {value}\r\n"));
    }
    response.push_str("\r\n");
    response.push_str(&text);
    let mut stream = stream;
    let _ = stream.write_all(response.as_bytes());
}

/// Whether `received` carries a valid Standard Webhooks signature for `secret`, computed here
/// independently of the server's code.
pub fn signature_is_valid(secret: &str, received: &Received) -> bool {
    let Some(key) = secret.strip_prefix("whsec_").and_then(|k| STANDARD.decode(k).ok()) else { return false };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(&key) else { return false };
    let signed = format!("{}.{}.", received.header("webhook-id"), received.header("webhook-timestamp"));
    mac.update(signed.as_bytes());
    mac.update(&received.body);
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    received.header("webhook-signature").split(' ').any(|one| one == expected)
}

/// `(status, no headers, body)`.
pub fn plain(status: u16, body: &str) -> Answer {
    (status, Vec::new(), body.to_owned())
}
