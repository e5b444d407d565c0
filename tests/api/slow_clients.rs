//! Clients that hold connections: a body that stops arriving is cut with 408 after the body
//! timeout, and one address cannot hold more connections than its cap. Plain sockets, so the
//! test controls every byte and every silence.

use crate::helpers::{ApiKey, spawn_app_with};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The address part of `http://127.0.0.1:PORT`.
fn socket_of(address: &str) -> SocketAddr {
    address.trim_start_matches("http://").parse().unwrap_or_else(|e| panic!("{address}: {e}"))
}

/// An authenticated POST announcing a 100-byte body and sending its first 14 bytes only.
fn stalled_post(key: &ApiKey) -> String {
    let partial = r#"{"ruleset": "a"#;
    assert_eq!(partial.len(), 14);
    format!(
        "POST /v1/encounters HTTP/1.1\r\nHost: skirmish\r\nAuthorization: {}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{partial}",
        key.bearer()
    )
}

/// Connects and sends `text`, leaving the connection open.
fn open_and_send(server: SocketAddr, text: &str) -> TcpStream {
    let mut stream = TcpStream::connect(server).unwrap_or_else(|e| panic!("cannot connect: {e}"));
    stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap_or_else(|e| panic!("{e}"));
    stream.write_all(text.as_bytes()).unwrap_or_else(|e| panic!("cannot send: {e}"));
    stream
}

/// Everything the server sends until it closes the connection (or 5 s pass).
fn read_until_closed(mut stream: TcpStream) -> String {
    let mut received = Vec::new();
    let mut buffer = [0_u8; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => received.extend_from_slice(&buffer[..n]),
            Err(e) => panic!("the server neither answered nor closed: {e}; got {received:?}"),
        }
    }
    String::from_utf8_lossy(&received).into_owned()
}

#[tokio::test]
async fn a_body_that_stops_arriving_is_answered_408_within_the_body_timeout_and_stores_nothing() {
    let (app, keys) = spawn_app_with(&["guild"], |settings| settings.connections.body_timeout_ms = 400).await;
    let (server, request) = (socket_of(&app.address), stalled_post(&keys[0]));

    let started = Instant::now();
    let response = tokio::task::spawn_blocking(move || read_until_closed(open_and_send(server, &request)))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let waited = started.elapsed();

    assert!(response.starts_with("HTTP/1.1 408"), "{response}");
    assert!(response.contains("application/problem+json"), "{response}");
    assert!(response.contains("the request body did not arrive within 400 ms"), "{response}");
    assert!(response.to_ascii_lowercase().contains("connection: close"), "{response}");
    assert!(waited >= Duration::from_millis(400) && waited < Duration::from_secs(3), "{waited:?}");
    let listed = app.with_key(&keys[0]).get("/v1/encounters").await;
    assert_eq!(listed.body["total"], serde_json::json!(0), "nothing was stored");
}

#[tokio::test]
async fn one_address_cannot_hold_more_connections_than_its_cap() {
    let (mut app, keys) = spawn_app_with(&["guild"], |settings| {
        settings.connections.max_connections_per_peer = 3;
        settings.connections.body_timeout_ms = 30_000;
    })
    .await;
    // A fresh client: the old one's pooled keep-alive connection would hold one of the places.
    app.client = reqwest::Client::builder().no_proxy().build().unwrap_or_else(|e| panic!("{e}"));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let server = socket_of(&app.address);
    let health = "GET /healthz HTTP/1.1\r\nHost: skirmish\r\nConnection: close\r\n\r\n";
    let stalled: Vec<TcpStream> = (0..3).map(|_| open_and_send(server, &stalled_post(&keys[0]))).collect();
    tokio::time::sleep(Duration::from_millis(200)).await;

    let refused = tokio::task::spawn_blocking(move || read_until_closed(open_and_send(server, health)))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let unanswered = stalled.iter().all(|mut stream| {
        let quiet = stream.set_read_timeout(Some(Duration::from_millis(100)));
        quiet.is_ok() && stream.read(&mut [0_u8; 64]).is_err()
    });
    drop(stalled);
    let mut served = String::new();
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        served = tokio::task::spawn_blocking(move || read_until_closed(open_and_send(server, health)))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        if served.starts_with("HTTP/1.1 200") {
            break;
        }
    }

    assert!(unanswered, "the three stalled connections are held, waiting for their bodies");
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");
    assert!(refused.contains("urn:skirmish:problem:too-many-connections"), "{refused}");
    assert!(refused.contains("this address already holds 3 open connections"), "{refused}");
    assert!(served.starts_with("HTTP/1.1 200"), "places come back as connections close: {served}");
}
