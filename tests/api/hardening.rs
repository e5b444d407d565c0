//! Hardening, round two (issue 30), over HTTP: one path for routing, authentication and the log;
//! every `Content-Encoding` header read; whole-number floats read exactly; webhook destinations
//! that carry a private address refused; a receiver's answer body read with a cap; deliveries
//! from a process with no CA store. Items needing the real binary (its log, its environment)
//! start it as a child process.

use crate::binary::Binary;
use crate::helpers::{cepheus, spawn_app, spawn_app_with, spawn_app_with_keys, text};
use crate::webhook_receiver::{Receiver, plain};
use reqwest::Method;
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_percent_encoded_v1_path_is_authenticated_like_the_plain_one() {
    let (app, keys) = spawn_app_with_keys(&["guild"]).await;
    let cases = [
        (Method::POST, "/%76%31/dice/roll", Some(json!({"expression": "1d6"}))),
        (Method::POST, "/%76%31/encounters", Some(json!({"ruleset": "arrgs", "name": "x"}))),
        (Method::GET, "/%76%31/webhooks", None),
        (Method::GET, "/%76%31/rulesets", None),
        (Method::GET, "/v1/%65ncounters", None),
        (Method::GET, "/%2576%31/encounters", None),
    ];

    for (method, path, body) in &cases {
        let reply = app.send(method.clone(), path, body.as_ref(), &[]).await;
        let expected = if path.contains("%25") { 404 } else { 401 };
        reply.assert_problem(expected, None, &format!("{method} {path} without a key"));
    }
    let keyed = app.with_key(&keys[0]);
    let listed = keyed.get("/%76%31/encounters").await.expect_status(200, "the decoded route with a key");
    assert_eq!(listed.body["total"], json!(0));
}

#[tokio::test]
async fn every_content_encoding_header_is_read_not_only_the_first() {
    let app = spawn_app().await;
    let body = json!({"ruleset": "arrgs", "name": "Zipped"}).to_string();
    let request = app
        .request(Method::POST, "/v1/encounters")
        .header("Content-Type", "application/json")
        .header("Content-Encoding", "identity")
        .header("Content-Encoding", "gzip")
        .body(body.clone());

    let reply = crate::helpers::Reply::read(request.send().await.unwrap_or_else(|e| panic!("{e}"))).await;

    reply.assert_problem(415, Some("Content-Encoding"), "identity then gzip");
    assert_eq!(app.get("/v1/encounters").await.body["total"], json!(0), "nothing stored");
}

#[tokio::test]
async fn a_whole_number_seed_written_as_a_float_is_read_exactly() {
    let app = spawn_app().await;
    for seed in ["4423907432279534", "9007199254740991"] {
        let roll = |seed_text: String| {
            let body = format!(r#"{{"expression": "3d20", "seed": {seed_text}}}"#).into_bytes();
            app.send_raw(Method::POST, "/v1/dice/roll", Some("application/json"), body)
        };

        let as_float = roll(format!("{seed}.0")).await.expect_status(200, "the seed as a whole float");
        let as_integer = roll(seed.to_owned()).await.expect_status(200, "the seed as an integer");

        assert_eq!(as_float.body["seed"].to_string(), seed, "the seed used is the one sent");
        assert_eq!(as_float.body["dice"], as_integer.body["dice"], "the same roll for {seed}");
    }
}

#[tokio::test]
async fn webhook_urls_whose_address_carries_or_is_a_non_public_one_are_refused() {
    let app = spawn_app().await;
    let refused = [
        "http://[64:ff9b::7f00:1]/hook",
        "http://[64:ff9b::a9fe:a9fe]/hook",
        "http://[::127.0.0.1]/hook",
        "http://[::a00:1]/hook",
        "http://[2002:7f00:1::1]/hook",
        "http://[2002:c0a8:101::1]/hook",
        "http://[fec0::1]/hook",
        "http://192.0.0.170/hook",
        "http://198.18.0.1/hook",
        "http://198.19.7.7/hook",
        "http://240.0.0.1/hook",
    ];

    for url in refused {
        let reply = app.post_json("/v1/webhooks", &json!({"url": url})).await;
        reply.assert_problem(422, Some("url"), url);
    }
    let public = app.post_json("/v1/webhooks", &json!({"url": "http://[64:ff9b::808:808]/hook"})).await;
    public.expect_status(201, "NAT64 of a public address (what DNS64 gives an IPv6-only host)");
}

/// A receiver that answers its first request 429 and then a body of `body_bytes` (chunked),
/// then holds the connection open. Reports how many body bytes it wrote before the server
/// closed the connection (`None`: it wrote them all, the server read on).
fn endless_429_receiver(body_bytes: usize) -> (String, std::sync::mpsc::Receiver<(Option<usize>, Duration)>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
    let url = format!("http://{}/hook", listener.local_addr().unwrap_or_else(|e| panic!("{e}")));
    let (report, reports) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else { return };
        let mut reader = BufReader::new(stream.try_clone().unwrap_or_else(|e| panic!("{e}")));
        let mut length = 0;
        let mut line = String::new();
        while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
            if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = value.trim().parse().unwrap_or(0);
            }
            line.clear();
        }
        let _ = reader.read_exact(&mut vec![0; length]);
        let head =
            "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3600\r\nTransfer-Encoding: chunked\r\n\r\n";
        let started = Instant::now();
        let chunk = format!("{:x}\r\n{}\r\n", 64 * 1024, "x".repeat(64 * 1024));
        let mut sent = 0;
        let mut closed = stream.write_all(head.as_bytes()).is_err();
        while !closed && sent < body_bytes {
            closed = stream.write_all(chunk.as_bytes()).is_err();
            sent += 64 * 1024;
        }
        let _ = report.send((closed.then_some(sent), started.elapsed()));
        std::thread::sleep(Duration::from_secs(30));
    });
    (url, reports)
}

#[tokio::test]
async fn a_receivers_huge_429_body_is_read_only_up_to_the_cap() {
    let (app, _) = spawn_app_with(&[], |settings| {
        settings.webhooks.webhooks_allow_private = true;
        settings.webhooks.webhooks_timeout_ms = 60_000;
    })
    .await;
    let (url, reports) = endless_429_receiver(256 << 20);
    app.post_json("/v1/webhooks", &json!({"url": url})).await.expect_status(201, "subscribe");

    app.create_encounter_id("arrgs", "Flooded").await;
    let report = tokio::task::spawn_blocking(move || reports.recv_timeout(Duration::from_secs(90))).await;
    let (closed_after, took) = report.unwrap_or_else(|e| panic!("{e}")).unwrap_or_else(|e| panic!("{e}"));

    let sent = closed_after.unwrap_or_else(|| panic!("the server read all 256 MiB of the body ({took:?})"));
    assert!(sent < 64 << 20, "the server stopped reading early, but only after {sent} bytes");
    // Half the delivery timeout: far from it even on a loaded machine, yet a server that read
    // to the timeout would fail.
    assert!(took < Duration::from_secs(30), "closed at once, not at the timeout: {took:?}");
}

#[tokio::test]
async fn a_viewer_token_in_a_percent_encoded_view_path_never_reaches_the_log() {
    let server = Binary::start(&[]).await;
    let (_, encounter) =
        server.send(Method::POST, "/v1/encounters", Some(json!({"ruleset": "arrgs", "name": "Log"}))).await;
    let path = format!("/v1/encounters/{}/viewers", text(&encounter["id"]));
    let (_, link) = server.send(Method::POST, &path, Some(json!({}))).await;
    let token = text(&link["token"]);
    let secret = token.trim_start_matches("vwr_");

    let (page, _) = server.send(Method::GET, &format!("/%76iew/{token}"), None).await;
    let (read, _) = server.send(Method::GET, &format!("/%76iew/{token}/encounter"), None).await;
    let (other, _) = server.send(Method::GET, &format!("/view%2F{token}?again={token}"), None).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let log = server.log();

    assert_eq!((page, read, other), (200, 200, 404), "the decoded paths are the view routes");
    assert!(!log.contains(secret), "the token is in the log:\n{log}");
    assert!(log.contains("GET /view/vwr_…/encounter"), "{log}");
}

#[tokio::test]
async fn webhooks_are_delivered_by_a_process_that_finds_no_ca_store() {
    let receiver = Receiver::start(|_, _| plain(204, ""));
    let empty = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let no_certs = empty.path().join("none.pem");
    std::fs::write(&no_certs, "").unwrap_or_else(|e| panic!("{e}"));
    let env = [
        ("SSL_CERT_FILE", no_certs.display().to_string()),
        ("SSL_CERT_DIR", empty.path().display().to_string()),
        ("SKIRMISH_WEBHOOKS_ALLOW_PRIVATE", "true".to_owned()),
    ];
    let server = Binary::start(&env).await;
    server.send(Method::POST, "/v1/webhooks", Some(json!({"url": receiver.url}))).await;

    let created = json!({"ruleset": "cepheus-engine", "name": "Boxed"});
    let (_, encounter) = server.send(Method::POST, "/v1/encounters", Some(created)).await;
    let add = json!({"name": "Ash", "side": "crew", "stats": cepheus(7)});
    server
        .send(Method::POST, &format!("/v1/encounters/{}/combatants", text(&encounter["id"])), Some(add))
        .await;
    let received = receiver.wait_until(Duration::from_secs(15), "a delivery", |r| !r.is_empty()).await;

    assert_eq!(received[0].answered, 204, "{}", server.log());
}
