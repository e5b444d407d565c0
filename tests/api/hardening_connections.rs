//! Hardening, round two (issue 30): connections that stop reading are dropped after the write
//! timeout and give their places back; past half the connection cap each address gets only its
//! fair share, so another address still gets in; a stream ends once its API key is revoked.
//! Raw sockets, bound to several loopback addresses (127.0.0.x), so the test controls who
//! connects from where and what is never read.

use crate::helpers::spawn_app_with;
use reqwest::Method;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;

fn socket_of(address: &str) -> SocketAddr {
    address.trim_start_matches("http://").parse().unwrap_or_else(|e| panic!("{address}: {e}"))
}

/// A blocking connection from 127.0.0.`from` (any port) to `server`.
async fn connect_from(from: u8, server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap_or_else(|e| panic!("{e}"));
    socket.set_recv_buffer_size(4096).unwrap_or_else(|e| panic!("{e}"));
    socket.bind(SocketAddr::from((Ipv4Addr::new(127, 0, 0, from), 0))).unwrap_or_else(|e| panic!("{e}"));
    let stream = socket.connect(server).await.unwrap_or_else(|e| panic!("cannot connect: {e}"));
    let stream = stream.into_std().unwrap_or_else(|e| panic!("{e}"));
    stream.set_nonblocking(false).unwrap_or_else(|e| panic!("{e}"));
    stream
}

/// The first bytes of the answer (at most `wait` for them); empty if none came.
fn first_bytes(stream: &mut TcpStream, wait: Duration) -> String {
    stream.set_read_timeout(Some(wait)).unwrap_or_else(|e| panic!("{e}"));
    let mut buffer = [0_u8; 2048];
    let read = stream.read(&mut buffer).unwrap_or(0);
    String::from_utf8_lossy(&buffer[..read]).into_owned()
}

async fn health_from(from: u8, server: SocketAddr) -> String {
    let mut stream = connect_from(from, server).await;
    let request = "GET /healthz HTTP/1.1\r\nHost: skirmish\r\nConnection: close\r\n\r\n";
    stream.write_all(request.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    tokio::task::spawn_blocking(move || first_bytes(&mut stream, Duration::from_secs(5)))
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Opens four connections from 127.0.0.`from` to `target` that send `pipelined` requests without
/// blocking (as much as the socket takes) and never read an answer; then asks `health` from the
/// same address until it answers 429 (the four hold the address's places) and then until it
/// answers 200 (the write timeout dropped them). The waits are bounded only so that a broken
/// server cannot hang the test; no assertion depends on how long anything took. On a loopback
/// where the four are sometimes not all held before the first of them is done with (seen about
/// one run in five, not understood yet), the four are opened again, up to four times, after
/// their places came back. Returns the two answers and the streams (kept open by the caller).
async fn held_then_released(
    from: u8,
    target: SocketAddr,
    health: SocketAddr,
    pipelined: &str,
) -> (String, String, Vec<TcpStream>) {
    let mut held = (String::new(), Vec::new());
    for _attempt in 0..4 {
        held = hold_four(from, target, health, pipelined).await;
        if held.0.starts_with("HTTP/1.1 429") {
            break;
        }
        drop(std::mem::take(&mut held.1));
        answered_200(from, health).await;
    }
    let (while_held, greedy) = held;
    let after = answered_200(from, health).await;
    (while_held, after, greedy)
}

/// The four unread connections, and `health`'s first 429 (or its last answer after 5 s).
async fn hold_four(
    from: u8,
    target: SocketAddr,
    health: SocketAddr,
    pipelined: &str,
) -> (String, Vec<TcpStream>) {
    let mut greedy = Vec::new();
    for _ in 0..4 {
        let mut stream = connect_from(from, target).await;
        stream.set_nonblocking(true).unwrap_or_else(|e| panic!("{e}"));
        let mut sent = 0;
        while sent < pipelined.len() {
            match stream.write(&pipelined.as_bytes()[sent..]) {
                Ok(0) | Err(_) => break,
                Ok(written) => sent += written,
            }
        }
        greedy.push(stream);
    }
    let until_refused = Instant::now();
    let mut while_held = String::new();
    while until_refused.elapsed() < Duration::from_secs(5) && !while_held.starts_with("HTTP/1.1 429") {
        while_held = health_from(from, health).await;
        if !while_held.starts_with("HTTP/1.1 429") {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    (while_held, greedy)
}

/// `health`'s answer once it is a 200 (or its last answer after 30 s).
async fn answered_200(from: u8, health: SocketAddr) -> String {
    let until_back = Instant::now();
    let mut after = String::new();
    while until_back.elapsed() < Duration::from_secs(30) && !after.starts_with("HTTP/1.1 200") {
        tokio::time::sleep(Duration::from_millis(100)).await;
        after = health_from(from, health).await;
    }
    after
}

#[tokio::test]
async fn connections_that_never_read_their_answers_are_dropped_after_the_write_timeout() {
    let (app, _) = spawn_app_with(&[], |settings| {
        settings.connections.max_connections_per_peer = 4;
        settings.connections.write_timeout_ms = 2_000;
    })
    .await;
    let server = socket_of(&app.address);
    let pipelined = "GET /openapi.json HTTP/1.1\r\nHost: skirmish\r\n\r\n".repeat(16);
    let (while_held, after, greedy) = held_then_released(2, server, server, &pipelined).await;

    assert!(
        while_held.starts_with("HTTP/1.1 429"),
        "the four unread connections hold the address's places: {while_held}"
    );
    assert!(after.starts_with("HTTP/1.1 200"), "their places came back after the write timeout: {after}");
    drop(greedy);
}

/// An authenticated-free POST announcing a 100-byte body and sending 14 bytes of it.
const STALLED: &str = "POST /v1/encounters HTTP/1.1\r\nHost: skirmish\r\nContent-Type: application/json\r\n\
    Content-Length: 100\r\n\r\n{\"ruleset\": \"a";

#[tokio::test]
async fn past_half_the_connection_cap_an_address_gets_its_fair_share_and_others_still_get_in() {
    let (app, _) = spawn_app_with(&[], |settings| {
        settings.connections.max_connections_per_peer = 64;
        settings.connections.max_connections = Some(8);
        settings.connections.body_timeout_ms = 30_000;
    })
    .await;
    let server = socket_of(&app.address);
    // The test client's pooled connection from 127.0.0.1 holds one place: the greedy address
    // is another one.
    let mut held = Vec::new();
    for _ in 0..6 {
        let mut stream = connect_from(3, server).await;
        stream.write_all(STALLED.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        held.push(stream);
    }
    let answers = tokio::task::spawn_blocking(move || {
        let answers: Vec<String> =
            held.iter_mut().map(|s| first_bytes(s, Duration::from_millis(300))).collect();
        (answers, held)
    });
    let (answers, held) = answers.await.unwrap_or_else(|e| panic!("{e}"));

    let other = health_from(4, server).await;

    let refused: Vec<&String> = answers.iter().filter(|a| a.starts_with("HTTP/1.1 429")).collect();
    assert!(answers[..3].iter().all(String::is_empty), "the first ones wait for their bodies: {answers:?}");
    assert!(!refused.is_empty(), "past half of 8, one address gets no more than its share: {answers:?}");
    assert!(refused.iter().all(|a| a.contains("its share")), "{refused:?}");
    assert!(other.starts_with("HTTP/1.1 200"), "another address still gets in: {other}");
    drop(held);
}

#[tokio::test]
async fn a_stream_ends_within_seconds_of_its_api_key_being_revoked_and_another_keys_goes_on() {
    let (app, keys) = spawn_app_with(&["guild", "guild"], |_| {}).await;
    let (revoked, kept) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let encounter = kept.create_encounter_id("lur-asko", "Revoked").await;
    let path = format!("/v1/encounters/{encounter}/stream");
    let open = |key: &crate::helpers::AsKey<'_>| key.request(Method::GET, &path).send();
    let mut doomed = open(&revoked).await.unwrap_or_else(|e| panic!("{e}"));
    let mut going_on = open(&kept).await.unwrap_or_else(|e| panic!("{e}"));
    let first = tokio::time::timeout(Duration::from_secs(5), doomed.chunk()).await;
    assert!(matches!(first, Ok(Ok(Some(_)))), "the log's first event: {first:?}");

    app.store().revoke_key(&keys[0].id).unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    let mut ended = false;
    // The revocation reaches open streams as a store notice; the bound only keeps a broken
    // server from hanging the test on a loaded machine.
    while !ended && started.elapsed() < Duration::from_secs(10) {
        match tokio::time::timeout(Duration::from_secs(10), doomed.chunk()).await {
            Ok(Ok(Some(_))) => {}
            Ok(Ok(None)) | Ok(Err(_)) => ended = true,
            Err(_) => break,
        }
    }
    let took = started.elapsed();
    kept.add_combatant(&encounter, "Late", "crowd", serde_json::json!({})).await;
    let mut seen = String::new();
    while !seen.contains("Late") {
        let chunk = tokio::time::timeout(Duration::from_secs(5), going_on.chunk()).await;
        let chunk = chunk.unwrap_or_else(|_| panic!("the other key's stream stopped: {seen}"));
        let chunk = chunk.unwrap_or_else(|e| panic!("{e}")).unwrap_or_else(|| panic!("ended: {seen}"));
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }

    assert!(ended, "the revoked key's stream is still open after {took:?}");
}

#[tokio::test]
async fn the_metrics_listener_is_held_to_the_same_caps_and_write_timeout_as_the_main_one() {
    let (_dir, db_path) = crate::helpers::temp_db();
    let mut settings = crate::helpers::loopback_settings(&db_path);
    settings.metrics.metrics_bind = Some("127.0.0.1:0".into());
    settings.connections.max_connections_per_peer = 4;
    settings.connections.write_timeout_ms = 2_000;
    // Thousands of pipelined requests from one address would meet the rate limit, whose 429s end
    // their connections; the caps, not the limit, are what this test holds them to.
    settings.rate_limit.rate_limit_per_minute = 0;
    let app = skirmish_api::Application::build(&settings).unwrap_or_else(|e| panic!("{e}"));
    let main = SocketAddr::from(([127, 0, 0, 1], app.port()));
    let metrics = app.metrics_address().unwrap_or_else(|| panic!("no metrics listener"));
    let (server, metrics_server) = app.into_servers();
    let metrics_server = metrics_server.unwrap_or_else(|| panic!("no metrics listener"));
    let handles = [server.handle(), metrics_server.handle()];
    tokio::spawn(server);
    tokio::spawn(metrics_server);
    let pipelined = "GET /metrics HTTP/1.1\r\nHost: skirmish\r\n\r\n".repeat(4000);
    let (while_held, after, greedy) = held_then_released(5, metrics, main, &pipelined).await;

    assert!(
        while_held.starts_with("HTTP/1.1 429"),
        "four unread connections to the metrics listener hold the address's places: {while_held}"
    );
    assert!(after.starts_with("HTTP/1.1 200"), "their places came back after the write timeout: {after}");
    drop(greedy);
    for handle in handles {
        handle.stop(true).await;
    }
}
